import { test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes, randomInt } from 'node:crypto';
import { BitReader, BitString, beginCell } from '@ton/core';
import { loadHex256 } from '../../src/ton/fast-bit-reader.ts';

/** The reading @ton/core does, bit by bit, as the reference. */
function reference(data: Buffer, start: number, bits: number): bigint {
    let result = 0n;
    for (let i = 0; i < bits; i++) {
        const at = start + i;
        if ((data[at >> 3] >> (7 - (at & 7))) & 1) result |= 1n << BigInt(bits - 1 - i);
    }
    return result;
}

test('unsigned reads of any width at any offset give what reading bit by bit gives', () => {
    assert.equal((BitReader.prototype as unknown as { _preloadUint: { fast?: boolean } })._preloadUint.fast, true, 'the fast reading is installed');
    for (let round = 0; round < 3000; round++) {
        const data = randomBytes(40);
        const stringOffset = randomInt(0, 16);
        const length = randomInt(0, 40 * 8 - stringOffset + 1);
        const reader = new BitReader(new BitString(data, stringOffset, length));
        const skip = randomInt(0, length + 1);
        const bits = randomInt(0, length - skip + 1);
        reader.skip(skip);
        assert.equal(reader.loadUintBig(bits), reference(data, stringOffset + skip, bits), `width ${bits} at ${stringOffset + skip}`);
    }
});

test('signed reads and coins still decode, and a read past the end still fails as before', () => {
    const data = Buffer.from('ffffffffffffffff0123456789abcdef', 'hex');
    const reader = new BitReader(new BitString(data, 0, 128));
    assert.equal(reader.loadInt(64), -1);
    assert.equal(reader.loadUintBig(64), 0x0123456789abcdefn);
    assert.throws(() => new BitReader(new BitString(data, 0, 10)).loadUint(11), /out of bounds/);
});

test('loadHex256 reads 256 bits at any offset as the hex of those bytes, and moves the slice past them', () => {
    for (let offset = 0; offset < 16; offset++) {
        for (let round = 0; round < 20; round++) {
            const hash = randomBytes(32);
            const slice = beginCell().storeUint(randomInt(1 << 16) & ((1 << offset) - 1), offset).storeBuffer(hash).storeUint(5, 3).endCell().beginParse();
            slice.skip(offset);
            assert.equal(loadHex256(slice), hash.toString('hex'));
            assert.equal(slice.loadUint(3), 5);
        }
    }
    const short = beginCell().storeBuffer(randomBytes(31)).endCell().beginParse();
    assert.throws(() => loadHex256(short), /out of bounds/);
    assert.equal(short.remainingBits, 248, 'a failed read leaves the slice where it was');
});
