import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { beginCell, Dictionary, type Builder } from '@ton/core';
import { AugmentedDict, type AugmentedDictType } from '../../src/ton/dict/augmented-dict.ts';
import { seededRandom } from '../helpers/seeded-random.ts';

const rng = seededRandom(0xa0d1c7);

/** With an empty extra an augmented dictionary is laid out as a plain one, which @ton/core writes independently. */
const plain = (keyBits: number): AugmentedDictType<bigint, null> => ({
    keyBits,
    extraOf: () => null,
    add: () => null,
    empty: null,
    storeExtra: () => undefined,
    storeValue: (value: bigint, builder: Builder) => builder.storeUint(value, 32),
});

const summed: AugmentedDictType<bigint, bigint> = {
    keyBits: 64,
    extraOf: value => value,
    add: (a, b) => a + b,
    empty: 0n,
    storeExtra: (extra, builder) => builder.storeCoins(extra),
    storeValue: (value, builder) => builder.storeUint(value, 32),
};

function reference(entries: Map<bigint, bigint>, keyBits: number) {
    const dict = Dictionary.empty(Dictionary.Keys.BigUint(keyBits), Dictionary.Values.BigUint(32));
    for (const [k, v] of entries) dict.set(k, v);
    return beginCell().storeDictDirect(dict).endCell();
}

const randomKey = (bits: number) => BigInt(`0x${rng.bytes(bits / 8).toString('hex')}`);

describe(`augmented dictionary (seed ${rng.seed}; TEST_SEED replays another)`, () => {
    for (const keyBits of [8, 32, 256]) {
        test(`${keyBits}-bit keys: after inserts, updates and deletes its root is the cell @ton/core builds for the same entries`, () => {
            const dict = new AugmentedDict(plain(keyBits));
            const entries = new Map<bigint, bigint>();
            for (let round = 0; round < 6; round++) {
                for (let i = 0; i < 40; i++) {
                    const key = keyBits === 8 ? BigInt(Math.floor(rng.next() * 256)) : randomKey(keyBits);
                    const value = BigInt(Math.floor(rng.next() * 2 ** 32));
                    dict.set(key, value);
                    entries.set(key, value);
                }
                const keys = [...entries.keys()];
                for (let i = 0; i < 10; i++) {
                    const key = keys[Math.floor(rng.next() * keys.length)];
                    assert.equal(dict.delete(key), entries.delete(key));
                }
                const absent = [...Array(256).keys()].map(BigInt).find(k => !entries.has(k))!;
                assert.equal(dict.delete(absent), false);
                assert.equal(dict.get(absent), undefined);
                assert.equal(dict.size, entries.size);
                assert.equal(dict.rootCell()!.hash().toString('hex'), reference(entries, keyBits).hash().toString('hex'));
                for (const [k, v] of entries) assert.equal(dict.get(k), v);
            }
        });
    }

    test('fork extras are the sums of their children, and the root extra the sum of all', () => {
        const dict = new AugmentedDict(summed);
        let total = 0n;
        for (let i = 1n; i <= 100n; i++) {
            dict.set(i * 7919n, i);
            total += i;
        }
        dict.set(7919n, 1000n); // replaces 1
        total += 999n;
        assert.equal(dict.extra(), total);
        const top = dict.rootCell()!.beginParse();
        // root label then fork: two refs and the extra
        const withE = beginCell();
        dict.storeAugE(withE);
        const e = withE.endCell().beginParse();
        assert.equal(e.loadBit(), true);
        e.loadRef();
        assert.equal(e.loadCoins(), total);
        assert.ok(top.remainingRefs === 2);
    });

    test('an emptied dictionary stores as ahme_empty with the empty extra', () => {
        const dict = new AugmentedDict(summed);
        dict.set(5n, 5n);
        dict.delete(5n);
        const b = beginCell();
        dict.storeAugE(b);
        const s = b.endCell().beginParse();
        assert.equal(s.loadBit(), false);
        assert.equal(s.loadCoins(), 0n);
        assert.equal(dict.rootCell(), null);
    });
});
