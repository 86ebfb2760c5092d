import type { BlockId } from '../../chain/chain-source.ts';
import { readBoc } from '../../ton/boc/boc-reader.ts';
import { parseTransactionCell, type ParsedTransaction } from '../../ton/transaction.ts';
import type { IndexDb } from '../schema.ts';
import { toNumber } from '../schema.ts';
import { accountInterfaces } from './accounts.ts';

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

const COLUMNS = ['workchain', 'shard', 'seqno', 'trace_id', 'end_balance', 'boc'] as const;

/** An account's transactions, newest first, strictly below `beforeLt` when given. */
export async function accountTransactions(db: IndexDb, account: string, beforeLt: bigint | undefined, limit: number): Promise<IndexedTransactions> {
    let query = db.selectFrom('transactions').select(COLUMNS).where('account', '=', account);
    if (beforeLt !== undefined) query = query.where('lt', '<', beforeLt);
    return withAccounts(db, await query.orderBy('lt', 'desc').limit(limit).execute());
}

/** The transactions of one block by lt, or undefined when the block is not indexed. */
export async function blockTransactions(db: IndexDb, id: BlockId): Promise<IndexedTransactions | undefined> {
    const [block, rows] = await Promise.all([
        db.selectFrom('blocks').select('seqno')
            .where('workchain', '=', id.workchain).where('shard', '=', id.shard).where('seqno', '=', id.seqno)
            .executeTakeFirst(),
        db.selectFrom('transactions').select(COLUMNS)
            .where('workchain', '=', id.workchain).where('shard', '=', id.shard).where('seqno', '=', id.seqno)
            .orderBy('lt').orderBy('account')
            .execute(),
    ]);
    return block ? withAccounts(db, rows) : undefined;
}

/** The transactions of one trace by lt. */
export async function traceTransactions(db: IndexDb, traceId: string): Promise<IndexedTransactions> {
    return withAccounts(db, await db.selectFrom('transactions').select(COLUMNS).where('trace_id', '=', traceId).orderBy('lt').execute());
}

type Row = { workchain: number | bigint; shard: string; seqno: number | bigint; trace_id: string; end_balance: bigint | null; boc: Buffer };

async function withAccounts(db: IndexDb, rows: Row[]): Promise<IndexedTransactions> {
    const transactions = rows.map(decode);
    const accounts = mentionedAccounts(transactions);
    return { transactions, accounts, interfaces: await accountInterfaces(db, accounts) };
}

function decode(row: Row): IndexedTransaction {
    const block = { workchain: toNumber(row.workchain), shard: row.shard, seqno: toNumber(row.seqno) };
    return {
        parsed: parseTransactionCell(readBoc(row.boc)[0], block.workchain),
        block,
        traceId: row.trace_id,
        endBalance: row.end_balance,
        boc: row.boc,
    };
}

function mentionedAccounts(transactions: IndexedTransaction[]): string[] {
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
