import type { Slice } from '@ton/core';
import { expectOp, loadQueryId } from './common.ts';

// FFVault: jetton staking whose stakes are NFT positions.
export const OP_FFVAULT_UNSTAKE_REQUEST = 0x8a77cf39;

/** unstake_request#8a77cf39 query_id:uint64 amount_wanted_to_unstake:Coins (owner → position; nothing may follow) */
export interface FfvaultUnstakeRequest {
    queryId: bigint;
    amount: bigint;
}

export function loadFfvaultUnstakeRequest(s: Slice): FfvaultUnstakeRequest {
    expectOp(s, OP_FFVAULT_UNSTAKE_REQUEST);
    const queryId = loadQueryId(s);
    const amount = s.loadCoins();
    s.endParse();
    return { queryId, amount };
}
