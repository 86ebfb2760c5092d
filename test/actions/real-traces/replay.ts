import {
    Address, Builder, Cell, Dictionary, beginCell, loadStateInit, storeCommonMessageInfo, storeCurrencyCollection, storeHashUpdate,
    storeTransactionDescription, type AccountStatus, type CommonMessageInfo, type TransactionDescription,
} from '@ton/core';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parseTransactionCell, type ParsedTransaction } from '../../../src/ton/transaction.ts';
import type { ActionTraceNode } from '../../../src/actions/trace-input.ts';

/**
 * Real mainnet traces as another indexer stores them (`../shared/fixtures/real-traces`): rows of
 * transactions and messages, no BOCs. Each message cell is rebuilt from its recorded fields (body
 * and StateInit inline or in a reference, whichever reproduces the recorded hash) and each
 * transaction cell from its row around those exact message cells, then read back by our own
 * transaction parser: the engine gets what our indexer would hand it.
 */

export const REAL_TRACES_DIR = fileURLToPath(new URL('../../../../shared/fixtures/real-traces/', import.meta.url));

export interface MessageRow {
    source: string | null;
    destination: string | null;
    value: number | string | null;
    value_extra_currencies: Record<string, string | number> | null;
    fwd_fee: number | string | null;
    ihr_fee: number | string | null;
    import_fee: number | string | null;
    created_lt: number | string | null;
    created_at: number | string | null;
    ihr_disabled: boolean | null;
    bounce: boolean | null;
    bounced: boolean | null;
    opcode: number | null;
    body: string | null;
    init_state: string | null;
}

export interface TransactionRow {
    hash: string;
    account: string;
    lt: number | string;
    now: number;
    prev_trans_hash: string;
    prev_trans_lt: number | string;
    orig_status: string;
    end_status: string;
    total_fees: number | string;
    account_state_hash_before: string;
    account_state_hash_after: string;
    descr: string;
    aborted: boolean;
    destroyed: boolean;
    credit_first: boolean;
    compute_mode: number | null;
    compute_exit_code: number | null;
    compute_exit_arg: number | null;
    bounce: string | null;
    in_msg: string | null;
    out_msgs: string[];
}

export interface RecordedJettonWallet { balance: number | string; owner: string; jetton: string }
export interface RecordedNftItem { index: number | string; collection_address: string | null; owner_address: string | null }
export interface RecordedNftAuction { mp_addr: string; nft_addr: string; nft_owner: string; last_bid: number | string }
export interface RecordedNftSale { marketplace_address?: string; nft_address?: string; nft_owner_address?: string; full_price?: number | string }

export interface RecordedInterfaces {
    JettonWallet?: RecordedJettonWallet;
    NftItem?: RecordedNftItem;
    NftSale?: RecordedNftSale;
    NftAuction?: RecordedNftAuction;
    [other: string]: unknown;
}

export interface TraceFile {
    trace: { trace_id: string; external_hash: string | null };
    transactions: TransactionRow[];
    messages: Record<string, MessageRow>;
    interfaces: Record<string, RecordedInterfaces>;
}

/** Whether the data is beside the clone; under CI it must be. */
export function realTracesAvailable(): boolean {
    return existsSync(`${REAL_TRACES_DIR}traces`);
}

export function readTraceFile(traceId: string, dir = REAL_TRACES_DIR): TraceFile {
    return JSON.parse(readFileSync(`${dir}traces/${traceFileName(traceId)}`, 'utf8')) as TraceFile;
}

/** Trace ids are base64; the files are named in base64url. */
export function traceFileName(traceId: string): string {
    return `${traceId.replace(/\+/g, '-').replace(/\//g, '_')}.json`;
}

export function traceFiles(dir = REAL_TRACES_DIR): string[] {
    return readdirSync(`${dir}traces`).filter((f) => f.endsWith('.json')).sort();
}

const hex = (base64: string) => Buffer.from(base64, 'base64').toString('hex');
const big = (v: number | string | null | undefined) => BigInt(v ?? 0);
/** Rows write addresses upper-case; the engine's are lower-case. */
export const rawAddress = (a: string) => a.toLowerCase();

function extraCurrencies(row: MessageRow): Dictionary<number, bigint> | undefined {
    const entries = Object.entries(row.value_extra_currencies ?? {});
    if (entries.length === 0) return undefined;
    const dict = Dictionary.empty(Dictionary.Keys.Uint(32), Dictionary.Values.BigVarUint(5));
    for (const [id, amount] of entries) dict.set(Number(id), BigInt(amount));
    return dict;
}

function messageInfo(row: MessageRow): CommonMessageInfo {
    if (row.source === null) {
        return { type: 'external-in', src: null, dest: Address.parseRaw(row.destination!), importFee: big(row.import_fee) };
    }
    if (row.destination === null) {
        // ext_out_msg_info: the row does not keep the addr_extern destination, so its hash differs
        return { type: 'external-out', src: Address.parseRaw(row.source), dest: null, createdLt: big(row.created_lt), createdAt: Number(row.created_at ?? 0) };
    }
    return {
        type: 'internal', ihrDisabled: row.ihr_disabled ?? true, bounce: row.bounce ?? false, bounced: row.bounced ?? false,
        src: Address.parseRaw(row.source), dest: Address.parseRaw(row.destination),
        value: { coins: big(row.value), other: extraCurrencies(row) }, ihrFee: big(row.ihr_fee), forwardFee: big(row.fwd_fee),
        createdLt: big(row.created_lt), createdAt: Number(row.created_at ?? 0),
    };
}

/** One layout of message$_ info init:(Maybe (Either StateInit ^StateInit)) body:(Either X ^X), or null when it does not fit a cell. */
function messageLayout(info: CommonMessageInfo, init: Cell | null, body: Cell, initInRef: boolean, bodyInRef: boolean): Cell | null {
    try {
        const b = new Builder().store(storeCommonMessageInfo(info));
        if (init) {
            b.storeBit(1).storeBit(initInRef);
            if (initInRef) b.storeRef(init);
            else b.storeSlice(init.beginParse());
        } else {
            b.storeBit(0);
        }
        b.storeBit(bodyInRef);
        if (bodyInRef) b.storeRef(body);
        else b.storeSlice(body.beginParse());
        return b.endCell();
    } catch {
        return null;
    }
}

/** The message cell whose hash is the recorded one (the first layout that fits, when none does: external-out). */
export function rebuildMessage(hash: string, row: MessageRow): { cell: Cell; exact: boolean } {
    const info = messageInfo(row);
    const init = row.init_state ? Cell.fromBase64(row.init_state) : null;
    const body = row.body ? Cell.fromBase64(row.body) : Cell.EMPTY;
    const wanted = hex(hash);
    let first: Cell | null = null;
    for (const initInRef of [false, true]) {
        for (const bodyInRef of [false, true]) {
            const cell = messageLayout(info, init, body, initInRef, bodyInRef);
            if (!cell) continue;
            first ??= cell;
            if (cell.hash().toString('hex') === wanted) return { cell, exact: true };
        }
    }
    if (!first) throw new Error(`message ${hash} fits no layout`);
    return { cell: first, exact: false };
}

const STATUS: Record<string, AccountStatus> = { uninit: 'uninitialized', frozen: 'frozen', active: 'active', nonexist: 'non-existing' };

function status(name: string): AccountStatus {
    const s = STATUS[name];
    if (!s) throw new Error(`unknown account status ${name}`);
    return s;
}

/**
 * The row keeps no gas, storage or action-phase figures: the description holds what it does keep
 * (compute skipped or its exit code, aborted, destroyed, credit, bounce), the rest zero.
 */
function description(row: TransactionRow, inMessage: MessageRow | undefined): TransactionDescription {
    const internal = inMessage !== undefined && inMessage.source !== null;
    const computed = row.compute_mode !== null;
    const exitCode = row.compute_exit_code ?? 0;
    const computeSuccess = computed && (exitCode === 0 || exitCode === 1);
    return {
        type: 'generic',
        creditFirst: row.credit_first,
        storagePhase: undefined,
        creditPhase: internal ? { dueFeesColelcted: undefined, credit: { coins: big(inMessage.value) } } : undefined,
        computePhase: computed
            ? {
                type: 'vm', success: computeSuccess, messageStateUsed: false, accountActivated: false, gasFees: 0n, gasUsed: 0n, gasLimit: 0n,
                gasCredit: undefined, mode: row.compute_mode!, exitCode, exitArg: row.compute_exit_arg ?? undefined, vmSteps: 0,
                vmInitStateHash: 0n, vmFinalStateHash: 0n,
            }
            // The reason is not recorded: no state for an account that has none, else no gas.
            : { type: 'skipped', reason: row.orig_status === 'active' || row.orig_status === 'frozen' ? 'no-gas' : 'no-state' },
        actionPhase: computeSuccess
            ? {
                success: !row.aborted, valid: true, noFunds: false, statusChange: row.destroyed ? 'deleted' : 'unchanged', totalFwdFees: undefined,
                totalActionFees: undefined, resultCode: 0, resultArg: undefined, totalActions: row.out_msgs.length, specActions: 0, skippedActions: 0,
                messagesCreated: row.out_msgs.length, actionListHash: 0n, totalMessageSize: { cells: 0n, bits: 0n },
            }
            : undefined,
        bouncePhase: row.bounce === 'ok'
            ? { type: 'ok', messageSize: { cells: 0n, bits: 0n }, messageFees: 0n, forwardFees: 0n }
            : row.bounce === 'nofunds' ? { type: 'no-funds', messageSize: { cells: 0n, bits: 0n }, requiredForwardFees: 0n } : undefined,
        aborted: row.aborted,
        destroyed: row.destroyed,
    };
}

/** transaction$0111 around the exact message cells (@ton/core's storeTransaction would re-serialize them). */
export function rebuildTransaction(row: TransactionRow, messages: ReadonlyMap<string, Cell>, rows: Record<string, MessageRow>): ParsedTransaction {
    const [workchain, account] = row.account.split(':');
    const outs = Dictionary.empty(Dictionary.Keys.Uint(15), Dictionary.Values.Cell());
    row.out_msgs.forEach((h, i) => outs.set(i, messages.get(h)!));
    const inCell = row.in_msg ? messages.get(row.in_msg)! : null;
    const cell = beginCell()
        .storeUint(0b0111, 4)
        .storeUint(BigInt(`0x${account}`), 256)
        .storeUint(big(row.lt), 64)
        .storeBuffer(Buffer.from(row.prev_trans_hash, 'base64'))
        .storeUint(big(row.prev_trans_lt), 64)
        .storeUint(row.now, 32)
        .storeUint(row.out_msgs.length, 15)
        .store(storeStatus(status(row.orig_status)))
        .store(storeStatus(status(row.end_status)))
        .storeRef(beginCell().storeMaybeRef(inCell).storeDict(outs))
        .store(storeCurrencyCollection({ coins: big(row.total_fees) }))
        .storeRef(beginCell().store(storeHashUpdate({
            oldHash: Buffer.from(row.account_state_hash_before, 'base64'), newHash: Buffer.from(row.account_state_hash_after, 'base64'),
        })))
        .storeRef(beginCell().store(storeTransactionDescription(description(row, row.in_msg ? rows[row.in_msg] : undefined))))
        .endCell();
    return parseTransactionCell(cell, Number(workchain));
}

function storeStatus(s: AccountStatus) {
    const code = { uninitialized: 0, frozen: 1, active: 2, 'non-existing': 3 }[s];
    return (b: Builder) => b.storeUint(code, 2);
}

export interface ReplayedTrace {
    root: ActionTraceNode;
    /** every node, by transaction hash (hex) */
    nodes: Map<string, ActionTraceNode>;
    /** internal messages whose rebuilt cell did not reproduce the recorded hash */
    inexactMessages: string[];
    /** code hashes (hex) of StateInits the trace sends, by destination account */
    deployedCode: Map<string, Cell>;
}

/**
 * The trace as a tree of parsed transactions: the root is the transaction the trace is named
 * after, a transaction's children are those whose in-message is one of its out-messages.
 * Interfaces are left empty for the caller to fill.
 */
export function replayTrace(file: TraceFile): ReplayedTrace {
    const cells = new Map<string, Cell>();
    const inexactMessages: string[] = [];
    const deployedCode = new Map<string, Cell>();
    for (const [hash, row] of Object.entries(file.messages)) {
        const { cell, exact } = rebuildMessage(hash, row);
        cells.set(hash, cell);
        if (!exact && row.destination !== null) inexactMessages.push(hash);
        if (row.init_state && row.destination) {
            const init = loadStateInit(Cell.fromBase64(row.init_state).beginParse());
            if (init.code) deployedCode.set(rawAddress(row.destination), init.code);
        }
    }
    const byInMessage = new Map<string, TransactionRow>();
    for (const t of file.transactions) if (t.in_msg) byInMessage.set(t.in_msg, t);
    const nodes = new Map<string, ActionTraceNode>();
    const build = (row: TransactionRow): ActionTraceNode => {
        const transaction = rebuildTransaction(row, cells, file.messages);
        if (transaction.hash !== hex(row.hash)) {
            // Without the real description cell the hash cannot match: key the node by the recorded one.
            transaction.hash = hex(row.hash);
        }
        const node: ActionTraceNode = { transaction, interfaces: [], children: [] };
        nodes.set(transaction.hash, node);
        for (const out of row.out_msgs) {
            const child = byInMessage.get(out);
            if (child) node.children.push(build(child));
        }
        return node;
    };
    const rootRow = file.transactions.find((t) => t.hash === file.trace.trace_id);
    if (!rootRow) throw new Error(`trace ${file.trace.trace_id} has no root transaction`);
    return { root: build(rootRow), nodes, inexactMessages, deployedCode };
}
