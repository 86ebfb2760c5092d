import type { BlockId } from '../../ton/block-id.ts';
import { readBoc } from '../../ton/boc/boc-reader.ts';
import { parseTransactionCell, type ParsedTransaction } from '../../ton/transaction.ts';
import type { IndexDb } from '../schema.ts';
import type { Store } from '../store.ts';
import type { CopyLiteral } from '../postgres/copy-rows.ts';
import { toNumber } from '../schema.ts';
import { accountInterfaces } from './accounts.ts';
import { readAmong } from './among.ts';
import type { StoredTemplate } from '../../json/template.ts';

/** An indexed transaction, decoded from its BOC. */
export interface IndexedTransaction {
    parsed: ParsedTransaction;
    block: BlockId;
    traceId: string;
    /** The account's balance right after it, when the source knew it. */
    endBalance: bigint | null;
    boc: Buffer;
}

/** Transactions with what the index knows of every account they mention. */
export interface IndexedTransactions {
    transactions: IndexedTransaction[];
    /** Every account the transactions mention (their own, senders, receivers), sorted, once each. */
    accounts: string[];
    /** Interfaces of those accounts the index holds a state for. */
    interfaces: Map<string, string[]>;
}

/** An indexed transaction as the index stores it, not decoded yet. */
export interface StoredTransaction {
    hash: string;
    block: BlockId;
    traceId: string;
    endBalance: bigint | null;
    boc: Buffer;
    /** Its stored text with holes (present/stored/transaction-template.ts), when it has one. */
    text?: StoredTemplate;
}


const COLUMNS = ['hash', 'workchain', 'shard', 'seqno', 'trace_id', 'end_balance', 'boc'] as const;
const COLUMNS_WITH_TEXT = [...COLUMNS, 'text', 'text_holes'] as const;

/** The hashes of an account's transactions, newest first, strictly below `beforeLt` when given. */
export async function accountTransactionHashes(db: IndexDb, account: string, beforeLt: bigint | undefined, limit: number): Promise<string[]> {
    let query = db.selectFrom('transactions').select('hash').where('account', '=', account);
    if (beforeLt !== undefined) query = query.where('lt', '<', beforeLt);
    return (await query.orderBy('lt', 'desc').limit(limit).execute()).map(row => row.hash);
}

/**
 * One block's stored transactions by lt, read in one query with their texts (a block's list is
 * mostly not kept by the API yet, and a second query by hash cost more than reading the kept ones
 * again), or undefined when the block is not indexed.
 */
export async function blockTransactions(db: IndexDb, id: BlockId): Promise<StoredTransaction[] | undefined> {
    const [block, rows] = await Promise.all([
        db.selectFrom('blocks').select('seqno')
            .where('workchain', '=', id.workchain).where('shard', '=', id.shard).where('seqno', '=', id.seqno)
            .executeTakeFirst(),
        db.selectFrom('transactions').select(COLUMNS_WITH_TEXT)
            .where('workchain', '=', id.workchain).where('shard', '=', id.shard).where('seqno', '=', id.seqno)
            .orderBy('lt').orderBy('account')
            .execute(),
    ]);
    return block ? rows.map(row => withText(stored(row), row)) : undefined;
}

/**
 * A block's list of transactions as stored in one text with its block (migrations/0012-block-texts.ts):
 * its template's holes, and its text. On PostgreSQL the text (megabytes) comes through a binary COPY on
 * a connection of its own while the caller reads the interfaces the holes need; it is undefined if the
 * row was not there for it (a block being written as it was asked for).
 */
export interface StoredBlockList {
    /** The descriptors of its holes as stored (JSON), read before the text. */
    holes: string;
    text: Promise<Buffer | undefined>;
}

/** A block's list text as stored, if it was. */
export async function blockListText(store: Pick<Store, 'db' | 'copyRows'>, id: BlockId): Promise<StoredBlockList | undefined> {
    const row = (columns: Array<'text' | 'holes'>) => store.db.selectFrom('block_texts').select(columns)
        .where('workchain', '=', id.workchain).where('shard', '=', id.shard).where('seqno', '=', id.seqno);
    if (!store.copyRows) {
        const stored = await row(['text', 'holes']).executeTakeFirst();
        return stored && { holes: stored.holes, text: Promise.resolve(stored.text) };
    }
    const { sql, parameters } = row(['text']).compile();
    const text = store.copyRows(sql, parameters as CopyLiteral[]).then(rows => rows[0]?.[0] ?? undefined);
    // Awaited only if the holes are used; a failure is the caller's then, not an unhandled rejection.
    text.catch(() => undefined);
    const stored = await row(['holes']).executeTakeFirst();
    return stored && { holes: stored.holes, text };
}

/** The stored transactions with these hashes, in the order given; every one must be in the index. */
export async function storedTransactions(db: IndexDb, hashes: readonly string[]): Promise<StoredTransaction[]> {
    const rows = await readAmong(db, 'hash', hashes, condition => db.selectFrom('transactions').select(COLUMNS_WITH_TEXT).where(condition).execute());
    const byHash = new Map(rows.map(row => [row.hash, withText(stored(row), row)]));
    return hashes.map(hash => {
        const row = byHash.get(hash);
        if (!row) throw new Error(`transaction ${hash} is not in the index`);
        return row;
    });
}

/** The transactions of one trace by lt. */
export async function traceTransactions(db: IndexDb, traceId: string): Promise<IndexedTransactions> {
    return withAccounts(db, (await db.selectFrom('transactions').select(COLUMNS).where('trace_id', '=', traceId).orderBy('lt').execute()).map(stored));
}

/** A transaction of a trace with its stored text, and where it hangs in the trace's tree. */
export interface TraceTransactionText {
    hash: string;
    account: string;
    boc: Buffer;
    text: StoredTemplate;
    /** The transaction of the same trace that sent its inbound message, with that message's created lt; null at the root. */
    parent: { hash: string; createdLt: bigint } | null;
}

/**
 * The transactions of one trace by lt with their stored texts, linked by the messages between
 * them; null when one of them has no stored text (indexed before texts were).
 */
export async function traceTransactionTexts(db: IndexDb, traceId: string): Promise<TraceTransactionText[] | null> {
    // The inbound message's sender read in the same query (on PostgreSQL a second query is a second
    // round trip), as lookups by primary key: a join was planned as a scan of all messages while the
    // planner had no statistics yet (an index just caught up).
    const rows = await db.selectFrom('transactions')
        .select(['hash', 'account', 'boc', 'text', 'text_holes'])
        .select(eb => [
            eb.selectFrom('messages').select('messages.tx_out_hash').whereRef('messages.hash', '=', 'transactions.in_msg_hash').as('sender'),
            eb.selectFrom('messages').select('messages.created_lt').whereRef('messages.hash', '=', 'transactions.in_msg_hash').as('created_lt'),
        ])
        .where('trace_id', '=', traceId).orderBy('lt').execute();
    if (rows.some(row => row.text === null || row.text_holes === null)) return null;
    const inTrace = new Set(rows.map(row => row.hash));
    return rows.map(row => ({
        hash: row.hash,
        account: row.account,
        boc: row.boc,
        text: { text: row.text!, holes: row.text_holes! },
        parent: row.sender !== null && inTrace.has(row.sender) ? { hash: row.sender, createdLt: row.created_lt! } : null,
    }));
}

type Row = { hash: string; workchain: number | bigint; shard: string; seqno: number | bigint; trace_id: string; end_balance: bigint | null; boc: Buffer };

function stored(row: Row): StoredTransaction {
    return {
        hash: row.hash,
        block: { workchain: toNumber(row.workchain), shard: row.shard, seqno: toNumber(row.seqno) },
        traceId: row.trace_id,
        endBalance: row.end_balance,
        boc: row.boc,
    };
}

function withText(transaction: StoredTransaction, row: { text: Buffer | null; text_holes: string | null }): StoredTransaction {
    if (row.text !== null && row.text_holes !== null) transaction.text = { text: row.text, holes: row.text_holes };
    return transaction;
}

async function withAccounts(db: IndexDb, rows: StoredTransaction[]): Promise<IndexedTransactions> {
    const transactions = rows.map(decodeStoredTransaction);
    const accounts = mentionedAccounts(transactions);
    return { transactions, accounts, interfaces: await accountInterfaces(db, accounts) };
}

export function decodeStoredTransaction(row: StoredTransaction): IndexedTransaction {
    return {
        parsed: parseTransactionCell(readBoc(row.boc)[0], row.block.workchain, row.hash),
        block: row.block,
        traceId: row.traceId,
        endBalance: row.endBalance,
        boc: row.boc,
    };
}

/** Every account the transactions mention (their own, senders, receivers), sorted, once each. */
export function mentionedAccounts(transactions: IndexedTransaction[]): string[] {
    const addresses = new Set<string>();
    for (const { parsed } of transactions) {
        addresses.add(parsed.account);
        for (const m of [parsed.inMsg, ...parsed.outMsgs]) {
            if (m?.source) addresses.add(m.source);
            if (m?.destination) addresses.add(m.destination);
        }
    }
    return [...addresses].sort();
}
