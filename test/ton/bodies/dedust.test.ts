import test from 'node:test';
import assert from 'node:assert/strict';
import { beginCell, type Builder } from '@ton/core';
import {
    dedustSwapSteps, loadDedustAsset, loadDedustJettonSwap, loadDedustNativeSwap, loadDedustSwapEvent, tryLoad,
} from '../../../src/ton/bodies/index.ts';
import { ALICE, BOB, COLLECTION, MINTER, plain } from './builders.ts';

const MASTER = `0:${'b2'.repeat(32)}`;
const storeJetton = (b: Builder) => b.storeUint(1, 4).storeInt(0, 8).storeUint(BigInt('0x' + 'b2'.repeat(32)), 256);
/** step#_ pool_addr params:(kind_out limit next:(Maybe ^Step)), one per pool */
const storeSteps = (b: Builder, pools: { pool: typeof ALICE; limit: bigint }[]): Builder => {
    const [first, ...rest] = pools;
    b.storeAddress(first.pool).storeBit(0).storeCoins(first.limit);
    return rest.length === 0 ? b.storeBit(0) : b.storeBit(1).storeRef(storeSteps(beginCell(), rest).endCell());
};
const params = () => beginCell().storeUint(1_751_462_000, 32).storeAddress(ALICE).storeAddress(null).storeMaybeRef(null).storeMaybeRef(beginCell().storeUint(7, 8).endCell()).endCell();

test('DedustAsset: native, jetton, extra currency; another tag is no asset', () => {
    assert.deepEqual(loadDedustAsset(beginCell().storeUint(0, 4).endCell().beginParse()), { kind: 'native' });
    assert.deepEqual(loadDedustAsset(storeJetton(beginCell()).endCell().beginParse()), { kind: 'jetton', master: MASTER });
    assert.deepEqual(loadDedustAsset(beginCell().storeUint(2, 4).storeInt(100, 32).endCell().beginParse()), { kind: 'extra_currency', id: 100 });
    assert.equal(loadDedustAsset(beginCell().storeUint(3, 4).endCell().beginParse()), undefined);
});

test('swap#ea06185d (grams to the native vault): amount, the steps in order, swap params', () => {
    const body = storeSteps(beginCell().storeUint(0xea06185d, 32).storeUint(9, 64).storeCoins(3_000_000_000n), [{ pool: BOB, limit: 1n }, { pool: COLLECTION, limit: 5n }])
        .storeRef(params()).endCell();
    const swap = tryLoad(loadDedustNativeSwap, body)!;
    assert.equal(swap.queryId, 9n);
    assert.equal(swap.amount, 3_000_000_000n);
    assert.deepEqual(dedustSwapSteps(swap.step).map((s) => [s.pool?.toRawString(), s.kindOut, s.limit]), [[BOB.toRawString(), false, 1n], [COLLECTION.toRawString(), false, 5n]]);
    assert.equal(swap.params.deadline, 1_751_462_000);
    assert.ok(swap.params.recipient?.equals(ALICE));
    assert.equal(swap.params.referral, null);
    assert.equal(swap.params.fulfillPayload, null);
    assert.equal(swap.params.rejectPayload?.beginParse().loadUint(8), 7);
    // swap_params is a ref the body may not leave out
    assert.equal(tryLoad(loadDedustNativeSwap, storeSteps(beginCell().storeUint(0xea06185d, 32).storeUint(9, 64).storeCoins(1n), [{ pool: BOB, limit: 1n }]).endCell()), null);
});

test('swap#e3a0d482 (jetton payload): one step; another op is not it', () => {
    const payload = storeSteps(beginCell().storeUint(0xe3a0d482, 32), [{ pool: MINTER, limit: 42n }]).storeRef(params()).endCell();
    const swap = tryLoad(loadDedustJettonSwap, payload)!;
    assert.equal(dedustSwapSteps(swap.step).length, 1);
    assert.ok(swap.step.pool?.equals(MINTER));
    assert.equal(swap.step.limit, 42n);
    assert.equal(tryLoad(loadDedustNativeSwap, payload), null);
});

test('swap#9c610de3 (a pool\'s event): assets, amounts and the ext ref', () => {
    const event = beginCell().storeUint(0x9c610de3, 32).storeUint(0, 4);
    storeJetton(event).storeCoins(5n).storeCoins(12_345n)
        .storeRef(beginCell().storeAddress(ALICE).storeAddress(BOB).storeCoins(1000n).storeCoins(2000n));
    assert.deepEqual(plain(tryLoad(loadDedustSwapEvent, event.endCell())), plain({
        assetIn: { kind: 'native' }, assetOut: { kind: 'jetton', master: MASTER }, amountIn: 5n, amountOut: 12_345n,
        sender: ALICE, referral: BOB, reserve0: 1000n, reserve1: 2000n,
    }));
    const unknownAsset = beginCell().storeUint(0x9c610de3, 32).storeUint(0, 4).storeUint(5, 4).storeCoins(1n).storeCoins(1n)
        .storeRef(beginCell().storeAddress(ALICE).storeAddress(null).storeCoins(0n).storeCoins(0n)).endCell();
    assert.equal(tryLoad(loadDedustSwapEvent, unknownAsset), null);
});
