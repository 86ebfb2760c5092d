import type { Slice } from '@ton/core';
import { expectOp, loadQueryId } from './common.ts';

// TON Whales nominator pools: the ops are crc32 of the contract's op names.
export const OP_WHALES_STAKE_WITHDRAW = 0xda803efd;

/** stake_withdraw#da803efd query_id:uint64 gas_limit:Coins stake:Coins (a stake of 0 asks for everything) */
export interface WhalesStakeWithdraw {
    queryId: bigint;
    gasLimit: bigint;
    stake: bigint;
}

export function loadWhalesStakeWithdraw(s: Slice): WhalesStakeWithdraw {
    expectOp(s, OP_WHALES_STAKE_WITHDRAW);
    const queryId = loadQueryId(s);
    const gasLimit = s.loadCoins();
    const stake = s.loadCoins();
    return { queryId, gasLimit, stake };
}
