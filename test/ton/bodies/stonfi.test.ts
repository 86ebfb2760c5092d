import test from 'node:test';
import assert from 'node:assert/strict';
import { beginCell } from '@ton/core';
import {
    loadStonfiPayToV1, loadStonfiPayToV2, loadStonfiPoolSwapV2, loadStonfiProvideLpV2, loadStonfiSwapV1, loadStonfiSwapV2, tryLoad,
} from '../../../src/ton/bodies/index.ts';
import { ALICE, BOB, COLLECTION, JETTON_WALLET, MINTER, plain } from './builders.ts';

const crossBody = (minOut: bigint) => beginCell().storeCoins(minOut).storeAddress(ALICE).storeCoins(1n).storeMaybeRef(null).storeCoins(0n).storeMaybeRef(null)
    .storeUint(0, 16).storeAddress(null).endCell();

test('v1 swap#25938561 payload: token wallet, min out, recipient', () => {
    const payload = beginCell().storeUint(0x25938561, 32).storeAddress(JETTON_WALLET).storeCoins(77n).storeAddress(ALICE).storeBit(0).endCell();
    assert.deepEqual(plain(tryLoad(loadStonfiSwapV1, payload)), plain({ tokenWallet: JETTON_WALLET, minOut: 77n, toAddress: ALICE }));
    assert.equal(tryLoad(loadStonfiSwapV2, payload), null);
});

test('v1 pay_to#f93bb43f: owner and exit code', () => {
    const body = beginCell().storeUint(0xf93bb43f, 32).storeUint(3, 64).storeAddress(ALICE).storeUint(0xc64370e5, 32).endCell();
    assert.deepEqual(plain(tryLoad(loadStonfiPayToV1, body)), plain({ queryId: 3n, owner: ALICE, exitCode: 0xc64370e5 }));
});

test('v2 swap#6664de2a: the forward payload and the router → pool message share the op', () => {
    const payload = beginCell().storeUint(0x6664de2a, 32).storeAddress(JETTON_WALLET).storeAddress(ALICE).storeAddress(BOB).storeUint(1_751_462_000, 64)
        .storeRef(crossBody(6_000_000n)).endCell();
    const request = { tokenWallet1: JETTON_WALLET, refundAddress: ALICE, excessesAddress: BOB, txDeadline: 1_751_462_000n, minOut: 6_000_000n, receiver: ALICE };
    assert.deepEqual(plain(tryLoad(loadStonfiSwapV2, payload)), plain(request));

    const dex = beginCell().storeUint(0x0f8a7ea5, 32).storeAddress(JETTON_WALLET).storeAddress(ALICE).storeAddress(BOB).storeUint(1_751_462_000, 64)
        .storeRef(crossBody(6_000_000n)).endCell();
    const toPool = beginCell().storeUint(0x6664de2a, 32).storeUint(8, 64).storeAddress(ALICE).storeCoins(10n).storeCoins(0n).storeRef(dex).endCell();
    assert.deepEqual(plain(tryLoad(loadStonfiPoolSwapV2, toPool)), plain({ queryId: 8n, fromUser: ALICE, leftAmount: 10n, rightAmount: 0n, transferredOp: 0x0f8a7ea5, request }));
    // each layout refuses the other
    assert.equal(tryLoad(loadStonfiPoolSwapV2, payload), null);
    assert.equal(tryLoad(loadStonfiSwapV2, toPool), null);
    // the cross-swap body is required
    assert.equal(tryLoad(loadStonfiSwapV2, beginCell().storeUint(0x6664de2a, 32).storeAddress(JETTON_WALLET).storeAddress(ALICE).storeAddress(BOB).storeUint(1, 64).endCell()), null);
});

test('v2 pay_to#657b54f5: exit code and what is paid out, by the router\'s wallets', () => {
    const info = beginCell().storeCoins(1n).storeCoins(0n).storeAddress(JETTON_WALLET).storeCoins(7_000_000n).storeAddress(MINTER).endCell();
    const body = beginCell().storeUint(0x657b54f5, 32).storeUint(0, 64).storeAddress(ALICE).storeAddress(BOB).storeAddress(COLLECTION).storeUint(0x39603190, 32)
        .storeMaybeRef(null).storeRef(info).endCell();
    assert.deepEqual(plain(tryLoad(loadStonfiPayToV2, body)), plain({
        queryId: 0n, toAddress: ALICE, excessesAddress: BOB, originalCaller: COLLECTION, exitCode: 0x39603190, customPayload: null,
        fwdTonAmount: 1n, amount0Out: 0n, token0Address: JETTON_WALLET, amount1Out: 7_000_000n, token1Address: MINTER,
    }));
    // without additional_info it is not a pay_to
    const short = beginCell().storeUint(0x657b54f5, 32).storeUint(0, 64).storeAddress(ALICE).storeAddress(BOB).storeAddress(COLLECTION).storeUint(0, 32).endCell();
    assert.equal(tryLoad(loadStonfiPayToV2, short), null);
});

test('v2 provide_lp#37c096df payload: who gets the LP jettons', () => {
    const payload = beginCell().storeUint(0x37c096df, 32).storeAddress(JETTON_WALLET).storeAddress(ALICE).storeAddress(ALICE).storeUint(99, 64)
        .storeRef(beginCell().storeCoins(5n).storeAddress(BOB).storeBit(1).endCell()).endCell();
    assert.deepEqual(plain(tryLoad(loadStonfiProvideLpV2, payload)), plain({
        tokenWallet1: JETTON_WALLET, refundAddress: ALICE, excessesAddress: ALICE, txDeadline: 99n, minLpOut: 5n, toAddress: BOB,
    }));
});
