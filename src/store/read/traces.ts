import type { IndexDb } from '../schema.ts';
import { toNumber } from '../schema.ts';

/** How much of a trace the index holds. */
export interface TraceStatus {
    /** Transactions of the trace indexed so far. */
    txCount: number;
    /** Messages of the trace whose receiving transaction is not indexed yet. */
    pending: number;
    /** Every part is indexed: nothing pending and the root was not sent from outside the index. */
    complete: boolean;
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

/** The bookkeeping of a trace; one without any (not linked yet) counts as complete with nothing pending. */
export async function traceStatus(db: IndexDb, traceId: string): Promise<TraceStatus> {
    const row = await db.selectFrom('traces').select(['tx_count', 'pending', 'orphan']).where('trace_id', '=', traceId).executeTakeFirst();
    if (!row) return { txCount: 0, pending: 0, complete: true };
    const pending = toNumber(row.pending);
    return { txCount: toNumber(row.tx_count), pending, complete: pending === 0 && toNumber(row.orphan) !== 1 };
}
