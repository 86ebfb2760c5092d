import type { FastifyInstance } from 'fastify';
import { parseHash } from '../../ton/input.ts';
import { accountInterfaces } from '../../store/read/accounts.ts';
import { findTraceId, traceStatus } from '../../store/read/traces.ts';
import { traceTransactions } from '../../store/read/transactions.ts';
import { notFound } from '../errors.ts';
import { toJson } from '../json.ts';
import { presentTraceTree } from '../present/trace.ts';
import type { ApiServices } from '../services.ts';
import { TraceResponseCache, interfacesFingerprint } from '../trace-cache.ts';
import { operation } from './route.ts';

const TRACE_CACHE_CHARS = 64 * 1024 * 1024;

export function traceRoutes(services: ApiServices) {
    const { db } = services.store;
    const cache = new TraceResponseCache(TRACE_CACHE_CHARS);
    return async (app: FastifyInstance) => {
        operation(app, 'getTrace', async (request, reply) => {
            const hash = parseHash(request.params.trace_id, 'trace id');
            const traceId = await findTraceId(db, hash);
            if (!traceId) throw notFound(`no trace with id or transaction/message hash ${hash} in the index`);
            const status = await traceStatus(db, traceId);
            // The Trace schema has no room for completeness, so it travels in headers.
            reply.header('x-trace-complete', status.complete ? 'true' : 'false');
            reply.header('x-trace-pending', String(status.pending));
            // The body is serialized here (exact integers), so it is sent as the JSON text it is.
            reply.type('application/json; charset=utf-8');

            const cached = status.complete ? cache.get(traceId, status.txCount) : undefined;
            if (cached && interfacesFingerprint(await accountInterfaces(db, cached.accounts), cached.accounts) === cached.interfaces) {
                return cached.text;
            }
            const trace = await traceTransactions(db, traceId);
            const text = toJson(presentTraceTree(trace, services.extraCurrencies));
            if (status.complete && trace.transactions.length === status.txCount) {
                cache.set(traceId, { text, txCount: status.txCount, accounts: trace.accounts, interfaces: interfacesFingerprint(trace.interfaces, trace.accounts) });
            }
            return text;
        });
    };
}
