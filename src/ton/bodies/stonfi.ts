import type { Address, Cell, Slice } from '@ton/core';
import { expectOp, loadMsgAddress, loadQueryId } from './common.ts';

// STON.fi DEX v1 and v2 (their published router, pool and LP account messages).
export const OP_STONFI_SWAP_V1 = 0x25938561;
export const OP_STONFI_PAY_TO_V1 = 0xf93bb43f;
export const OP_STONFI_SWAP_V2 = 0x6664de2a;
export const OP_STONFI_PAY_TO_V2 = 0x657b54f5;
export const OP_STONFI_PROVIDE_LP_V2 = 0x37c096df;

/**
 * swap#25938561 token_wallet:MsgAddress min_out:Coins to_address:MsgAddress … (v1: a jetton
 * transfer's forward payload to the router; the referral fields after to_address are not read)
 */
export interface StonfiSwapV1 {
    tokenWallet: Address | null;
    minOut: bigint;
    toAddress: Address | null;
}

export function loadStonfiSwapV1(s: Slice): StonfiSwapV1 {
    expectOp(s, OP_STONFI_SWAP_V1);
    const tokenWallet = loadMsgAddress(s);
    const minOut = s.loadCoins();
    const toAddress = loadMsgAddress(s);
    return { tokenWallet, minOut, toAddress };
}

/** pay_to#f93bb43f query_id:uint64 owner:MsgAddress exit_code:uint32 … (v1 pool → router; the amounts after exit_code are not read) */
export interface StonfiPayToV1 {
    queryId: bigint;
    owner: Address | null;
    exitCode: number;
}

export function loadStonfiPayToV1(s: Slice): StonfiPayToV1 {
    expectOp(s, OP_STONFI_PAY_TO_V1);
    const queryId = loadQueryId(s);
    const owner = loadMsgAddress(s);
    const exitCode = s.loadUint(32);
    return { queryId, owner, exitCode };
}

/**
 * swap#6664de2a token_wallet1:MsgAddress refund_address:MsgAddress excesses_address:MsgAddress
 *   tx_deadline:uint64 cross_swap_body:^[min_out:Coins receiver:MsgAddress …]
 * (v2: a jetton transfer's forward payload to the router; the gas and referral fields of the body are not read)
 */
export interface StonfiSwapV2 {
    /** the router's wallet of the token wanted */
    tokenWallet1: Address | null;
    refundAddress: Address | null;
    excessesAddress: Address | null;
    txDeadline: bigint;
    minOut: bigint;
    receiver: Address | null;
}

function loadSwapV2Fields(s: Slice): StonfiSwapV2 {
    const tokenWallet1 = loadMsgAddress(s);
    const refundAddress = loadMsgAddress(s);
    const excessesAddress = loadMsgAddress(s);
    const txDeadline = s.loadUintBig(64);
    const body = s.loadRef().beginParse();
    const minOut = body.loadCoins();
    const receiver = loadMsgAddress(body);
    return { tokenWallet1, refundAddress, excessesAddress, txDeadline, minOut, receiver };
}

export function loadStonfiSwapV2(s: Slice): StonfiSwapV2 {
    expectOp(s, OP_STONFI_SWAP_V2);
    return loadSwapV2Fields(s);
}

/**
 * swap#6664de2a query_id:uint64 from_user:MsgAddress left_amount:Coins right_amount:Coins
 *   dex_payload:^[transferred_op:uint32 token_wallet1:MsgAddress refund_address:MsgAddress
 *   excesses_address:MsgAddress tx_deadline:uint64 swap_body:^[min_out:Coins receiver:MsgAddress …]]
 * (v2 router → pool: the same op as the forward payload, with the user's request inside)
 */
export interface StonfiPoolSwapV2 {
    queryId: bigint;
    fromUser: Address | null;
    leftAmount: bigint;
    rightAmount: bigint;
    transferredOp: number;
    request: StonfiSwapV2;
}

export function loadStonfiPoolSwapV2(s: Slice): StonfiPoolSwapV2 {
    expectOp(s, OP_STONFI_SWAP_V2);
    const queryId = loadQueryId(s);
    const fromUser = loadMsgAddress(s);
    const leftAmount = s.loadCoins();
    const rightAmount = s.loadCoins();
    const dex = s.loadRef().beginParse();
    const transferredOp = dex.loadUint(32);
    return { queryId, fromUser, leftAmount, rightAmount, transferredOp, request: loadSwapV2Fields(dex) };
}

/**
 * pay_to#657b54f5 query_id:uint64 to_address:MsgAddress excesses_address:MsgAddress original_caller:MsgAddress
 *   exit_code:uint32 custom_payload:(Maybe ^Cell) additional_info:^[fwd_ton_amount:Coins amount0_out:Coins
 *   token0_address:MsgAddress amount1_out:Coins token1_address:MsgAddress]
 * (v2 pool → router: the swap's outcome and what to pay out, by the router's jetton wallets)
 */
export interface StonfiPayToV2 {
    queryId: bigint;
    toAddress: Address | null;
    excessesAddress: Address | null;
    originalCaller: Address | null;
    exitCode: number;
    customPayload: Cell | null;
    fwdTonAmount: bigint;
    amount0Out: bigint;
    token0Address: Address | null;
    amount1Out: bigint;
    token1Address: Address | null;
}

export function loadStonfiPayToV2(s: Slice): StonfiPayToV2 {
    expectOp(s, OP_STONFI_PAY_TO_V2);
    const queryId = loadQueryId(s);
    const toAddress = loadMsgAddress(s);
    const excessesAddress = loadMsgAddress(s);
    const originalCaller = loadMsgAddress(s);
    const exitCode = s.loadUint(32);
    const customPayload = s.loadMaybeRef();
    const info = s.loadRef().beginParse();
    const fwdTonAmount = info.loadCoins();
    const amount0Out = info.loadCoins();
    const token0Address = loadMsgAddress(info);
    const amount1Out = info.loadCoins();
    const token1Address = loadMsgAddress(info);
    return {
        queryId, toAddress, excessesAddress, originalCaller, exitCode, customPayload, fwdTonAmount, amount0Out, token0Address, amount1Out, token1Address,
    };
}

/**
 * provide_lp#37c096df token_wallet1:MsgAddress refund_address:MsgAddress excesses_address:MsgAddress
 *   tx_deadline:uint64 cross_provide_lp_body:^[min_lp_out:Coins to_address:MsgAddress …]
 * (v2: a jetton transfer's forward payload to the router; the rest of the body is not read)
 */
export interface StonfiProvideLpV2 {
    tokenWallet1: Address | null;
    refundAddress: Address | null;
    excessesAddress: Address | null;
    txDeadline: bigint;
    minLpOut: bigint;
    /** who gets the LP jettons */
    toAddress: Address | null;
}

export function loadStonfiProvideLpV2(s: Slice): StonfiProvideLpV2 {
    expectOp(s, OP_STONFI_PROVIDE_LP_V2);
    const tokenWallet1 = loadMsgAddress(s);
    const refundAddress = loadMsgAddress(s);
    const excessesAddress = loadMsgAddress(s);
    const txDeadline = s.loadUintBig(64);
    const body = s.loadRef().beginParse();
    const minLpOut = body.loadCoins();
    const toAddress = loadMsgAddress(body);
    return { tokenWallet1, refundAddress, excessesAddress, txDeadline, minLpOut, toAddress };
}
