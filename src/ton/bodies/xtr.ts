import type { Address, Cell, Slice } from '@ton/core';
import { expectOp, loadMsgAddressInt } from './common.ts';

// Telegram Stars (XTR) contracts.
export const OP_XTR_UPDATE_CONTRACT_AND_PROCESS = 0xe2628539;
export const OP_XTR_COMMIT = 0xe472935c;

/** update_contract_and_process_message#e2628539 update_data:^UpdateData from_address:address from_amount:Coins payload:^Cell */
export interface XtrUpdateContractAndProcess {
    updateData: Cell;
    fromAddress: Address;
    fromAmount: bigint;
    payload: Cell;
}

export function loadXtrUpdateContractAndProcess(s: Slice): XtrUpdateContractAndProcess {
    expectOp(s, OP_XTR_UPDATE_CONTRACT_AND_PROCESS);
    const updateData = s.loadRef();
    const fromAddress = loadMsgAddressInt(s);
    const fromAmount = s.loadCoins();
    const payload = s.loadRef();
    return { updateData, fromAddress, fromAmount, payload };
}

/** commit_xtr#e472935c seqno:uint64 user_address:address amount:Coins (the payload committing stars to a user's XTR contract) */
export interface XtrCommit {
    seqno: bigint;
    userAddress: Address;
    amount: bigint;
}

export function loadXtrCommit(s: Slice): XtrCommit {
    expectOp(s, OP_XTR_COMMIT);
    const seqno = s.loadUintBig(64);
    const userAddress = loadMsgAddressInt(s);
    const amount = s.loadCoins();
    return { seqno, userAddress, amount };
}
