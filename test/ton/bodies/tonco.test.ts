import test from 'node:test';
import assert from 'node:assert/strict';
import { beginCell } from '@ton/core';
import { TONCO_PAY_TO_SWAP_OK, loadToncoRouterPayTo, tryLoad } from '../../../src/ton/bodies/index.ts';
import { ALICE, plain } from './builders.ts';

/** op + query_id and the rest of the body. */
const msg = (op: number, tail: (b: ReturnType<typeof beginCell>) => void = () => {}) => {
    const b = beginCell().storeUint(op, 32).storeUint(11, 64);
    tail(b);
    return b.endCell();
};

test('TONCO ROUTERV3_PAY_TO#a1daa96d: receivers and exit code', () => {
    const body = msg(0xa1daa96d, (b) => b.storeAddress(ALICE).storeAddress(null).storeUint(TONCO_PAY_TO_SWAP_OK, 32).storeUint(0, 64).storeBit(0));
    assert.deepEqual(plain(tryLoad(loadToncoRouterPayTo, body)), plain({ queryId: 11n, receiver0: ALICE, receiver1: null, exitCode: 200 }));
});
