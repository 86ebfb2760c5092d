import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { beginCell, Dictionary, type Cell } from '@ton/core';
import { readBoc } from '../../src/ton/boc/boc-reader.ts';
import { reuseUnchanged } from '../../src/ton/cells/reuse-unchanged.ts';

/** A contract-like state: a header that changes every time, code, and a dictionary of `entries`. */
function state(counter: number, entries: Map<number, bigint>): Cell {
    const dict = Dictionary.empty(Dictionary.Keys.Uint(32), Dictionary.Values.BigUint(64));
    for (const [k, v] of entries) dict.set(k, v);
    const code = beginCell().storeUint(0xc0de, 16).storeRef(beginCell().storeUint(1, 8)).endCell();
    return beginCell().storeUint(counter, 32).storeRef(code).storeRef(beginCell().storeDict(dict).endCell()).endCell();
}

const read = (cell: Cell) => readBoc(cell.toBoc())[0];

function cellsOf(root: Cell): Set<Cell> {
    const seen = new Set<Cell>();
    const walk = (cell: Cell) => {
        if (seen.has(cell)) return;
        seen.add(cell);
        cell.refs.forEach(walk);
    };
    walk(root);
    return seen;
}

describe('reusing the unchanged cells of a state read again', () => {
    const entries = new Map(Array.from({ length: 300 }, (_, i) => [i * 7919, BigInt(i)] as [number, bigint]));

    test('a state read again unchanged is the previous tree itself', () => {
        const previous = read(state(1, entries));
        assert.equal(reuseUnchanged(read(state(1, entries)), previous), previous);
    });

    test('a changed state keeps the previous cells off the changed paths and hashes as read', () => {
        const previous = read(state(1, entries));
        previous.hash();
        const changed = new Map(entries);
        changed.set(7919 * 150, 999n);
        const freshCell = read(state(2, changed));
        const result = reuseUnchanged(freshCell, previous);
        assert.notEqual(result, previous);
        assert.equal(result.hash().toString('hex'), state(2, changed).hash().toString('hex'));
        const before = cellsOf(previous);
        const after = cellsOf(result);
        const kept = [...after].filter(cell => before.has(cell)).length;
        // Only the root, the dictionary's holder and the path to the changed entry (about log2(300) forks) are new.
        assert.ok(after.size - kept <= 14, `${after.size - kept} of ${after.size} cells new`);
        assert.ok(kept >= after.size - 14);
    });

    test('cells not read from a BOC are taken as changed', () => {
        const built = state(1, entries);
        const result = reuseUnchanged(read(state(1, entries)), built);
        assert.notEqual(result, built);
        assert.equal(result.hash().toString('hex'), built.hash().toString('hex'));
    });
});
