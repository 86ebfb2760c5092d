import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { getHeapStatistics } from 'node:v8';
import { sql } from 'kysely';
import { openStore } from '../src/store/store.ts';
import { startService } from '../src/app.ts';
import { DEFAULT_CONFIG } from '../src/config/config.ts';
import { countIndexed, sleep, transferLoad, transferWallets, withApiProcesses, withStaticAnswer, type TransferWallets } from './support.ts';
import { SEED_STEPS } from '../src/chain/devnet/seed.ts';
import { toNumber } from '../src/store/schema.ts';
import { tempDir } from '../test/helpers/stores.ts';
import type { StepStats } from '../src/chain/devnet/devnet-source.ts';
import type { DevnetManifest } from '../src/chain/devnet/manifest.ts';
import { analyzePostgres, devnetIngest, freshPostgres, indexDevnetBlocks } from './ingest.ts';
import { emulationCases, measureEmulation, type EmulationCase } from './emulation.ts';
import { loadCells, loadGenerator, loadRow } from './load.ts';

const TARGET_TRANSACTIONS = Number(process.env.BENCH_TRANSACTIONS ?? 100_000);
const BLOCK_INTERVAL_MS = 10;
/** Transfer rounds (a v5r1 transfer of 255 messages and a v4r2 one of 4) submitted and not yet in a block. */
const IN_FLIGHT = 2;

/**
 * Devnet production rate (empty and loaded), then the read endpoints under load and the emulation
 * rows on the index the devnet built: ≥ 100k transactions from v5r1 transfers of 255 messages and
 * v4r2 transfers of 4 (BENCH_TRANSACTIONS sets how many), on SQLite and with BENCH_PG_URL on PostgreSQL.
 */
export async function devnetAndApiBench(options: { api: boolean }): Promise<void> {
    // BENCH_DATA_DIR keeps the devnet and its index there; a directory that already holds one is
    // measured as it is (API and ingest rows only), so a long chain is made once and measured again.
    const kept = process.env.BENCH_DATA_DIR;
    const dir = kept ? { path: kept, remove: () => {} } : tempDir('bench-devnet-');
    try {
        const senders = kept && existsSync(join(kept, 'devnet.json')) ? sendersOf(kept) : await devnetRates(dir.path);
        if (options.api) {
            // BENCH_API_SQLITE=0 with BENCH_PG_URL: the PostgreSQL rows alone.
            const pgUrl = process.env.BENCH_PG_URL;
            if (!(pgUrl && process.env.BENCH_API_SQLITE === '0')) {
                await apiBench(dir.path, senders);
                await emulationAtScale(dir.path);
            }
            if (pgUrl) await postgresApiBench(dir.path, senders, pgUrl);
        }
        // Three rounds of reading the whole chain twice (no reading threads, then the default) take
        // longer than making it above ~200k transactions; BENCH_DEVNET_INGEST=1 runs them at any size.
        // BENCH_DEVNET_INGEST=0 skips them (API rows measured again on a kept devnet).
        const ingest = process.env.BENCH_DEVNET_INGEST;
        if (ingest !== '0' && (TARGET_TRANSACTIONS <= 200_000 || ingest === '1')) await devnetIngest(dir.path);
        else console.log('\n(devnet ingest rows skipped: BENCH_DEVNET_INGEST=0, or above 200k transactions without BENCH_DEVNET_INGEST=1)');
    } finally {
        dir.remove();
    }
}

/** The load's senders as the manifest of a devnet made before names them. */
function sendersOf(dataDir: string): LoadSenders {
    const manifest = JSON.parse(readFileSync(join(dataDir, 'devnet.json'), 'utf8')) as DevnetManifest;
    const raw = (name: string) => manifest.accounts.find(a => a.name === name)!.address;
    return { bulk: raw('bob-v5r1'), small: raw('faucet') };
}

/** Devnet production rate (empty, then under the transfer load) in `dataDir`, and the cost of building blocks. */
async function devnetRates(dataDir: string): Promise<LoadSenders> {
    // BENCH_TRANSACTION_TEXTS=off: the devnet's index without transaction texts and block lists (`--transaction-texts off`).
    const transactionTexts = process.env.BENCH_TRANSACTION_TEXTS !== 'off';
    // BENCH_SHARDS=N: a devnet of N basechain shards (`--shards N`).
    const shards = process.env.BENCH_SHARDS ? Number(process.env.BENCH_SHARDS) : null;
    const service = await startService({ ...DEFAULT_CONFIG, dataDir, port: 0, liteserverPort: 0, blockIntervalMs: BLOCK_INTERVAL_MS, transactionTexts, shards });
    const devnet = service.devnet!;
    const counts = countIndexed(service);
    try {
        while (counts.masterBlocks < SEED_STEPS.length + 2) await sleep(20);

        // Empty chain: how fast blocks are produced and indexed with nothing to execute.
        const idleStart = performance.now();
        const idleBlocks = counts.masterBlocks;
        await sleep(5000);
        const idleRate = (counts.masterBlocks - idleBlocks) / ((performance.now() - idleStart) / 1000);

        const wallets = await transferWallets(service);
        const steps: StepStats[] = [];
        devnet.onStep(stats => steps.push({ ...stats, at: performance.now() } as StepStats & { at: number }));

        const load = async (bulkSize: number, target: number) => {
            const stepsStart = steps.length;
            const run = await transferLoad(service, wallets, counts, bulkSize, target, IN_FLIGHT);
            return { ...run, steps: steps.slice(stepsStart) as Array<StepStats & { at: number }> };
        };

        // Long runs report on stderr once a minute: transactions indexed, the process's memory, the two
        // heaps that hold most of it (the producer's after its last step, the main thread's indexer) and
        // what their objects hold outside them.
        const runStart = performance.now();
        const mb = (bytes: number) => (bytes / 2 ** 20).toFixed(0);
        const progress = setInterval(() => {
            const producer = steps[steps.length - 1];
            const main = getHeapStatistics();
            process.stderr.write(`bench: ${counts.tx} transactions indexed after ${((performance.now() - runStart) / 1000).toFixed(0)} s, RSS ${mb(process.memoryUsage().rss)} MB`
                + ` (heaps used / committed: producer ${producer ? `${mb(producer.heapBytes)} / ${mb(producer.heapCommittedBytes)}` : '–'} MB, main thread ${mb(main.used_heap_size)} / ${mb(main.total_heap_size)} MB;`
                + ` outside the heaps: producer ${producer ? mb(producer.externalBytes) : '–'} MB, main thread ${mb(main.external_memory)} MB)\n`);
        }, 60_000);
        const large = await load(255, TARGET_TRANSACTIONS);
        // The smaller transfers measure blocks/s at ~300 tx/s of traffic; 50k transactions show it at any size.
        const smaller = await load(100, Math.min(Math.ceil(TARGET_TRANSACTIONS / 2), 50_000));
        clearInterval(progress);
        console.log('\n## Devnet (real blocks: produced in the producer thread, serialized, read back through the block parser and indexed)\n');
        console.log('| measure | value |');
        console.log('|---|---|');
        console.log(`| empty masterchain blocks/s (interval ${BLOCK_INTERVAL_MS} ms, produced and indexed) | ${idleRate.toFixed(1)} |`);
        for (const [label, run] of [['v5r1 255-message + v4r2 4-message transfers', large], ['v5r1 100-message + v4r2 4-message transfers', smaller]] as const) {
            console.log(`| loaded (${label}): transactions produced and indexed | ${run.tx} in ${run.seconds.toFixed(1)} s |`);
            console.log(`| loaded (${label}): tx/s | ${(run.tx / run.seconds).toFixed(0)} |`);
            console.log(`| loaded (${label}): masterchain blocks/s | ${(run.masterBlocks / run.seconds).toFixed(1)} |`);
        }
        // The whole service (producer thread, reading threads, indexer) is this process.
        const accounts = await service.store.db.selectFrom('account_states').select(eb => eb.fn.countAll().as('n')).executeTakeFirstOrThrow();
        console.log(`| RSS after the loaded runs, MB (producer, reading threads, indexer; ${toNumber(accounts.n as bigint)} accounts) | ${(process.memoryUsage().rss / 2 ** 20).toFixed(0)} |`);
        console.log(`| peak RSS of the run, MB | ${(process.resourceUsage().maxRSS / 1024).toFixed(0)} |`);
        buildCostTable([...large.steps, ...smaller.steps]);
        return { bulk: rawAddress(wallets.bulk), small: rawAddress(wallets.small) };
    } finally {
        await service.stop();
    }
}

/** The load's two senders (raw addresses): the v5r1 wallet of the large transfers and the v4r2 one of 4 messages. */
interface LoadSenders {
    bulk: string;
    small: string;
}

const rawAddress = (wallet: TransferWallets['bulk']) => `0:${wallet.address.hash.toString('hex')}`;

/** What making a step's two blocks costs (collator: states, Merkle updates, descriptors, BOCs), by transactions per step, against the time between steps. */
function buildCostTable(steps: Array<StepStats & { at: number }>): void {
    const buckets: Array<[string, (n: number) => boolean]> = [['0', n => n === 0], ['1–99', n => n >= 1 && n < 100], ['100–299', n => n >= 100 && n < 300], ['300–599', n => n >= 300 && n < 600], ['600+', n => n >= 600]];
    console.log('\n| transactions per step | steps | build ms (mean) | build ms (p95) | block BOCs (KiB, mean) | time between steps (ms, mean) | build / interval |');
    console.log('|---|---|---|---|---|---|---|');
    for (const [label, fits] of buckets) {
        const rows = steps.map((s, i) => ({ ...s, gap: i > 0 ? s.at - steps[i - 1].at : NaN })).filter(s => fits(s.transactions) && !Number.isNaN(s.gap));
        if (rows.length === 0) continue;
        const build = rows.map(r => r.buildMs).sort((a, b) => a - b);
        const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
        const gap = mean(rows.map(r => r.gap));
        console.log(`| ${label} | ${rows.length} | ${mean(build).toFixed(1)} | ${build[Math.floor(build.length * 0.95)].toFixed(1)} | ${(mean(rows.map(r => r.bocBytes)) / 1024).toFixed(0)} | ${gap.toFixed(0)} | ${(mean(build) / gap * 100).toFixed(0)}% |`);
    }
}


/** The same API rows on PostgreSQL: the devnet's blocks indexed into a fresh database through the one ingestion path. */
async function postgresApiBench(dataDir: string, senders: LoadSenders, pgUrl: string): Promise<void> {
    const { store, url, dispose } = await freshPostgres(pgUrl);
    try {
        const start = performance.now();
        await indexDevnetBlocks(dataDir, store);
        console.log(`\n(the devnet's blocks indexed into PostgreSQL through the reading threads in ${((performance.now() - start) / 1000).toFixed(0)} s; then ANALYZE)`);
        await analyzePostgres(store);
        await apiBench(dataDir, senders, url);
        await emulationAtScale(dataDir, url);
    } finally {
        await dispose();
    }
}

/**
 * The emulation section's rows on this index: the same messages from the seeded wallets, whose states
 * are now among as many accounts as the load made (the emulation section itself runs on the seeded devnet alone).
 */
async function emulationAtScale(dataDir: string, databaseUrl?: string): Promise<void> {
    const store = await openStore({ dataDir, url: databaseUrl });
    let cases: EmulationCase[];
    let total: number;
    try {
        const manifest = JSON.parse(readFileSync(join(dataDir, 'devnet.json'), 'utf8')) as DevnetManifest;
        cases = await emulationCases(store, manifest);
        total = toNumber((await store.db.selectFrom('transactions').select(eb => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n as bigint);
    } finally {
        await store.close();
    }
    await measureEmulation(dataDir, cases, `the ${databaseUrl ? 'PostgreSQL' : 'SQLite'} index of ${total} transactions built by the devnet`, databaseUrl);
}

/**
 * The API as users run it over an existing index: a separate `serve --source none` process (one API
 * process, then one a core with `--workers`), so the load generator and the server do not share an
 * event loop. `databaseUrl`: a PostgreSQL index instead of the data directory's SQLite one.
 */
async function apiBench(dataDir: string, senders: LoadSenders, databaseUrl?: string): Promise<void> {
    const store = await openStore({ dataDir, url: databaseUrl });
    const db = store.db;
    const total = await db.selectFrom('transactions').select(eb => eb.fn.countAll().as('n')).executeTakeFirstOrThrow();
    const traces = await db.selectFrom('traces').select('trace_id').where('tx_count', '>=', 2).where('tx_count', '<=', 6).limit(2000).execute();
    const range = await db.selectFrom('blocks').select([eb => eb.fn.min('utime').as('lo'), eb => eb.fn.max('utime').as('hi')]).executeTakeFirstOrThrow();
    // The load's v4r2 sender (one transaction of 4 out messages a round) and accounts it created (one transaction each).
    const faucet = senders.small;
    const faucetLts = (await db.selectFrom('transactions').select('lt').where('account', '=', faucet).execute()).map(r => r.lt);
    const received = (await db.selectFrom('transactions').select('account').where('workchain', '=', 0).where('lt', '>', faucetLts[0]).where('account', 'not in', [senders.small, senders.bulk]).limit(5000).execute()).map(r => r.account);
    const blocks = await db.selectFrom('blocks').select(['shard', 'seqno', 'tx_count']).where('workchain', '=', 0).where('tx_count', '>', 0).orderBy('seqno', 'desc').limit(2000).execute();
    const blockTx = blocks.reduce((n, b) => n + Number(b.tx_count), 0) / blocks.length;
    // The largest lists (megabytes of JSON each): the blocks with the most transactions.
    const largest = await db.selectFrom('blocks').select(['shard', 'seqno', 'tx_count']).where('workchain', '=', 0).orderBy('tx_count', 'desc').limit(100).execute();
    const largestTx = largest.map(b => Number(b.tx_count));
    const lo = toNumber(range.lo as bigint);
    const hi = toNumber(range.hi as bigint);
    // What the stored texts (transactions.text, with their holes) cost the index.
    const textBytes = databaseUrl
        ? sql<string>`octet_length(text) + octet_length(text_holes)`
        : sql<string>`length(text) + length(text_holes)`;
    const texts = await db.selectFrom('transactions').select([eb => eb.fn.count('text').as('n'), eb => eb.fn.sum(textBytes).as('bytes')]).executeTakeFirstOrThrow();
    // And the blocks' lists stored as one text each (block_texts): their size as read, and as stored.
    const listBytes = databaseUrl ? sql<string>`octet_length(text) + octet_length(holes)` : sql<string>`length(text) + length(holes)`;
    const storedListBytes = databaseUrl ? sql<string>`pg_column_size(text) + pg_column_size(holes)` : listBytes;
    const lists = await db.selectFrom('block_texts').innerJoin('blocks', join => join.onRef('blocks.workchain', '=', 'block_texts.workchain').onRef('blocks.shard', '=', 'block_texts.shard').onRef('blocks.seqno', '=', 'block_texts.seqno'))
        .select([eb => eb.fn.countAll().as('n'), eb => eb.fn.sum('blocks.tx_count').as('tx'), eb => eb.fn.sum(listBytes).as('bytes'), eb => eb.fn.sum(storedListBytes).as('stored')]).executeTakeFirstOrThrow();
    const indexBytes = databaseUrl
        ? Number((await sql<{ bytes: string }>`SELECT pg_database_size(current_database()) AS bytes`.execute(db)).rows[0].bytes)
        : Number((await sql<{ n: number | bigint }>`SELECT page_count * page_size AS n FROM pragma_page_count(), pragma_page_size()`.execute(db)).rows[0].n);
    await store.close();
    const backend = databaseUrl ? 'PostgreSQL' : 'SQLite';
    const pick = <T>(xs: T[]) => xs[Math.floor(Math.random() * xs.length)];
    const traceIds = traces.map(t => t.trace_id);
    let largestAnswerBytes = 0;
    await withApiProcesses(dataDir, databaseUrl, async (base, processes) => {
        console.log(`\n## API under load (${backend} index of ${toNumber(total.n as bigint)} transactions built by the devnet; ${processes}; ${loadGenerator()} from another process, 10 s per row)\n`);
        const perListed = (bytes: unknown) => (Number(bytes) / Math.max(1, Number(lists.tx))).toFixed(0);
        console.log(`(index: ${(indexBytes / toNumber(total.n as bigint)).toFixed(0)} bytes a transaction; stored texts: ${texts.n} transactions, ${(Number(texts.bytes) / Math.max(1, Number(texts.n))).toFixed(0)} bytes a transaction;`
            + ` lists: ${lists.n} blocks of ${lists.tx ?? 0} transactions, ${perListed(lists.bytes)} bytes a transaction, ${perListed(lists.stored)} as stored)\n`);
        console.log('| endpoint | connections | p50 (ms) | p99 (ms) | req/s | non-2xx |');
        console.log('|---|---|---|---|---|---|');
        // The first answers of a new process run before the JIT has compiled the path; a server that has
        // been up a while has, so the first distinct traces (up to 500, at most half) warm it and the rest are timed.
        const warm = Math.min(500, Math.floor(traceIds.length / 2));
        await coldTraces(base, traceIds.slice(0, warm), false);
        await coldTraces(base, traceIds.slice(warm));
        await load('GET /v2/traces/{id} (traces of 2–6 transactions)', () => `${base}/v2/traces/${pick(traceIds)}`);
        await load('GET /v2/blockchain/reduced/blocks (1 s windows)', () => {
            const from = lo + Math.floor(Math.random() * Math.max(1, hi - lo));
            return `${base}/v2/blockchain/reduced/blocks?from=${from}&to=${from + 1}`;
        });
        await load(`GET /v2/blockchain/accounts/{id}/transactions?limit=20, the v4r2 sender (${faucetLts.length} transactions of 4 out messages), random before_lt`,
            () => `${base}/v2/blockchain/accounts/${faucet}/transactions?limit=20&before_lt=${pick(faucetLts)}`);
        await load('GET /v2/blockchain/accounts/{id}/transactions?limit=20, random accounts the load created (one transaction each)',
            () => `${base}/v2/blockchain/accounts/${pick(received)}/transactions?limit=20`);
        await load(`GET /v2/blockchain/blocks/{id}/transactions, the newest ${blocks.length} basechain blocks with transactions (${blockTx.toFixed(0)} a block on average)`,
            () => { const b = pick(blocks); return `${base}/v2/blockchain/blocks/(0,${b.shard},${b.seqno})/transactions`; });
        largestAnswerBytes = await load(`GET /v2/blockchain/blocks/{id}/transactions, the ${largest.length} basechain blocks with the most transactions (${Math.min(...largestTx)}–${Math.max(...largestTx)} a block)`,
            () => { const b = pick(largest); return `${base}/v2/blockchain/blocks/(0,${b.shard},${b.seqno})/transactions`; });
        await load('GET /v2/status', () => `${base}/v2/status`);
    });
    // What any server could do with answers that large on this machine, with this load generator beside it.
    await withStaticAnswer(largestAnswerBytes, async base => {
        await load(`${largestAnswerBytes} bytes, the largest lists' answers`, () => `${base}/`);
    });
}

/** Each trace requested once, one at a time: every answer is built from the index (no cache hit). */
async function coldTraces(base: string, ids: string[], report = true): Promise<void> {
    const times: number[] = [];
    for (const id of ids) {
        const start = performance.now();
        const response = await fetch(`${base}/v2/traces/${id}`);
        await response.text();
        times.push(performance.now() - start);
    }
    if (!report) return;
    times.sort((a, b) => a - b);
    const at = (q: number) => times[Math.min(times.length - 1, Math.floor(q * times.length))].toFixed(1);
    const rate = (times.length / (times.reduce((a, b) => a + b, 0) / 1000)).toFixed(0);
    console.log(`| GET /v2/traces/{id}, ${ids.length} distinct traces each once (answers built, not cached) | 1 | ${at(0.5)} | ${at(0.99)} | ${rate} | 0 |`);
}

/** The row at one and at ten connections; the answers' mean size in bytes (headers included). */
async function load(name: string, next: () => string): Promise<number> {
    let bytes = 0;
    for (const connections of [1, 10]) bytes = await loadWith(name, connections, next);
    return bytes;
}

async function loadWith(name: string, connections: number, next: () => string): Promise<number> {
    const first = new URL(next());
    const result = await loadRow(first.origin, connections, () => {
        const url = new URL(next());
        return { method: 'GET', path: url.pathname + url.search };
    });
    console.log(`| ${name} | ${connections} | ${loadCells(result)} |`);
    return result.meanBytes;
}
