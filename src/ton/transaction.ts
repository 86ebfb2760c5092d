import {
    Cell, Dictionary, loadAccountStatus, loadCommonMessageInfo, loadCurrencyCollection, loadHashUpdate, loadMessage,
    loadStateInit, loadTransactionDescription, type Address, type Message, type Transaction,
} from '@ton/core';
import { formatRawAddress, workchainAddress } from './address.ts';
import { hashmapRefValues } from './hashmap-refs.ts';

/**
 * One message of a transaction, with the hash of its original cell (not of a re-serialization).
 * The header fields are read eagerly (the indexer needs them); the fully decoded `message`, with
 * its StateInit and body cell, only when asked for (the API needs it, the indexer does not).
 */
export interface TransactionMessage {
    hash: string;
    cell: Cell;
    readonly message: Message;
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
    const outCells = hashmapRefValues(messages.loadMaybeRef(), 15);
    const totalFees = loadCurrencyCollection(slice);
    const stateUpdate = loadHashUpdate(slice.loadRef().beginParse());
    const description = loadTransactionDescription(slice.loadRef().beginParse());

    const inMsg = inCell ? describeMessage(inCell) : undefined;
    const outMsgs: TransactionMessage[] = [];
    for (const outCell of outCells) outMsgs.push(describeMessage(outCell));
    outMsgs.sort((a, b) => (a.createdLt < b.createdLt ? -1 : a.createdLt > b.createdLt ? 1 : 0));
    const tx = {
        address, lt, prevTransactionHash, prevTransactionLt, now, outMessagesCount, oldStatus, endStatus,
        totalFees, stateUpdate, description, raw: cell, hash: () => cell.hash(),
        get inMessage() {
            return inMsg?.message;
        },
        get outMessages() {
            const decoded = Dictionary.empty<number, Message>(Dictionary.Keys.Uint(15));
            outCells.forEach((outCell, index) => decoded.set(index, loadMessage(outCell.beginParse())));
            return decoded;
        },
    } as Transaction;
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

/** A message cell with its header read; the full decoding waits until `message` is used. */
class MessageOfTransaction implements TransactionMessage {
    private decoded: Message | undefined;

    constructor(
        readonly cell: Cell,
        readonly hash: string,
        readonly msgType: TransactionMessage['msgType'],
        readonly source: string | null,
        readonly destination: string | null,
        readonly createdLt: bigint,
        readonly value: bigint | null,
        readonly opCode: number | null,
        readonly bounced: boolean,
    ) {}

    get message(): Message {
        this.decoded ??= loadMessage(this.cell.beginParse());
        return this.decoded;
    }
}

/**
 * message$_ {X:Type} info:CommonMsgInfo init:(Maybe (Either StateInit ^StateInit)) body:(Either X ^X) = Message X;
 * Reads the header and the op code without building the body cell.
 */
export function describeMessage(cell: Cell): TransactionMessage {
    const slice = cell.beginParse();
    const info = loadCommonMessageInfo(slice);
    if (slice.loadBit()) {
        if (slice.loadBit()) slice.loadRef();
        else loadStateInit(slice);
    }
    const body = slice.loadBit() ? slice.loadRef().beginParse() : slice;
    const opCode = body.remainingBits >= 32 ? body.preloadUint(32) : null;
    const hash = cell.hash().toString('hex');
    const addressOf = (a: Address | null | undefined) => (a ? formatRawAddress(a) : null);
    switch (info.type) {
        case 'internal':
            return new MessageOfTransaction(cell, hash, 'int_msg', addressOf(info.src), addressOf(info.dest), info.createdLt, info.value.coins, opCode, info.bounced);
        case 'external-in':
            return new MessageOfTransaction(cell, hash, 'ext_in_msg', null, addressOf(info.dest), 0n, null, opCode, false);
        case 'external-out':
            return new MessageOfTransaction(cell, hash, 'ext_out_msg', addressOf(info.src), null, info.createdLt, null, opCode, false);
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
