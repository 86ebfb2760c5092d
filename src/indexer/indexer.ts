import { EventEmitter } from 'node:events';
import type { ChainSource, SourceItem } from '../chain/chain-source.ts';
import type { Store } from '../store/store.ts';
import { storeUnavailable, type StoreUnavailable } from '../store/unavailable.ts';
import { indexBlock, type IndexContext } from './index-block.ts';
import { sleep } from '../sleep.ts';
import { fillHistoryTexts } from './history-texts.ts';

export interface IndexerEvents {
    block: [item: SourceItem, transactions: number];
    error: [error: Error];
    /** The index database is away or full: indexing waits `retryInMs` and tries again (attempt 1, 2, …). */
    stalled: [problem: StoreUnavailable, retryInMs: number, attempt: number];
    /** The first block indexed after a stall, `afterMs` after it began. */
    resumed: [afterMs: number];
    /** Operations indexed before history texts were stored got theirs (`fillHistoryTexts`), in `ms`. */
    textsFilled: [operations: number, ms: number];
    /** Filling those texts stopped; their pages are still served, from the operations' columns. */
    textsFailed: [error: Error];
}

/** Waits between attempts while the index database is away or full: doubling from the first to the last. */
const RETRY_FIRST_MS = 200;
const RETRY_MAX_MS = 5_000;

/**
 * Pulls blocks from a chain source after the last committed cursor and indexes them one by one.
 * The cursor is saved in the same database transaction as the block, so a restart resumes exactly
 * where the last commit left off. While the database is away or full the indexer waits and tries
 * again from the saved cursor (the failed block's transaction rolled back), so nothing is skipped
 * or indexed twice; any other error stops it.
 */
export class Indexer extends EventEmitter<IndexerEvents> {
    private controller: AbortController | null = null;
    private loop: Promise<void> | null = null;
    private filling: Promise<void> | null = null;
    private lastItem: SourceItem | null = null;

    constructor(private readonly store: Store, private readonly source: ChainSource, private readonly context: IndexContext = {}) {
        super();
    }

    get lastIndexed(): SourceItem | null {
        return this.lastItem;
    }

    async savedCursor(): Promise<string | null> {
        const row = await this.store.db.selectFrom('source_cursors').select('cursor').where('source', '=', this.source.name).executeTakeFirst();
        return row?.cursor ?? null;
    }

    /** Indexes until the source ends (finite sources) or `stop()` is called. */
    start(): Promise<void> {
        if (this.loop) return this.loop;
        const controller = new AbortController();
        this.controller = controller;
        this.loop = this.run(controller.signal).finally(() => {
            this.loop = null;
        });
        this.filling = this.fillTexts(controller.signal);
        return this.loop;
    }

    async stop(): Promise<void> {
        this.controller?.abort();
        await Promise.all([this.loop?.catch(() => undefined), this.filling]);
    }

    /** Alongside indexing, as the same single writer: waits out a database that is away, like indexing. */
    private async fillTexts(signal: AbortSignal): Promise<void> {
        const started = Date.now();
        for (let attempt = 1; !signal.aborted; attempt++) {
            try {
                const filled = await fillHistoryTexts(this.store.db, signal);
                if (filled > 0) this.emit('textsFilled', filled, Date.now() - started);
                return;
            } catch (error) {
                if (signal.aborted) return;
                if (!storeUnavailable(error)) {
                    this.emit('textsFailed', error as Error);
                    return;
                }
                if (!await sleep(Math.min(RETRY_FIRST_MS * 2 ** (attempt - 1), RETRY_MAX_MS), signal).then(() => true, () => false)) return;
            }
        }
    }

    private async run(signal: AbortSignal): Promise<void> {
        let stalledSince: number | null = null;
        for (let attempt = 1; ; attempt++) {
            try {
                const cursor = await this.savedCursor();
                for await (const item of this.source.blocksAfter(cursor, signal)) {
                    const result = await indexBlock(this.store, item.block, { source: this.source.name, cursor: item.cursor }, this.context);
                    this.lastItem = item;
                    if (stalledSince !== null) {
                        this.emit('resumed', Date.now() - stalledSince);
                        stalledSince = null;
                        attempt = 1;
                    }
                    this.emit('block', item, result.transactions);
                    if (signal.aborted) break;
                }
                return;
            } catch (error) {
                if (signal.aborted) return;
                const problem = storeUnavailable(error);
                if (!problem) {
                    this.emit('error', error as Error);
                    throw error;
                }
                stalledSince ??= Date.now();
                const wait = Math.min(RETRY_FIRST_MS * 2 ** (attempt - 1), RETRY_MAX_MS);
                this.emit('stalled', problem, wait, attempt);
                if (!await sleep(wait, signal).then(() => true, () => false)) return;
            }
        }
    }
}
