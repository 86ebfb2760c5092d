import test from 'node:test';
import assert from 'node:assert/strict';
import { beginCell } from '@ton/core';
import { loadPtonTonTransfer, tryLoad } from '../../../src/ton/bodies/index.ts';
import { ALICE, comment } from './builders.ts';

test('pTON ton_transfer#01f3835d: amount, refund address, forward payload inline or in a ref', () => {
    const inRef = beginCell().storeUint(0x01f3835d, 32).storeUint(4, 64).storeCoins(3_000_000_000n).storeAddress(ALICE).storeBit(1).storeRef(comment('hi')).endCell();
    const parsed = tryLoad(loadPtonTonTransfer, inRef)!;
    assert.equal(parsed.queryId, 4n);
    assert.equal(parsed.tonAmount, 3_000_000_000n);
    assert.ok(parsed.refundAddress?.equals(ALICE));
    assert.equal(parsed.forwardPayload.isRight, true);
    assert.ok(parsed.forwardPayload.value?.equals(comment('hi')));

    const none = tryLoad(loadPtonTonTransfer, beginCell().storeUint(0x01f3835d, 32).storeUint(0, 64).storeCoins(1n).storeAddress(null).storeBit(0).endCell())!;
    assert.deepEqual(none.forwardPayload, { isRight: false, value: null });
    assert.equal(tryLoad(loadPtonTonTransfer, beginCell().storeUint(0x01f3835e, 32).storeUint(0, 64).storeCoins(1n).endCell()), null);
});
