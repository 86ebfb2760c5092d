import { type Cell, CellType } from '@ton/core';
import { cellWithRefs } from '../ton/cells/core-cells.ts';
import type { AccountStateReader } from './chain-source.ts';

/**
 * Cells of whole account states a source has already read, by level-0 hash (least recently used
 * dropped beyond a limit). A block's state update prunes what an account did not change (its code,
 * most of its data); when every pruned branch is a known cell, the account is rebuilt locally
 * instead of read again. The caller checks the result against the account's hash in the block.
 */
export class KnownCells {
    private readonly cells = new Map<string, Cell>();

    constructor(private readonly limit: number) {}

    /** `cell` with each pruned branch replaced by the known cell of the same hash (the cells above rebuilt); null when one is not known. */
    complete(cell: Cell): Cell | null {
        if (cell.type === CellType.PrunedBranch) {
            const key = cell.hash(0).toString('latin1');
            const found = this.cells.get(key);
            if (!found) return null;
            this.cells.delete(key);
            this.cells.set(key, found);
            return found;
        }
        if (cell.level() === 0) return cell;
        const refs: Cell[] = [];
        for (const ref of cell.refs) {
            const completed = this.complete(ref);
            if (!completed) return null;
            refs.push(completed);
        }
        return cellWithRefs(cell, refs);
    }

    /** Keeps every cell of a whole state (each subtree once). */
    remember(root: Cell): void {
        if (this.limit <= 0) return;
        const visit = (cell: Cell) => {
            const key = cell.hash(0).toString('latin1');
            if (this.cells.has(key)) return;
            this.cells.set(key, cell);
            for (const ref of cell.refs) visit(ref);
        };
        visit(root);
        while (this.cells.size > this.limit) this.cells.delete(this.cells.keys().next().value!);
    }
}

/** A source's account-state reader that first rebuilds accounts from cells it has read before (see KnownCells). */
export function withKnownCells(reader: AccountStateReader, limit = 100_000): AccountStateReader {
    const known = new KnownCells(limit);
    return {
        async accountCellAt(block, address, pruned) {
            const completed = pruned ? known.complete(pruned) : null;
            if (completed) return completed;
            const account = await reader.accountCellAt(block, address, pruned);
            if (account && pruned && account.hash().equals(pruned.hash(0))) known.remember(account);
            return account;
        },
    };
}
