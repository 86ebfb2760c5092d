import type { Address, Slice } from '@ton/core';
import { expectOp, loadMsgAddress, loadQueryId } from './common.ts';

// TONCO concentrated-liquidity (v3) pools and router.
export const OP_TONCO_ROUTER_PAY_TO = 0xa1daa96d;

/** Exit codes of ROUTERV3_PAY_TO: 200 the swap went through, 230 it failed and the input is refunded. */
export const TONCO_PAY_TO_SWAP_OK = 200;

/**
 * ROUTERV3_PAY_TO#a1daa96d query_id:uint64 reciever0:MsgAddress reciever1:MsgAddress exit_code:uint32 …
 * (pool → router; the amounts and wallets after exit_code are not read)
 */
export interface ToncoRouterPayTo {
    queryId: bigint;
    receiver0: Address | null;
    receiver1: Address | null;
    exitCode: number;
}

export function loadToncoRouterPayTo(s: Slice): ToncoRouterPayTo {
    expectOp(s, OP_TONCO_ROUTER_PAY_TO);
    const queryId = loadQueryId(s);
    const receiver0 = loadMsgAddress(s);
    const receiver1 = loadMsgAddress(s);
    const exitCode = s.loadUint(32);
    return { queryId, receiver0, receiver1, exitCode };
}

/** POOLV3_SWAP, as the jetton payload a user sends the router and the router passes on. */
export const OP_TONCO_POOL_SWAP = 0xa7fb58f8;

/**
 * POOLV3_SWAP#a7fb58f8 target_jetton_wallet:MsgAddress sqrt_price_limit_x96:uint160 min_out_amount:Coins
 *   owner_address:MsgAddress multihop:(Maybe ^Cell) …
 * (the forward payload of a swap: the router's wallet of the token wanted, the least accepted, and
 * the next hop's payload when the swap goes on through another pool)
 */
export interface ToncoSwapPayload {
    targetJettonWallet: Address | null;
    minOut: bigint;
    owner: Address | null;
}

export function loadToncoSwapPayload(s: Slice): ToncoSwapPayload {
    expectOp(s, OP_TONCO_POOL_SWAP);
    const targetJettonWallet = loadMsgAddress(s);
    s.skip(160);
    const minOut = s.loadCoins();
    const owner = loadMsgAddress(s);
    return { targetJettonWallet, minOut, owner };
}
