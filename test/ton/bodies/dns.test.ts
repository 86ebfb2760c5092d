import test from 'node:test';
import assert from 'node:assert/strict';
import { beginCell } from '@ton/core';
import { loadChangeDnsRecord, tryLoad } from '../../../src/ton/bodies/index.ts';
import { plain } from './builders.ts';

/** op + query_id and the rest of the body. */
const msg = (op: number, tail: (b: ReturnType<typeof beginCell>) => void = () => {}) => {
    const b = beginCell().storeUint(op, 32).storeUint(11, 64);
    tail(b);
    return b.endCell();
};

test('change_dns_record#4eb1f0f9: a value in a ref sets, none deletes; nothing else may follow the key', () => {
    const value = beginCell().storeUint(0x9fd3, 16).endCell();
    assert.deepEqual(plain(tryLoad(loadChangeDnsRecord, msg(0x4eb1f0f9, (b) => b.storeUint(0n, 256)))), plain({ queryId: 11n, key: 0n, value: null }));
    assert.deepEqual(plain(tryLoad(loadChangeDnsRecord, msg(0x4eb1f0f9, (b) => b.storeUint(5n, 256).storeRef(value)))), plain({ queryId: 11n, key: 5n, value }));
    assert.equal(tryLoad(loadChangeDnsRecord, msg(0x4eb1f0f9, (b) => b.storeUint(0n, 256).storeBit(0))), null);
    assert.equal(tryLoad(loadChangeDnsRecord, msg(0x4eb1f0f9, (b) => b.storeUint(0n, 256).storeRef(value).storeRef(value))), null);
});
