import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { HOLE_MARK, MemberHole, RawJson, oneByteString, toJson, toJsonBody, toJsonBytes, toJsonTemplate } from '../../src/json/json.ts';
import { stringRepresentation } from '../helpers/string-representation.ts';

describe('toJson', () => {
    it('writes bigints as exact JSON integers', () => {
        const text = toJson({ lt: 2n ** 64n + 1n, fee: -5n, list: [2n ** 53n + 1n] });
        assert.equal(text, '{"lt":18446744073709551617,"fee":-5,"list":[9007199254740993]}');
    });

    it('agrees with JSON.stringify on values without bigints or buffers', () => {
        const value = {
            text: 'quote " backslash \\ newline \n separator \u2028 é',
            numbers: [0, -1.5, 1e21, Number.NaN, Number.POSITIVE_INFINITY],
            flags: [true, false, null],
            nested: { empty: {}, none: [], deep: [{ a: [{ b: 'c' }] }] },
            'key "quoted"': 1,
            2: 'integer-like keys come first',
        };
        assert.equal(toJson(value), JSON.stringify(value));
        // Member names are kept quoted between calls: a second call writes the same text.
        assert.equal(toJson(value), JSON.stringify(value));
    });

    it('escapes every string as JSON.stringify does: control characters, quotes, emoji pairs and lone surrogates', () => {
        const strings = ['', 'plain ascii', 'tab\there', '\u0000\u0001\u001f', 'a"b\\c', 'emoji 😀 pair', 'lone \ud800 high', 'lone \udfff low',
            '\u007f del', '\u2029', 'ünïcode', `${'x'.repeat(300)}"`];
        for (const text of strings) assert.equal(toJson({ text, list: [text] }), JSON.stringify({ text, list: [text] }), JSON.stringify(text));
    });

    it('writes own members only, in the order the object lists them', () => {
        const proto = { inherited: 1 };
        const value = Object.assign(Object.create(proto) as Record<string, unknown>, { b: 1, a: 2 });
        assert.equal(toJson(value), JSON.stringify(value));
    });

    it('leaves out undefined and function members, and writes undefined array items as null', () => {
        assert.equal(toJson({ a: undefined, b: () => 1, c: 1 }), '{"c":1}');
        assert.equal(toJson({ a: undefined }), '{}');
        assert.equal(toJson([undefined, 1, undefined]), '[null,1,null]');
        assert.equal(toJson(undefined), 'null');
    });

    it('writes buffers as hex strings', () => {
        assert.equal(toJson({ raw: Buffer.from([0x00, 0xab, 0x10]), empty: Buffer.alloc(0) }), '{"raw":"00ab10","empty":""}');
    });

    it('writes stored JSON text as it is, with integers past 2^53 unrounded', () => {
        const stored = '{"sum_type":"JettonNotify","value":{"query_id":18446744073709551615,"text":"a \\"quoted\\" word"}}';
        assert.equal(toJson({ payload: new RawJson(stored), after: 1 }), `{"payload":${stored},"after":1}`);
        assert.equal(toJson([new RawJson('"b5ee9c72"')]), '["b5ee9c72"]');
    });

    it('writes JSON kept as UTF-8 bytes as it is, between text written around it', () => {
        const kept = Buffer.from('{"comment":"gram → «native»","lt":18446744073709551615}', 'utf8');
        const value = { transactions: [new RawJson(kept), new RawJson(kept)], note: 'ünïcode', n: 2n ** 70n };
        const expected = `{"transactions":[${kept.toString('utf8')},${kept.toString('utf8')}],"note":"ünïcode","n":${2n ** 70n}}`;
        assert.equal(toJson(value), expected);
        const body = toJsonBody(value);
        assert.ok(Buffer.isBuffer(body));
        assert.equal(body.toString('utf8'), expected);
        assert.deepEqual(JSON.parse(body.toString('utf8')).note, 'ünïcode');
        // Kept for reuse, as bytes whether or not it holds byte texts.
        assert.equal(toJsonBytes(value).toString('utf8'), expected);
        assert.deepEqual(toJsonBytes({ note: 'ünïcode' }), Buffer.from('{"note":"ünïcode"}', 'utf8'));
    });
});

describe('one-byte texts', () => {
    it('writes member names as one-byte text when the name was first made from a two-byte string', () => {
        // Cut out of a two-byte text, as the OpenAPI document's parse left "verification" and "score":
        // the name is interned two-byte, and so is every later use of it, literals included.
        const name = '\u2014zq_member'.slice(1);
        const record = { [name]: 'value' };
        assert.equal(stringRepresentation(Object.keys(record)[0]), 'two-byte', 'the test needs a two-byte member name');
        assert.equal(stringRepresentation(toJson(record)), 'one-byte');
        assert.equal(toJson(record), '{"zq_member":"value"}');
    });

    it('copies a two-byte text whose characters fit a byte into a one-byte one, and leaves others as they are', () => {
        const cut = '\u2014caf\u00e9'.slice(1);
        assert.equal(stringRepresentation(cut), 'two-byte');
        assert.equal(stringRepresentation(oneByteString(cut)), 'one-byte');
        assert.equal(oneByteString(cut), 'caf\u00e9');
        assert.equal(oneByteString('\u2014 stays'), '\u2014 stays');
    });
});

describe('toJsonBody', () => {
    it('gives small answers as text and large ones as their UTF-8 bytes, with the same JSON', () => {
        assert.equal(toJsonBody({ error: 'bad' }), '{"error":"bad"}');
        const large = { items: Array.from({ length: 2000 }, (_, i) => ({ i: BigInt(i), name: `näme ${i}` })) };
        const body = toJsonBody(large);
        assert.ok(Buffer.isBuffer(body));
        assert.equal(body.toString('utf8'), toJson(large));
    });
});

describe('toJsonBytes and toJsonTemplate (written as bytes)', () => {
    const strings = ['', 'plain', 'tab\there', '\u0000\u001f', 'a"b\\c', 'emoji 😀 pair', 'lone \ud800 high', 'lone \udfff low', '\u2028', 'ünïcode ж 中', `${'x'.repeat(300)}"`];
    const value = {
        lt: 2n ** 64n + 1n,
        fee: -5n,
        numbers: [0, -1.5, 1e21, Number.NaN],
        flags: [true, false, null, undefined],
        strings,
        short: Buffer.from([0x00, 0xab, 0x10]),
        long: Buffer.alloc(200, 0xcd),
        raw: [new RawJson('{"q":18446744073709551615}'), new RawJson(Buffer.from('{"comment":"gram → «native»"}', 'utf8')), new RawJson(Buffer.from(`"${'b'.repeat(100)}"`))],
        skipped: undefined,
        'näme "quoted"': { nested: [{ deep: [] }], empty: {} },
    };

    it('writes the UTF-8 bytes of the text toJson writes', () => {
        assert.deepEqual(toJsonBytes(value), Buffer.from(toJson(value), 'utf8'));
        for (const text of strings) assert.deepEqual(toJsonBytes({ text }), Buffer.from(JSON.stringify({ text }), 'utf8'), JSON.stringify(text));
    });

    it('gives every text a buffer of its own, past the size of the buffer it writes in and after it', () => {
        const large = { items: Array.from({ length: 5000 }, (_, i) => ({ i: BigInt(i), name: `näme ${i}`, raw: Buffer.from([i & 255]) })) };
        const first = toJsonBytes({ a: 1 });
        const big = toJsonBytes(large);
        const after = toJsonBytes({ b: 'ü' });
        assert.ok(big.length > 128 * 1024);
        assert.deepEqual(big, Buffer.from(toJson(large), 'utf8'));
        assert.equal(first.toString('utf8'), '{"a":1}');
        assert.equal(after.toString('utf8'), '{"b":"ü"}');
    });

    it('marks each hole of a template with one NUL byte and lists the holes in order', () => {
        const { text, holes } = toJsonTemplate({ lt: 5n, is_wallet: new MemberHole(['w', '0:ab']), name: 'é', list: [{ a: 1, raw: new MemberHole(['r']) }] });
        assert.deepEqual(holes, [['w', '0:ab'], ['r']]);
        assert.equal(text.filter(byte => byte === HOLE_MARK).length, 2);
        assert.equal(text.toString('utf8').replaceAll('\u0000', ''), '{"lt":5,"name":"é","list":[{"a":1}]}');
        assert.equal(text.indexOf(HOLE_MARK), Buffer.byteLength('{"lt":5'));
    });

    it('refuses a hole outside a template or as an object\'s first member', () => {
        assert.throws(() => toJsonBytes({ a: 1, b: new MemberHole(['r']) }), /is a hole/);
        assert.throws(() => toJsonTemplate({ first: new MemberHole(['r']) }), /is a hole/);
        // The writer is usable after a failed text.
        assert.equal(toJsonBytes({ ok: true }).toString('utf8'), '{"ok":true}');
    });
});
