import type { BlockId } from '../../chain/chain-source.ts';
import type { IndexDb } from '../schema.ts';

const COLUMNS = ['hash', 'account', 'lt', 'workchain', 'shard', 'seqno', 'trace_id', 'end_balance', 'boc'] as const;

export type TransactionRow = Awaited<ReturnType<typeof transactionsOfTrace>>[number];

/** An account's transactions, newest first, strictly below `beforeLt` when given. */
export function accountTransactions(db: IndexDb, account: string, beforeLt: bigint | undefined, limit: number) {
    let query = db.selectFrom('transactions').select(COLUMNS).where('account', '=', account);
    if (beforeLt !== undefined) query = query.where('lt', '<', beforeLt);
    return query.orderBy('lt', 'desc').limit(limit).execute();
}

export function blockTransactions(db: IndexDb, id: BlockId) {
    return db.selectFrom('transactions').select(COLUMNS)
        .where('workchain', '=', id.workchain).where('shard', '=', id.shard).where('seqno', '=', id.seqno)
        .orderBy('lt').orderBy('account')
        .execute();
}

export function transactionsOfTrace(db: IndexDb, traceId: string) {
    return db.selectFrom('transactions').select(COLUMNS).where('trace_id', '=', traceId).orderBy('lt').execute();
}

/** The trace a hash belongs to: the hash of any of its transactions, or of a message one of them received. */
export async function findTraceId(db: IndexDb, hash: string): Promise<string | undefined> {
    const byTransaction = await db.selectFrom('transactions').select('trace_id').where('hash', '=', hash).executeTakeFirst();
    if (byTransaction) return byTransaction.trace_id;
    const byMessage = await db.selectFrom('messages')
        .innerJoin('transactions', 'transactions.hash', 'messages.tx_in_hash')
        .select('transactions.trace_id as trace_id')
        .where('messages.hash', '=', hash)
        .executeTakeFirst();
    return byMessage?.trace_id;
}

export function traceSummary(db: IndexDb, traceId: string) {
    return db.selectFrom('traces').selectAll().where('trace_id', '=', traceId).executeTakeFirst();
}
