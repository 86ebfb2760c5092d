import { EventEmitter } from 'node:events';
import type { ChainSource, SourceItem } from '../chain/chain-source.ts';
import type { Store } from '../store/store.ts';
import { indexBlock, type IndexContext } from './index-block.ts';

export interface IndexerEvents {
    block: [item: SourceItem, transactions: number];
    error: [error: Error];
}

/**
 * Pulls blocks from a chain source after the last committed cursor and indexes them one by one.
 * The cursor is saved in the same database transaction as the block, so a restart resumes exactly
 * where the last commit left off.
 */
export class Indexer extends EventEmitter<IndexerEvents> {
    private controller: AbortController | null = null;
    private loop: Promise<void> | null = null;
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
        return this.loop;
    }

    async stop(): Promise<void> {
        this.controller?.abort();
        await this.loop?.catch(() => undefined);
    }

    private async run(signal: AbortSignal): Promise<void> {
        const cursor = await this.savedCursor();
        try {
            for await (const item of this.source.blocksAfter(cursor, signal)) {
                const result = await indexBlock(this.store, item.block, { source: this.source.name, cursor: item.cursor }, this.context);
                this.lastItem = item;
                this.emit('block', item, result.transactions);
                if (signal.aborted) break;
            }
        } catch (error) {
            if (signal.aborted) return;
            this.emit('error', error as Error);
            throw error;
        }
    }
}
