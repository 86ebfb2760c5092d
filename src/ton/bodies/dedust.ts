import type { Address, Cell, Slice } from '@ton/core';
import { expectOp, fail, loadMsgAddress, loadQueryId } from './common.ts';

// DeDust Protocol 2.0 (docs.dedust.io, TL-B schemes).
export const OP_DEDUST_NATIVE_SWAP = 0xea06185d;
export const OP_DEDUST_JETTON_SWAP = 0xe3a0d482;
export const OP_DEDUST_SWAP_EVENT = 0x9c610de3;

/** A DeDust asset: what its vaults hold and its pools and swap events name. */
export type DedustAsset = { kind: 'native' } | { kind: 'jetton'; master: string } | { kind: 'extra_currency'; id: number };

/** native$0000 | jetton$0001 workchain_id:int8 address:uint256 | extra_currency$0010 currency_id:int32; undefined for another tag. */
export function loadDedustAsset(s: Slice): DedustAsset | undefined {
    const tag = s.loadUint(4);
    if (tag === 0) return { kind: 'native' };
    if (tag === 1) {
        const workchain = s.loadInt(8);
        return { kind: 'jetton', master: `${workchain}:${s.loadUintBig(256).toString(16).padStart(64, '0')}` };
    }
    if (tag === 2) return { kind: 'extra_currency', id: s.loadInt(32) };
    return undefined;
}

/**
 * step#_ pool_addr:MsgAddress params:DedustSwapStepParams = DedustSwapStep;
 * step_params#_ kind_out:Bool limit:Coins next:(Maybe ^DedustSwapStep) = DedustSwapStepParams;
 */
export interface DedustSwapStep {
    pool: Address | null;
    kindOut: boolean;
    limit: bigint;
    next: DedustSwapStep | null;
}

/** The steps of a swap request follow each other in refs; a chain longer than this is refused. */
const MAX_STEPS = 64;

export function loadDedustSwapStep(s: Slice, depth = 0): DedustSwapStep {
    if (depth >= MAX_STEPS) fail('DeDust swap steps nested too deep');
    const pool = loadMsgAddress(s);
    const kindOut = s.loadBit();
    const limit = s.loadCoins();
    const next = s.loadMaybeRef();
    return { pool, kindOut, limit, next: next ? loadDedustSwapStep(next.beginParse(), depth + 1) : null };
}

/** The pools of a request, in the order it asks for them. */
export function dedustSwapSteps(first: DedustSwapStep): DedustSwapStep[] {
    const steps: DedustSwapStep[] = [];
    for (let step: DedustSwapStep | null = first; step; step = step.next) steps.push(step);
    return steps;
}

/**
 * swap_params#_ deadline:uint32 recipient_addr:MsgAddress referral_addr:MsgAddress
 *   fulfill_payload:(Maybe ^Cell) reject_payload:(Maybe ^Cell) = DedustSwapParams;
 */
export interface DedustSwapParams {
    deadline: number;
    recipient: Address | null;
    referral: Address | null;
    fulfillPayload: Cell | null;
    rejectPayload: Cell | null;
}

export function loadDedustSwapParams(s: Slice): DedustSwapParams {
    const deadline = s.loadUint(32);
    const recipient = loadMsgAddress(s);
    const referral = loadMsgAddress(s);
    const fulfillPayload = s.loadMaybeRef();
    const rejectPayload = s.loadMaybeRef();
    return { deadline, recipient, referral, fulfillPayload, rejectPayload };
}

/** swap#ea06185d query_id:uint64 amount:Coins _:DedustSwapStep swap_params:^DedustSwapParams (grams to the native vault) */
export interface DedustNativeSwap {
    queryId: bigint;
    amount: bigint;
    step: DedustSwapStep;
    params: DedustSwapParams;
}

export function loadDedustNativeSwap(s: Slice): DedustNativeSwap {
    expectOp(s, OP_DEDUST_NATIVE_SWAP);
    const queryId = loadQueryId(s);
    const amount = s.loadCoins();
    const step = loadDedustSwapStep(s);
    const params = loadDedustSwapParams(s.loadRef().beginParse());
    return { queryId, amount, step, params };
}

/** swap#e3a0d482 _:DedustSwapStep swap_params:^DedustSwapParams (a jetton transfer's forward payload to a jetton vault) */
export interface DedustJettonSwap {
    step: DedustSwapStep;
    params: DedustSwapParams;
}

export function loadDedustJettonSwap(s: Slice): DedustJettonSwap {
    expectOp(s, OP_DEDUST_JETTON_SWAP);
    const step = loadDedustSwapStep(s);
    const params = loadDedustSwapParams(s.loadRef().beginParse());
    return { step, params };
}

/**
 * swap#9c610de3 asset_in:DedustAsset asset_out:DedustAsset amount_in:Coins amount_out:Coins
 *   ext:^[sender_addr:MsgAddress referral_addr:MsgAddress reserve0:Coins reserve1:Coins] (a pool's ext-out event)
 */
export interface DedustSwapEvent {
    assetIn: DedustAsset;
    assetOut: DedustAsset;
    amountIn: bigint;
    amountOut: bigint;
    sender: Address | null;
    referral: Address | null;
    reserve0: bigint;
    reserve1: bigint;
}

export function loadDedustSwapEvent(s: Slice): DedustSwapEvent {
    expectOp(s, OP_DEDUST_SWAP_EVENT);
    const assetIn = loadDedustAsset(s);
    const assetOut = loadDedustAsset(s);
    if (!assetIn || !assetOut) fail('unknown DeDust asset tag');
    const amountIn = s.loadCoins();
    const amountOut = s.loadCoins();
    const ext = s.loadRef().beginParse();
    const sender = loadMsgAddress(ext);
    const referral = loadMsgAddress(ext);
    const reserve0 = ext.loadCoins();
    const reserve1 = ext.loadCoins();
    return { assetIn, assetOut, amountIn, amountOut, sender, referral, reserve0, reserve1 };
}

// Liquidity deposits: each side goes to its vault, which asks the factory to forward it to the
// depositor's liquidity deposit contract; once both sides are there, the deposit contract sends
// them to the pool, which mints the LP jettons (or rejects the deposit) and calls the contract back.
export const OP_DEDUST_DEPOSIT_LIQUIDITY_NATIVE = 0xd55e4686;
export const OP_DEDUST_DEPOSIT_LIQUIDITY_JETTON = 0x40e108d6;

/**
 * deposit_liquidity#d55e4686 query_id:uint64 amount:Coins pool_params:PoolParams min_lp_amount:Coins
 *   asset0_target_balance:Coins asset1_target_balance:Coins fulfill_payload:(Maybe ^Cell) reject_payload:(Maybe ^Cell)
 * (grams to the native vault; only the amount deposited is read: the value carries the gas too)
 */
export interface DedustNativeDeposit {
    queryId: bigint;
    amount: bigint;
}

export function loadDedustNativeDeposit(s: Slice): DedustNativeDeposit {
    expectOp(s, OP_DEDUST_DEPOSIT_LIQUIDITY_NATIVE);
    const queryId = loadQueryId(s);
    const amount = s.loadCoins();
    return { queryId, amount };
}
