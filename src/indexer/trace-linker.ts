import type { Insertable, Transaction as DbTransaction } from 'kysely';
import { readInChunks } from '../store/chunks.ts';
import { BulkInsert } from '../store/bulk-insert.ts';
import type { TransactionSummary } from '../ton/transaction.ts';
import type { IndexDatabase, TracesTable } from '../store/schema.ts';
import { toBigInt, toNumber } from '../store/schema.ts';

type Trx = DbTransaction<IndexDatabase>;

const COLLATOR_SOURCE = `-1:${'0'.repeat(64)}`;

interface TraceDelta {
    isNew: boolean;
    orphan: boolean;
    txCount: number;
    pending: number;
    startLt: bigint;
    endLt: bigint;
    startUtime: number;
}

/**
 * Assigns every transaction of a block to a trace (trace id = hash of the root transaction) and
 * keeps the per-trace bookkeeping: how many transactions it has and how many of its internal
 * messages still wait for their receiving transaction. A transaction whose sender is not in the
 * index starts an "orphan" trace; if the sender is indexed later (blocks imported out of order),
 * the orphan trace is merged into the sender's.
 */
export async function linkTraces(trx: Trx, parsed: TransactionSummary[]): Promise<Map<string, string>> {
    const traceOf = new Map<string, string>();
    const traceBySentMessage = new Map<string, string>();
    const deltas = new Map<string, TraceDelta>();

    const internalIn = parsed.filter(tx => tx.inMsg?.msgType === 'int_msg').map(tx => tx.inMsg!.hash);
    const senders = await indexedSenders(trx, internalIn);
    const outHashes = parsed.flatMap(tx => tx.outMsgs.filter(m => m.msgType === 'int_msg').map(m => m.hash));
    const alreadyReceived = await indexedReceivers(trx, outHashes);
    const merges: Array<{ into: string; receiverTx: string }> = [];

    const touch = (traceId: string, tx: TransactionSummary, isNew: boolean, orphan: boolean): TraceDelta => {
        let delta = deltas.get(traceId);
        if (!delta) {
            delta = { isNew, orphan, txCount: 0, pending: 0, startLt: tx.lt, endLt: tx.lt, startUtime: tx.utime };
            deltas.set(traceId, delta);
        }
        delta.txCount += 1;
        if (tx.lt > delta.endLt) delta.endLt = tx.lt;
        return delta;
    };

    for (const tx of parsed) {
        let traceId: string;
        let delta: TraceDelta;
        const inMsg = tx.inMsg;
        if (inMsg?.msgType === 'int_msg') {
            const parentTrace = traceBySentMessage.get(inMsg.hash) ?? senders.get(inMsg.hash);
            if (parentTrace) {
                traceId = parentTrace;
                delta = touch(traceId, tx, false, false);
                delta.pending -= 1;
            } else {
                traceId = tx.hash;
                // Messages from -1:000…0 (recovered fees, minted coins) are made by the collator itself,
                // not by a transaction: they start a trace of their own rather than an orphan one.
                delta = touch(traceId, tx, true, inMsg.source !== COLLATOR_SOURCE);
            }
        } else {
            traceId = tx.hash;
            delta = touch(traceId, tx, true, false);
        }
        traceOf.set(tx.hash, traceId);
        for (const out of tx.outMsgs) {
            if (out.msgType !== 'int_msg') continue;
            traceBySentMessage.set(out.hash, traceId);
            const receiver = alreadyReceived.get(out.hash);
            if (receiver) merges.push({ into: traceId, receiverTx: receiver });
            else delta.pending += 1;
        }
    }

    await applyDeltas(trx, deltas);
    // A merged-away orphan trace may also be the trace of transactions of this block (not written
    // yet), or the target of a later merge: follow the renames so none points at a deleted trace.
    const renamed = new Map<string, string>();
    const current = (traceId: string) => {
        while (renamed.has(traceId)) traceId = renamed.get(traceId)!;
        return traceId;
    };
    for (const merge of merges) {
        const into = current(merge.into);
        const merged = await mergeOrphanTrace(trx, into, merge.receiverTx);
        if (merged) renamed.set(merged, into);
    }
    if (renamed.size > 0) for (const [hash, traceId] of traceOf) traceOf.set(hash, current(traceId));
    return traceOf;
}

/** For internal messages already indexed as sent: message hash → the sender's trace id. */
async function indexedSenders(trx: Trx, messageHashes: string[]): Promise<Map<string, string>> {
    const rows = await readInChunks(messageHashes, 500, chunk => trx.selectFrom('messages')
        .innerJoin('transactions', 'transactions.hash', 'messages.tx_out_hash')
        .select(['messages.hash as hash', 'transactions.trace_id as trace_id'])
        .where('messages.hash', 'in', chunk)
        .execute());
    return new Map(rows.map(row => [row.hash, row.trace_id]));
}

/** For messages whose receiving transaction is indexed already: message hash → that transaction. */
async function indexedReceivers(trx: Trx, messageHashes: string[]): Promise<Map<string, string>> {
    const rows = await readInChunks(messageHashes, 500, chunk => trx.selectFrom('messages').select(['hash', 'tx_in_hash'])
        .where('hash', 'in', chunk)
        .where('tx_in_hash', 'is not', null)
        .execute());
    return new Map(rows.map(row => [row.hash, row.tx_in_hash!]));
}

const TRACES_INSERT = new BulkInsert<Insertable<TracesTable>>((db, rows) => db.insertInto('traces').values(rows));

async function applyDeltas(trx: Trx, deltas: Map<string, TraceDelta>): Promise<void> {
    const fresh = [...deltas].filter(([, d]) => d.isNew).map(([traceId, d]) => ({
        trace_id: traceId, tx_count: d.txCount, pending: d.pending, orphan: d.orphan ? 1 : 0,
        start_lt: d.startLt, end_lt: d.endLt, start_utime: d.startUtime,
    }));
    await TRACES_INSERT.run(trx, fresh);
    for (const [traceId, d] of deltas) {
        if (d.isNew) continue;
        await trx.updateTable('traces')
            .set(eb => ({
                tx_count: eb('tx_count', '+', d.txCount),
                pending: eb('pending', '+', d.pending),
                end_lt: eb.case().when('end_lt', '<', d.endLt).then(d.endLt).else(eb.ref('end_lt')).end(),
            }))
            .where('trace_id', '=', traceId)
            .execute();
    }
}

/** Moves the receiver's trace into `into`; returns the id of the trace merged away, if any. */
async function mergeOrphanTrace(trx: Trx, into: string, receiverTx: string): Promise<string | null> {
    const receiver = await trx.selectFrom('transactions').select('trace_id').where('hash', '=', receiverTx).executeTakeFirst();
    if (!receiver || receiver.trace_id === into) return null;
    const orphan = await trx.selectFrom('traces').selectAll().where('trace_id', '=', receiver.trace_id).executeTakeFirst();
    await trx.updateTable('transactions').set({ trace_id: into }).where('trace_id', '=', receiver.trace_id).execute();
    if (orphan) {
        await trx.updateTable('traces')
            .set(eb => ({
                tx_count: eb('tx_count', '+', toNumber(orphan.tx_count)),
                pending: eb('pending', '+', toNumber(orphan.pending)),
                end_lt: eb.case().when('end_lt', '<', toBigInt(orphan.end_lt)).then(toBigInt(orphan.end_lt)).else(eb.ref('end_lt')).end(),
            }))
            .where('trace_id', '=', into)
            .execute();
        await trx.deleteFrom('traces').where('trace_id', '=', orphan.trace_id).execute();
    }
    return receiver.trace_id;
}
