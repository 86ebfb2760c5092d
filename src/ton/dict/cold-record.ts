import { BitReader, BitString, Slice, type Cell } from '@ton/core';
import { readBoc } from '../boc/boc-reader.ts';
import { writeBoc } from '../boc/boc-writer.ts';
import { paddedBytes } from '../cells/core-cells.ts';

/** A cold subtree of an augmented dictionary as a fold store keeps it (see augmented-dict.ts). */
export interface ColdFields {
    /** A folded fork (its own pair kept under `id`), else a region loaded back from the dictionary's source. */
    folded: boolean;
    hash: Buffer;
    depth: number;
    offset: number;
    length: number;
    /** Any key below it, at most 256 bits. */
    key: bigint;
    id: number;
}

const HEAD_BYTES = 1 + 32 + 2 + 2 + 2 + 32 + 6 + 2 + 1;

/**
 * kind (0 region, 1 folded), hash, depth, offset, length, key, the store id (0 for a region), the
 * extra's bit length and ref count, its bits, then each ref as a length-prefixed BOC.
 */
export function writeColdRecord(fields: ColdFields, extra: Cell): Buffer {
    const head = Buffer.allocUnsafe(HEAD_BYTES);
    let at = head.writeUInt8(fields.folded ? 1 : 0, 0);
    at += fields.hash.copy(head, at);
    at = head.writeUInt16BE(fields.depth, at);
    at = head.writeUInt16BE(fields.offset, at);
    at = head.writeUInt16BE(fields.length, at);
    at += Buffer.from(fields.key.toString(16).padStart(64, '0'), 'hex').copy(head, at);
    at = head.writeUIntBE(fields.id, at, 6);
    at = head.writeUInt16BE(extra.bits.length, at);
    head.writeUInt8(extra.refs.length, at);
    const parts = [head, paddedBytes(extra.bits)];
    for (const ref of extra.refs) {
        const boc = writeBoc(ref);
        const size = Buffer.allocUnsafe(4);
        size.writeUInt32BE(boc.length, 0);
        parts.push(size, boc);
    }
    return Buffer.concat(parts);
}

/** The record `writeColdRecord` wrote at `start` of `buffer`, its extra as a slice, and where it ends. */
export function readColdRecord(buffer: Buffer, start: number): { fields: ColdFields; extra: Slice; end: number } {
    let at = start;
    const folded = buffer[at] === 1;
    const hash = Buffer.from(buffer.subarray(at + 1, at + 33));
    at += 33;
    const depth = buffer.readUInt16BE(at);
    const offset = buffer.readUInt16BE(at + 2);
    const length = buffer.readUInt16BE(at + 4);
    at += 6;
    const key = BigInt(`0x${buffer.toString('hex', at, at + 32)}`);
    at += 32;
    const id = buffer.readUIntBE(at, 6);
    const bitLength = buffer.readUInt16BE(at + 6);
    const refCount = buffer[at + 8];
    at += 9;
    const byteLength = Math.ceil(bitLength / 8);
    const bits = new BitString(buffer.subarray(at, at + byteLength), 0, bitLength);
    at += byteLength;
    const refs: Cell[] = [];
    for (let i = 0; i < refCount; i++) {
        const size = buffer.readUInt32BE(at);
        refs.push(readBoc(buffer.subarray(at + 4, at + 4 + size))[0]);
        at += 4 + size;
    }
    return { fields: { folded, hash, depth, offset, length, key, id }, extra: new Slice(new BitReader(bits), refs), end: at };
}
