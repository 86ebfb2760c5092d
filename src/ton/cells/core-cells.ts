import { createRequire } from 'node:module';
import { inspect } from 'node:util';
import { BitReader, BitString, Builder, Cell, CellType, Slice } from '@ton/core';
import { sha256 } from '../sha256.ts';

/**
 * The one module that builds @ton/core objects from the inside. @ton/core makes every cell hash
 * itself with a pure-JS SHA-256 when constructed and reads every integer bit by bit, which would be
 * most of the time a block takes to read or the devnet takes to collate one. So our block reader,
 * the collator's builders and the devnet's cell store make their cells here: objects with exactly a
 * @ton/core Cell's fields (so every @ton/core function accepts them), hashes computed by us (now or
 * when first asked), methods shared on a prototype under Cell's, and slices that read with
 * FastBitReader. Nothing of @ton/core is changed: its own cells, readers and builders behave as
 * published.
 *
 * This relies on internals of the exact @ton/core version package.json pins: the fields of Cell,
 * BitString, Builder and Slice, BitReader's `_preloadUint`, and `LevelMask` under `dist/`.
 * test/ton/cells/core-cells.test.ts checks each of them, so an upgrade that changes one fails there.
 */

const require = createRequire(import.meta.url);
/** @ton/core's level mask, which Cell.mask holds; not exported from its index. */
const { LevelMask } = require('@ton/core/dist/boc/cell/LevelMask') as { LevelMask: new (mask?: number) => Cell['mask'] };

const MASKS = Array.from({ length: 8 }, (_, m) => new LevelMask(m));

/** @ton/core's LevelMask of `mask` (bits 0–2: the levels at which the cell's hash differs). */
export function levelMask(mask: number): Cell['mask'] {
    return MASKS[mask & 7];
}

/** The fields of a @ton/core BitString that hold its bits: `_length` bits from bit `_offset` of `_data`. */
export interface BitStringInternals {
    _data: Buffer;
    _offset: number;
    _length: number;
}

/** A bit string's bits where they lie: `length` bits from bit `offset` of `data`. */
export function bitsView(bits: BitString): { data: Buffer; offset: number; length: number } {
    const internals = bits as unknown as BitStringInternals;
    return { data: internals._data, offset: internals._offset, length: internals._length };
}

/** The `bits` (at most 48, so exact as a Number) of `data` from bit `position` on, as an unsigned integer; unchecked. */
export function uintAt(data: Buffer, position: number, bits: number): number {
    let value = 0;
    for (let left = bits; left > 0;) {
        const used = position & 7;
        const take = Math.min(8 - used, left);
        value = value * (1 << take) + ((data[position >> 3] >> (8 - used - take)) & ((1 << take) - 1));
        position += take;
        left -= take;
    }
    return value;
}

/**
 * A bit string's bytes with the completion tag (the bits, then a 1 bit and zeros up to a whole
 * byte), as cells are hashed and serialized; byte-aligned strings (those of builders and of cells
 * read from BOCs) are copied as bytes, where @ton/core copies bit by bit.
 */
export function paddedBytes(bits: BitString): Buffer {
    const { data: source, offset, length } = bitsView(bits);
    const size = Math.ceil(length / 8);
    const data = Buffer.alloc(size);
    if (offset % 8 === 0) {
        data.set(source.subarray(offset / 8, offset / 8 + size));
    } else {
        for (let i = 0; i < length; i++) {
            const from = offset + i;
            if ((source[from >> 3] >> (7 - (from & 7))) & 1) data[i >> 3] |= 0x80 >> (i & 7);
        }
    }
    const tail = length % 8;
    if (tail !== 0) data[size - 1] = (data[size - 1] & (0xff << (8 - tail))) | (0x80 >> tail);
    return data;
}

/**
 * A BitReader that reads unsigned integers in whole byte chunks (@ton/core adds a BigInt a bit):
 * the same results, and for a read past the end the same error (its own code runs for those).
 * `_preloadUint` is private in @ton/core's types, so it is set on this class's prototype.
 */
class FastBitReader extends BitReader {
    // A Slice keeps a clone of the reader it is given: this keeps the clone fast.
    override clone(): BitReader {
        const { _bits: bits, _offset: offset } = this as unknown as { _bits: BitString; _offset: number };
        return new FastBitReader(bits, offset);
    }
}
type PreloadUint = (this: { _bits: BitStringInternals }, bits: number, offset: number) => bigint;
const bitByBit = (BitReader.prototype as unknown as { _preloadUint: PreloadUint })._preloadUint;
(FastBitReader.prototype as unknown as { _preloadUint: PreloadUint })._preloadUint = function (bits, offset) {
    const string = this._bits;
    if (bits <= 0 || offset < 0 || offset + bits > string._length) return bitByBit.call(this, bits, offset);
    const data = string._data;
    let position = string._offset + offset;
    let remaining = bits;
    let result = 0n;
    // Up to 48 bits at a time fit a Number exactly.
    while (remaining > 0) {
        const chunkBits = Math.min(remaining, 48);
        const chunk = uintAt(data, position, chunkBits);
        position += chunkBits;
        result = chunkBits === bits ? BigInt(chunk) : (result << BigInt(chunkBits)) | BigInt(chunk);
        remaining -= chunkBits;
    }
    return result;
};

/**
 * A @ton/core Slice (its prototype, its fields) whose cells of itself are made here: @ton/core's own
 * parsers call `asCell()` on every transaction they load (its `raw`) and every message with its body
 * inline, and a @ton/core cell made there hashes itself, and forces the hashes of all the cells below
 * it, in JavaScript SHA-256. Made by a constructor of its own, with the reader it is given (Slice's
 * clones it) and the refs shared (a slice never changes them; Slice copies them): a slice is made for
 * every cell a block's reading parses.
 */
const OwnSlice = function (this: SliceInternals, reader: BitReader, refs: Cell[], refsOffset: number) {
    this._reader = reader;
    this._refs = refs;
    this._refsOffset = refsOffset;
} as unknown as new (reader: BitReader, refs: Cell[], refsOffset: number) => Slice;
(OwnSlice as unknown as { prototype: object }).prototype = Object.create(Slice.prototype, {
    asCell: { value(this: Slice) { return cellBuilder().storeSlice(this).endCell(); } },
    asBuilder: { value(this: Slice) { return cellBuilder().storeSlice(this); } },
    clone: {
        value(this: SliceInternals, fromStart = false) {
            const reader = this._reader.clone();
            if (fromStart) reader.reset();
            return new OwnSlice(reader, this._refs, fromStart ? 0 : this._refsOffset);
        },
    },
    [inspect.custom]: { value(this: Slice) { return this.toString(); } },
});

/** The fields of a @ton/core Slice: its reader, its refs and how many of them were read. */
interface SliceInternals {
    _reader: BitReader;
    _refs: Cell[];
    _refsOffset: number;
}

/** A @ton/core Slice of `cell` that reads integers with FastBitReader and makes its cells here; for any cell, @ton/core's own included. */
export function fastSlice(cell: Cell, allowExotic = false): Slice {
    if (cell.isExotic && !allowExotic) throw new Error('Exotic cells cannot be parsed');
    return new OwnSlice(new FastBitReader(cell.bits), cell.refs, 0);
}

const HEX_DIGITS = Buffer.from('0123456789abcdef', 'latin1');
const hexScratch = Buffer.allocUnsafe(64);

/**
 * The next 256 bits of a slice as 64 lowercase hex digits, and the slice moved past them: an
 * address's hash read for its raw form ('wc:hex') without the BigInt chunks of `loadUintBig` and
 * its string conversions (messages' addresses are read for every transaction of every block).
 */
export function loadHex256(slice: Slice): string {
    const reader = (slice as unknown as { _reader: { _bits: BitStringInternals; _offset: number } })._reader;
    const string = reader._bits;
    const start = reader._offset;
    if (start + 256 > string._length) throw new Error(`Index ${start + 256} is out of bounds`);
    const data = string._data;
    let position = string._offset + start;
    for (let i = 0; i < 64; i++, position += 4) {
        const used = position & 7;
        // A nibble lies within one byte, or across two when the position is not on a 4-bit boundary.
        const pair = ((data[position >> 3] << 8) | (used > 4 ? data[(position >> 3) + 1] : 0)) >> (12 - used);
        hexScratch[i] = HEX_DIGITS[pair & 15];
    }
    slice.skip(256);
    return hexScratch.toString('latin1', 0, 64);
}

/**
 * A Builder whose bit copies (`storeBits`, and `storeSlice` through it) go as whole bytes when both
 * sides are byte-aligned and with a direct bit loop otherwise, where @ton/core's BitBuilder makes two
 * method calls a bit (a copy past the end takes @ton/core's own code, for its error), and whose
 * cells are made here (`builtCell`). It writes into the BitBuilder @ton/core's constructor made.
 */
class OwnBuilder extends Builder {
    override storeBits(src: BitString): this {
        const bits = (this as unknown as { _bits: BitBuilderInternals })._bits;
        const { data, offset } = bitsView(src);
        const count = src.length;
        const at = bits._length;
        const buffer = bits._buffer;
        if (at + count > buffer.length * 8) return super.storeBits(src);
        if ((at & 7) === 0 && (offset & 7) === 0) {
            // Bits past a builder's length are zero, as @ton/core assumes when it sets only the ones.
            const target = at >> 3;
            const source = offset >> 3;
            const whole = count >> 3;
            for (let i = 0; i < whole; i++) buffer[target + i] |= data[source + i];
            const tail = count & 7;
            if (tail !== 0) buffer[target + whole] |= data[source + whole] & (0xff00 >> tail);
        } else {
            for (let i = 0; i < count; i++) {
                const from = offset + i;
                if ((data[from >> 3] >> (7 - (from & 7))) & 1) {
                    const to = at + i;
                    buffer[to >> 3] |= 0x80 >> (to & 7);
                }
            }
        }
        bits._length = at + count;
        return this;
    }

    override endCell(opts?: { exotic?: boolean }): Cell {
        return builtCell(this, opts?.exotic ?? false);
    }
}

/** The fields of a @ton/core BitBuilder: its buffer (1023 bits, zeroed) and how many bits are written. */
interface BitBuilderInternals {
    _buffer: Uint8Array;
    _length: number;
}

/**
 * A builder for where many cells are built (the devnet's collator and its block and state layouts):
 * a @ton/core Builder in every way, whose `endCell()` makes one of our cells (hashed by us, when
 * first asked) and whose bit copies are whole bytes.
 */
export function cellBuilder(): Builder {
    return new OwnBuilder();
}

/** What a builder holds so far: its bits and its refs. */
export function builderContents(builder: Builder): { bits: BitString; refs: Cell[] } {
    const { _bits: bits, _refs: refs } = builder as unknown as { _bits: { build(): BitString }; _refs: Cell[] };
    return { bits: bits.build(), refs: [...refs] };
}

/**
 * The serialized bytes (descriptors + data, no refs) of a cell made here, when its maker gave them;
 * undefined for any other cell. Kept on the cell itself: a WeakMap entry for every cell read made
 * the collector's ephemeron work a few percent of a block's reading.
 */
export function ownBytes(cell: Cell): Buffer | undefined {
    return (cell as unknown as { _bytes?: Buffer })._bytes;
}

interface MadeCell { _hashes: Buffer[]; _depths: number[]; _data: Buffer | null; _bytes: Buffer | undefined; bits: BitString; refs: Cell[]; isExotic: boolean }

/**
 * Ordinary cells whose refs are all of level 0 (nearly every cell) are hashed when first asked:
 * an answer about a transaction needs the hashes of its messages, not of its phases' cells or of
 * the dictionary forks above its out messages. Until then `_hashes` and `_depths` are the shared
 * empty NOT_HASHED; hashing puts an array of one hash and the shared array of its depth in their
 * place (an array pushed to from empty takes room for 17). Iterative, children first, so no tree is
 * too deep for the stack.
 */
function hashPending(root: MadeCell): void {
    const stack: MadeCell[] = [root];
    while (stack.length > 0) {
        const cell = stack[stack.length - 1];
        if (cell._hashes.length !== 0) {
            stack.pop();
            continue;
        }
        let waiting = false;
        const refs = cell.refs as unknown as MadeCell[];
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
const MADE_CELL_PROTOTYPE = Object.create(Cell.prototype, {
    beginParse: { value(this: Cell, allowExotic = false) { return fastSlice(this, allowExotic); } },
    hash: {
        value(this: MadeCell, level = 3) {
            if (this._hashes.length === 0) hashPending(this);
            return this._hashes[Math.min(this._hashes.length - 1, level)];
        },
    },
    depth: {
        value(this: MadeCell, level = 3) {
            if (this._depths.length === 0) hashPending(this);
            return this._depths[Math.min(this._depths.length - 1, level)];
        },
    },
    level: { value(this: Cell) { return this.mask.level; } },
    equals: { value(this: Cell, other: Cell) { return this.hash().equals(other.hash()); } },
    [inspect.custom]: { value(this: Cell) { return this.toString(); } },
}) as object;

/**
 * The fields of a @ton/core Cell set by a constructor, so V8 keeps them inside the object (an
 * object made by Object.create and then given seven fields keeps some in a separate array); plus
 * `_data`, the padded bits (the same buffer `bits` reads) for a pending hash, and `_bytes` (ownBytes).
 */
const MadeCellObject = function (this: Record<string, unknown>, type: CellType, bits: BitString, refs: Cell[], mask: unknown, depths: number[], hashes: Buffer[], data: Buffer | null, bytes: Buffer | undefined) {
    this.type = type;
    this.bits = bits;
    this.refs = refs;
    this.mask = mask;
    this._depths = depths;
    this._hashes = hashes;
    this._data = data;
    this._bytes = bytes;
} as unknown as new (type: CellType, bits: BitString, refs: Cell[], mask: unknown, depths: number[], hashes: Buffer[], data: Buffer | null, bytes: Buffer | undefined) => Cell;
(MadeCellObject as unknown as { prototype: object }).prototype = MADE_CELL_PROTOTYPE;

/**
 * `_depths` of a hashed level-0 cell: one frozen array a depth, shared by every cell of that depth
 * (an array of its own costs a cell ~56 bytes, which adds up in trees held for long).
 */
function depthsOf(depth: number): number[] {
    return (DEPTHS[depth] ??= Object.freeze([depth]) as number[]);
}
const DEPTHS: number[][] = [];

/** `_hashes` and `_depths` of a cell not hashed yet (see hashPending). */
const NOT_HASHED = Object.freeze([]) as unknown as never[];

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

/**
 * A @ton/core-compatible cell of `bitLength` bits of `data` (padded, as serialized) and `refs`.
 * With `hashes`/`depths` (one per level, four) it is complete; without them it must be an ordinary
 * level-0 cell, hashed when first asked. The cell is sealed, not frozen (a pending hash is set
 * once); its bits and refs are frozen, as a @ton/core cell's are. `bytes`: its serialized bytes.
 */
export function makeCell(type: CellType, data: Buffer, bitLength: number, refs: Cell[], mask: number, hashes?: { hashes: Buffer[]; depths: number[] }, bytes?: Buffer): Cell {
    const cell = hashes
        ? new MadeCellObject(type, new LeanBitString(data, bitLength), refs, levelMask(mask), hashes.depths, hashes.hashes, null, bytes)
        : new MadeCellObject(type, new LeanBitString(data, bitLength), refs, levelMask(0), NOT_HASHED, NOT_HASHED, data, bytes);
    Object.freeze(refs);
    Object.freeze(cell.bits);
    Object.seal(cell);
    return cell;
}

/** A level-0 cell whose hash and depth are known (the devnet's cell store reads them with it). */
export function makeKnownCell(type: CellType, bits: BitString, refs: Cell[], hash: Buffer, depth: number, bytes: Buffer): Cell {
    const cell = new MadeCellObject(type, bits, refs, levelMask(0), [depth, depth, depth, depth], [hash, hash, hash, hash], null, bytes);
    Object.freeze(cell);
    return cell;
}

/**
 * Makes instances of `cellClass` pass for @ton/core cells (`instanceof Cell`, its methods such as
 * `toBoc` and `isExotic`): for a class of ours that stands for a cell and has a cell's fields.
 */
export function passForCells(cellClass: abstract new (...args: never[]) => object): void {
    Object.setPrototypeOf(cellClass.prototype, Cell.prototype);
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
    const mask = cellMask(like.isExotic, data, bits.length, refs);
    return buildCell(like.isExotic, d2, data, bits.length, refs, Buffer.concat([Buffer.from([refs.length + (like.isExotic ? 8 : 0) + mask * 32, d2]), data]));
}

/**
 * The cell a builder holds (an exotic one with `exotic`), hashed here instead of by `endCell()`: faster,
 * and the cell shares its methods through a prototype, where a @ton/core cell carries six closures
 * of its own (~350 bytes), which adds up in trees kept for long, like the devnet's accounts dictionary.
 */
export function builtCell(builder: Builder, exotic = false): Cell {
    const { bits, refs } = builderContents(builder);
    const d2 = Math.ceil(bits.length / 8) + Math.floor(bits.length / 8);
    return buildCell(exotic, d2, paddedBytes(bits), bits.length, refs);
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

/** The level mask of a cell (which levels its hash differs at), from its kind and its refs' masks. */
function cellMask(exotic: boolean, data: Buffer, bitLength: number, refs: Cell[]): number {
    const kind = exotic ? (bitLength >= 8 ? data[0] : -1) : 0;
    if (exotic && !(kind in CELL_TYPE)) throw new Error(`BOC has an exotic cell of unknown type ${kind}`);
    if (kind === Exotic.PrunedBranch) {
        if (refs.length !== 0) throw new Error('a pruned branch cell has refs');
        return bitLength === 280 ? 1 : data[1];
    }
    if (kind === Exotic.MerkleProof) {
        if (refs.length !== 1) throw new Error('a Merkle proof cell must have one ref');
        return refs[0].mask.value >> 1;
    }
    if (kind === Exotic.MerkleUpdate) {
        if (refs.length !== 2) throw new Error('a Merkle update cell must have two refs');
        return (refs[0].mask.value | refs[1].mask.value) >> 1;
    }
    if (kind === Exotic.Library) return 0;
    let mask = 0;
    for (const ref of refs) mask |= ref.mask.value;
    return mask;
}

/**
 * Hashes and depths of a cell at every level, as TON defines them (DataCell::compute_hashes): the
 * representation of level i is the refs descriptor with the level mask cut to i, the bits
 * descriptor, the data (or, above the first significant level, the previous level's hash), then
 * the refs' depths and hashes at level i (i + 1 under Merkle cells). Pruned branches carry their
 * higher-level hashes in their data.
 */
export function buildCell(exotic: boolean, d2: number, data: Buffer, bitLength: number, refs: Cell[], bytes?: Buffer): Cell {
    if (bitLength > 1023 || refs.length > 4) throw new Error('BOC cell exceeds 1023 bits or 4 refs');
    const mask = cellMask(exotic, data, bitLength, refs);
    const kind = exotic ? data[0] : 0;
    const merkle = kind === Exotic.MerkleProof || kind === Exotic.MerkleUpdate;
    if (kind === 0 && mask === 0) return makeCell(CellType.Ordinary, data, bitLength, refs, 0, undefined, bytes);
    const level = mask >= 4 ? 3 : mask >= 2 ? 2 : mask >= 1 ? 1 : 0;
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
    return makeCell(exotic ? CELL_TYPE[kind] : CellType.Ordinary, data, bitLength, refs, mask, { hashes: resolvedHashes, depths: resolvedDepths }, bytes);
}
