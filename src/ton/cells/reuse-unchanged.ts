import type { Cell } from '@ton/core';
import { cellWithRefs, ownBytes } from './core-cells.ts';

/**
 * `fresh` (a tree just read from a BOC) with every subtree that equals the one at the same place in
 * `previous` replaced by that one, compared by their serialized bytes, not by hashes. A contract
 * whose state is read again after each transaction (the elector and the config contract run every
 * masterchain block) keeps most of its cells; reusing them spares hashing them again and holding a
 * second copy of them for as long as the step that read them. Cells whose bytes this module does
 * not know (not read from a BOC) count as changed.
 */
export function reuseUnchanged(fresh: Cell, previous: Cell): Cell {
    return reuse(fresh, previous).cell;
}

function reuse(fresh: Cell, previous: Cell): { cell: Cell; same: boolean } {
    if (fresh === previous) return { cell: previous, same: true };
    const freshBytes = ownBytes(fresh);
    const previousBytes = ownBytes(previous);
    const ownSame = freshBytes !== undefined && previousBytes !== undefined && freshBytes.equals(previousBytes);
    const freshRefs = fresh.refs;
    const previousRefs = previous.refs;
    if (freshRefs.length !== previousRefs.length) return { cell: fresh, same: false };
    if (freshRefs.length === 0) return ownSame ? { cell: previous, same: true } : { cell: fresh, same: false };
    // A cell whose own bytes changed can still keep subtrees in place (a dictionary fork above a changed entry).
    let allSame = ownSame;
    let anyReused = false;
    const refs = freshRefs.map((ref, i) => {
        const result = reuse(ref, previousRefs[i]);
        if (result.cell !== ref) anyReused = true;
        if (!result.same) allSame = false;
        return result.cell;
    });
    if (allSame) return { cell: previous, same: true };
    return { cell: anyReused ? cellWithRefs(fresh, refs) : fresh, same: false };
}
