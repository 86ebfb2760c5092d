import type { Address, Slice } from '@ton/core';
import { expectOp, loadMsgAddress, loadQueryId } from './common.ts';

// Tonstakers (ton-blockchain/liquid-staking-contract): when a round's withdrawals are paid, the
// payout collection burns its bills one after another; each bill tells the collection, which
// pays the bill's owner its share (distributed_asset#db3b8abd query_id:uint64, the grams in the value).
export const OP_TONSTAKERS_BILL_BURNED = 0xed58b0b2;
export const OP_TONSTAKERS_DISTRIBUTED_ASSET = 0xdb3b8abd;

/** burn_notification#ed58b0b2 query_id:uint64 amount:Coins owner:MsgAddress index:uint64 (bill → payout collection) */
export interface TonstakersBillBurned {
    queryId: bigint;
    /** pool jettons the bill stands for */
    amount: bigint;
    owner: Address | null;
    index: bigint;
}

export function loadTonstakersBillBurned(s: Slice): TonstakersBillBurned {
    expectOp(s, OP_TONSTAKERS_BILL_BURNED);
    const queryId = loadQueryId(s);
    const amount = s.loadCoins();
    const owner = loadMsgAddress(s);
    const index = s.loadUintBig(64);
    return { queryId, amount, owner, index };
}
