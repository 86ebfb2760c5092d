import type { Address, Slice } from '@ton/core';
import { type EitherPayload, expectOp, loadForwardPayload, loadMsgAddress, loadQueryId } from './common.ts';

// Proxy TON (pTON), STON.fi's wrapped native coin.
export const OP_PTON_TON_TRANSFER = 0x01f3835d;

/**
 * ton_transfer#01f3835d query_id:uint64 ton_amount:Coins refund_address:MsgAddress forward_payload:(Either Cell ^Cell)
 * (grams into a pTON wallet, and the grams a pTON wallet pays out)
 */
export interface PtonTonTransfer {
    queryId: bigint;
    tonAmount: bigint;
    refundAddress: Address | null;
    forwardPayload: EitherPayload;
}

export function loadPtonTonTransfer(s: Slice): PtonTonTransfer {
    expectOp(s, OP_PTON_TON_TRANSFER);
    const queryId = loadQueryId(s);
    const tonAmount = s.loadCoins();
    const refundAddress = loadMsgAddress(s);
    const forwardPayload = loadForwardPayload(s);
    return { queryId, tonAmount, refundAddress, forwardPayload };
}
