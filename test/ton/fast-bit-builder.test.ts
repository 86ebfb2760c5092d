import { test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes, randomInt } from 'node:crypto';
import { BitBuilder, BitString, beginCell } from '@ton/core';
import '../../src/ton/fast-bit-builder.ts';

/** The bits of a string, one by one, as the reference. */
function bitsOf(bits: BitString): boolean[] {
    return Array.from({ length: bits.length }, (_, i) => bits.at(i));
}

test('copying a bit string into a builder gives the bits copying them one by one gives, at any alignment', () => {
    assert.equal((BitBuilder.prototype as unknown as { writeBits: { fast?: boolean } }).writeBits.fast, true, 'the fast copy is installed');
    for (let round = 0; round < 3000; round++) {
        const data = randomBytes(64);
        const offset = randomInt(0, 24);
        const length = randomInt(0, Math.min(400, 64 * 8 - offset) + 1);
        const source = new BitString(data, offset, length);
        const before = randomInt(0, 1023 - length + 1);
        const lead = Array.from({ length: before }, () => randomInt(0, 2) === 1);

        const builder = new BitBuilder(1023);
        for (const bit of lead) builder.writeBit(bit);
        builder.writeBits(source);
        builder.writeBit(true);

        const expected = [...lead, ...bitsOf(source), true];
        assert.equal(builder.length, expected.length);
        assert.deepEqual(bitsOf(builder.build()), expected, `${length} bits at offset ${offset} after ${before}`);
    }
});

test('slices stored into cells hash as before, and a copy past the builder\'s end still fails', () => {
    const inner = beginCell().storeUint(0x1234567, 27).storeBuffer(randomBytes(20)).storeUint(5, 3).endCell();
    const cell = beginCell().storeUint(1, 1).storeSlice(inner.beginParse()).endCell();
    assert.deepEqual(bitsOf(cell.bits), [true, ...bitsOf(inner.bits)]);
    const full = new BitBuilder(16);
    full.writeUint(0, 10);
    assert.throws(() => full.writeBits(new BitString(Buffer.alloc(2), 0, 16)), /overflow/);
});
