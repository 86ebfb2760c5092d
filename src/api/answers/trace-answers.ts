import type { ExtraCurrencyCatalog } from '../../ton/extra-currencies.ts';
import type { Store } from '../../store/store.ts';
import { accountInterfaces } from '../../store/read/accounts.ts';
import { findTrace, type TraceStatus } from '../../store/read/traces.ts';
import { Lru } from '../../lru.ts';
import { JsonTextCache, confirmEntry, madeEntry, type CachedJsonText } from './json-text-cache.ts';
import { traceText } from './trace-texts.ts';

const TRACE_CACHE_BYTES = 64 * 1024 * 1024;
const COMPLETE_TRACES_KEPT = 50_000;

/** A trace's answer as JSON bytes, and how complete the index holds it (the answer's headers). */
export interface TraceAnswer {
    bytes: Buffer;
    status: TraceStatus;
}

/** Traces (spec 2.14), by trace id or the hash of one of their transactions or messages. */
export class TraceAnswers {
    /** Answers for complete traces (which never change) with the transaction count they were made for. */
    private readonly texts = new JsonTextCache<CachedJsonText & { txCount: number }>(TRACE_CACHE_BYTES);
    /**
     * Hashes asked for whose traces were complete, with those traces: a complete trace never changes
     * (nothing is pending and its root came from inside the index), so asking again needs no lookups.
     */
    private readonly completeTraces = new Lru<string, { traceId: string; status: TraceStatus }>(COMPLETE_TRACES_KEPT);

    constructor(private readonly store: Store, private readonly currencies?: ExtraCurrencyCatalog) {}

    /** The trace `hash` names, or undefined when the index holds none. */
    async trace(hash: string): Promise<TraceAnswer | undefined> {
        const { db } = this.store;
        // Read first: a block written after it moves it, and the next request checks the kept answer again.
        const generation = await this.store.generation();
        let known = this.completeTraces.get(hash);
        if (!known) {
            known = await findTrace(db, hash);
            if (!known) return undefined;
            // A trace the linker has not counted yet (no bookkeeping row) reads as complete but may still grow.
            if (known.status.complete && known.status.txCount > 0) this.completeTraces.set(hash, known);
        }
        const { traceId, status } = known;
        const cached = status.complete ? this.texts.get(traceId) : undefined;
        if (cached && cached.txCount === status.txCount
            && (cached.checkedAt === generation || confirmEntry(cached, await accountInterfaces(db, cached.accounts), generation))) {
            return { bytes: cached.bytes, status };
        }
        const trace = await traceText(db, traceId, this.currencies);
        if (status.complete && trace.transactions === status.txCount) {
            this.texts.set(traceId, { ...madeEntry(trace.bytes, trace.accounts, trace.interfaces, generation), txCount: status.txCount });
        }
        return { bytes: trace.bytes, status };
    }
}
