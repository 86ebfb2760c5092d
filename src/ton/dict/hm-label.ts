import type { Builder, Slice } from '@ton/core';

// hml_short$0 {m:#} {n:#} len:(Unary ~n) {n <= m} s:(n * Bit) = HmLabel ~n m;
// hml_long$10 {m:#} n:(#<= m) s:(n * Bit) = HmLabel ~n m;
// hml_same$11 {m:#} v:Bit n:(#<= m) = HmLabel ~n m;

/** Bits of a `#<= max` field. */
export function lengthFieldBits(max: number): number {
    return max === 0 ? 0 : 32 - Math.clz32(max);
}

/**
 * Stores the label made of the `length` bits of `key` (a `keyBits`-bit number) that start `offset`
 * bits from its top, in a node where at most `max` label bits remain; the shortest form, as TON's
 * dictionaries write it (ties: hml_short, then hml_long).
 */
export function storeHmLabel(builder: Builder, key: bigint, keyBits: number, offset: number, length: number, max: number): void {
    const bits = length === 0 ? 0n : (key >> BigInt(keyBits - offset - length)) & ((1n << BigInt(length)) - 1n);
    const k = lengthFieldBits(max);
    const short = 2 * length + 2;
    const long = 2 + k + length;
    const allSame = length > 0 && (bits === 0n || bits === (1n << BigInt(length)) - 1n);
    const same = allSame ? 3 + k : Infinity;
    if (same < short && same < long) {
        builder.storeUint(0b11, 2).storeBit(bits !== 0n).storeUint(length, k);
    } else if (short <= long) {
        builder.storeBit(false);
        for (let i = 0; i < length; i++) builder.storeBit(true);
        builder.storeBit(false);
        if (length > 0) builder.storeUint(bits, length);
    } else {
        builder.storeUint(0b10, 2).storeUint(length, k);
        if (length > 0) builder.storeUint(bits, length);
    }
}

/** Reads an HmLabel of at most `max` bits: its length and its bits as a number; throws on a label longer than the key. */
export function readHmLabel(slice: Slice, max: number): { length: number; bits: bigint } {
    if (!slice.loadBit()) {
        let length = 0;
        while (slice.loadBit()) length++;
        if (length > max) throw new Error('hml_short label longer than the key');
        return { length, bits: length === 0 ? 0n : slice.loadUintBig(length) };
    }
    if (!slice.loadBit()) {
        const length = slice.loadUint(lengthFieldBits(max));
        if (length > max) throw new Error('hml_long label longer than the key');
        return { length, bits: length === 0 ? 0n : slice.loadUintBig(length) };
    }
    const bit = slice.loadBit();
    const length = slice.loadUint(lengthFieldBits(max));
    if (length > max) throw new Error('hml_same label longer than the key');
    return { length, bits: bit && length > 0 ? (1n << BigInt(length)) - 1n : 0n };
}
