import test from 'node:test';
import assert from 'node:assert/strict';
import { beginCell } from '@ton/core';
import { loadBidaskNativeSwap, loadBidaskProvideBoth, loadBidaskSwapSuccess, tryLoad } from '../../../src/ton/bodies/index.ts';
import { ALICE, plain } from './builders.ts';

/** op + query_id and the rest of the body. */
const msg = (op: number, tail: (b: ReturnType<typeof beginCell>) => void = () => {}) => {
    const b = beginCell().storeUint(op, 32).storeUint(11, 64);
    tail(b);
    return b.endCell();
};

test('Bidask swap#f2ef6c1b (grams in), swap_success v1 and v2, provide_both payload', () => {
    assert.deepEqual(plain(tryLoad(loadBidaskNativeSwap, msg(0xf2ef6c1b, (b) => b.storeCoins(5n).storeAddress(ALICE).storeCoins(1n)))), plain({ queryId: 11n, tonAmount: 5n, toAddress: ALICE }));
    for (const op of [0x520e4831, 0xd3a25890]) {
        const body = msg(op, (b) => b.storeUint(7, 32).storeUint(123n, 256).storeBit(1).storeCoins(100n).storeCoins(200n).storeBit(1));
        assert.deepEqual(plain(tryLoad(loadBidaskSwapSuccess, body)), plain({
            opCode: op, queryId: 11n, newCurrentBin: 7, newSqrtP: 123n, fromAccount: true, amountX: 100n, amountY: 200n, isX: true,
        }));
    }
    assert.equal(tryLoad(loadBidaskSwapSuccess, msg(0x520e4832, (b) => b.storeUint(7, 32).storeUint(123n, 256).storeBit(1).storeCoins(1n).storeCoins(2n).storeBit(1))), null);
    assert.deepEqual(plain(tryLoad(loadBidaskProvideBoth, beginCell().storeUint(0x3ea0bafc, 32).storeCoins(2_000_000_000n).storeUint(1, 4).endCell())), plain({ tonAmount: 2_000_000_000n }));
});
