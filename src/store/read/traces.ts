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

type Bookkeeping = { tx_count: number | bigint | null; pending: number | bigint | null; orphan: number | bigint | null };

/**
 * The trace a hash belongs to (the hash of any of its transactions, or of a message one of them
 * received) with its status, in one query: on PostgreSQL each query is a round trip.
 */
export async function findTrace(db: IndexDb, hash: string): Promise<{ traceId: string; status: TraceStatus } | undefined> {
    const byTransaction = await db.selectFrom('transactions')
        .leftJoin('traces', 'traces.trace_id', 'transactions.trace_id')
        .select(['transactions.trace_id as trace_id', 'traces.tx_count', 'traces.pending', 'traces.orphan'])
        .where('transactions.hash', '=', hash)
        .executeTakeFirst();
    const row = byTransaction ?? await db.selectFrom('messages')
        .innerJoin('transactions', 'transactions.hash', 'messages.tx_in_hash')
        .leftJoin('traces', 'traces.trace_id', 'transactions.trace_id')
        .select(['transactions.trace_id as trace_id', 'traces.tx_count', 'traces.pending', 'traces.orphan'])
        .where('messages.hash', '=', hash)
        .executeTakeFirst();
    return row ? { traceId: row.trace_id, status: statusOf(row) } : undefined;
}

/** The bookkeeping of a trace; one without any (not linked yet) counts as complete with nothing pending. */
export async function traceStatus(db: IndexDb, traceId: string): Promise<TraceStatus> {
    const row = await db.selectFrom('traces').select(['tx_count', 'pending', 'orphan']).where('trace_id', '=', traceId).executeTakeFirst();
    return statusOf(row ?? { tx_count: null, pending: null, orphan: null });
}

function statusOf(row: Bookkeeping): TraceStatus {
    if (row.tx_count === null) return { txCount: 0, pending: 0, complete: true };
    const pending = toNumber(row.pending ?? 0);
    return { txCount: toNumber(row.tx_count), pending, complete: pending === 0 && toNumber(row.orphan ?? 0) !== 1 };
}
