import type { ServiceConfig } from '../../config/config.ts';
import { indexBlock } from '../../indexer/index-block.ts';
import { openStore } from '../../store/store.ts';
import { BlockFilesSource } from './files-source.ts';
import { formatBlockId } from '../../ton/block-id.ts';

/** `import-blocks`: reads block files through the files source and indexes every block. */
export async function importBlockFiles(config: ServiceConfig, files: string[], log: (line: string) => void) {
    const store = await openStore({ url: config.databaseUrl, dataDir: config.dataDir });
    const source = new BlockFilesSource(files);
    const summary = { inserted: 0, skipped: 0, transactions: 0 };
    try {
        for await (const { block } of source.blocksAfter(null, new AbortController().signal)) {
            const result = await indexBlock(store, block);
            if (result.inserted) summary.inserted++;
            else summary.skipped++;
            summary.transactions += result.transactions;
            log(`${formatBlockId(block.id)} ${result.inserted ? `indexed, ${result.transactions} transaction(s)` : 'already indexed'}`);
        }
    } finally {
        await store.close();
    }
    return summary;
}
