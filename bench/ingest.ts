import { readFileSync } from 'node:fs';
import { parseBlockFile } from '../src/ton/block/block-file.ts';
import { blockRecordFromBoc } from '../src/chain/files/files-source.ts';
import { indexBlock } from '../src/indexer/index-block.ts';
import { openStore, type Store } from '../src/store/store.ts';
import { MAINNET_BLOCKS_DIR, FIXTURE_BLOCKS } from '../test/helpers/fixtures.ts';
import { tempDir } from '../test/helpers/stores.ts';
import pg from 'pg';

const ROUNDS = 6;

/** Ingest of the fixture mainnet blocks: bare parse vs parse + derive + write, median of rounds. */
export async function ingestBench(): Promise<void> {
    const bocs = FIXTURE_BLOCKS.map(name => readFileSync(`${MAINNET_BLOCKS_DIR}${name}.boc`));
    const txCount = bocs.reduce((n, boc) => n + parseBlockFile(boc).transactions.length, 0);
    console.log(`\n## Ingest of ${bocs.length} mainnet fixture blocks (${txCount} transactions), median of ${ROUNDS - 1} rounds after a warm-up\n`);
    console.log('| store | bare parse (ms) | ingest (ms) | ingest tx/s | ingest / parse |');
    console.log('|---|---|---|---|---|');
    const backends: Array<{ name: string; open: () => Promise<{ store: Store; dispose: () => Promise<void> }> }> = [{
        name: 'SQLite',
        open: async () => {
            const dir = tempDir('bench-ingest-');
            const store = await openStore({ dataDir: dir.path });
            return { store, dispose: async () => { await store.close(); dir.remove(); } };
        },
    }];
    const pgUrl = process.env.BENCH_PG_URL;
    if (pgUrl) backends.push({ name: 'PostgreSQL', open: () => freshPostgres(pgUrl) });
    for (const backend of backends) {
        const parse: number[] = [];
        const ingest: number[] = [];
        for (let round = 0; round < ROUNDS; round++) {
            let start = performance.now();
            for (const boc of bocs) parseBlockFile(boc);
            parse.push(performance.now() - start);
            const { store, dispose } = await backend.open();
            start = performance.now();
            for (const boc of bocs) await indexBlock(store, blockRecordFromBoc(boc));
            ingest.push(performance.now() - start);
            await dispose();
        }
        const p = median(parse.slice(1));
        const i = median(ingest.slice(1));
        console.log(`| ${backend.name} | ${p.toFixed(0)} | ${i.toFixed(0)} | ${(txCount / i * 1000).toFixed(0)} | ${(i / p).toFixed(2)}× |`);
    }
}

async function freshPostgres(url: string) {
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    const name = `bench_${Date.now()}_${Math.random().toString(36).slice(2, 8)}`;
    await admin.query(`CREATE DATABASE ${name}`);
    await admin.end();
    const target = new URL(url);
    target.pathname = `/${name}`;
    const store = await openStore({ url: target.toString(), dataDir: '/tmp' });
    return {
        store,
        dispose: async () => {
            await store.close();
            const c = new pg.Client({ connectionString: url });
            await c.connect();
            await c.query(`DROP DATABASE ${name} WITH (FORCE)`);
            await c.end();
        },
    };
}

export function median(values: number[]): number {
    const sorted = [...values].sort((a, b) => a - b);
    return sorted[Math.floor(sorted.length / 2)];
}
