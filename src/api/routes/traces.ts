import type { FastifyInstance } from 'fastify';
import { parseHash } from '../../ton/input.ts';
import { accountInterfaces } from '../../store/read/accounts.ts';
import { findTrace, type TraceStatus } from '../../store/read/traces.ts';
import { Lru } from '../../lru.ts';
import { notFound } from '../errors.ts';
import { traceText } from '../answers/trace-texts.ts';
import type { ApiServices } from '../services.ts';
import { JsonTextCache, confirmEntry, madeEntry, type CachedJsonText } from '../answers/json-text-cache.ts';
import { operation } from './route.ts';

const TRACE_CACHE_BYTES = 64 * 1024 * 1024;
const COMPLETE_TRACES_KEPT = 50_000;

export function traceRoutes(services: ApiServices) {
    const { db } = services.store;
    // Answers for complete traces (which never change) with the transaction count they were made for.
    const cache = new JsonTextCache<CachedJsonText & { txCount: number }>(TRACE_CACHE_BYTES);
    // Hashes asked for whose traces were complete, with those traces: a complete trace never changes
    // (nothing is pending and its root came from inside the index), so asking again needs no lookups.
    const completeTraces = new Lru<string, { traceId: string; status: TraceStatus }>(COMPLETE_TRACES_KEPT);
    return async (app: FastifyInstance) => {
        operation(app, 'getTrace', async (request, reply) => {
            const hash = parseHash(request.params.trace_id, 'trace id');
            // Read first: a block written after it moves it, and the next request checks the kept answer again.
            const generation = await services.store.generation();
            let known = completeTraces.get(hash);
            if (!known) {
                known = await findTrace(db, hash);
                if (!known) throw notFound(`no trace with id or transaction/message hash ${hash} in the index`);
                // A trace the linker has not counted yet (no bookkeeping row) reads as complete but may still grow.
                if (known.status.complete && known.status.txCount > 0) completeTraces.set(hash, known);
            }
            const { traceId, status } = known;
            // The Trace schema has no room for completeness, so it travels in headers.
            reply.header('x-trace-complete', status.complete ? 'true' : 'false');
            reply.header('x-trace-pending', String(status.pending));
            // The body is serialized here (exact integers), so it is sent as the JSON bytes it is.
            reply.type('application/json; charset=utf-8');

            const cached = status.complete ? cache.get(traceId) : undefined;
            if (cached && cached.txCount === status.txCount
                && (cached.checkedAt === generation || confirmEntry(cached, await accountInterfaces(db, cached.accounts), generation))) {
                return cached.bytes;
            }
            const trace = await traceText(db, traceId, services.extraCurrencies);
            if (status.complete && trace.transactions === status.txCount) {
                cache.set(traceId, { ...madeEntry(trace.bytes, trace.accounts, trace.interfaces, generation), txCount: status.txCount });
            }
            return trace.bytes;
        });
    };
}
