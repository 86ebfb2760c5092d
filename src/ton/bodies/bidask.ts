import type { Address, Slice } from '@ton/core';
import { expectOp, fail, loadMsgAddress, loadQueryId } from './common.ts';

// Bidask CLMM (bins) pools.
export const OP_BIDASK_SWAP = 0xf2ef6c1b;
export const OP_BIDASK_SWAP_SUCCESS = 0x520e4831;
export const OP_BIDASK_SWAP_SUCCESS_V2 = 0xd3a25890;
export const OP_BIDASK_PROVIDE_BOTH = 0x3ea0bafc;

/** swap#f2ef6c1b query_id:uint64 ton_amount:Coins to_address:MsgAddress … (grams in; the limits and payloads after to_address are not read) */
export interface BidaskNativeSwap {
    queryId: bigint;
    tonAmount: bigint;
    toAddress: Address | null;
}

export function loadBidaskNativeSwap(s: Slice): BidaskNativeSwap {
    expectOp(s, OP_BIDASK_SWAP);
    const queryId = loadQueryId(s);
    const tonAmount = s.loadCoins();
    const toAddress = loadMsgAddress(s);
    return { queryId, tonAmount, toAddress };
}

/**
 * swap_success#520e4831 (v2: #d3a25890) query_id:uint64 new_current_bin:uint32 new_sqrt_p:uint256
 *   from_account:Bool amount_x:Coins amount_y:Coins is_x:Bool … (range → pool; the rest is not read)
 */
export interface BidaskSwapSuccess {
    opCode: number;
    queryId: bigint;
    newCurrentBin: number;
    newSqrtP: bigint;
    fromAccount: boolean;
    amountX: bigint;
    amountY: bigint;
    /** the input was the pool's x token: the output is amount_y */
    isX: boolean;
}

export function loadBidaskSwapSuccess(s: Slice): BidaskSwapSuccess {
    const opCode = s.loadUint(32);
    if (opCode !== OP_BIDASK_SWAP_SUCCESS && opCode !== OP_BIDASK_SWAP_SUCCESS_V2) fail(`op 0x${opCode.toString(16)} is not a Bidask swap_success`);
    const queryId = loadQueryId(s);
    const newCurrentBin = s.loadUint(32);
    const newSqrtP = s.loadUintBig(256);
    const fromAccount = s.loadBit();
    const amountX = s.loadCoins();
    const amountY = s.loadCoins();
    const isX = s.loadBit();
    return { opCode, queryId, newCurrentBin, newSqrtP, fromAccount, amountX, amountY, isX };
}

/** bidask_provide_both#3ea0bafc ton_amount:Coins … (a jetton transfer's forward payload: the jetton plus grams; the rest is not read) */
export interface BidaskProvideBoth {
    tonAmount: bigint;
}

export function loadBidaskProvideBoth(s: Slice): BidaskProvideBoth {
    expectOp(s, OP_BIDASK_PROVIDE_BOTH);
    return { tonAmount: s.loadCoins() };
}
