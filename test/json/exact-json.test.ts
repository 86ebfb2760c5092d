import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { describe, it } from 'node:test';
import { JsonSyntaxError, parseExactJson } from '../../src/json/exact-json.ts';

describe('parseExactJson', () => {
    it('keeps integers past 2^53 exact wherever they stand', () => {
        assert.deepEqual(parseExactJson('{"lt":18446744073709551617,"list":[9007199254740993,-9007199254740993],"small":9007199254740991}'),
            { lt: 2n ** 64n + 1n, list: [2n ** 53n + 1n, -(2n ** 53n + 1n)], small: 9007199254740991 });
        assert.equal(parseExactJson('1234567890123456789'), 1234567890123456789n);
        assert.deepEqual(parseExactJson('[ 1234567890123456789 ]'), [1234567890123456789n]);
        assert.deepEqual(parseExactJson('{"a":\n\t12345678901234567890}'), { a: 12345678901234567890n });
        // 16 digits that stay within 2^53, and numbers that are not integers, stay numbers.
        assert.deepEqual(parseExactJson('[1000000000000000, 1.5, 12345678901234567.5, 1e20]'), [1000000000000000, 1.5, 12345678901234567.5, 1e20]);
    });

    it('reads strings of digits as strings, escaped quotes included', () => {
        const keys = Array.from({ length: 200 }, () => randomBytes(32).toString('hex'));
        keys.push('1234567890123456789012345678901234567890', 'quote \\" then 12345678901234567890', 'ends in a backslash \\');
        assert.deepEqual(parseExactJson(JSON.stringify({ public_keys: keys })), { public_keys: keys });
        assert.deepEqual(parseExactJson('{"a":"x\\\\","b":12345678901234567890}'), { a: 'x\\', b: 12345678901234567890n });
        assert.deepEqual(parseExactJson('{"a":"x\\"12345678901234567890"}'), { a: 'x"12345678901234567890' });
    });

    it('drops a __proto__ member however it is spelled, and the objects keep their prototype', () => {
        for (const text of ['{"__proto__":{"polluted":1},"a":1}', '{"\\u005f_proto__":{"polluted":1},"a":1}', '{"a":1,"__proto__":[]}']) {
            const value = parseExactJson(text) as Record<string, unknown>;
            assert.deepEqual(Object.keys(value), ['a'], text);
            assert.equal(Object.getPrototypeOf(value), Object.prototype);
            assert.equal(Object.assign({}, value).polluted, undefined);
        }
        assert.equal(({} as Record<string, unknown>).polluted, undefined);
    });

    it('gives the values JSON.parse gives to texts without large integers', () => {
        for (const text of ['{}', '[]', ' {"a" : [true, false, null, "é\\n", -0.5e-3, {"b": {}}]} ', '"\\u00e9"', '0', '-7', '{"a":1,"a":2}']) {
            assert.deepEqual(parseExactJson(text), JSON.parse(text), text);
        }
    });

    it('refuses what is not JSON with a position to look at', () => {
        for (const [text, message] of [
            ['{"a":1,}', /expected a member name at position 7/],
            ['[1 2]', /expected ',' or '\]' at position 4/],
            ['{"a":"unterminated}', /unterminated string/],
            ['{"a":12345678901234567890', /expected ',' or '}'/],
            ['{"a":1} x', /unexpected text after the JSON value/],
            ['tru', /unexpected character/],
        ] as const) {
            assert.throws(() => parseExactJson(text), (error: unknown) => error instanceof JsonSyntaxError && message.test(error.message), text);
        }
    });
});
