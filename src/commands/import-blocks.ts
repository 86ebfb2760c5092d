import type { ServiceConfig } from '../config/config.ts';
import { indexBlock } from '../indexer/index-block.ts';
import { openStore, type Store } from '../store/store.ts';
import { BlockFilesSource } from '../chain/files/files-source.ts';
import { formatBlockId } from '../ton/block-id.ts';
import { acquireWriterLocks } from '../store/locks/acquire-writer-locks.ts';

/**
 * `import-blocks`: reads block files through the files source and indexes every block. It writes
 * the index, so it holds the writer locks as `serve` does: never beside a running writer.
 */
export async function importBlockFiles(config: ServiceConfig, files: string[], log: (line: string) => void) {
    const lost = new AbortController();
    const lock = await acquireWriterLocks(config, 'import-blocks', error => lost.abort(error));
    const summary = { inserted: 0, skipped: 0, transactions: 0 };
    try {
        const store = await openStore({ url: config.databaseUrl, dataDir: config.dataDir });
        try {
            await importInto(store, new BlockFilesSource(files), lost.signal, summary, log);
        } finally {
            await store.close();
        }
    } finally {
        await lock.release();
    }
    if (lost.signal.aborted) throw new Error(`the index writer lock was lost (${(lost.signal.reason as Error).message}); the import stopped after ${summary.inserted} new block(s)`);
    return summary;
}

async function importInto(store: Store, source: BlockFilesSource, signal: AbortSignal, summary: { inserted: number; skipped: number; transactions: number }, log: (line: string) => void): Promise<void> {
    for await (const { block } of source.blocksAfter(null, signal)) {
        if (signal.aborted) return;
        const result = await indexBlock(store, block);
        if (result.inserted) summary.inserted++;
        else summary.skipped++;
        summary.transactions += result.transactions;
        log(`${formatBlockId(block.id)} ${result.inserted ? `indexed, ${result.transactions} transaction(s)` : 'already indexed'}`);
        for (const failure of block.renderFailures ?? []) log(`  transaction ${failure}: no stored text (served decoded from its BOC)`);
    }
}
