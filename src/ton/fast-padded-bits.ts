import { createRequire } from 'node:module';
import type { BitString } from '@ton/core';

/**
 * @ton/core pads a cell's data for hashing and serialization (`bitsToPaddedBuffer`: the bits, then
 * a 1 bit and zeros up to a whole byte) by copying it bit by bit, which was most of the time the
 * devnet's collator spent building its accounts dictionary's cells. Its modules read that function
 * from the module's exports at each call, so replacing the export makes every cell @ton/core
 * builds, hashes or serializes use `paddedBytes`. Importing this module once (it is idempotent) is
 * enough; fast-hash.ts does.
 */
const require = createRequire(import.meta.url);
const paddedBits = require('@ton/core/dist/boc/utils/paddedBits') as { bitsToPaddedBuffer: ((bits: BitString) => Buffer) & { fast?: true } };

const bitByBit = paddedBits.bitsToPaddedBuffer;

/** A bit string's bytes with the completion tag; byte-aligned ones (those of builders and of cells read from BOCs) are copied as bytes. */
export function paddedBytes(bits: BitString): Buffer {
    const { _data: source, _offset: offset } = bits as unknown as { _data: Uint8Array; _offset: number };
    if (offset % 8 !== 0) return bitByBit(bits);
    const length = bits.length;
    const size = Math.ceil(length / 8);
    const data = Buffer.alloc(size);
    data.set(source.subarray(offset / 8, offset / 8 + size));
    const tail = length % 8;
    if (tail !== 0) data[size - 1] = (data[size - 1] & (0xff << (8 - tail))) | (0x80 >> tail);
    return data;
}

if (!bitByBit.fast) {
    const fast = paddedBytes as typeof paddedBytes & { fast?: true };
    fast.fast = true;
    paddedBits.bitsToPaddedBuffer = fast;
}
