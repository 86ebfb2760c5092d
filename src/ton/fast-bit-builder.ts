import { createRequire } from 'node:module';
import type { BitString } from '@ton/core';

/**
 * @ton/core's BitBuilder copies a bit string into a builder (`storeBits`, `storeSlice`) one bit at
 * a time through two method calls a bit. This replaces that primitive with a copy of whole bytes
 * when both sides are byte-aligned (the builder's bits and the string's start), and a direct bit
 * loop otherwise; a copy past the builder's end takes the original, for its error. Importing this
 * module once (it is idempotent) is enough; fast-hash.ts does.
 */
const require = createRequire(import.meta.url);
const { BitBuilder } = require('@ton/core/dist/boc/BitBuilder') as { BitBuilder: { prototype: Record<string, unknown> } };

interface BuilderInternals {
    _buffer: Uint8Array;
    _length: number;
}

type WriteBits = ((this: BuilderInternals, src: BitString) => void) & { fast?: true };

const bitByBit = BitBuilder.prototype.writeBits as WriteBits;

if (!bitByBit.fast) {
    const fast: WriteBits = function (this: BuilderInternals, src: BitString): void {
        const { _data: data, _offset: offset } = src as unknown as { _data: Uint8Array; _offset: number };
        const count = src.length;
        const at = this._length;
        const buffer = this._buffer;
        if (at + count > buffer.length * 8) return bitByBit.call(this, src);
        if ((at & 7) === 0 && (offset & 7) === 0) {
            // Bits past a builder's length are zero, as the original assumes when it sets only the ones.
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
        this._length = at + count;
    };
    fast.fast = true;
    BitBuilder.prototype.writeBits = fast;
}

export {};
