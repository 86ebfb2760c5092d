import { createRequire } from 'node:module';

/**
 * @ton/core's BitReader reads every unsigned integer bit by bit with a BigInt addition per bit,
 * which dominates reading blocks (256-bit dictionary labels and keys, addresses, coins). This
 * replaces that one primitive with a reading of whole byte chunks; results, and the error for a
 * read past the end, are the same (the original runs for those). Importing this module once
 * (it is idempotent) is enough; fast-hash.ts does.
 */
const require = createRequire(import.meta.url);
const { BitReader } = require('@ton/core/dist/boc/BitReader') as { BitReader: { prototype: Record<string, unknown> } };

interface BitStringInternals {
    _data: Buffer;
    _offset: number;
    _length: number;
}

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
            let chunk = 0;
            let left = chunkBits;
            while (left > 0) {
                const used = position & 7;
                const take = Math.min(8 - used, left);
                const bitsOfByte = (data[position >> 3] >> (8 - used - take)) & ((1 << take) - 1);
                chunk = chunk * (1 << take) + bitsOfByte;
                position += take;
                left -= take;
            }
            result = chunkBits === bits ? BigInt(chunk) : (result << BigInt(chunkBits)) | BigInt(chunk);
            remaining -= chunkBits;
        }
        return result;
    };
    fast.fast = true;
    BitReader.prototype._preloadUint = fast;
}

export {};
