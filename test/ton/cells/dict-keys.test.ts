import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Dictionary, beginCell } from '@ton/core';
import { DictKeys } from '../../../src/ton/cells/dict-keys.ts';
import { mulberry32 } from '../../helpers/ingest-checks.ts';

const random = mulberry32(1207);
const randomBits = (bits: number) => {
    let value = 0n;
    for (let i = 0; i < bits; i++) value = (value << 1n) | (random() < 0.5 ? 1n : 0n);
    return value;
};

test('our dictionary keys serialize and parse as @ton/core\'s do, on random and edge keys', () => {
    for (const bits of [1, 8, 15, 32, 64, 256]) {
        const raws = [0n, (1n << BigInt(bits)) - 1n, 1n << BigInt(bits - 1), ...Array.from({ length: 40 }, () => randomBits(bits))];
        const bigUint = [Dictionary.Keys.BigUint(bits), DictKeys.BigUint(bits)] as const;
        for (const raw of raws) {
            assert.equal(bigUint[1].parse(raw), bigUint[0].parse(raw));
            assert.equal(bigUint[1].serialize(raw), bigUint[0].serialize(raw));
            if (bits <= 48) {
                for (const [core, ours] of [[Dictionary.Keys.Uint(bits), DictKeys.Uint(bits)], [Dictionary.Keys.Int(bits), DictKeys.Int(bits)]] as const) {
                    const value = core.parse(raw);
                    assert.equal(ours.parse(raw), value);
                    assert.equal(ours.serialize(value), core.serialize(value));
                }
            }
            if (bits % 8 === 0) {
                const core = Dictionary.Keys.Buffer(bits / 8);
                const ours = DictKeys.Buffer(bits / 8);
                const value = core.parse(raw);
                assert.deepEqual(ours.parse(raw), value);
                assert.equal(ours.serialize(value), core.serialize(value));
            }
        }
        assert.throws(() => DictKeys.BigUint(bits).serialize(1n << BigInt(bits)), /out of range/);
        assert.throws(() => DictKeys.BigUint(bits).serialize(-1n), /negative/);
        if (bits <= 48) assert.throws(() => DictKeys.Int(bits).serialize(Number(1n << BigInt(bits - 1))), /out of range/);
    }
    assert.throws(() => DictKeys.Uint(8).serialize(1.5), /safe integer/);
    assert.throws(() => DictKeys.Buffer(4).serialize(Buffer.alloc(3)), /3 bytes, not 4/);
});

test('a dictionary written with our keys is the same cell as one written with @ton/core\'s, and reads back alike', () => {
    const entries: Array<[bigint, number]> = Array.from({ length: 50 }, (_, i) => [randomBits(64), i]);
    const cellWith = (key: Parameters<typeof Dictionary.empty<bigint, number>>[0]) => {
        const dict = Dictionary.empty(key, Dictionary.Values.Uint(16));
        for (const [k, v] of entries) dict.set(k, v);
        return beginCell().storeDict(dict).endCell();
    };
    const ours = cellWith(DictKeys.BigUint(64));
    assert.ok(ours.equals(cellWith(Dictionary.Keys.BigUint(64))));
    const read = ours.beginParse().loadDict(DictKeys.BigUint(64), Dictionary.Values.Uint(16));
    assert.deepEqual([...read].sort((a, b) => (a[0] < b[0] ? -1 : 1)), [...entries].sort((a, b) => (a[0] < b[0] ? -1 : 1)));
});
