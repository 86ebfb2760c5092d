import { sha256 } from '../fast-hash.ts';
import { paddedBytes } from '../fast-padded-bits.ts';
import { createRequire } from 'node:module';
import { inspect } from 'node:util';
import { BitReader, BitString, type Builder, Cell, CellType, Slice } from '@ton/core';

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
/** @ton/core's own reader, kept for what this one leaves to it even where `Cell.fromBoc` is replaced (fast-from-boc.ts). */
const coreFromBoc = Cell.fromBoc.bind(Cell);

/**
 * The serialized bytes (descriptors + data, no refs) of a cell made by this module (or given them by
 * its maker, as the devnet's cell store does); undefined for any other cell. Kept on the cell itself:
 * a WeakMap entry for every cell read made the collector's ephemeron work a few percent of a block's reading.
 */
export function ownBytes(cell: Cell): Buffer | undefined {
    return (cell as unknown as { _bytes?: Buffer })._bytes;
}

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

/**
 * A cell with the bits of `like` and the given refs (same count), hashed by this module (about
 * three times faster than @ton/core's constructor); for the cells of Merkle proofs, which copy
 * the cells they keep and replace the refs they cut. It remembers its serialized bytes for boc-writer.ts.
 */
export function cellWithRefs(like: Cell, refs: Cell[]): Cell {
    const bits = like.bits;
    const data = paddedBytes(bits);
    const d2 = Math.ceil(bits.length / 8) + Math.floor(bits.length / 8);
    const cell = buildCell(like.isExotic, d2, data, bits.length, refs);
    (cell as unknown as FastCell)._bytes = Buffer.concat([Buffer.from([refs.length + (like.isExotic ? 8 : 0) + cell.mask.value * 32, d2]), data]);
    return cell;
}

/**
 * The ordinary cell a builder holds, hashed by this module instead of `builder.endCell()`: faster,
 * and the cell shares its methods through a prototype, where a @ton/core cell carries six closures
 * of its own (~350 bytes), which adds up in trees kept for long, like the devnet's accounts dictionary.
 */
export function builtCell(builder: Builder): Cell {
    const { _bits: bitBuilder, _refs: refs } = builder as unknown as { _bits: { build(): BitString }; _refs: Cell[] };
    const bits = bitBuilder.build();
    const d2 = Math.ceil(bits.length / 8) + Math.floor(bits.length / 8);
    return buildCell(false, d2, paddedBytes(bits), bits.length, [...refs]);
}

/** A pruned branch standing for a level-0 cell: its hash and depth, in TON's exotic layout (type 1, level mask 1). */
export function prunedBranch(cell: Cell): Cell {
    const data = Buffer.allocUnsafe(36);
    data[0] = 1;
    data[1] = 1;
    cell.hash(0).copy(data, 2);
    data.writeUInt16BE(cell.depth(0), 34);
    return buildCell(true, 72, data, 288, [], Buffer.concat([Buffer.from([8 + 32, 72]), data]));
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

interface FastCell { _hashes: Buffer[]; _depths: number[]; _data: Buffer | null; _bytes: Buffer | undefined; bits: BitString; refs: Cell[] }

/**
 * Ordinary cells whose refs are all of level 0 (nearly every cell) are hashed when first asked:
 * an answer about a transaction needs the hashes of its messages, not of its phases' cells or of
 * the dictionary forks above its out messages. Until then `_hashes` and `_depths` are the shared
 * empty NOT_HASHED; hashing puts an array of one hash and the shared array of its depth in their
 * place (an array pushed to from empty takes room for 17). Iterative, children first, so no tree is
 * too deep for the stack.
 */
function hashPending(root: FastCell): void {
    const stack: FastCell[] = [root];
    while (stack.length > 0) {
        const cell = stack[stack.length - 1];
        if (cell._hashes.length !== 0) {
            stack.pop();
            continue;
        }
        let waiting = false;
        const refs = cell.refs as unknown as FastCell[];
        // Indexed loops: this runs for nearly every cell read, and for…of here allocated an iterator each time.
        for (let i = 0; i < refs.length; i++) {
            const ref = refs[i];
            if (ref._hashes !== undefined && ref._hashes.length === 0) {
                stack.push(ref);
                waiting = true;
            }
        }
        if (waiting) continue;
        stack.pop();
        const data = cell._data!;
        const bitLength = cell.bits.length;
        const repr = Buffer.allocUnsafe(2 + data.length + 34 * refs.length);
        repr[0] = refs.length;
        repr[1] = Math.ceil(bitLength / 8) + Math.floor(bitLength / 8);
        data.copy(repr, 2);
        let at = 2 + data.length;
        let depth = 0;
        for (let i = 0; i < refs.length; i++) {
            const refDepth = (refs[i] as unknown as Cell).depth(0);
            repr.writeUInt16BE(refDepth, at);
            at += 2;
            if (refDepth + 1 > depth) depth = refDepth + 1;
        }
        for (let i = 0; i < refs.length; i++) {
            (refs[i] as unknown as Cell).hash(0).copy(repr, at);
            at += 32;
        }
        cell._depths = depthsOf(depth);
        cell._hashes = [sha256(repr)];
    }
}

/**
 * Cells share their methods through one prototype (a @ton/core Cell carries them as per-instance
 * closures); fields are exactly those of a @ton/core Cell, so every @ton/core function accepts them.
 */
const FAST_CELL_PROTOTYPE = Object.create(Cell.prototype, {
    beginParse: {
        value(this: Cell, allowExotic = false) {
            if (this.isExotic && !allowExotic) throw new Error('Exotic cells cannot be parsed');
            return new Slice(new BitReader(this.bits), this.refs);
        },
    },
    hash: {
        value(this: FastCell, level = 3) {
            if (this._hashes.length === 0) hashPending(this);
            return this._hashes[Math.min(this._hashes.length - 1, level)];
        },
    },
    depth: {
        value(this: FastCell, level = 3) {
            if (this._depths.length === 0) hashPending(this);
            return this._depths[Math.min(this._depths.length - 1, level)];
        },
    },
    level: { value(this: Cell) { return this.mask.level; } },
    equals: { value(this: Cell, other: Cell) { return this.hash().equals(other.hash()); } },
    [inspect.custom]: { value(this: Cell) { return this.toString(); } },
}) as object;

const MASKS = Array.from({ length: 8 }, (_, m) => new LevelMask(m));

const enum Exotic {
    PrunedBranch = 1,
    Library = 2,
    MerkleProof = 3,
    MerkleUpdate = 4,
}

const CELL_TYPE: Record<number, CellType> = {
    [Exotic.PrunedBranch]: CellType.PrunedBranch,
    [Exotic.Library]: CellType.Library,
    [Exotic.MerkleProof]: CellType.MerkleProof,
    [Exotic.MerkleUpdate]: CellType.MerkleUpdate,
};

/**
 * Hashes and depths of a cell at every level, as TON defines them (DataCell::compute_hashes): the
 * representation of level i is the refs descriptor with the level mask cut to i, the bits
 * descriptor, the data (or, above the first significant level, the previous level's hash), then
 * the refs' depths and hashes at level i (i + 1 under Merkle cells). Pruned branches carry their
 * higher-level hashes in their data.
 */
function buildCell(exotic: boolean, d2: number, data: Buffer, bitLength: number, refs: Cell[], bytes?: Buffer): Cell {
    if (bitLength > 1023 || refs.length > 4) throw new Error('BOC cell exceeds 1023 bits or 4 refs');
    const kind = exotic ? (bitLength >= 8 ? data[0] : -1) : 0;
    if (exotic && !(kind in CELL_TYPE)) throw new Error(`BOC has an exotic cell of unknown type ${kind}`);
    const merkle = kind === Exotic.MerkleProof || kind === Exotic.MerkleUpdate;
    let mask: number;
    if (kind === Exotic.PrunedBranch) {
        if (refs.length !== 0) throw new Error('a pruned branch cell has refs');
        mask = bitLength === 280 ? 1 : data[1];
    } else if (kind === Exotic.MerkleProof) {
        if (refs.length !== 1) throw new Error('a Merkle proof cell must have one ref');
        mask = refs[0].mask.value >> 1;
    } else if (kind === Exotic.MerkleUpdate) {
        if (refs.length !== 2) throw new Error('a Merkle update cell must have two refs');
        mask = (refs[0].mask.value | refs[1].mask.value) >> 1;
    } else if (kind === Exotic.Library) {
        mask = 0;
    } else {
        mask = 0;
        for (const ref of refs) mask |= ref.mask.value;
    }
    const levelMask = MASKS[mask & 7];
    if (kind === 0 && mask === 0) return newCell(CellType.Ordinary, leanBits(data, bitLength), refs, levelMask, NOT_HASHED as unknown as number[], NOT_HASHED as unknown as Buffer[], data, bytes);
    const level = levelMask.level;
    const hashCount = kind === Exotic.PrunedBranch ? 1 : popCount(mask) + 1;
    const hashOffset = popCount(mask) + 1 - hashCount;
    const hashes: Buffer[] = [];
    const depths: number[] = [];
    for (let levelI = 0, hashI = 0; levelI <= level; levelI++) {
        if (levelI !== 0 && ((mask >> (levelI - 1)) & 1) === 0) continue;
        if (hashI < hashOffset) {
            hashI++;
            continue;
        }
        const content = hashI === hashOffset ? data : hashes[hashI - hashOffset - 1];
        const refLevel = merkle ? levelI + 1 : levelI;
        const repr = Buffer.allocUnsafe(2 + content.length + 34 * refs.length);
        repr[0] = refs.length + (exotic ? 8 : 0) + (mask & ((1 << levelI) - 1)) * 32;
        repr[1] = d2;
        content.copy(repr, 2);
        let at = 2 + content.length;
        let depth = 0;
        for (const ref of refs) {
            const refDepth = ref.depth(refLevel);
            repr.writeUInt16BE(refDepth, at);
            at += 2;
            depth = Math.max(depth, refDepth + 1);
        }
        for (const ref of refs) {
            ref.hash(refLevel).copy(repr, at);
            at += 32;
        }
        hashes[hashI - hashOffset] = sha256(repr);
        depths[hashI - hashOffset] = depth;
        hashI++;
    }
    const resolvedHashes: Buffer[] = [];
    const resolvedDepths: number[] = [];
    for (let i = 0; i < 4; i++) {
        const index = popCount(mask & ((1 << i) - 1));
        if (kind === Exotic.PrunedBranch && index !== popCount(mask)) {
            // Pruned data: type, mask, then a hash per significant level, then a depth per level.
            const first = bitLength === 280 ? 1 : 2;
            const prunedCount = popCount(mask);
            resolvedHashes.push(data.subarray(first + 32 * index, first + 32 * index + 32));
            resolvedDepths.push(data.readUInt16BE(first + 32 * prunedCount + 2 * index));
        } else {
            resolvedHashes.push(hashes[kind === Exotic.PrunedBranch ? 0 : index]);
            resolvedDepths.push(depths[kind === Exotic.PrunedBranch ? 0 : index]);
        }
    }
    return newCell(exotic ? CELL_TYPE[kind] : CellType.Ordinary, leanBits(data, bitLength), refs, levelMask, resolvedDepths, resolvedHashes, null, bytes);
}

/**
 * A cell object with exactly a @ton/core Cell's fields, plus `_data`: the padded bits (the same buffer
 * `bits` reads), for a pending hash, and `_bytes` (ownBytes).
 */
/**
 * The fields of a @ton/core Cell set by a constructor, so V8 keeps them inside the object (an
 * object made by Object.create and then given seven fields keeps some in a separate array).
 */
const FastCellObject = function (this: Record<string, unknown>, type: CellType, bits: BitString, refs: Cell[], mask: unknown, depths: number[], hashes: Buffer[], data: Buffer | null, bytes: Buffer | undefined) {
    this.type = type;
    this.bits = bits;
    this.refs = refs;
    this.mask = mask;
    this._depths = depths;
    this._hashes = hashes;
    this._data = data;
    this._bytes = bytes;
} as unknown as new (type: CellType, bits: BitString, refs: Cell[], mask: unknown, depths: number[], hashes: Buffer[], data: Buffer | null, bytes: Buffer | undefined) => Cell;
(FastCellObject as unknown as { prototype: object }).prototype = FAST_CELL_PROTOTYPE;

/**
 * `_depths` of a hashed level-0 cell: one frozen array a depth, shared by every cell of that depth
 * (an array of its own costs a cell ~56 bytes, which adds up in trees held for long).
 */
function depthsOf(depth: number): number[] {
    return (DEPTHS[depth] ??= Object.freeze([depth]) as number[]);
}
const DEPTHS: number[][] = [];

/** `_hashes` and `_depths` of a cell not hashed yet (see hashPending). */
const NOT_HASHED: readonly never[] = Object.freeze([]);

/**
 * A @ton/core BitString (its prototype, its fields) without the inspection closure its constructor
 * gives every instance: ~100 bytes a cell, in trees held for long.
 */
const LeanBitString = function (this: Record<string, unknown>, data: Buffer, length: number) {
    this._length = length;
    this._data = data;
    this._offset = 0;
} as unknown as new (data: Buffer, length: number) => BitString;
(LeanBitString as unknown as { prototype: object }).prototype = Object.create(BitString.prototype, {
    [inspect.custom]: { value(this: BitString) { return this.toString(); } },
});

function leanBits(data: Buffer, length: number): BitString {
    return new LeanBitString(data, length);
}

/**
 * The cell is sealed, not frozen: hashPending sets its hashes and depths once when first asked.
 * Its bits and refs are frozen, as a @ton/core cell's are.
 */
function newCell(type: CellType, bits: BitString, refs: Cell[], mask: unknown, depths: number[], hashes: Buffer[], data: Buffer | null, bytes: Buffer | undefined): Cell {
    const cell = new FastCellObject(type, bits, refs, mask, depths, hashes, data, bytes);
    Object.freeze(refs);
    Object.freeze(bits);
    Object.seal(cell);
    return cell;
}
