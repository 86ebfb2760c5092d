import { Cell } from '@ton/core';
import { buildCell } from '../cells/core-cells.ts';

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

const BOC_MAGIC = 0xb5ee9c72;
/** @ton/core's own reader, for what this one leaves to it. */
const coreFromBoc = Cell.fromBoc.bind(Cell);

/** Where each cell of a bag lies in its bytes and which cells it refers to (always later ones). */
interface BocLayout {
    rootIndexes: number[];
    starts: Int32Array;
    dataStarts: Int32Array;
    dataLengths: Int32Array;
    refIndexes: number[][];
}

/**
 * The cells of a `serialized_boc#b5ee9c72` bag, located without building them. Null for what this
 * reader leaves to @ton/core (another magic, absent cells, unusual field sizes); throws on a bag that
 * is cut short or refers backwards.
 */
function readBocLayout(src: Buffer): BocLayout | null {
    if (src.length < 6 || src.readUInt32BE(0) !== BOC_MAGIC) return null;
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
    if (absent !== 0 || size === 0 || size > 4 || offBytes === 0 || offBytes > 8) return null;
    const rootIndexes: number[] = [];
    for (let i = 0; i < rootCount; i++) rootIndexes.push(readN(size));
    if (hasIndex) pos += cellCount * offBytes;
    const dataStart = pos;
    if (dataStart + totalSize > src.length) throw new Error('BOC is truncated');

    const starts = new Int32Array(cellCount);
    const dataStarts = new Int32Array(cellCount);
    const dataLengths = new Int32Array(cellCount);
    const refIndexes: number[][] = new Array(cellCount);
    for (let i = 0; i < cellCount; i++) {
        starts[i] = pos;
        const d1 = src[pos];
        const d2 = src[pos + 1];
        const refCount = d1 & 7;
        if (refCount > 4) return null; // absent cells: let @ton/core handle them
        const dataLength = (d2 >> 1) + (d2 & 1);
        // Some cells (Merkle updates in blocks) carry their hashes and depths; they are recomputed.
        const storedHashes = d1 & 16 ? levelCount(d1 >> 5) + 1 : 0;
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
    return { rootIndexes, starts, dataStarts, dataLengths, refIndexes };
}

/**
 * The depth of a bag's first root, from its layout alone (the devnet checks every transaction it
 * runs, some of hundreds of cells, and building them would cost their hashes).
 */
export function bocRootDepth(src: Buffer): number {
    const layout = readBocLayout(src);
    if (!layout) return coreFromBoc(src)[0].depth();
    const { rootIndexes: [root], refIndexes } = layout;
    const depth = new Int32Array(refIndexes.length);
    for (let i = refIndexes.length - 1; i >= root; i--) {
        let deepest = -1;
        for (const ref of refIndexes[i]) if (depth[ref] > deepest) deepest = depth[ref];
        depth[i] = deepest + 1;
    }
    return depth[root];
}

export function readBoc(src: Buffer): Cell[] {
    const layout = readBocLayout(src);
    if (!layout) return coreFromBoc(src);
    const { rootIndexes, starts, dataStarts, dataLengths, refIndexes } = layout;
    const cellCount = starts.length;

    // Second pass, children first: build cells.
    const cells: Cell[] = new Array(cellCount);
    for (let i = cellCount - 1; i >= 0; i--) {
        const start = starts[i];
        const d1 = src[start];
        const d2 = src[start + 1];
        const data = src.subarray(dataStarts[i], dataStarts[i] + dataLengths[i]);
        const serialized = d1 & 16 ? Buffer.concat([Buffer.from([d1 & ~16, d2]), data]) : src.subarray(start, start + 2 + dataLengths[i]);
        const bitLength = d2 & 1 ? paddedBitLength(data) : (d2 >> 1) * 8;
        const refs = refIndexes[i].map(r => cells[r]);
        cells[i] = buildCell((d1 & 8) !== 0, d2, data, bitLength, refs, serialized);
    }
    return rootIndexes.map(r => cells[r]);
}

/** Data whose bit length is not a multiple of 8 ends with a 1 bit followed by zeros. */
function paddedBitLength(data: Buffer): number {
    for (let i = data.length - 1; i >= 0; i--) {
        const byte = data[i];
        if (byte !== 0) return i * 8 + 7 - (31 - Math.clz32(byte & -byte));
    }
    throw new Error('BOC cell data has no completion tag');
}

/** How many levels a 3-bit level mask marks. */
function levelCount(mask: number): number {
    return (mask & 1) + ((mask >> 1) & 1) + ((mask >> 2) & 1);
}
