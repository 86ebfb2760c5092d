import test from 'node:test';
import assert from 'node:assert/strict';
import { beginCell } from '@ton/core';
import { loadFfvaultUnstakeRequest, tryLoad } from '../../../src/ton/bodies/index.ts';
import { plain } from './builders.ts';

/** op + query_id and the rest of the body. */
const msg = (op: number, tail: (b: ReturnType<typeof beginCell>) => void = () => {}) => {
    const b = beginCell().storeUint(op, 32).storeUint(11, 64);
    tail(b);
    return b.endCell();
};

test('FFVault unstake_request#8a77cf39: the amount, and nothing after it', () => {
    assert.deepEqual(plain(tryLoad(loadFfvaultUnstakeRequest, msg(0x8a77cf39, (b) => b.storeCoins(9_974n)))), plain({ queryId: 11n, amount: 9_974n }));
    assert.equal(tryLoad(loadFfvaultUnstakeRequest, msg(0x8a77cf39, (b) => b.storeCoins(9_974n).storeUint(1, 8))), null);
    assert.equal(tryLoad(loadFfvaultUnstakeRequest, msg(0x8a77cf39, (b) => b.storeCoins(9_974n).storeRef(beginCell().endCell()))), null);
});
