import { crc32c } from '@ton/core';

/**
 * Bags of cells as plain data (serialized_boc#b5ee9c72), read and written without building cells,
 * so the fuzzer can make bags no well-behaved writer would: thousands of cells deep, references
 * backwards, header counts that lie. Everything here is iterative (no recursion over cells).
 */

export interface RawCell {
    /** d1 without its reference count: exotic flag (8) and level mask (bits 5..7). */
    d1Flags: number;
    /** d2: 2 × full bytes + 1 when the last byte is partial (carries the completion tag). */
    d2: number;
    /** The cell's data bytes as serialized (completion tag included). */
    data: Buffer;
    /** Indexes of the referenced cells in the bag. */
    refs: number[];
}

export interface RawBag {
    cells: RawCell[];
    roots: number[];
}

export interface WriteOptions {
    hasIndex?: boolean;
    hasCrc?: boolean;
    /** Header fields written as given instead of their true values. */
    lie?: { cellCount?: number; rootCount?: number; absent?: number; totalSize?: number; sizeBytes?: number; offBytes?: number };
}

/** A cell of whole bytes (or of `bitLength` bits, padded with the completion tag). */
export function rawCell(data: Buffer, refs: number[] = [], bitLength = data.length * 8, d1Flags = 0): RawCell {
    const full = Math.floor(bitLength / 8);
    const partial = bitLength % 8 !== 0;
    const bytes = Buffer.alloc(full + (partial ? 1 : 0));
    data.copy(bytes, 0, 0, bytes.length);
    if (partial) {
        const used = bitLength % 8;
        const keep = (0xff << (8 - used)) & 0xff;
        bytes[full] = (bytes[full] & keep) | (1 << (7 - used));
    }
    return { d1Flags, d2: full * 2 + (partial ? 1 : 0), data: bytes, refs };
}

function byteSize(n: number): number {
    let bytes = 1;
    while (n >= 2 ** (8 * bytes)) bytes++;
    return bytes;
}

export function writeRawBag(bag: RawBag, options: WriteOptions = {}): Buffer {
    const count = bag.cells.length;
    const size = options.lie?.sizeBytes ?? byteSize(Math.max(count, 1));
    const cellParts: Buffer[] = [];
    const ends: number[] = [];
    let total = 0;
    for (const cell of bag.cells) {
        const part = Buffer.alloc(2 + cell.data.length + cell.refs.length * size);
        part[0] = (cell.d1Flags & ~7) | (cell.refs.length & 7);
        part[1] = cell.d2;
        cell.data.copy(part, 2);
        let pos = 2 + cell.data.length;
        for (const ref of cell.refs) {
            part.writeUIntBE(ref % 2 ** (8 * Math.min(size, 6)), pos + Math.max(0, size - 6), Math.min(size, 6));
            pos += size;
        }
        cellParts.push(part);
        total += part.length;
        ends.push(total);
    }
    const offBytes = options.lie?.offBytes ?? byteSize(Math.max(total, 1));
    const header = Buffer.alloc(6 + 3 * size + offBytes);
    header.writeUInt32BE(0xb5ee9c72, 0);
    header[4] = (options.hasIndex ? 0x80 : 0) | (options.hasCrc ? 0x40 : 0) | (size & 7);
    header[5] = offBytes;
    const writeN = (value: number, at: number, n: number) => {
        const width = Math.min(n, 6);
        header.writeUIntBE(value % 2 ** (8 * width), at + n - width, width);
    };
    let pos = 6;
    writeN(options.lie?.cellCount ?? count, pos, size); pos += size;
    writeN(options.lie?.rootCount ?? bag.roots.length, pos, size); pos += size;
    writeN(options.lie?.absent ?? 0, pos, size); pos += size;
    writeN(options.lie?.totalSize ?? total, pos, offBytes);
    const rootList = Buffer.alloc(bag.roots.length * size);
    bag.roots.forEach((root, i) => rootList.writeUIntBE(root % 2 ** (8 * Math.min(size, 6)), i * size + Math.max(0, size - 6), Math.min(size, 6)));
    const index = Buffer.alloc(options.hasIndex ? count * offBytes : 0);
    if (options.hasIndex) ends.forEach((end, i) => index.writeUIntBE(end % 2 ** (8 * Math.min(offBytes, 6)), i * offBytes + Math.max(0, offBytes - 6), Math.min(offBytes, 6)));
    const body = Buffer.concat([header, rootList, index, ...cellParts]);
    if (!options.hasCrc) return body;
    return Buffer.concat([body, crc32c(body)]);
}

/** Reads a well-formed serialized_boc#b5ee9c72 (what @ton/core writes) into plain data. */
export function readRawBag(src: Buffer): RawBag {
    if (src.readUInt32BE(0) !== 0xb5ee9c72) throw new Error('not a b5ee9c72 bag');
    const flags = src[4];
    const size = flags & 7;
    const offBytes = src[5];
    let pos = 6;
    const readN = (n: number) => {
        const value = src.readUIntBE(pos, n);
        pos += n;
        return value;
    };
    const count = readN(size);
    const rootCount = readN(size);
    readN(size);
    readN(offBytes);
    const roots: number[] = [];
    for (let i = 0; i < rootCount; i++) roots.push(readN(size));
    if (flags & 0x80) pos += count * offBytes;
    const cells: RawCell[] = [];
    for (let i = 0; i < count; i++) {
        const d1 = src[pos];
        const d2 = src[pos + 1];
        pos += 2;
        const length = Math.ceil(d2 / 2);
        const data = Buffer.from(src.subarray(pos, pos + length));
        pos += length;
        const refs: number[] = [];
        for (let r = 0; r < (d1 & 7); r++) refs.push(readN(size));
        cells.push({ d1Flags: d1 & ~7, d2, data, refs });
    }
    return { cells, roots };
}

export function cloneBag(bag: RawBag): RawBag {
    return { roots: [...bag.roots], cells: bag.cells.map(c => ({ ...c, data: Buffer.from(c.data), refs: [...c.refs] })) };
}

/** Offsets of the header fields of a bag, for mutations that rewrite them in place. */
export function headerLayout(src: Buffer): { size: number; offBytes: number; cellCountAt: number; rootCountAt: number; absentAt: number; totalSizeAt: number; rootsAt: number } {
    const size = src[4] & 7;
    const offBytes = src[5];
    return { size, offBytes, cellCountAt: 6, rootCountAt: 6 + size, absentAt: 6 + 2 * size, totalSizeAt: 6 + 3 * size, rootsAt: 6 + 3 * size + offBytes };
}
