import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { readBlockBoc } from '../../src/chain/block-reading.ts';
import { ChainLog } from '../../src/chain/devnet/chain-log.ts';
import { BlockFilesSource } from '../../src/chain/files/files-source.ts';
import { exportDevnetBlocks } from '../../src/commands/export-blocks.ts';
import { indexBlock } from '../../src/indexer/index-block.ts';
import { openStore, type Store } from '../../src/store/store.ts';
import { tempDir } from './stores.ts';

type Table = 'blocks' | 'transactions' | 'messages' | 'traces' | 'account_states' | 'jetton_wallets' | 'jetton_masters' | 'public_libraries';

/**
 * export-blocks of the devnet in `dataDir` writes its chain log's blocks (`bocs`, in order) as files,
 * named by workchain, shard and seqno, whose import gives the index the devnet's own path gives: the
 * same rows in every table. Returns the files' names.
 */
export async function assertExportRoundTrip(dataDir: string, bocs: Buffer[]): Promise<string[]> {
    const out = tempDir('devnet-export-');
    const ownDir = tempDir('devnet-own-index-');
    const importedDir = tempDir('devnet-imported-index-');
    try {
        const { blocks: written } = exportDevnetBlocks(dataDir, out.path);
        assert.equal(written, bocs.length);
        const files = readdirSync(out.path).filter(f => !f.endsWith('.states.boc')).sort();
        assert.equal(files.length, bocs.length);
        for (const [i, name] of files.entries()) assert.ok(readFileSync(join(out.path, name)).equals(bocs[i]), `${name} is the chain log's BOC`);

        // The devnet's own path: its chain log's BOCs read with the chain log as account-state reader.
        const own = await openStore({ dataDir: ownDir.path });
        const log = new ChainLog(`${dataDir}/devnet/chain.sqlite`);
        try {
            for (const boc of bocs) await indexBlock(own, await readBlockBoc(boc, { accountCellAt: async (b, a) => log.accountCellAt(b, a) }));
        } finally {
            log.close();
        }
        const imported = await openStore({ dataDir: importedDir.path });
        for await (const { block } of new BlockFilesSource(readdirSync(out.path).sort().map(f => join(out.path, f))).blocksAfter(null, new AbortController().signal)) {
            await indexBlock(imported, block);
        }
        for (const table of ['blocks', 'transactions', 'messages', 'traces', 'account_states', 'jetton_wallets', 'jetton_masters', 'public_libraries'] as const) {
            const a = await rowsOf(own, table);
            const b = await rowsOf(imported, table);
            assert.ok(a.length > 0 || table.startsWith('jetton'), `${table} is empty`);
            assert.deepEqual(b, a, `${table} differs`);
        }
        const withCode = (await rowsOf(imported, 'account_states')).filter(r => (r as { code: unknown }).code !== null).length;
        assert.ok(withCode >= 5, `only ${withCode} imported account states carry their code`);
        await own.close();
        await imported.close();
        return files;
    } finally {
        out.remove();
        ownDir.remove();
        importedDir.remove();
    }
}

async function rowsOf(store: Store, table: Table): Promise<unknown[]> {
    const rows = await store.db.selectFrom(table).selectAll().execute();
    return rows.map(r => JSON.stringify(r, (_k, v) => (typeof v === 'bigint' ? v.toString() : v instanceof Uint8Array ? Buffer.from(v).toString('hex') : v))).sort();
}
