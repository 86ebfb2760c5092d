import type { FastifyInstance } from 'fastify';
import { parseHash } from '../../ton/input.ts';
import { findTraceId, traceSummary, transactionsOfTrace } from '../../store/read/transactions.ts';
import { toNumber } from '../../store/schema.ts';
import { notFound } from '../errors.ts';
import { presentTraceTree } from '../present/trace.ts';
import { directoryFor, parseRows } from '../present/transaction-rows.ts';
import type { ApiServices } from '../services.ts';
import { operation } from './route.ts';

export function traceRoutes(services: ApiServices) {
    const { db } = services.store;
    return async (app: FastifyInstance) => {
        operation(app, 'getTrace', async (request, reply) => {
            const hash = parseHash(request.params.trace_id, 'trace id');
            const traceId = await findTraceId(db, hash);
            if (!traceId) throw notFound(`no trace with id or transaction/message hash ${hash} in the index`);
            const [rows, summary] = await Promise.all([transactionsOfTrace(db, traceId), traceSummary(db, traceId)]);
            const loaded = parseRows(rows);
            const pending = summary ? toNumber(summary.pending) : 0;
            const orphan = summary ? toNumber(summary.orphan) === 1 : false;
            // The Trace schema has no room for completeness, so it travels in headers.
            reply.header('x-trace-complete', pending === 0 && !orphan ? 'true' : 'false');
            reply.header('x-trace-pending', String(pending));
            return presentTraceTree(loaded, await directoryFor(db, loaded));
        });
    };
}
