import test from 'node:test';
import assert from 'node:assert/strict';
import { beginCell } from '@ton/core';
import { loadXtrCommit, loadXtrUpdateContractAndProcess, tryLoad } from '../../../src/ton/bodies/index.ts';
import { ALICE, BOB, plain } from './builders.ts';

test('XTR update_contract_and_process_message#e2628539 with commit_xtr#e472935c inside', () => {
    const commit = beginCell().storeUint(0xe472935c, 32).storeUint(7, 64).storeAddress(ALICE).storeCoins(1500n).endCell();
    const update = beginCell().storeUint(3, 32).endCell();
    const body = beginCell().storeUint(0xe2628539, 32).storeRef(update).storeAddress(BOB).storeCoins(0n).storeRef(commit).endCell();
    const outer = tryLoad(loadXtrUpdateContractAndProcess, body)!;
    assert.ok(outer.updateData.equals(update));
    assert.ok(outer.fromAddress.equals(BOB));
    assert.ok(outer.payload.equals(commit));
    assert.deepEqual(plain(tryLoad(loadXtrCommit, outer.payload)), plain({ seqno: 7n, userAddress: ALICE, amount: 1500n }));
    // addresses are internal ones: addr_none is not a user
    assert.equal(tryLoad(loadXtrCommit, beginCell().storeUint(0xe472935c, 32).storeUint(7, 64).storeAddress(null).storeCoins(1n).endCell()), null);
});
