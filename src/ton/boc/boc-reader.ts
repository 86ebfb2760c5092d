import { createHash } from 'node:crypto';
import { createRequire } from 'node:module';
import { inspect } from 'node:util';
import { BitReader, BitString, Cell, CellType, Slice } from '@ton/core';

/**
 * A bag-of-cells reader for large BOCs (blocks), several times faster than `Cell.fromBoc`:
 * ordinary level-0 cells get their hash straight from the serialized bytes (which are already
 * the padded data the hash is defined over) instead of being rebuilt bit by bit. Exotic cells and
 * cells above pruned branches take @ton/core's own constructor. Each cell remembers its
 * serialized bytes, so a subtree can be written back as a BOC without re-encoding (boc-writer.ts).
 *
 * Layout: serialized_boc#b5ee9c72 has_idx:(## 1) has_crc32c:(## 1) has_cache_bits:(## 1)
 *   flags:(## 2) size:(## 3) off_bytes:(## 8) cells:(##(size * 8)) roots:(##(size * 8))
 *   absent:(##(size * 8)) tot_cells_size:(##(off_bytes * 8)) root_list:(roots * ##(size * 8))
 *   index:has_idx?(cells * ##(off_bytes * 8)) cell_data:(tot_cells_size * [ uint8 ])
 *   crc32c:has_crc32c?uint32 = BagOfCells;
 */

const require = createRequire(import.meta.url);
const { LevelMask } = require('@ton/core/dist/boc/cell/LevelMask') as { LevelMask: new (mask?: number) => { value: number; level: number } };

const BOC_MAGIC = 0xb5ee9c72;
const ORDINARY_MASK = new LevelMask(0);

/** The serialized bytes (descriptors + data, no refs) of cells read by this module. */
export const cellBytes = new WeakMap<Cell, Buffer>();

export function readBoc(src: Buffer): Cell[] {
    if (src.length < 6 || src.readUInt32BE(0) !== BOC_MAGIC) return Cell.fromBoc(src);
    const flags = src[4];
    const hasIndex = (flags & 0x80) !== 0;
    const size = flags & 0x07;
    const offBytes = src[5];
    let pos = 6;
    const readN = (n: number) => {
        let value = 0;
        for (let i = 0; i < n; i++) value = value * 256 + src[pos++];
        return value;
    };
    const cellCount = readN(size);
    const rootCount = readN(size);
    const absent = readN(size);
    const totalSize = readN(offBytes);
    if (absent !== 0 || size === 0 || size > 4 || offBytes === 0 || offBytes > 8) return Cell.fromBoc(src);
    const rootIndexes: number[] = [];
    for (let i = 0; i < rootCount; i++) rootIndexes.push(readN(size));
    if (hasIndex) pos += cellCount * offBytes;
    const dataStart = pos;
    if (dataStart + totalSize > src.length) throw new Error('BOC is truncated');

    // First pass: where each cell's bytes are and which cells it refers to.
    const starts = new Int32Array(cellCount);
    const dataStarts = new Int32Array(cellCount);
    const dataLengths = new Int32Array(cellCount);
    const refIndexes: number[][] = new Array(cellCount);
    for (let i = 0; i < cellCount; i++) {
        starts[i] = pos;
        const d1 = src[pos];
        const d2 = src[pos + 1];
        const refCount = d1 & 7;
        if (refCount > 4) return Cell.fromBoc(src); // absent cells: let @ton/core handle them
        const dataLength = (d2 >> 1) + (d2 & 1);
        // Some cells (Merkle updates in blocks) carry their hashes and depths; they are recomputed.
        const storedHashes = d1 & 16 ? popCount(d1 >> 5) + 1 : 0;
        dataStarts[i] = pos + 2 + storedHashes * 34;
        dataLengths[i] = dataLength;
        pos = dataStarts[i] + dataLength;
        const refs: number[] = [];
        for (let r = 0; r < refCount; r++) {
            const ref = readN(size);
            if (ref <= i || ref >= cellCount) throw new Error('BOC has a reference that is not topologically ordered');
            refs.push(ref);
        }
        refIndexes[i] = refs;
    }

    // Second pass, children first: build cells.
    const cells: Cell[] = new Array(cellCount);
    for (let i = cellCount - 1; i >= 0; i--) {
        const start = starts[i];
        const d1 = src[start];
        const d2 = src[start + 1];
        const data = src.subarray(dataStarts[i], dataStarts[i] + dataLengths[i]);
        const serialized = d1 & 16 ? Buffer.concat([Buffer.from([d1 & ~16, d2]), data]) : src.subarray(start, start + 2 + dataLengths[i]);
        const bitLength = d2 & 1 ? paddedBitLength(data) : (d2 >> 1) * 8;
        const bits = new BitString(data, 0, bitLength);
        const refs = refIndexes[i].map(r => cells[r]);
        const exotic = (d1 & 8) !== 0;
        const cell = !exotic && d1 >> 5 === 0 && refs.every(r => r.mask.value === 0)
            ? ordinaryCell(serialized, bits, refs)
            : new Cell({ bits, refs, exotic });
        cellBytes.set(cell, serialized);
        cells[i] = cell;
    }
    return rootIndexes.map(r => cells[r]);
}

function popCount(mask: number): number {
    let count = 0;
    for (let m = mask; m !== 0; m >>= 1) count += m & 1;
    return count;
}

/** Data whose bit length is not a multiple of 8 ends with a 1 bit followed by zeros. */
function paddedBitLength(data: Buffer): number {
    for (let i = data.length - 1; i >= 0; i--) {
        const byte = data[i];
        if (byte !== 0) return i * 8 + 7 - (31 - Math.clz32(byte & -byte));
    }
    throw new Error('BOC cell data has no completion tag');
}

/** An ordinary level-0 cell, shaped exactly as @ton/core's constructor shapes one. */
function ordinaryCell(serialized: Buffer, bits: BitString, refs: Cell[]): Cell {
    if (bits.length > 1023) throw new Error(`BOC cell has ${bits.length} bits`);
    const hasher = createHash('sha256').update(serialized);
    let depth = 0;
    for (const ref of refs) depth = Math.max(depth, ref.depth() + 1);
    const depthBytes = Buffer.alloc(2 * refs.length);
    refs.forEach((ref, i) => depthBytes.writeUInt16BE(ref.depth(), 2 * i));
    hasher.update(depthBytes);
    for (const ref of refs) hasher.update(ref.hash());
    const hashes = [hasher.digest()];
    const depths = [depth];
    const cell = Object.create(Cell.prototype) as Cell;
    const fields: Record<string | symbol, unknown> = {
        _hashes: hashes,
        _depths: depths,
        beginParse: () => new Slice(new BitReader(bits), refs),
        hash: () => hashes[0],
        depth: () => depths[0],
        level: () => 0,
        equals: (other: Cell) => hashes[0].equals(other.hash()),
        [inspect.custom]: () => cell.toString(),
        type: CellType.Ordinary,
        bits,
        refs,
        mask: ORDINARY_MASK,
    };
    Object.assign(cell, fields);
    Object.freeze(refs);
    Object.freeze(bits);
    Object.freeze(cell);
    return cell;
}
