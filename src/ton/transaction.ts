import { Cell, Dictionary, loadMessage, loadTransaction, type Address, type Message, type Transaction } from '@ton/core';
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

const outMessagesValue = Dictionary.Values.Cell();

/** `transaction$0111 … ^[ in_msg:(Maybe ^(Message Any)) out_msgs:(HashmapE 15 ^(Message Any)) ] …` */
export function parseTransactionCell(cell: Cell, workchain: number): ParsedTransaction {
    const tx = loadTransaction(cell.beginParse());
    // Hashes must be of the original message cells, so read the cells beside the decoded messages.
    const messages = cell.refs[0].beginParse();
    const inCell = messages.loadBit() ? messages.loadRef() : undefined;
    const outCells = messages.loadDict(Dictionary.Keys.Uint(15), outMessagesValue);
    const outMsgs = [...outCells].map(([index, outCell]) => describeMessage(outCell, tx.outMessages.get(index)))
        .sort((a, b) => (a.createdLt < b.createdLt ? -1 : a.createdLt > b.createdLt ? 1 : 0));
    const account = workchainAddress(workchain, tx.address);
    return {
        hash: cell.hash().toString('hex'),
        account: formatRawAddress(account),
        workchain,
        lt: tx.lt,
        utime: tx.now,
        tx,
        cell,
        inMsg: inCell ? describeMessage(inCell, tx.inMessage ?? undefined) : undefined,
        outMsgs,
        success: transactionSucceeded(tx),
    };
}

export function parseTransactionBoc(boc: Buffer, workchain: number): ParsedTransaction {
    return parseTransactionCell(Cell.fromBoc(boc)[0], workchain);
}

export function describeMessage(cell: Cell, decoded?: Message): TransactionMessage {
    const message = decoded ?? loadMessage(cell.beginParse());
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
