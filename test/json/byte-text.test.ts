import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { ByteText } from '../../src/json/byte-text.ts';

describe('ByteText', () => {
    test('byte ranges, UTF-8 strings and hex, in order, in one buffer of the exact size', () => {
        const stored = Buffer.from('{"a":1,\u0000"b":"ü"}', 'utf8');
        const bytes = Buffer.from([0x00, 0x0f, 0xa5, 0xff, 0x10]);
        const text = new ByteText()
            .string('[')
            .bytes(stored, 0, 7)
            .string('"név":"✓ 𝄞",')
            .bytes(stored, 8)
            .string(',"raw":"').hex(bytes).string('"')
            .bytes(stored, 3, 3)
            .string('')
            .hex(Buffer.alloc(0))
            .string(']');
        const expected = `[{"a":1,"név":"✓ 𝄞","b":"ü"},"raw":"${bytes.toString('hex')}"]`;
        assert.equal(text.length, Buffer.byteLength(expected));
        const out = text.toBuffer();
        assert.equal(out.length, Buffer.byteLength(expected));
        assert.equal(out.toString('utf8'), expected);
    });

    test('hex of every byte value', () => {
        const all = Buffer.from(Array.from({ length: 256 }, (_, i) => i));
        assert.equal(new ByteText().hex(all).toBuffer().toString('latin1'), all.toString('hex'));
    });

    test('nothing appended is an empty buffer', () => {
        assert.equal(new ByteText().toBuffer().length, 0);
    });
});
