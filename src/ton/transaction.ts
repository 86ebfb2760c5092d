import {
    beginCell, Cell, Dictionary, loadAccountStatus, loadCurrencyCollection, loadHashUpdate, loadMessage,
    loadStateInit, loadTransactionDescription, type Message, type Slice, type StateInit, type Transaction,
} from '@ton/core';
import { builtCell, loadHex256 } from './cells/core-cells.ts';
import { formatRawAddress } from './address.ts';
import { hashmapRefValues } from './hashmap-refs.ts';
import { DictKeys } from './cells/dict-keys.ts';

/**
 * What the index keeps of a message: plain values only (no cells), so it crosses between threads
 * by structured clone as it is.
 */
export interface MessageSummary {
    hash: string;
    msgType: 'int_msg' | 'ext_in_msg' | 'ext_out_msg';
    source: string | null;
    destination: string | null;
    createdLt: bigint;
    /** Nanograms carried; null for external messages. */
    value: bigint | null;
    /** The fwd_fee header field of an internal message (paid to the validators that route it); null for external messages. */
    forwardFee: bigint | null;
    opCode: number | null;
    bounced: boolean;
}

/**
 * One message of a transaction, with the hash of its original cell (not of a re-serialization).
 * The header fields are read eagerly (the indexer and the API's message presenting need them); the
 * StateInit, the body cell and the fully decoded @ton/core `message` only when asked for.
 */
export interface TransactionMessage extends MessageSummary {
    cell: Cell;
    /** int_msg: ihr_disabled, bounce; external messages: true and false. */
    readonly ihrDisabled: boolean;
    readonly bounce: boolean;
    /** int_msg: the field after the value (ihr_fee, now extra_flags); 0 otherwise. */
    readonly ihrFee: bigint;
    /** ext_in_msg: import_fee; 0 otherwise. */
    readonly importFee: bigint;
    /** created_at; 0 for ext_in_msg. */
    readonly createdAt: number;
    /** The ExtraCurrencyCollection dictionary's root of an int_msg's value, when it carries any. */
    readonly extraCurrencies: Cell | null;
    readonly init: StateInit | undefined;
    readonly body: Cell;
    readonly message: Message;
}

/** What the index keeps of a transaction: plain values only, like MessageSummary. */
export interface TransactionSummary {
    hash: string;
    account: string;
    workchain: number;
    lt: bigint;
    utime: number;
    inMsg?: MessageSummary;
    /** Ordered by created lt. */
    outMsgs: MessageSummary[];
    success: boolean;
}

export interface ParsedTransaction extends TransactionSummary {
    tx: Transaction;
    cell: Cell;
    inMsg?: TransactionMessage;
    outMsgs: TransactionMessage[];
}

/** Whether `tx` still has its cells (read in this thread) or is a summary that came from another thread. */
export function hasCells(tx: TransactionSummary): tx is ParsedTransaction {
    return 'cell' in tx;
}

/** The plain values of a parsed transaction, as a new object without cells. */
export function summarizeTransaction(tx: ParsedTransaction): TransactionSummary {
    const message = (m: TransactionMessage): MessageSummary => ({
        hash: m.hash, msgType: m.msgType, source: m.source, destination: m.destination, createdLt: m.createdLt,
        value: m.value, forwardFee: m.forwardFee, opCode: m.opCode, bounced: m.bounced,
    });
    return {
        hash: tx.hash, account: tx.account, workchain: tx.workchain, lt: tx.lt, utime: tx.utime,
        inMsg: tx.inMsg ? message(tx.inMsg) : undefined, outMsgs: tx.outMsgs.map(message), success: tx.success,
    };
}

/**
 * transaction$0111 account_addr:bits256 lt:uint64 prev_trans_hash:bits256 prev_trans_lt:uint64
 *   now:uint32 outmsg_cnt:uint15 orig_status:AccountStatus end_status:AccountStatus
 *   ^[ in_msg:(Maybe ^(Message Any)) out_msgs:(HashmapE 15 ^(Message Any)) ]
 *   total_fees:CurrencyCollection state_update:^(HASH_UPDATE Account) description:^TransactionDescr = Transaction;
 *
 * Read here rather than with @ton/core's loadTransaction, which copies the whole cell to get `raw`
 * and reads the messages' dictionary without their cells, whose hashes we need. `knownHash`: the
 * cell's hash (hex) when the caller has it (the index stores it), which spares hashing the whole
 * tree when only the messages' hashes are wanted (cells read by boc-reader.ts hash on demand).
 */
export function parseTransactionCell(cell: Cell, workchain: number, knownHash?: string): ParsedTransaction {
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
            const decoded = Dictionary.empty<number, Message>(DictKeys.Uint(15));
            outCells.forEach((outCell, index) => decoded.set(index, loadMessage(outCell.beginParse())));
            return decoded;
        },
    } as Transaction;
    return {
        hash: knownHash ?? cell.hash().toString('hex'),
        account: `${workchain}:${address.toString(16).padStart(64, '0')}`,
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

/** A message cell with its header read; the rest is decoded when first used. */
class MessageOfTransaction implements TransactionMessage {
    private decoded: Message | undefined;
    private decodedTail: { init: StateInit | undefined; body: Cell } | undefined;

    constructor(
        readonly cell: Cell,
        readonly hash: string,
        readonly msgType: TransactionMessage['msgType'],
        readonly source: string | null,
        readonly destination: string | null,
        readonly createdLt: bigint,
        readonly createdAt: number,
        readonly value: bigint | null,
        readonly forwardFee: bigint | null,
        readonly opCode: number | null,
        readonly bounced: boolean,
        readonly ihrDisabled: boolean,
        readonly bounce: boolean,
        readonly ihrFee: bigint,
        readonly importFee: bigint,
        readonly extraCurrencies: Cell | null,
        /** Where the init and body begin, after the header: bits and refs of the cell. */
        private readonly tailBits: number,
        private readonly tailRefs: number,
    ) {}

    get message(): Message {
        this.decoded ??= loadMessage(this.cell.beginParse());
        return this.decoded;
    }

    get init(): StateInit | undefined {
        return this.tail().init;
    }

    get body(): Cell {
        return this.tail().body;
    }

    /** init:(Maybe (Either StateInit ^StateInit)) body:(Either X ^X), read as @ton/core's loadMessage reads them. */
    private tail(): { init: StateInit | undefined; body: Cell } {
        if (this.decodedTail) return this.decodedTail;
        const slice = this.cell.beginParse();
        slice.skip(this.tailBits);
        for (let i = 0; i < this.tailRefs; i++) slice.loadRef();
        let init: StateInit | undefined;
        if (slice.loadBit()) init = slice.loadBit() ? loadStateInit(slice.loadRef().beginParse()) : loadStateInit(slice);
        let body: Cell;
        if (slice.loadBit()) body = slice.loadRef();
        else body = slice.remainingBits === 0 && slice.remainingRefs === 0 ? Cell.EMPTY : builtCell(beginCell().storeSlice(slice));
        this.decodedTail = { init, body };
        return this.decodedTail;
    }
}

/**
 * message$_ {X:Type} info:CommonMsgInfo init:(Maybe (Either StateInit ^StateInit)) body:(Either X ^X) = Message X;
 * Reads the header and the op code without building the body cell.
 */
export function describeMessage(cell: Cell): TransactionMessage {
    const slice = cell.beginParse();
    const hash = cell.hash().toString('hex');
    // int_msg_info$0 ihr_disabled:Bool bounce:Bool bounced:Bool src:MsgAddressInt dest:MsgAddressInt
    //   value:CurrencyCollection extra_flags:(VarUInteger 16) fwd_fee:Grams created_lt:uint64 created_at:uint32
    // ext_in_msg_info$10 src:MsgAddressExt dest:MsgAddressInt import_fee:Grams
    // ext_out_msg_info$11 src:MsgAddressInt dest:MsgAddressExt created_lt:uint64 created_at:uint32
    if (!slice.loadBit()) {
        const ihrDisabled = slice.loadBit();
        const bounce = slice.loadBit();
        const bounced = slice.loadBit();
        const source = loadRawAddress(slice);
        const destination = loadRawAddress(slice);
        const value = slice.loadCoins();
        const extraCurrencies = slice.loadMaybeRef();
        const ihrFee = slice.loadCoins();
        const forwardFee = slice.loadCoins();
        const createdLt = slice.loadUintBig(64);
        const createdAt = slice.loadUint(32);
        const tailBits = slice.offsetBits;
        const tailRefs = slice.offsetRefs;
        return new MessageOfTransaction(cell, hash, 'int_msg', source, destination, createdLt, createdAt, value, forwardFee,
            bodyOpCode(slice), bounced, ihrDisabled, bounce, ihrFee, 0n, extraCurrencies, tailBits, tailRefs);
    }
    if (!slice.loadBit()) {
        slice.loadMaybeExternalAddress();
        const destination = loadRawAddress(slice);
        const importFee = slice.loadCoins();
        const tailBits = slice.offsetBits;
        const tailRefs = slice.offsetRefs;
        return new MessageOfTransaction(cell, hash, 'ext_in_msg', null, destination, 0n, 0, null, null,
            bodyOpCode(slice), false, true, false, 0n, importFee, null, tailBits, tailRefs);
    }
    const source = loadRawAddress(slice);
    slice.loadMaybeExternalAddress();
    const createdLt = slice.loadUintBig(64);
    const createdAt = slice.loadUint(32);
    const tailBits = slice.offsetBits;
    const tailRefs = slice.offsetRefs;
    return new MessageOfTransaction(cell, hash, 'ext_out_msg', source, null, createdLt, createdAt, null, null,
        bodyOpCode(slice), false, true, false, 0n, 0n, null, tailBits, tailRefs);
}

/** A MsgAddressInt as 'wc:64hex', without making an Address for the usual addr_std without anycast. */
function loadRawAddress(slice: Slice): string {
    if (slice.remainingBits >= 267 && slice.preloadUint(3) === 0b100) {
        slice.skip(3);
        const workchain = slice.loadInt(8);
        return `${workchain}:${loadHex256(slice)}`;
    }
    return formatRawAddress(slice.loadAddress());
}

/** After the header: the op code of the body (skipping any StateInit), without building the body cell. */
function bodyOpCode(slice: Slice): number | null {
    if (slice.loadBit()) {
        if (slice.loadBit()) slice.loadRef();
        else loadStateInit(slice);
    }
    const body = slice.loadBit() ? slice.loadRef().beginParse() : slice;
    return body.remainingBits >= 32 ? body.preloadUint(32) : null;
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

/** The order of a block's transactions as the index and the API list them: by lt, then by account. */
export function byLtThenAccount(a: { lt: bigint; account: string }, b: { lt: bigint; account: string }): number {
    if (a.lt !== b.lt) return a.lt < b.lt ? -1 : 1;
    return a.account < b.account ? -1 : a.account > b.account ? 1 : 0;
}
