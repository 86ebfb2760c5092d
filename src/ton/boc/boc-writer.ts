import type { Cell } from '@ton/core';
import { ownBytes } from '../cells/core-cells.ts';

/**
 * Writes the subtree of a cell as a BOC (no index, no CRC). Cells read by boc-reader.ts are copied
 * from their serialized bytes; others (e.g. a message body @ton/core cut out of its message) are
 * encoded here.
 */
export function writeBoc(root: Cell, options: { dedupeByHash?: boolean } = {}): Buffer {
    return writeBocRoots([root], options);
}

/**
 * Writes several trees as one BOC with a root per tree, in the given order (liteserver answers:
 * getAccountState's two proofs, getTransactions' one root per transaction). Cells the trees share
 * are written once; `Cell.fromBoc` gives the roots back in order.
 */
export function writeBocRoots(roots: readonly Cell[], options: { dedupeByHash?: boolean } = {}): Buffer {
    if (roots.length === 0) throw new Error('a BOC needs at least one root');
    // Post-order numbering: every cell after the cells it refers to; written in reverse, every cell
    // comes before its refs, as a BOC requires. Cells read from one BOC are deduplicated already
    // (one object per distinct cell); built trees (blocks) ask for equal cells to be written once
    // by hash, as TON writes them.
    const order: Cell[] = [];
    const postIndex = new Map<Cell, number>();
    const alias = options.dedupeByHash ? new Map<Cell, Cell>() : null;
    const byHash = options.dedupeByHash ? new Map<string, Cell>() : null;
    /** Whether `cell` is new here (else seen already, or an equal cell was). */
    const enter = (cell: Cell): boolean => {
        if (postIndex.has(cell) || alias?.has(cell)) return false;
        if (byHash) {
            const key = cell.hash().toString('latin1');
            const first = byHash.get(key);
            if (first) {
                alias!.set(cell, first);
                return false;
            }
            byHash.set(key, cell);
        }
        postIndex.set(cell, -1);
        return true;
    };
    // Depth first with a stack of its own (a chain of cells can be deeper than the call stack).
    const path: Cell[] = [];
    const nextRef: number[] = [];
    for (const root of roots) {
        if (!enter(root)) continue;
        path.push(root);
        nextRef.push(0);
        while (path.length > 0) {
            const top = path.length - 1;
            const cell = path[top];
            if (nextRef[top] < cell.refs.length) {
                const ref = cell.refs[nextRef[top]++];
                if (enter(ref)) {
                    path.push(ref);
                    nextRef.push(0);
                }
                continue;
            }
            path.pop();
            nextRef.pop();
            postIndex.set(cell, order.length);
            order.push(cell);
        }
    }
    const count = order.length;
    const position = (cell: Cell) => count - 1 - postIndex.get(alias?.get(cell) ?? cell)!;
    const size = byteSize(Math.max(count, roots.length));
    const parts = new Array<Buffer>(count);
    let dataLength = 0;
    for (let i = 0; i < count; i++) {
        const cell = order[count - 1 - i];
        const part = ownBytes(cell) ?? encodeCell(cell);
        parts[i] = part;
        dataLength += part.length + cell.refs.length * size;
    }
    const offBytes = byteSize(dataLength);
    const headerLength = 6 + 3 * size + offBytes + roots.length * size;
    const out = Buffer.allocUnsafe(headerLength + dataLength);
    out.writeUInt32BE(0xb5ee9c72, 0);
    out[4] = size;
    out[5] = offBytes;
    let pos = 6;
    out.writeUIntBE(count, pos, size); pos += size;
    out.writeUIntBE(roots.length, pos, size); pos += size;
    out.writeUIntBE(0, pos, size); pos += size;
    out.writeUIntBE(dataLength, pos, offBytes); pos += offBytes;
    for (const root of roots) {
        out.writeUIntBE(position(root), pos, size);
        pos += size;
    }
    for (let i = 0; i < count; i++) {
        const part = parts[i];
        part.copy(out, pos);
        pos += part.length;
        for (const ref of order[count - 1 - i].refs) {
            const at = position(ref);
            if (size === 1) out[pos] = at;
            else out.writeUIntBE(at, pos, size);
            pos += size;
        }
    }
    return out;
}

/** Descriptor bytes and padded data of one cell: d1 = refs + 8·exotic + 32·level mask, d2 = ⌈bits/8⌉ + ⌊bits/8⌋. */
function encodeCell(cell: Cell): Buffer {
    const length = cell.bits.length;
    const bytes = Buffer.alloc(2 + Math.ceil(length / 8));
    bytes[0] = cell.refs.length + (cell.isExotic ? 8 : 0) + cell.mask.value * 32;
    bytes[1] = Math.ceil(length / 8) + Math.floor(length / 8);
    const whole = length - (length % 8);
    if (whole > 0) cell.bits.subbuffer(0, whole)!.copy(bytes, 2);
    if (length % 8 !== 0) {
        let last = 0;
        for (let i = whole; i < length; i++) last = (last << 1) | (cell.bits.at(i) ? 1 : 0);
        const free = 8 - (length % 8);
        bytes[bytes.length - 1] = ((last << 1) | 1) << (free - 1);
    }
    return bytes;
}

function byteSize(value: number): number {
    let bytes = 1;
    while (value >= 256 ** bytes) bytes++;
    return bytes;
}
