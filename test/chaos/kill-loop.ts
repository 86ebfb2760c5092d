/**
 * The chaos kill loop: `native-explorer serve` (devnet source, its index on SQLite or on a fresh
 * PostgreSQL database) in a child process under the transfer load (test/chaos/transfer-load.ts),
 * SIGKILLed at random moments and restarted on the same data directory, `kills` times. Each kill
 * freezes the child first (SIGSTOP) to see whether it is inside a write transaction of the index or
 * of the chain log, then kills it there; some kills wait (freezing at random points) until the child
 * is inside one. After the last kill a clean run lets the index catch up and stops gracefully, and
 * the files are checked: the devnet chain is continuous from its zerostates, the index holds every
 * block of the chain log exactly once with all its transactions, messages, traces and latest
 * account states (test/helpers/ingest-checks.ts), and it equals, table by table, a reference index
 * built from the same chain log without crashes (test/helpers/reference-index.ts: token, wallet,
 * multisig and staking rows included). The random choices come from `seed`.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import pg from 'pg';
import { SEED_STEPS } from '../../src/chain/devnet/seed.ts';
import { ServiceChild, busyWait, sleep, waitStopped } from '../helpers/crash-child.ts';
import { mulberry32, openReadOnly, postgresIndexReader, sqliteIndexReader, verifyIngest, type IngestSummary, type IndexReader } from '../helpers/ingest-checks.ts';
import { assertSameAsReference, type ReferenceComparison } from '../helpers/reference-index.ts';
import { createTestDatabase } from '../helpers/stores.ts';
import { LoadStats, TransferLoad, type DevnetManifestAccounts } from './transfer-load.ts';

export type ChaosBackend = 'sqlite' | 'postgres';

export interface ChaosOptions {
    backend: ChaosBackend;
    kills: number;
    seed: number;
    /** For postgres: the server a fresh database is created on (and dropped from afterwards). */
    postgresServerUrl?: string;
    /** Kills land this many ms (uniformly random) after the service printed its URL. */
    minDelayMs?: number;
    maxDelayMs?: number;
    blockIntervalMs?: number;
    /** Messages in each of bob-v5r1's transfers. */
    bulkSize?: number;
    log?: (line: string) => void;
}

export interface KillRecord {
    aim: KillAim;
    delayMs: number;
    inIndexWrite: boolean;
    inChainWrite: boolean;
    /** Blocks committed to the chain log, not to the index, when the process died. */
    backlog: number;
    /** Blocks the index committed during the killed run. */
    indexedInRun: number;
}

/** Where a kill aims: any moment, or (freezing the child at random points until it is there) inside a write transaction. */
type KillAim = 'random' | 'in-index-write' | 'in-chain-write';

export interface ChaosFigures {
    backend: ChaosBackend;
    seed: number;
    kills: KillRecord[];
    /** Restarts after a kill that came up and served (every one, or the run fails). */
    survived: number;
    load: LoadStats;
    summary: IngestSummary;
    reference: ReferenceComparison;
    lostBlocks: number;
    duplicatedBlocks: number;
    halfWrittenBlocks: number;
    seconds: number;
}

const READY_TIMEOUT_MS = 60_000;
/** The final run: slow blocks, so none comes between "caught up" and the graceful stop. */
const FINAL_BLOCK_INTERVAL_MS = 1500;
/** How long the last killed run waits for a first transfer of the load in a block. */
const LOAD_WAIT_MS = 120_000;
/** How long an aimed kill keeps freezing the child at random points before it kills it anyway. */
const AIM_FOR_MS = 3_000;

export async function runChaos(options: ChaosOptions): Promise<ChaosFigures> {
    const started = Date.now();
    const { backend, kills, seed } = options;
    const minDelayMs = options.minDelayMs ?? 300;
    const maxDelayMs = options.maxDelayMs ?? 2500;
    const blockIntervalMs = options.blockIntervalMs ?? 50;
    const bulkSize = options.bulkSize ?? 255;
    const log = options.log ?? (() => undefined);
    const random = mulberry32(seed);

    const dataDir = mkdtempSync(join(tmpdir(), `ne-chaos-${backend}-`));
    const chainFile = join(dataDir, 'devnet', 'chain.sqlite');
    const indexFile = join(dataDir, 'index.sqlite');
    let database: Awaited<ReturnType<typeof createTestDatabase>> | null = null;
    let admin: pg.Client | null = null;
    let child: ServiceChild | null = null;
    const killChild = () => {
        if (child?.alive) child.proc.kill('SIGKILL');
    };
    process.once('exit', killChild);
    let passed = false;
    try {
        if (backend === 'postgres') {
            assert.ok(options.postgresServerUrl, 'a PostgreSQL server URL is needed for the postgres backend');
            database = await createTestDatabase(options.postgresServerUrl);
            admin = new pg.Client({ connectionString: database.url });
            await admin.connect();
        }
        const dbArgs = database ? ['--db', database.url] : [];
        log(`chaos ${backend}: seed ${seed}, ${kills} kills, data dir ${dataDir}${database ? `, database ${database.name}` : ''}`);

        const progress = backend === 'postgres' ? postgresProgress(admin!, chainFile) : sqliteProgress(indexFile, chainFile);
        const indexWriteOpen = backend === 'postgres' ? postgresWriteOpen(admin!, database!.name) : sqliteWriteOpen(indexFile);
        const chainWriteOpen = sqliteWriteOpen(chainFile);

        const records: KillRecord[] = [];
        const load = new LoadStats();
        let survived = 0;
        let previous: Progress = { chainSeq: 0, chainMaster: 0, cursor: 0 };
        for (let k = 0; k < kills; k++) {
            child = new ServiceChild(dataDir, blockIntervalMs, dbArgs);
            const base = await child.ready(READY_TIMEOUT_MS);
            if (k > 0) survived++;
            const delayMs = minDelayMs + Math.floor(random() * (maxDelayMs - minDelayMs));
            const draw = random();
            const aim: KillAim = draw < 0.6 ? 'random' : draw < 0.85 ? 'in-index-write' : 'in-chain-write';
            const running = child;
            const loadStarted = startLoadWhenSeeded(running, base, dataDir, chainFile, bulkSize, load);
            // On a slow machine the earlier runs can all die before the devnet's seed is done; the last
            // killed run then waits for a transfer of the load in a block, so the load's blocks are crashed into too.
            if (k === kills - 1 && load.accepted === 0) await waitForLoad(running, load, LOAD_WAIT_MS);
            await sleep(delayMs);
            if (!running.alive) assert.fail(`run ${k + 1}: the service exited by itself (${JSON.stringify(await running.exited)}):\n${running.stderr.slice(-4000)}`);
            const caught = await freezeAndKill(running, aim, random, indexWriteOpen, chainWriteOpen);
            assert.equal((await running.exited).signal, 'SIGKILL', `run ${k + 1}: the service did not die of the SIGKILL`);
            await (await loadStarted.load)?.stop();
            loadStarted.cancel();
            assertNoFailure(running, `run ${k + 1}`);

            const now = await progress();
            assert.ok(now.chainSeq >= previous.chainSeq, `the chain log went back from seq ${previous.chainSeq} to ${now.chainSeq}`);
            assert.ok(now.cursor >= previous.cursor, `the index cursor went back from ${previous.cursor} to ${now.cursor}`);
            assert.ok(now.cursor <= now.chainSeq, `the index cursor ${now.cursor} is past the chain log's last block ${now.chainSeq}`);
            const record: KillRecord = { aim, delayMs, ...caught, backlog: now.chainSeq - now.cursor, indexedInRun: now.cursor - previous.cursor };
            records.push(record);
            previous = now;
            log(`kill ${k + 1}/${kills} at +${delayMs} ms (${aim})${record.inIndexWrite ? ', inside an index write transaction' : ''}${record.inChainWrite ? ', inside a chain log write transaction' : ''}: `
                + `chain log seq ${now.chainSeq}, ${record.indexedInRun} block(s) indexed in the run, backlog ${record.backlog}; load ${load.accepted} accepted, ${load.rejected} rejected, ${load.cutOff} cut off`);
        }

        // The clean run: catch up, stop gracefully; again if a block came between caught-up and the stop.
        let finalMaster = 0;
        for (let attempt = 1; ; attempt++) {
            child = new ServiceChild(dataDir, FINAL_BLOCK_INTERVAL_MS, dbArgs);
            const base = await child.ready(READY_TIMEOUT_MS);
            if (attempt === 1 && kills > 0) survived++;
            finalMaster = await waitCaughtUp(base, 300_000);
            const code = await child.terminate(60_000);
            assert.equal(code, 0, `the final run did not stop cleanly: ${child.stderr}`);
            assertNoFailure(child, 'the final run');
            const now = await progress();
            // A block made between the caught-up report and the stop, even indexed before it, makes the report stale: run again.
            if (now.cursor === now.chainSeq && now.chainMaster === finalMaster) break;
            assert.ok(attempt < 3, `the index did not catch up with the chain log in 3 clean runs (cursor ${now.cursor}, chain log ${now.chainSeq}; `
                + `caught up at masterchain ${finalMaster}, the log's last ${now.chainMaster})`);
        }
        log(`caught up at masterchain ${finalMaster}; checking`);

        const reader: IndexReader = database ? await postgresIndexReader(database.url) : sqliteIndexReader(indexFile);
        let counts: { lostBlocks: number; duplicatedBlocks: number; halfWrittenBlocks: number };
        let summary: IngestSummary;
        try {
            counts = await countDamage(reader, chainFile);
            log(`lost blocks ${counts.lostBlocks}, duplicated ${counts.duplicatedBlocks}, half-written ${counts.halfWrittenBlocks}`);
            summary = await verifyIngest(chainFile, reader, finalMaster);
        } finally {
            await reader.close();
        }
        const reference = await assertSameAsReference(chainFile, database ? { url: database.url, dataDir } : { dataDir });
        passed = true;
        return { backend, seed, kills: records, survived, load, summary, reference, ...counts, seconds: (Date.now() - started) / 1000 };
    } finally {
        killChild();
        if (child?.alive) await child.kill().catch(() => undefined);
        process.off('exit', killChild);
        await admin?.end().catch(() => undefined);
        if (passed) {
            await database?.drop();
            rmSync(dataDir, { recursive: true, force: true });
        } else {
            log(`chaos ${backend}: kept for inspection: ${dataDir}${database ? ` and database ${database.url}` : ''} (seed ${seed})`);
        }
    }
}

/** Starts the load once the chain log has every seed step (the seed's own transfers use the same wallets). */
function startLoadWhenSeeded(child: ServiceChild, base: string, dataDir: string, chainFile: string, bulkSize: number, stats: LoadStats): { load: Promise<TransferLoad | null>; cancel(): void } {
    let cancelled = false;
    const load = (async () => {
        while (!cancelled && child.alive && !seedCommitted(chainFile)) await sleep(20);
        if (cancelled || !child.alive) return null;
        const manifest = JSON.parse(readFileSync(join(dataDir, 'devnet.json'), 'utf8')) as DevnetManifestAccounts;
        return new TransferLoad(base, chainFile, manifest, bulkSize, stats);
    })();
    return { load, cancel: () => { cancelled = true; } };
}

async function waitForLoad(child: ServiceChild, stats: LoadStats, timeoutMs: number): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (stats.accepted === 0 && child.alive && Date.now() < deadline) await sleep(50);
}

/**
 * SIGSTOPs the child, notes whether it holds an index or a chain log write transaction, and
 * SIGKILLs it in that state. An aimed kill lets it run 0.1–0.6 ms (random) and freezes it again
 * until it is inside the aimed kind of transaction (or AIM_FOR_MS passed).
 */
async function freezeAndKill(
    child: ServiceChild, aim: KillAim, random: () => number,
    indexWriteOpen: () => Promise<boolean>, chainWriteOpen: () => Promise<boolean>,
): Promise<{ inIndexWrite: boolean; inChainWrite: boolean }> {
    let state = { inIndexWrite: false, inChainWrite: false };
    try {
        const until = performance.now() + AIM_FOR_MS;
        while (child.alive) {
            child.proc.kill('SIGSTOP');
            waitStopped(child.proc.pid!);
            state = { inIndexWrite: await indexWriteOpen(), inChainWrite: await chainWriteOpen() };
            const hit = aim === 'random' || (aim === 'in-index-write' ? state.inIndexWrite : state.inChainWrite);
            if (hit || performance.now() > until) break;
            child.proc.kill('SIGCONT');
            busyWait(0.1 + random() * 0.5);
        }
    } finally {
        child.proc.kill('SIGKILL');
    }
    await child.kill();
    return state;
}

/** The SQLite write lock of `file` is held (by the frozen child): `BEGIN IMMEDIATE` fails with SQLITE_BUSY. A successful probe rolls back at once. */
function sqliteWriteOpen(file: string): () => Promise<boolean> {
    return async () => {
        let probe: Database.Database;
        try {
            probe = new Database(file, { fileMustExist: true, timeout: 0 });
        } catch {
            return false; // not created yet
        }
        try {
            probe.prepare('BEGIN IMMEDIATE').run();
            probe.prepare('ROLLBACK').run();
            return false;
        } catch (error) {
            if ((error as { code?: string }).code === 'SQLITE_BUSY') return true;
            throw error;
        } finally {
            probe.close();
        }
    };
}

/** A session of the service on the database holds a transaction id: it has written in its open transaction. */
function postgresWriteOpen(admin: pg.Client, database: string): () => Promise<boolean> {
    return async () => {
        const { rows } = await admin.query<{ n: string }>(
            'SELECT COUNT(*) AS n FROM pg_stat_activity WHERE datname = $1 AND backend_xid IS NOT NULL AND pid <> pg_backend_pid()', [database]);
        return Number(rows[0].n) > 0;
    };
}

interface Progress {
    chainSeq: number;
    /** The seqno of the chain log's newest masterchain block. */
    chainMaster: number;
    cursor: number;
}

function seedCommitted(chainFile: string): boolean {
    try {
        const db = openReadOnly(chainFile);
        try {
            const row = db.prepare("SELECT value FROM meta WHERE key = 'heads'").get() as { value: string } | undefined;
            return row !== undefined && (JSON.parse(row.value) as { seedStep: number }).seedStep >= SEED_STEPS.length;
        } finally {
            db.close();
        }
    } catch {
        return false; // not created yet
    }
}

/** The chain log's last seq and its newest masterchain seqno (0 and 0 before it exists). */
function chainLogHead(chainFile: string): { chainSeq: number; chainMaster: number } {
    try {
        const db = openReadOnly(chainFile);
        try {
            const row = db.prepare('SELECT COALESCE(MAX(seq), 0) AS seq, COALESCE(MAX(CASE WHEN workchain = -1 THEN seqno END), 0) AS master FROM blocks')
                .get() as { seq: bigint; master: bigint };
            return { chainSeq: Number(row.seq), chainMaster: Number(row.master) };
        } finally {
            db.close();
        }
    } catch {
        return { chainSeq: 0, chainMaster: 0 }; // not created yet
    }
}

function sqliteProgress(indexFile: string, chainFile: string): () => Promise<Progress> {
    return async () => {
        let cursor = 0;
        try {
            const db = openReadOnly(indexFile);
            try {
                const row = db.prepare("SELECT cursor FROM source_cursors WHERE source = 'devnet'").get() as { cursor: string } | undefined;
                cursor = row ? Number(row.cursor) : 0;
            } finally {
                db.close();
            }
        } catch {
            // no index (or no table) yet
        }
        return { ...chainLogHead(chainFile), cursor };
    };
}

function postgresProgress(admin: pg.Client, chainFile: string): () => Promise<Progress> {
    return async () => {
        let cursor = 0;
        try {
            const { rows } = await admin.query<{ cursor: string }>("SELECT cursor FROM source_cursors WHERE source = 'devnet'");
            cursor = rows[0] ? Number(rows[0].cursor) : 0;
        } catch {
            // not migrated yet
        }
        return { ...chainLogHead(chainFile), cursor };
    };
}

/** Failures the service logs without exiting (its indexer or block production stopped): a run with one fails the chaos run. */
function assertNoFailure(child: ServiceChild, what: string): void {
    assert.ok(!/indexer stopped|block production failed/.test(child.stderr), `${what}: the service reported a failure:\n${child.stderr.slice(-4000)}`);
}

/** Polls GET /v2/status until the index head is the chain head (lag 0) in both workchains; returns the masterchain seqno. */
async function waitCaughtUp(base: string, timeoutMs: number): Promise<number> {
    const deadline = Date.now() + timeoutMs;
    let last: unknown = null;
    while (Date.now() < deadline) {
        const response = await fetch(`${base}/status`, { signal: AbortSignal.timeout(10_000) });
        const status = await response.json() as { heads: Array<{ workchain_id: number; seqno: number; chain_seqno?: number; lag_blocks?: number }> };
        last = status;
        const master = status.heads.find(h => h.workchain_id === -1);
        const shard = status.heads.find(h => h.workchain_id === 0);
        if (master && shard && master.lag_blocks === 0 && master.chain_seqno === master.seqno && shard.seqno === master.seqno) return master.seqno;
        await sleep(100);
    }
    throw new Error(`the index did not catch up with the chain within ${timeoutMs} ms: ${JSON.stringify(last)}`);
}

/**
 * The damage a crash could do, counted (verifyIngest then asserts every detail): chain log blocks
 * not in the index with the same root hash, block rows beyond one per block id, and blocks whose
 * transaction rows are not as many as their BOC has transactions (its tx_count, checked against the
 * BOC by verifyIngest).
 */
async function countDamage(index: IndexReader, chainFile: string): Promise<{ lostBlocks: number; duplicatedBlocks: number; halfWrittenBlocks: number }> {
    const db = openReadOnly(chainFile);
    let logBlocks: Array<{ workchain: bigint; seqno: bigint; root_hash: string }>;
    try {
        logBlocks = db.prepare('SELECT workchain, seqno, root_hash FROM blocks').all() as typeof logBlocks;
    } finally {
        db.close();
    }
    const indexed = await index.all('SELECT workchain, seqno, root_hash FROM blocks');
    const have = new Set(indexed.map(r => `${Number(r.workchain)}:${Number(r.seqno)}:${String(r.root_hash)}`));
    const lostBlocks = logBlocks.filter(b => !have.has(`${Number(b.workchain)}:${Number(b.seqno)}:${b.root_hash}`)).length;
    const [distinct] = await index.all('SELECT COUNT(*) AS n FROM (SELECT DISTINCT workchain, shard, seqno FROM blocks) d');
    const duplicatedBlocks = indexed.length - Number(distinct.n);
    const [half] = await index.all('SELECT COUNT(*) AS n FROM blocks b WHERE b.tx_count <> (SELECT COUNT(*) FROM transactions t WHERE t.workchain = b.workchain AND t.shard = b.shard AND t.seqno = b.seqno)');
    return { lostBlocks, duplicatedBlocks, halfWrittenBlocks: Number(half.n) };
}
