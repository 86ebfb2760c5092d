import test from 'node:test';
import assert from 'node:assert/strict';
import { beginCell } from '@ton/core';
import { loadAffluentProvideAggregatedData, tryLoad } from '../../../src/ton/bodies/index.ts';
import { ALICE, plain } from './builders.ts';

/** op + query_id and the rest of the body. */
const msg = (op: number, tail: (b: ReturnType<typeof beginCell>) => void = () => {}) => {
    const b = beginCell().storeUint(op, 32).storeUint(11, 64);
    tail(b);
    return b.endCell();
};

test('Affluent provide_aggregated_data#b0c69ffe: the three request maps and the context op', () => {
    const requests = beginCell().storeUint(1, 8).endCell();
    const body = msg(0xb0c69ffe, (b) => b.storeMaybeRef(requests).storeBit(0).storeBit(0).storeUint(0xf9471134, 32).storeAddress(ALICE));
    assert.deepEqual(plain(tryLoad(loadAffluentProvideAggregatedData, body)), plain({ queryId: 11n, assetRequests: requests, poolRequests: null, vaultRequests: null, contextOp: 0xf9471134 }));
});
