import { createRequire } from 'node:module';
import type { Slice } from '@ton/core';
import { type BitStringInternals, uintAt } from './bit-cursor.ts';

/**
 * @ton/core's BitReader reads every unsigned integer bit by bit with a BigInt addition per bit,
 * which dominates reading blocks (256-bit dictionary labels and keys, addresses, coins). This
 * replaces that one primitive with a reading of whole byte chunks; results, and the error for a
 * read past the end, are the same (the original runs for those). Importing this module once
 * (it is idempotent) is enough; fast-hash.ts does. It also reads 256 bits as hex (loadHex256).
 */
const require = createRequire(import.meta.url);
const { BitReader } = require('@ton/core/dist/boc/BitReader') as { BitReader: { prototype: Record<string, unknown> } };

type PreloadUint = (this: { _bits: BitStringInternals }, bits: number, offset: number) => bigint;

const original = BitReader.prototype._preloadUint as PreloadUint & { fast?: true };

if (!original.fast) {
    const fast: PreloadUint & { fast?: true } = function (this: { _bits: BitStringInternals }, bits: number, offset: number): bigint {
        const string = this._bits;
        if (bits <= 0 || offset < 0 || offset + bits > string._length) return original.call(this, bits, offset);
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
    fast.fast = true;
    BitReader.prototype._preloadUint = fast;
}


interface SliceInternals {
    _reader: { _bits: BitStringInternals; _offset: number };
}

const HEX_DIGITS = Buffer.from('0123456789abcdef', 'latin1');
const hexScratch = Buffer.allocUnsafe(64);

/**
 * The next 256 bits of a slice as 64 lowercase hex digits, and the slice moved past them: an
 * address's hash read for its raw form ('wc:hex') without the BigInt chunks of `loadUintBig` and
 * its string conversions (messages' addresses are read for every transaction of every block).
 */
export function loadHex256(slice: Slice): string {
    const reader = (slice as unknown as SliceInternals)._reader;
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
