import type { FastifyInstance } from 'fastify';
import { parseHash } from '../../ton/input.ts';
import { accountInterfaces } from '../../store/read/accounts.ts';
import { findTraceId, traceSummary, transactionsOfTrace } from '../../store/read/transactions.ts';
import { toNumber } from '../../store/schema.ts';
import { notFound } from '../errors.ts';
import { toJson } from '../json.ts';
import { AccountDirectory } from '../present/account-address.ts';
import { presentTraceTree } from '../present/trace.ts';
import { accountsOf, parseRows } from '../present/transaction-rows.ts';
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
            const summary = await traceSummary(db, traceId);
            const pending = summary ? toNumber(summary.pending) : 0;
            const complete = pending === 0 && !(summary && toNumber(summary.orphan) === 1);
            const txCount = summary ? toNumber(summary.tx_count) : 0;
            // The Trace schema has no room for completeness, so it travels in headers.
            reply.header('x-trace-complete', complete ? 'true' : 'false');
            reply.header('x-trace-pending', String(pending));
            // The body is serialized here (exact integers), so it is sent as the JSON text it is.
            reply.type('application/json; charset=utf-8');

            const cached = complete ? cache.get(traceId, txCount) : undefined;
            if (cached && interfacesFingerprint(await accountInterfaces(db, cached.accounts), cached.accounts) === cached.interfaces) {
                return cached.text;
            }
            const loaded = parseRows(await transactionsOfTrace(db, traceId));
            const accounts = accountsOf(loaded);
            const interfaces = await accountInterfaces(db, accounts);
            const text = toJson(presentTraceTree(loaded, new AccountDirectory(interfaces, services.extraCurrencies)));
            if (complete && loaded.length === txCount) {
                cache.set(traceId, { text, txCount, accounts, interfaces: interfacesFingerprint(interfaces, accounts) });
            }
            return text;
        });
    };
}
