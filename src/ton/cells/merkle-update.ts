import { type Cell } from '@ton/core';
import { cellBuilder, cellWithRefs, prunedBranch } from './core-cells.ts';
import { isUnloaded } from './lazy-cell.ts';

/** A cell's identity in maps: its level-0 hash as a latin1 string. */
const key = (cell: Cell) => cell.hash(0).toString('latin1');

/**
 * How many times each distinct cell (by hash) occurs as a child or root in a tree that changes by
 * replacing its root: adding the new root before removing the old one touches only the cells that
 * differ, so keeping a growing state's census costs what the change costs.
 */
export class CellCensus {
    private readonly counts = new Map<string, number>();

    add(cell: Cell): void {
        const k = key(cell);
        const count = this.counts.get(k) ?? 0;
        this.counts.set(k, count + 1);
        // A lazy cell not loaded stands for its subtree (whose cells are counted when it is loaded).
        if (count === 0 && !isUnloaded(cell)) for (const ref of cell.refs) this.add(ref);
    }

    remove(cell: Cell): void {
        const k = key(cell);
        const count = this.counts.get(k);
        if (count === undefined) throw new Error(`cell ${cell.hash(0).toString('hex')} is not in the census`);
        if (count > 1) {
            this.counts.set(k, count - 1);
            return;
        }
        this.counts.delete(k);
        if (!isUnloaded(cell)) for (const ref of cell.refs) this.remove(ref);
    }

    /** Whether the tree holds the cell with this hash key (`hash(0)` as a latin1 string). */
    hasKey(cellKey: string): boolean {
        return this.counts.has(cellKey);
    }
}

/**
 * `!merkle_update#04 {X:Type} old_hash:bits256 new_hash:bits256 old_depth:uint16 new_depth:uint16
 *   old:^X new:^X = MERKLE_UPDATE X;`
 * The old side keeps the old cells that are not in the new tree (`inNewTree`) and prunes the rest;
 * the new side keeps what the old side does not show and prunes what it shows, so every pruned
 * branch of the new side is found, by hash, in the old side.
 */
export function merkleUpdate(oldRoot: Cell, newRoot: Cell, inNewTree: (cellKey: string) => boolean): Cell {
    const shownOld = new Set<string>();
    const oldSide = sideOf(oldRoot, cellKey => {
        shownOld.add(cellKey);
        return inNewTree(cellKey);
    });
    const newSide = sideOf(newRoot, cellKey => shownOld.has(cellKey));
    return cellBuilder()
        .storeUint(4, 8)
        .storeBuffer(oldRoot.hash(0)).storeBuffer(newRoot.hash(0))
        .storeUint(oldRoot.depth(0), 16).storeUint(newRoot.depth(0), 16)
        .storeRef(oldSide).storeRef(newSide)
        .endCell({ exotic: true });
}

/** The tree with the cells `prune` picks (by hash key) replaced by pruned branches (asked top-down; a pruned cell's children are not visited). */
function sideOf(root: Cell, prune: (cellKey: string) => boolean): Cell {
    const done = new Map<string, Cell>();
    const visit = (cell: Cell): Cell => {
        const k = key(cell);
        const known = done.get(k);
        if (known) return known;
        let result: Cell;
        if (prune(k)) {
            result = prunedBranch(cell);
        } else {
            const refs = cell.refs.map(visit);
            result = refs.every((ref, i) => ref === cell.refs[i]) ? cell : cellWithRefs(cell, refs);
        }
        done.set(k, result);
        return result;
    };
    return visit(root);
}
