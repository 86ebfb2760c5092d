import type { Cell } from '@ton/core';
import { cellBytes } from './boc-reader.ts';

/**
 * Writes the subtree of a cell read by boc-reader.ts as a BOC (no index, no CRC) by copying each
 * cell's serialized bytes; cells of other origin are serialized by @ton/core.
 */
export function writeBoc(root: Cell): Buffer {
    // Reverse post-order puts every cell before the cells it refers to, as a BOC requires.
    // Identical cells of one BOC are one object, so identity is enough to deduplicate.
    const order: Cell[] = [];
    const seen = new Set<Cell>();
    const visit = (cell: Cell) => {
        if (seen.has(cell)) return;
        seen.add(cell);
        for (const ref of cell.refs) visit(ref);
        order.push(cell);
    };
    visit(root);
    order.reverse();
    const parts: Buffer[] = [];
    for (const cell of order) {
        const bytes = cellBytes.get(cell);
        if (!bytes || (bytes[0] & 7) !== cell.refs.length) return root.toBoc({ idx: false, crc32: false });
        parts.push(bytes);
    }
    const index = new Map<Cell, number>(order.map((cell, i) => [cell, i]));
    const size = byteSize(order.length);
    const cellData = Buffer.concat(order.map((cell, i) => {
        const refs = Buffer.alloc(cell.refs.length * size);
        cell.refs.forEach((ref, r) => refs.writeUIntBE(index.get(ref)!, r * size, size));
        return Buffer.concat([parts[i], refs]);
    }));
    const offBytes = byteSize(cellData.length);
    const header = Buffer.alloc(6 + 3 * size + offBytes + size);
    header.writeUInt32BE(0xb5ee9c72, 0);
    header[4] = size;
    header[5] = offBytes;
    let pos = 6;
    header.writeUIntBE(order.length, pos, size); pos += size;
    header.writeUIntBE(1, pos, size); pos += size;
    header.writeUIntBE(0, pos, size); pos += size;
    header.writeUIntBE(cellData.length, pos, offBytes); pos += offBytes;
    header.writeUIntBE(0, pos, size);
    return Buffer.concat([header, cellData]);
}

function byteSize(value: number): number {
    let bytes = 1;
    while (value >= 256 ** bytes) bytes++;
    return bytes;
}
