import {
    Cell, Dictionary, loadAccountStatus, loadCurrencyCollection, loadHashUpdate, loadMessage, loadTransactionDescription,
    type Address, type Message, type Transaction,
} from '@ton/core';
import { formatRawAddress, workchainAddress } from './address.ts';

/** One message of a transaction, with the hash of its original cell (not of a re-serialization). */
export interface TransactionMessage {
    hash: string;
    cell: Cell;
    message: Message;
    msgType: 'int_msg' | 'ext_in_msg' | 'ext_out_msg';
    source: string | null;
    destination: string | null;
    createdLt: bigint;
    /** Nanograms carried; null for external messages. */
    value: bigint | null;
    opCode: number | null;
    bounced: boolean;
}

export interface ParsedTransaction {
    hash: string;
    account: string;
    workchain: number;
    lt: bigint;
    utime: number;
    tx: Transaction;
    cell: Cell;
    inMsg?: TransactionMessage;
    /** Ordered by created lt. */
    outMsgs: TransactionMessage[];
    success: boolean;
}

const messageCells = Dictionary.Values.Cell();

/**
 * transaction$0111 account_addr:bits256 lt:uint64 prev_trans_hash:bits256 prev_trans_lt:uint64
 *   now:uint32 outmsg_cnt:uint15 orig_status:AccountStatus end_status:AccountStatus
 *   ^[ in_msg:(Maybe ^(Message Any)) out_msgs:(HashmapE 15 ^(Message Any)) ]
 *   total_fees:CurrencyCollection state_update:^(HASH_UPDATE Account) description:^TransactionDescr = Transaction;
 *
 * Read here rather than with @ton/core's loadTransaction, which copies the whole cell to get `raw`
 * and reads the messages' dictionary without their cells, whose hashes we need.
 */
export function parseTransactionCell(cell: Cell, workchain: number): ParsedTransaction {
    const slice = cell.beginParse();
    if (slice.loadUint(4) !== 0x07) throw new Error('not a transaction cell (tag transaction$0111 expected)');
    const address = slice.loadUintBig(256);
    const lt = slice.loadUintBig(64);
    const prevTransactionHash = slice.loadUintBig(256);
    const prevTransactionLt = slice.loadUintBig(64);
    const now = slice.loadUint(32);
    const outMessagesCount = slice.loadUint(15);
    const oldStatus = loadAccountStatus(slice);
    const endStatus = loadAccountStatus(slice);
    const messages = slice.loadRef().beginParse();
    const inCell = messages.loadBit() ? messages.loadRef() : undefined;
    const outCells = messages.loadDict(Dictionary.Keys.Uint(15), messageCells);
    const totalFees = loadCurrencyCollection(slice);
    const stateUpdate = loadHashUpdate(slice.loadRef().beginParse());
    const description = loadTransactionDescription(slice.loadRef().beginParse());

    const inMsg = inCell ? describeMessage(inCell) : undefined;
    const outMessages = Dictionary.empty<number, Message>(Dictionary.Keys.Uint(15));
    const outMsgs: TransactionMessage[] = [];
    for (const [index, outCell] of outCells) {
        const described = describeMessage(outCell);
        outMessages.set(index, described.message);
        outMsgs.push(described);
    }
    outMsgs.sort((a, b) => (a.createdLt < b.createdLt ? -1 : a.createdLt > b.createdLt ? 1 : 0));
    const tx: Transaction = {
        address, lt, prevTransactionHash, prevTransactionLt, now, outMessagesCount, oldStatus, endStatus,
        inMessage: inMsg?.message, outMessages, totalFees, stateUpdate, description, raw: cell, hash: () => cell.hash(),
    };
    return {
        hash: cell.hash().toString('hex'),
        account: formatRawAddress(workchainAddress(workchain, address)),
        workchain,
        lt,
        utime: now,
        tx,
        cell,
        inMsg,
        outMsgs,
        success: transactionSucceeded(tx),
    };
}

export function describeMessage(cell: Cell): TransactionMessage {
    const message = loadMessage(cell.beginParse());
    const info = message.info;
    const body = message.body.beginParse();
    const opCode = body.remainingBits >= 32 ? body.loadUint(32) : null;
    const addressOf = (a: Address | null | undefined) => (a ? formatRawAddress(a) : null);
    switch (info.type) {
        case 'internal':
            return {
                hash: cell.hash().toString('hex'), cell, message, msgType: 'int_msg',
                source: addressOf(info.src), destination: addressOf(info.dest), createdLt: info.createdLt,
                value: info.value.coins, opCode, bounced: info.bounced,
            };
        case 'external-in':
            return {
                hash: cell.hash().toString('hex'), cell, message, msgType: 'ext_in_msg',
                source: null, destination: addressOf(info.dest), createdLt: 0n, value: null, opCode, bounced: false,
            };
        case 'external-out':
            return {
                hash: cell.hash().toString('hex'), cell, message, msgType: 'ext_out_msg',
                source: addressOf(info.src), destination: null, createdLt: info.createdLt, value: null, opCode, bounced: false,
            };
    }
}

/** A transaction succeeded when it was not aborted and its compute and action phases succeeded. */
export function transactionSucceeded(tx: Transaction): boolean {
    const d = tx.description;
    switch (d.type) {
        case 'generic':
        case 'tick-tock':
            if (d.aborted) return false;
            if (d.computePhase.type !== 'vm' || !d.computePhase.success) return false;
            return d.actionPhase ? d.actionPhase.success : true;
        case 'storage':
            return true;
        default:
            return !('aborted' in d && d.aborted);
    }
}
