import type { Cell, Slice } from '@ton/core';
import { expectOp, fail, loadMsgAddress, loadQueryId } from './common.ts';

// Coffee DEX (swap.coffee): vaults per asset, pools, liquidity depositories and a factory
// (swapcoffee/dex, contracts/include/constants.fc).
export const OP_COFFEE_SWAP_NATIVE = 0xc0ffee00;
export const OP_COFFEE_DEPOSIT_LIQUIDITY_NATIVE = 0xc0ffee04;
export const OP_COFFEE_SWAP_JETTON = 0xc0ffee10;
export const OP_COFFEE_DEPOSIT_LIQUIDITY_JETTON = 0xc0ffee12;
export const OP_COFFEE_SWAP_INTERNAL = 0xc0ffee20;
export const OP_COFFEE_PAYOUT_INTERNAL = 0xc0ffee21;
export const OP_COFFEE_DEPLOY = 0xc0ffee22;
export const OP_COFFEE_CREATE_LIQUIDITY_DEPOSITORY_REQUEST = 0xc0ffee27;
export const OP_COFFEE_DEPOSIT_LIQUIDITY_INTERNAL = 0xc0ffee29;
export const OP_COFFEE_SWAP_SUCCESSFUL_EVENT = 0xc0ffee30;
export const OP_COFFEE_SWAP_FAILED_EVENT = 0xc0ffee31;
export const OP_COFFEE_PAYOUT = 0xc0ffee32;
export const OP_COFFEE_DEPOSIT_LIQUIDITY_SUCCESSFUL_EVENT = 0xc0ffee33;
export const OP_COFFEE_NOTIFICATION = 0xc0ffee36;

/** native$00 | jetton$01 chain:uint8 hash:uint256 (the master) | extra$10 id:uint32 */
export type CoffeeAsset = { kind: 'native' } | { kind: 'jetton'; master: string } | { kind: 'extra_currency'; id: number };

export function loadCoffeeAsset(s: Slice): CoffeeAsset {
    const tag = s.loadUint(2);
    if (tag === 0) return { kind: 'native' };
    if (tag === 1) {
        const chain = s.loadUint(8);
        // chain is the workchain as an unsigned byte: 255 is the masterchain
        const workchain = chain > 127 ? chain - 256 : chain;
        return { kind: 'jetton', master: `${workchain}:${s.loadUintBig(256).toString(16).padStart(64, '0')}` };
    }
    if (tag === 2) return { kind: 'extra_currency', id: s.loadUint(32) };
    return fail('unknown Coffee asset tag');
}

/** swap_native#c0ffee00 query_id:uint64 amount:Coins … and deposit_liquidity_native#c0ffee04 query_id:uint64 amount:Coins … (grams to the native vault) */
export interface CoffeeNativeIn {
    queryId: bigint;
    /** what is swapped or deposited; the value carries the gas too */
    amount: bigint;
}

export function loadCoffeeNativeIn(s: Slice): CoffeeNativeIn {
    const op = s.loadUint(32);
    if (op !== OP_COFFEE_SWAP_NATIVE && op !== OP_COFFEE_DEPOSIT_LIQUIDITY_NATIVE) fail('not a Coffee native swap or deposit');
    const queryId = loadQueryId(s);
    const amount = s.loadCoins();
    return { queryId, amount };
}

/**
 * swap_successful_event#c0ffee30 query_id:uint64 input:Asset input_amount:Coins output_amount:Coins
 *   reserve_in:Coins reserve_out:Coins protocol_fee:Coins (a pool's ext-out; output_amount is what the
 *   recipient, or the next pool, gets)
 */
export interface CoffeeSwapEvent {
    input: CoffeeAsset;
    inputAmount: bigint;
    outputAmount: bigint;
}

export function loadCoffeeSwapEvent(s: Slice): CoffeeSwapEvent {
    expectOp(s, OP_COFFEE_SWAP_SUCCESSFUL_EVENT);
    loadQueryId(s);
    const input = loadCoffeeAsset(s);
    const inputAmount = s.loadCoins();
    const outputAmount = s.loadCoins();
    return { input, inputAmount, outputAmount };
}

/**
 * payout_internal#c0ffee21 query_id:uint64 recipient:MsgAddressInt amount:Coins
 *   notification_data:(Maybe ^NotificationDataSingle) proof:(Maybe ^Cell)
 * (pool or depository → the vault of the asset paid out; a pool's proof is its init data:
 * factory:MsgAddressInt type:uint2 asset1:Asset asset2:Asset …)
 */
export interface CoffeePayoutInternal {
    recipient: import('@ton/core').Address | null;
    amount: bigint;
    /** the two assets of the pool that pays, when the proof is a pool's */
    poolAssets?: [CoffeeAsset, CoffeeAsset];
}

const PROOF_TYPE_POOL = 1;

export function loadCoffeePayoutInternal(s: Slice): CoffeePayoutInternal {
    expectOp(s, OP_COFFEE_PAYOUT_INTERNAL);
    loadQueryId(s);
    const recipient = loadMsgAddress(s);
    const amount = s.loadCoins();
    s.loadMaybeRef();
    const proof = s.loadMaybeRef();
    const poolAssets = proof ? poolAssetsOf(proof) : undefined;
    return poolAssets ? { recipient, amount, poolAssets } : { recipient, amount };
}

function poolAssetsOf(proof: Cell): [CoffeeAsset, CoffeeAsset] | undefined {
    const p = proof.beginParse();
    loadMsgAddress(p);
    if (p.loadUint(2) !== PROOF_TYPE_POOL) return undefined;
    return [loadCoffeeAsset(p), loadCoffeeAsset(p)];
}

export function sameCoffeeAsset(a: CoffeeAsset, b: CoffeeAsset): boolean {
    if (a.kind !== b.kind) return false;
    if (a.kind === 'jetton') return a.master === (b as { master: string }).master;
    if (a.kind === 'extra_currency') return a.id === (b as { id: number }).id;
    return true;
}

/** swap#c0ffee10 pool_address_hash:uint256 min_output_amount:Coins next:(Maybe ^SwapStepParams) params:^SwapParams (a jetton transfer's forward payload to a vault) */
export interface CoffeeJettonSwap {
    poolAddressHash: bigint;
    minOut: bigint;
}

export function loadCoffeeJettonSwap(s: Slice): CoffeeJettonSwap {
    expectOp(s, OP_COFFEE_SWAP_JETTON);
    const poolAddressHash = s.loadUintBig(256);
    const minOut = s.loadCoins();
    return { poolAddressHash, minOut };
}
