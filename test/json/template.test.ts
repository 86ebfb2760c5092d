import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { MemberHole, toJsonTemplate } from '../../src/json/json.ts';
import { holeMarks, readTemplateHoles, storeTemplate, templateVersion } from '../../src/json/template.ts';

describe('templates: texts with holes in their stored form', () => {
    const { text, holes } = toJsonTemplate({ a: 'NUL \u0000 in a string is escaped', b: new MemberHole(['w', 'x']), c: [1, { z: 0, d: new MemberHole(['j']) }], e: 'é' });

    test('a NUL mark for each hole, found in the bytes and in their Latin-1 string alike; a count that does not match finds none', () => {
        assert.deepEqual(holes, [['w', 'x'], ['j']]);
        const marks = holeMarks(text, 2);
        assert.equal(marks?.length, 2);
        assert.deepEqual(marks!.map(at => text[at]), [0, 0]);
        assert.deepEqual(holeMarks(text.toString('latin1'), 2), marks);
        assert.equal(holeMarks(text, 1), null, 'more marks than holes');
        assert.equal(holeMarks(text, 3), null, 'fewer marks than holes');
        assert.deepEqual(holeMarks(Buffer.from('{}'), 0), []);
    });

    test('stored with its version leading the holes; the version read without parsing them', () => {
        const stored = storeTemplate(7, text, holes);
        assert.equal(stored.text, text);
        assert.equal(stored.holes, '[7,["w","x"],["j"]]');
        assert.deepEqual(readTemplateHoles(stored.holes), { version: 7, holes });
        assert.equal(templateVersion(stored.holes), 7);
        assert.equal(templateVersion(storeTemplate(12, Buffer.alloc(0), []).holes), 12);
        assert.ok(Number.isNaN(templateVersion('["w"]')));
    });
});
