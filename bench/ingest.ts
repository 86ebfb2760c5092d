import { sql } from 'kysely';
import { readFileSync } from 'node:fs';
import { parseBlockCell, parseBlockFile, readBlockRoot } from '../src/ton/block/block-file.ts';
import { accountStatesAfterBlock } from '../src/ton/block/block-state.ts';
import { writeBoc } from '../src/ton/boc/boc-writer.ts';
import { parseTransactionCell } from '../src/ton/transaction.ts';
import { readBlockBoc as blockRecordFromBoc } from '../src/chain/block-reading.ts';
import { indexBlock } from '../src/indexer/index-block.ts';
import { AccountInspector } from '../src/indexer/inspect-accounts.ts';
import { openStore, type Store } from '../src/store/store.ts';
import { MAINNET_AVAILABLE, MAINNET_BLOCKS_DIR, MAINNET_DIR, FIXTURE_BLOCKS } from '../test/helpers/fixtures.ts';
import { tempDir } from '../test/helpers/stores.ts';
import pg from 'pg';
import { withKnownCells } from '../src/chain/known-cells.ts';
import { ChainLog } from '../src/chain/devnet/chain-log.ts';
import { BlockReadingPool, readAhead } from '../src/chain/reading/block-reading-pool.ts';
import { defaultReadingThreads } from '../src/config/defaults.ts';
import type { BlockIdExt } from '../src/ton/block-id.ts';
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { IngestRound } from './ingest-round.ts';

const ROUNDS = 5;

/** Ingest of the fixture mainnet blocks: bare parse vs parse + derive + write, median of rounds. */
export async function ingestBench(): Promise<void> {
    if (!MAINNET_AVAILABLE) {
        console.log(`\n## Ingest of the mainnet fixture blocks\n\nskipped: ${MAINNET_DIR} is not beside this clone`);
        return;
    }
    const files = FIXTURE_BLOCKS.map(name => `${MAINNET_BLOCKS_DIR}${name}.boc`);
    const bocs = files.map(f => readFileSync(f));
    await ingestTable(`${bocs.length} mainnet fixture blocks`, { files }, transactionsIn(bocs), bocs.length, ROUNDS);
    await ingestStages(bocs);
}

/**
 * Ingest of the devnet's own blocks (as a bench run left them in `dataDir`): bare parse vs the one
 * ingestion path (block reading with the chain log as account-state reader, then indexBlock).
 */
export async function devnetIngest(dataDir: string): Promise<void> {
    const log = new ChainLog(`${dataDir}/devnet/chain.sqlite`, { readonly: true });
    let bocs: Buffer[];
    try {
        bocs = [...log.allBlocks()].map(b => b.boc);
    } finally {
        log.close();
    }
    await ingestTable("the devnet's blocks", { devnetDataDir: dataDir }, transactionsIn(bocs), bocs.length, devnetRounds(), readingThreadRows());
}

/** Rounds of the devnet ingest rows: BENCH_INGEST_ROUNDS, else 3 (a round of a 100k devnet takes minutes). */
function devnetRounds(): number {
    const rounds = Number(process.env.BENCH_INGEST_ROUNDS ?? 3);
    if (!Number.isInteger(rounds) || rounds < 1) throw new Error(`BENCH_INGEST_ROUNDS: a number of rounds (1 or more), not ${process.env.BENCH_INGEST_ROUNDS}`);
    return rounds;
}

function transactionsIn(bocs: Buffer[]): number {
    return bocs.reduce((n, boc) => n + parseBlockFile(boc).transactions.length, 0);
}

/**
 * The reading threads of the devnet ingest rows: none (blocks read in the indexing thread) and the
 * service's default; BENCH_INGEST_THREADS (a comma list, e.g. `2`) measures those only, as a
 * devnet of hundreds of thousands of transactions takes minutes a round.
 */
function readingThreadRows(): number[] {
    const listed = process.env.BENCH_INGEST_THREADS;
    if (!listed) return [0, defaultReadingThreads()];
    const threads = listed.split(',').map(Number);
    if (threads.some(n => !Number.isInteger(n) || n < 0)) throw new Error(`BENCH_INGEST_THREADS: a comma list of thread counts (0 or more), not ${listed}`);
    return threads;
}

/**
 * Gathers the planner's statistics of a PostgreSQL index just filled, as autovacuum does within a
 * minute or so of a bulk load where it runs (it is off on some machines, this bench's among them):
 * the API rows measure an index in its steady state, not the planner's guesses about empty tables.
 */
export async function analyzePostgres(store: Store): Promise<void> {
    await sql`ANALYZE`.execute(store.db);
}

/** Indexes the devnet's blocks (as a bench run left them in `dataDir`) into `store` through the reading threads and indexBlock. */
export async function indexDevnetBlocks(dataDir: string, store: Store): Promise<void> {
    const log = new ChainLog(`${dataDir}/devnet/chain.sqlite`, { readonly: true });
    const pool = new BlockReadingPool(withKnownCells({ accountCellAt: async (block: BlockIdExt, address: string) => log.accountCellAt(block, address) }), defaultReadingThreads());
    // In batches, as the devnet source reads them: the log's connection also answers the reader meanwhile.
    function* blocks() {
        for (let seq = 0; ;) {
            const batch = log.blocksAfter(seq, 64);
            if (batch.length === 0) return;
            yield* batch;
            seq = batch[batch.length - 1].seq;
        }
    }
    try {
        const context = { inspector: await AccountInspector.create() };
        for await (const { record } of readAhead(pool, blocks())) await indexBlock(store, record, undefined, context);
    } finally {
        await pool.close();
        log.close();
    }
}

/** The bench's own node flags (package.json's `bench` script): each round's process runs as the bench does. */
const ROUND_NODE_FLAGS = ['--max-semi-space-size=16', '--import', 'tsx'];

/** Runs one round (bench/ingest-round.ts) in a new process; its time in ms and the index's size. */
function roundInProcess(round: IngestRound): Promise<{ ms: number; indexBytes: number }> {
    const child = spawn(process.execPath, [...ROUND_NODE_FLAGS, fileURLToPath(new URL('./ingest-round.ts', import.meta.url)), JSON.stringify(round)], {
        stdio: ['ignore', 'pipe', 'inherit'],
        env: { ...process.env, MALLOC_ARENA_MAX: '2' },
    });
    let out = '';
    child.stdout!.on('data', chunk => { out += chunk; });
    return new Promise((resolve, reject) => {
        child.once('error', reject);
        child.once('exit', code => {
            const last = out.trim().split('\n').pop() ?? '';
            if (code !== 0 || !last.startsWith('{')) reject(new Error(`ingest round ${round.side} exited with ${code}: ${out.slice(-500)}`));
            else resolve(JSON.parse(last) as { ms: number; indexBytes: number });
        });
    });
}

/**
 * Bare parse (parseBlockFile) against the whole ingestion (block reading, then indexBlock), each
 * round of each side in a new process, warmed up there, the sides alternating; median of the
 * rounds, every round listed. With reading threads, blocks are read by the pool the devnet source
 * uses, ahead of the one being indexed; 0 reads them in the indexing thread.
 */
async function ingestTable(what: string, blocks: IngestRound['blocks'], txCount: number, blockCount: number, rounds: number, readingThreads: number[] = [0]): Promise<void> {
    console.log(`\n## Ingest of ${what} (${blockCount} blocks, ${txCount} transactions), median of ${rounds} rounds, each side of each round in a new process\n`);
    console.log('| store | texts | reading threads | bare parse (ms) | ingest (ms) | ingest tx/s | ingest / parse | index bytes / tx | rounds (parse/ingest ms) |');
    console.log('|---|---|---|---|---|---|---|---|---|');
    const pgUrl = process.env.BENCH_PG_URL;
    for (const backend of [{ name: 'SQLite', pgUrl: undefined }, ...(pgUrl ? [{ name: 'PostgreSQL', pgUrl }] : [])]) {
        for (const threads of readingThreads) {
            // With and without the transaction texts and block lists (`--transaction-texts`), their rounds alternating.
            const sides = [true, false].map(texts => ({ texts, parse: [] as number[], ingest: [] as number[], bytes: [] as number[] }));
            for (let round = 0; round < rounds; round++) {
                for (const side of sides) {
                    side.parse.push((await roundInProcess({ side: 'parse', blocks, threads })).ms);
                    const ingest = await roundInProcess({ side: 'ingest', blocks, threads, pgUrl: backend.pgUrl, texts: side.texts });
                    side.ingest.push(ingest.ms);
                    side.bytes.push(ingest.indexBytes);
                }
            }
            for (const side of sides) {
                const p = median(side.parse);
                const i = median(side.ingest);
                const each = side.parse.map((ms, k) => `${ms.toFixed(0)}/${side.ingest[k].toFixed(0)}`).join(', ');
                console.log(`| ${backend.name} | ${side.texts ? 'on' : 'off'} | ${threads === 0 ? '0 (in the indexing thread)' : threads} | ${p.toFixed(0)} | ${i.toFixed(0)} | ${(txCount / i * 1000).toFixed(0)} | ${(i / p).toFixed(2)}× | ${(median(side.bytes) / txCount).toFixed(0)} | ${each} |`);
            }
        }
    }
}

/** Where ingest time goes, stage by stage (SQLite), median of rounds. */
async function ingestStages(bocs: Buffer[]): Promise<void> {
    const stages: Record<string, number[]> = {};
    const timed = <T>(stage: string, round: number, work: () => T): T => {
        const start = performance.now();
        const result = work();
        (stages[stage] ??= [])[round] = ((stages[stage] ??= [])[round] ?? 0) + performance.now() - start;
        return result;
    };
    for (let round = 0; round < ROUNDS; round++) {
        const records = [];
        for (const boc of bocs) {
            const root = timed('read the BOC (cells and hashes)', round, () => readBlockRoot(boc));
            const block = timed('walk the block (header, account blocks, shard tops)', round, () => parseBlockCell(root, ''));
            timed('account states from the state update', round, () => accountStatesAfterBlock(root));
            timed('transaction BOCs for storage', round, () => block.transactions.map(t => writeBoc(t.cell)));
            timed('decode transactions and message headers', round, () => block.transactions.map(t => parseTransactionCell(t.cell, block.id.workchain)));
            records.push(await blockRecordFromBoc(boc));
        }
        const dir = tempDir('bench-stages-');
        const store = await openStore({ dataDir: dir.path });
        const context = { inspector: await AccountInspector.create() };
        const start = performance.now();
        for (const record of records) await indexBlock(store, record, undefined, context);
        (stages['indexBlock: decode + trace linking + SQL writes'] ??= [])[round] = performance.now() - start;
        await store.close();
        dir.remove();
    }
    console.log('\n| ingest stage (SQLite) | ms |');
    console.log('|---|---|');
    for (const [stage, times] of Object.entries(stages)) console.log(`| ${stage} | ${median(times.slice(1)).toFixed(0)} |`);
}

/** A new PostgreSQL database beside BENCH_PG_URL's, opened as a store; dispose drops it. */
export async function freshPostgres(url: string) {
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
        url: target.toString(),
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
