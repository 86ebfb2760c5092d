import test from 'node:test';
import assert from 'node:assert/strict';
import { beginCell } from '@ton/core';
import { loadWhalesStakeWithdraw, tryLoad } from '../../../src/ton/bodies/index.ts';
import { plain } from './builders.ts';

/** op + query_id and the rest of the body. */
const msg = (op: number, tail: (b: ReturnType<typeof beginCell>) => void = () => {}) => {
    const b = beginCell().storeUint(op, 32).storeUint(11, 64);
    tail(b);
    return b.endCell();
};

test('Whales stake_withdraw#da803efd: gas limit and stake', () => {
    assert.deepEqual(plain(tryLoad(loadWhalesStakeWithdraw, msg(0xda803efd, (b) => b.storeCoins(100_000n).storeCoins(0n)))), plain({ queryId: 11n, gasLimit: 100_000n, stake: 0n }));
    assert.equal(tryLoad(loadWhalesStakeWithdraw, msg(0xda803efd, (b) => b.storeCoins(100_000n))), null);
});
