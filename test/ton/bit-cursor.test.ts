import { test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes, randomInt } from 'node:crypto';
import { beginCell, BitString, type Cell } from '@ton/core';
import { BitCursor } from '../../src/ton/bit-cursor.ts';
import { readBoc } from '../../src/ton/boc/boc-reader.ts';
import { writeBoc } from '../../src/ton/boc/boc-writer.ts';

/** A cell of `length` random bits, as @ton/core builds it and as our BOC reader reads it back (both kinds of bits the cursor meets). */
function randomCells(length: number): Cell[] {
    const data = randomBytes(128);
    const built = beginCell().storeBits(new BitString(data, 0, length)).endCell();
    return [built, readBoc(writeBoc(built))[0]];
}

test('the cursor reads what a @ton/core slice reads, field by field, at any offset', () => {
    for (let round = 0; round < 2000; round++) {
        const length = randomInt(1, 1024);
        for (const cell of randomCells(length)) {
            const slice = cell.beginParse();
            const cursor = new BitCursor(cell);
            let left = length;
            while (left > 0) {
                const kind = randomInt(0, 4);
                if (kind === 0) {
                    assert.equal(cursor.bit(), slice.loadBit());
                    left -= 1;
                } else if (kind === 1) {
                    const bits = randomInt(0, Math.min(48, left) + 1);
                    assert.equal(cursor.uint(bits), Number(slice.loadUintBig(bits)));
                    left -= bits;
                } else if (kind === 2) {
                    const bits = randomInt(0, left + 1);
                    assert.equal(cursor.uintBig(bits), slice.loadUintBig(bits));
                    left -= bits;
                } else {
                    const bytes = randomInt(0, (left >> 3) + 1);
                    assert.deepEqual(cursor.buffer(bytes), slice.loadBuffer(bytes));
                    left -= bytes * 8;
                }
            }
        }
    }
});

test('grams read as var_uint, a cursor reset onto another cell, and reads past the end fail', () => {
    const cell = beginCell().storeUint(0b10110, 5).storeCoins(1_234_567_890_123_456_789n).storeCoins(0n).endCell();
    const cursor = new BitCursor(cell);
    assert.equal(cursor.uint(5), 0b10110);
    assert.equal(cursor.varUint(4), 1_234_567_890_123_456_789n);
    assert.equal(cursor.varUint(4), 0n);
    assert.throws(() => cursor.bit(), /out of bounds/);
    cursor.reset(beginCell().storeUint(7, 3).endCell());
    assert.equal(cursor.uint(3), 7);
    assert.throws(() => cursor.uint(1), /out of bounds/);
    assert.throws(() => new BitCursor(beginCell().storeUint(1, 10).endCell()).uint(49), /at most 48 bits/);
    assert.throws(() => new BitCursor(beginCell().storeUint(1, 10).endCell()).buffer(2), /out of bounds/);
});
