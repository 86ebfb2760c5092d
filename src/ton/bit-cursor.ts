import type { Cell } from '@ton/core';
import { bitsView, uintAt } from './cells/core-cells.ts';

/**
 * Reads a cell's bits straight from its buffer, numbers as Numbers where they fit: for the hot walks
 * that read many small fields of many cells (a @ton/core Slice is four objects a cell, and a BigInt
 * and a Buffer for most fields). Reading past the cell's bits throws, as a Slice does.
 */
export class BitCursor {
    private data: Buffer = Buffer.alloc(0);
    private start = 0;
    private position = 0;
    private end = 0;

    constructor(cell?: Cell) {
        if (cell) this.reset(cell);
    }

    /** The cursor at the start of `cell`'s bits, for reading another cell without a new cursor. */
    reset(cell: Cell): this {
        const { data, offset, length } = bitsView(cell.bits);
        this.data = data;
        this.start = offset;
        this.position = offset;
        this.end = offset + length;
        return this;
    }

    bit(): boolean {
        this.need(1);
        const at = this.position++;
        return ((this.data[at >> 3] >> (7 - (at & 7))) & 1) === 1;
    }

    /** An unsigned integer of up to 48 bits, exact as a Number. */
    uint(bits: number): number {
        if (bits > 48) throw new Error(`BitCursor.uint reads at most 48 bits, asked for ${bits}`);
        this.need(bits);
        const value = uintAt(this.data, this.position, bits);
        this.position += bits;
        return value;
    }

    /** An unsigned integer of any width. */
    uintBig(bits: number): bigint {
        if (bits <= 48) return BigInt(this.uint(bits));
        this.need(bits);
        let value = 0n;
        for (let left = bits; left > 0;) {
            const take = Math.min(48, left);
            value = (value << BigInt(take)) | BigInt(this.uint(take));
            left -= take;
        }
        return value;
    }

    /** `var_uint$_ {n:#} len:(#< n) value:(uint (len * 8))`, as Grams (n = 16) are stored. */
    varUint(lengthBits: number): bigint {
        const bytes = this.uint(lengthBits);
        return bytes === 0 ? 0n : this.uintBig(bytes * 8);
    }

    /** `bytes` whole bytes, copied. */
    buffer(bytes: number): Buffer {
        this.need(bytes * 8);
        if ((this.position & 7) === 0) {
            const start = this.position >> 3;
            this.position += bytes * 8;
            return Buffer.from(this.data.subarray(start, start + bytes));
        }
        const out = Buffer.allocUnsafe(bytes);
        for (let i = 0; i < bytes; i++) out[i] = this.uint(8);
        return out;
    }

    skip(bits: number): void {
        this.need(bits);
        this.position += bits;
    }

    private need(bits: number): void {
        if (this.position + bits > this.end) throw new Error(`Index ${this.position + bits - this.start} is out of bounds`);
    }
}
