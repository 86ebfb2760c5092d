import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import type { Builder, Cell } from '@ton/core';
import '../../src/ton/fast-hash.ts';
import { AugmentedDict, type AugmentedDictType } from '../../src/ton/dict/augmented-dict.ts';
import { isUnloaded } from '../../src/ton/cells/lazy-cell.ts';
import { CellCensus, merkleUpdate } from '../../src/ton/cells/merkle-update.ts';

const summed: AugmentedDictType<bigint, bigint> = {
    keyBits: 256,
    extraOf: value => value,
    add: (a, b) => a + b,
    empty: 0n,
    storeExtra: (extra, builder: Builder) => builder.storeCoins(extra),
    storeValue: (value, builder: Builder) => builder.storeUint(value, 32),
};

const randomKey = () => BigInt(`0x${randomBytes(32).toString('hex')}`);

/** The entries as last set, the store evicted subtrees come back from; counts what it was asked for. */
function backedDict(onLoaded?: (cell: Cell) => void) {
    const entries = new Map<bigint, bigint>();
    const loads: Cell[] = [];
    const reads = { regions: 0 };
    const dict = new AugmentedDict(summed, {
        entries: (prefix, bits) => {
            reads.regions++;
            return [...entries].filter(([k]) => bits === 0 || (k ^ prefix) >> BigInt(256 - bits) === 0n);
        },
        loaded: cell => {
            loads.push(cell);
            onLoaded?.(cell);
        },
    });
    const fresh = () => {
        const reference = new AugmentedDict(summed);
        for (const [k, v] of entries) reference.set(k, v);
        return reference;
    };
    /** Sets the entry in the dictionary and in the store behind it. */
    const put = (key: bigint, value: bigint) => {
        entries.set(key, value);
        dict.set(key, value);
    };
    return { entries, loads, reads, dict, fresh, put };
}

describe('augmented dictionary with evicted subtrees', () => {
    test('evicted subtrees keep the root hash and extra, and changes in them load them back to the same cells a fresh dictionary makes', () => {
        const { entries, loads, dict, fresh, put } = backedDict();
        for (let i = 0; i < 600; i++) put(randomKey(), BigInt(i));
        const before = dict.rootCell()!;
        const keys = [...entries.keys()];
        let evicted = 0;
        for (const key of keys) if (dict.evict(key, 6)) evicted++;
        assert.ok(evicted > 20 && evicted <= 64, `evicted ${evicted} subtrees of 6-bit prefixes`);
        assert.equal(dict.rootCell()!.hash().toString('hex'), before.hash().toString('hex'));
        assert.equal(dict.extra(), fresh().extra());
        assert.equal(loads.length, 0);
        assert.equal(dict.evict(keys[0], 6), null, 'evicted already');

        for (let round = 0; round < 5; round++) {
            for (let i = 0; i < 30; i++) {
                const key = randomKey();
                dict.set(key, 7n);
                entries.set(key, 7n);
            }
            const present = [...entries.keys()];
            for (let i = 0; i < 10; i++) {
                const [key] = present.splice(1 + Math.floor(Math.random() * (present.length - 1)), 1);
                assert.equal(dict.delete(key), true);
                entries.delete(key);
            }
            const update = present[0];
            if (entries.has(update)) {
                dict.set(update, 99n);
                entries.set(update, 99n);
            }
            assert.equal(dict.rootCell()!.hash().toString('hex'), fresh().rootCell()!.hash().toString('hex'));
            assert.equal(dict.extra(), fresh().extra());
            assert.equal(dict.size, entries.size);
            for (const key of [...entries.keys()]) dict.evict(key, 4 + round);
        }
        assert.ok(loads.length > 0);
        for (const [k, v] of entries) assert.equal(dict.get(k), v);
    });

    test('a source that lost an entry is caught when the subtree is loaded back', () => {
        const { entries, dict } = backedDict();
        for (let i = 0; i < 64; i++) {
            const key = randomKey();
            entries.set(key, 1n);
            dict.set(key, 1n);
        }
        const victim = [...entries.keys()][0];
        dict.evict(victim, 0);
        entries.delete(victim);
        assert.throws(() => dict.set(randomKey(), 1n), /hashes as|do not make the subtree/);
    });

    test('the census counts an unloaded subtree as one cell, and a Merkle update over evicted subtrees shows only what changed', () => {
        const census = new CellCensus();
        // A subtree loaded back is counted again below its root (the root itself stayed counted).
        const { entries, dict, reads } = backedDict(cell => cell.refs.forEach(ref => census.add(ref)));
        for (let i = 0; i < 300; i++) {
            const key = randomKey();
            entries.set(key, 5n);
            dict.set(key, 5n);
        }
        const reference = new AugmentedDict(summed);
        for (const [k, v] of entries) reference.set(k, v);
        const referenceCensus = new CellCensus();
        let old = dict.rootCell()!;
        let referenceOld = reference.rootCell()!;
        census.add(old);
        referenceCensus.add(referenceOld);
        for (const key of entries.keys()) {
            for (const cell of dict.evict(key, 5) ?? []) census.remove(cell);
        }
        for (let round = 0; round < 3; round++) {
            for (let i = 0; i < 8; i++) {
                const key = randomKey();
                dict.set(key, 3n);
                reference.set(key, 3n);
                entries.set(key, 3n);
            }
            const next = dict.rootCell()!;
            const referenceNext = reference.rootCell()!;
            census.add(next);
            census.remove(old);
            referenceCensus.add(referenceNext);
            referenceCensus.remove(referenceOld);
            const update = merkleUpdate(old, next, k => census.hasKey(k));
            const expected = merkleUpdate(referenceOld, referenceNext, k => referenceCensus.hasKey(k));
            assert.equal(update.hash().toString('hex'), expected.hash().toString('hex'));
            old = next;
            referenceOld = referenceNext;
            for (const key of entries.keys()) {
                for (const cell of dict.evict(key, 5) ?? []) census.remove(cell);
            }
        }
        assert.ok(reads.regions > 0 && reads.regions <= 24, `${reads.regions} regions read back for 24 new keys`);
        // Every region is evicted: the forks above fold, and the whole dictionary is one cold cell.
        assert.ok(isUnloaded(dict.rootCell()!), 'the root of a dictionary whose regions are all evicted is cold');
        assert.equal(dict.extra(), reference.extra());
    });

    test('forks fold above evicted regions and thaw along one path when a key below changes; cells of an older root still read as they were', () => {
        const { entries, dict, reads, fresh, put } = backedDict();
        for (let i = 0; i < 512; i++) put(randomKey(), BigInt(i));
        const keys = [...entries.keys()];
        for (const key of keys.slice(1)) dict.evict(key, 6);
        // One region is left in memory: the path to it stays, every fork off it folded into one cold cell.
        let cold = 0;
        let held = 0;
        const walk = (cell: Cell): void => {
            if (isUnloaded(cell)) cold++;
            else {
                held++;
                cell.refs.forEach(walk);
            }
        };
        walk(dict.rootCell()!);
        assert.ok(cold <= 7, `${cold} cold cells hang off the path to the one region held (at most one a level of 6)`);
        assert.ok(held <= 20, `${held} cells held`);
        for (const key of keys.slice(0, 1)) dict.evict(key, 6);
        const older = dict.rootCell()!;
        const olderHash = older.hash().toString('hex');
        assert.ok(isUnloaded(older));

        const key = randomKey();
        dict.set(key, 1n);
        entries.set(key, 1n);
        assert.equal(reads.regions, 1, 'one region read back for a key set under it');
        assert.equal(dict.rootCell()!.hash().toString('hex'), fresh().rootCell()!.hash().toString('hex'));
        // The older root reads as it was (every cell checks its hash as it is read), the changed region's old entries included.
        entries.delete(key);
        const reference = fresh();
        let cells = 0;
        const readAll = (cell: Cell): void => {
            cells++;
            cell.refs.forEach(readAll);
        };
        readAll(older);
        assert.equal(older.hash().toString('hex'), olderHash);
        assert.equal(olderHash, reference.rootCell()!.hash().toString('hex'));
        assert.ok(cells >= 2 * 512 - 1, `${cells} cells read under the older root`);
    });
});
