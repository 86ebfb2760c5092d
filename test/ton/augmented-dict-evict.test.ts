import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { beginCell, type Builder, type Cell } from '@ton/core';
import { AugmentedDict, type AugmentedDictType, type FoldStore } from '../../src/ton/dict/augmented-dict.ts';
import { isUnloaded } from '../../src/ton/cells/lazy-cell.ts';
import { CellCensus, merkleUpdate } from '../../src/ton/cells/merkle-update.ts';
import { seededRandom } from '../helpers/seeded-random.ts';

const rng = seededRandom(0xe71c7);

const summed: AugmentedDictType<bigint, bigint> = {
    keyBits: 256,
    extraOf: value => value,
    add: (a, b) => a + b,
    empty: 0n,
    storeExtra: (extra, builder: Builder) => builder.storeCoins(extra),
    storeValue: (value, builder: Builder) => builder.storeUint(value, 32),
    loadExtra: slice => slice.loadCoins(),
};

/**
 * As `summed`, with a referenced cell in the extra as a shard's accounts have (the extra currencies
 * of DepthBalanceInfo): a fork's cell then has a third ref. The ref holds the sum, so with random
 * values no two forks share it (a cell shared by a held and a cold part is shown by a Merkle update
 * over evicted subtrees where one over the full states prunes it: valid, but not the same update).
 */
const summedWithRef: AugmentedDictType<bigint, bigint> = {
    ...summed,
    storeExtra: (extra, builder: Builder) => builder.storeCoins(extra).storeMaybeRef(extra % 3n === 0n ? null : beginCell().storeUint(extra, 64).endCell()),
    loadExtra: slice => {
        const extra = slice.loadCoins();
        const ref = slice.loadMaybeRef();
        assert.equal(ref === null ? null : ref.beginParse().loadUintBig(64), extra % 3n === 0n ? null : extra, 'the extra\'s ref read back');
        return extra;
    },
};

const randomValue = () => BigInt(rng.bytes(4).readUInt32BE(0)) + 1n;

/** A fold store in a map, as the devnet's keeps them in a file: each pair taken back once. */
function mapFoldStore() {
    const pairs = new Map<number, Buffer>();
    let next = 1;
    const store: FoldStore = {
        keep: children => {
            pairs.set(next, Buffer.from(children));
            return next++;
        },
        take: id => {
            const children = pairs.get(id);
            assert.ok(children, `fold ${id} is kept`);
            pairs.delete(id);
            return children;
        },
    };
    return { store, pairs };
}

const randomKey = () => BigInt(`0x${rng.bytes(32).toString('hex')}`);

/** The entries as last set, the store evicted subtrees come back from; counts what it was asked for. */
function backedDict(onLoaded?: (cell: Cell) => void, type = summed, folds?: FoldStore) {
    const entries = new Map<bigint, bigint>();
    const loads: Cell[] = [];
    const reads = { regions: 0 };
    const dict = new AugmentedDict(type, {
        folds,
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
        const reference = new AugmentedDict(type);
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

describe(`augmented dictionary with evicted subtrees (seed ${rng.seed}; TEST_SEED replays another)`, () => {
    for (const stored of [false, true]) test(`evicted subtrees keep the root hash and extra, and changes in them load them back to the same cells a fresh dictionary makes (folds ${stored ? 'in a store' : 'in memory'})`, () => {
        const { entries, loads, dict, fresh, put } = backedDict(undefined, summed, stored ? mapFoldStore().store : undefined);
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
                const [key] = present.splice(1 + Math.floor(rng.next() * (present.length - 1)), 1);
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

    for (const [name, type, stored] of [['plain extras', summed, false], ['extras with a ref', summedWithRef, false], ['extras with a ref, folds in a store', summedWithRef, true]] as const) test(`the census counts an unloaded subtree as one cell, and a Merkle update over evicted subtrees shows only what changed (${name})`, () => {
        const census = new CellCensus();
        // A subtree loaded back is counted again below its root (the root itself stayed counted).
        const { entries, dict, reads } = backedDict(cell => cell.refs.forEach(ref => census.add(ref)), type, stored ? mapFoldStore().store : undefined);
        for (let i = 0; i < 300; i++) {
            const key = randomKey();
            const value = randomValue();
            entries.set(key, value);
            dict.set(key, value);
        }
        const reference = new AugmentedDict(type);
        for (const [k, v] of entries) reference.set(k, v);
        const referenceCensus = new CellCensus();
        let old = dict.rootCell()!;
        let referenceOld = reference.rootCell()!;
        census.add(old);
        referenceCensus.add(referenceOld);
        for (const key of entries.keys()) {
            for (const cell of dict.evict(key, 5) ?? []) census.remove(cell);
        }
        // The root made again on the cold subtrees (as the devnet's collator does after evicting): the same hash.
        old = dict.rootCell()!;
        for (let round = 0; round < 3; round++) {
            for (let i = 0; i < 8; i++) {
                const key = randomKey();
                const value = randomValue();
                dict.set(key, value);
                reference.set(key, value);
                entries.set(key, value);
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
            referenceOld = referenceNext;
            for (const key of entries.keys()) {
                for (const cell of dict.evict(key, 5) ?? []) census.remove(cell);
            }
            old = dict.rootCell()!;
            assert.equal(old.hash().toString('hex'), next.hash().toString('hex'));
        }
        assert.ok(reads.regions > 0 && reads.regions <= 24, `${reads.regions} regions read back for 24 new keys`);
        // Every region is evicted: the forks above fold, and the whole dictionary is one cold cell.
        assert.ok(isUnloaded(dict.rootCell()!), 'the root of a dictionary whose regions are all evicted is cold');
        assert.equal(dict.extra(), reference.extra());
    });

    for (const stored of [false, true]) test(`forks fold above evicted regions and thaw along one path when a key below changes; cells of an older root still read as they were (folds ${stored ? 'in a store' : 'in memory'})`, () => {
        const folds = mapFoldStore();
        const { entries, dict, reads, fresh, put } = backedDict(undefined, summed, stored ? folds.store : undefined);
        for (let i = 0; i < 512; i++) put(randomKey(), BigInt(i));
        const keys = [...entries.keys()];
        let regions = 0;
        for (const key of keys.slice(1)) if (dict.evict(key, 6)) regions++;
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
        for (const key of keys.slice(0, 1)) if (dict.evict(key, 6)) regions++;
        const older = dict.rootCell()!;
        const olderHash = older.hash().toString('hex');
        assert.ok(isUnloaded(older));
        assert.ok(regions >= 60 && regions <= 64, `${regions} regions of (about) 6-bit prefixes`);
        const kept = folds.pairs.size;
        // Every fork of the regions' tree folded: a pair for each, in the store until read.
        if (stored) assert.equal(kept, regions - 1);

        const key = randomKey();
        dict.set(key, 1n);
        entries.set(key, 1n);
        assert.equal(reads.regions, 1, 'one region read back for a key set under it');
        if (stored) assert.ok(kept - folds.pairs.size >= 5 && kept - folds.pairs.size <= 7, `${kept - folds.pairs.size} pairs taken back along the path of the key set`);
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
        if (stored) assert.equal(folds.pairs.size, 0, 'reading the older root took every pair back');

        // Folding again keeps the pairs read back (they are the current tree's too) in the store again.
        entries.set(key, 1n);
        dict.evict(key, 6);
        assert.ok(isUnloaded(dict.rootCell()!));
        if (stored) assert.ok(folds.pairs.size >= regions - 1 && folds.pairs.size <= regions, `${folds.pairs.size} pairs kept for ${regions} regions and a new key`);
        let again = 0;
        const readAgain = (cell: Cell): void => {
            again++;
            cell.refs.forEach(readAgain);
        };
        const root = dict.rootCell()!;
        readAgain(root);
        assert.equal(root.hash().toString('hex'), fresh().rootCell()!.hash().toString('hex'));
        assert.ok(again >= 2 * 513 - 1, `${again} cells read under the root`);
        assert.equal(dict.extra(), fresh().extra());
    });
    for (const stored of [false, true]) test(`what is left of a region loaded back larger than the ones evicted now goes with them, unless held (folds ${stored ? 'in a store' : 'in memory'})`, () => {
        const folds = mapFoldStore();
        const { entries, dict, reads, fresh, put } = backedDict(undefined, summed, stored ? folds.store : undefined);
        for (let i = 0; i < 512; i++) put(randomKey(), BigInt(i));
        for (const key of [...entries.keys()]) dict.evict(key, 3);
        assert.ok(isUnloaded(dict.rootCell()!), 'eight regions of 3-bit prefixes, all folded');
        const top = (key: bigint, bits: number) => key >> BigInt(256 - bits);

        // A key set loads its 3-bit region (~64 entries) back; regions are 6-bit now.
        // The dictionary first, then its store (as the devnet commits a step's accounts after making its state).
        const change = (key: bigint, value: bigint) => {
            dict.set(key, value);
            entries.set(key, value);
        };
        const first = randomKey();
        change(first, 1n);
        assert.equal(reads.regions, 1);
        const neighbour = [...entries.keys()].find(k => top(k, 3) === top(first, 3) && top(k, 4) !== top(first, 4))!;
        // Something under the neighbour's 5-bit prefix is held: the subtree beside the path holding it (its 4-bit one)
        // stays whole (its own strays go when what is held there goes), the rest beside the path goes.
        const held = (key: bigint, bits: number) => top(key, bits) === top(neighbour, bits);
        dict.evict(first, 6, held);
        assert.equal(isUnloaded(dict.rootCell()!), false);
        let cold = 0;
        let leaves = 0;
        const walk = (cell: Cell): void => {
            if (isUnloaded(cell)) cold++;
            else if (cell.refs.length === 0) leaves++;
            else cell.refs.forEach(walk);
        };
        walk(dict.rootCell()!);
        const underNeighbour = [...entries.keys()].filter(k => top(k, 4) === top(neighbour, 4)).length;
        assert.equal(leaves, underNeighbour, `the leaves held are the entries under the neighbour's 4-bit prefix`);
        assert.ok(cold >= 3 && cold <= 12, `${cold} cold subtrees beside the path`);
        assert.equal(dict.rootCell()!.hash().toString('hex'), fresh().rootCell()!.hash().toString('hex'));

        // Held by nothing: the rest goes too, and the whole dictionary folds.
        dict.evict(neighbour, 6, () => false);
        assert.ok(isUnloaded(dict.rootCell()!), 'every subtree cold again');
        // A key in what was left beside the path loads only that part back.
        const second = [...entries.keys()].find(k => top(k, 3) === top(first, 3) && top(k, 4) === top(first, 4) && top(k, 5) !== top(first, 5))!;
        const before = reads.regions;
        change(second, 2n);
        assert.equal(reads.regions, before + 1);
        assert.equal(dict.rootCell()!.hash().toString('hex'), fresh().rootCell()!.hash().toString('hex'));
        assert.equal(dict.extra(), fresh().extra());
        if (stored) {
            // Every pair kept is one a fold still stands on: reading the whole tree takes them all.
            const readAll = (cell: Cell): void => cell.refs.forEach(readAll);
            readAll(dict.rootCell()!);
            assert.equal(folds.pairs.size, 0);
        }
    });
});
