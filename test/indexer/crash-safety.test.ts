/**
 * Crash safety of the whole ingest path with real child processes and SIGKILL.
 *
 * `native-explorer serve` runs on a devnet producing a block pair every 20 ms, under load (faucet
 * requests from several workers, signed transfers from a seeded wallet that bounce), and is killed
 * with SIGKILL, then restarted on the same data directory:
 *   - a store child (test/helpers/crash-migration-child.ts) kills itself in the middle of the
 *     index's schema migration, and the first service start is killed at its devnet genesis commit;
 *   - then 6–9 runs are each killed 200–1500 ms (random) after their devnet's first block, in
 *     turn: inside an open index write transaction, 0–14 ms (random) after a chain log commit
 *     (while the indexer parses and stores that block), and inside an open chain log write
 *     transaction.
 * After the last restart the service catches up and stops gracefully (SIGTERM), and the files are
 * read directly. The chain log's block BOCs are read with an independent reader
 * (test/helpers/independent-block-reader.ts): the devnet must have continued one chain across every
 * kill (seqnos 1..N, parent links by root hash down to the zerostates, masterchain N committing
 * basechain N, and each block's state update starting from the state the block before it ended
 * with), and the index must hold exactly the chain log's blocks (same root hashes, no gaps or
 * duplicates, utimes and lt ranges in order), transactions, messages, traces and account states
 * (as the chain log's account_history last saved them).
 *
 * The random choices come from a fixed seed; CRASH_TEST_SEED=<n> runs another (the seed is printed as a diagnostic).
 */
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import { Address, Cell, comment, internal, loadShardAccount } from '@ton/core';
import { DevnetWallet } from '../../src/chain/devnet/wallets.ts';
import { REPO_ROOT, ServiceChild, busyWait, childEnv, sleep, waitStopped, withTimeout } from '../helpers/crash-child.ts';
import { mulberry32, openReadOnly, sqliteIndexReader, verifyIngest } from '../helpers/ingest-checks.ts';

const BLOCK_INTERVAL_MS = 20;
/** The last run: long enough that no block is produced between "caught up" and the graceful stop. */
const FINAL_BLOCK_INTERVAL_MS = 1500;
const READY_TIMEOUT_MS = 30_000;
const MIGRATION_CHILD = fileURLToPath(new URL('../helpers/crash-migration-child.ts', import.meta.url));
/**
 * Each run is killed 200–1500 ms (random) after the devnet's first block in the run, then, in
 * turn: (a) inside an open write transaction of the index (the child is frozen with SIGSTOP at
 * random points until one is open), (b) 0–MAX_COMMIT_OFFSET_MS (random) after the next chain log commit, while the indexer
 * parses and stores that block or just after, (c) inside an open write transaction of the chain
 * log. More runs (up to the maximum) while fewer than MIN_KILLS_IN_INDEX_WRITE kills landed inside
 * an index write or none inside a chain log write.
 */
const MIN_RUNNING_KILLS = 6;
const MAX_RUNNING_KILLS = 9;
const MIN_KILLS_IN_INDEX_WRITE = 2;
const MAX_COMMIT_OFFSET_MS = 14;
/** No extra kills after this much time, so the test stays well under ~90 s. */
const EXTRA_KILLS_UNTIL_MS = 50_000;
/** Concurrent faucet requests: each waits until its block is indexed, so this sets how full the blocks are. */
const FAUCET_WORKERS = 8;
const GRAM = 1_000_000_000n;

const seed = Number(process.env.CRASH_TEST_SEED ?? 1207);
const random = mulberry32(seed);

const dataDir = mkdtempSync(join(tmpdir(), 'native-explorer-crash-'));
const chainFile = join(dataDir, 'devnet', 'chain.sqlite');
const indexFile = join(dataDir, 'index.sqlite');
let child: ServiceChild | null = null;
let passed = false;

// Even if this process ends abruptly, never leave a child running (or frozen by SIGSTOP).
process.once('exit', () => {
    if (child?.alive) child.proc.kill('SIGKILL');
});

after(async () => {
    if (child?.alive) await child.kill().catch(() => undefined);
    if (passed) rmSync(dataDir, { recursive: true, force: true });
    else process.stderr.write(`crash-safety: data directory kept for inspection: ${dataDir}\n`);
});

test('the index and the devnet survive SIGKILL at random moments during ingest', { timeout: 300_000 }, async t => {
    const started = Date.now();
    t.diagnostic(`seed ${seed} (CRASH_TEST_SEED), data dir ${dataDir}`);
    const kills: KillRecord[] = [];
    const load = new LoadStats();
    let manifestText: string | null = null;
    let previous: Snapshot = { chainSeq: 0, chainMaster: 0, indexCursor: 0, indexMaster: 0, genesis: null };

    /** After every (re)start: the same seeded wallets, and an index that never went backwards. */
    const checkRestarted = async (base: string) => {
        const text = readFileSync(join(dataDir, 'devnet.json'), 'utf8');
        manifestText ??= text;
        assert.deepEqual(JSON.parse(text), JSON.parse(manifestText), 'devnet.json (the seeded wallets and their keys) changed across a restart');
        // The served manifest is devnet.json plus each wallet's current seqno, read from the index.
        const served = await getJson(`${base}/devnet/manifest`) as { accounts: Array<{ seqno?: number }> };
        for (const account of served.accounts) delete account.seqno;
        assert.deepEqual(served, JSON.parse(manifestText), 'GET /v2/devnet/manifest differs from devnet.json');
        const status = await getJson(`${base}/status`) as StatusBody;
        const master = status.heads.find(h => h.workchain_id === -1);
        assert.ok((master?.seqno ?? 0) >= previous.indexMaster, `the index went back from masterchain ${previous.indexMaster} to ${master?.seqno} after a restart`);
    };

    /** After every kill: the chain log only moves forward on the same genesis, the index never passes it. */
    const afterKill = (kind: KillRecord['kind'], delayMs: number, inFlight: number, mode?: KillMode, hit = false): KillRecord => {
        const snap = snapshot();
        if (previous.genesis !== null) assert.equal(snap.genesis, previous.genesis, 'the devnet genesis changed across a restart');
        if (kind === 'running') {
            assert.ok(snap.chainMaster > previous.chainMaster, `the masterchain did not advance in a run (${previous.chainMaster} → ${snap.chainMaster})`);
            assert.ok(snap.indexCursor >= previous.indexCursor, `the index cursor went back (${previous.indexCursor} → ${snap.indexCursor})`);
        }
        assert.ok(snap.indexCursor <= snap.chainSeq, `the index cursor ${snap.indexCursor} is past the chain log's last block ${snap.chainSeq}`);
        const record: KillRecord = {
            kind, delayMs, inFlight, mode, hit,
            chainMaster: snap.chainMaster,
            backlog: snap.chainSeq - snap.indexCursor,
            indexedInRun: snap.indexCursor - previous.indexCursor,
            migrated: snap.migrated,
        };
        kills.push(record);
        previous = snap;
        return record;
    };

    // 1. The store opened in a child process that SIGKILLs itself in the middle of the index's schema migration.
    const migration = await runMigrationChild(dataDir);
    assert.equal(migration.signal, 'SIGKILL', `the migration child was not killed mid-migration: ${JSON.stringify(migration)}`);
    const k1 = afterKill('startup', 0, 0);
    assert.equal(k1.migrated, false, 'the interrupted migration is recorded as applied');
    t.diagnostic('kill 1: store child SIGKILLed mid-migration (right after create table "blocks")');

    // 2. The first start of the service, killed the moment its devnet genesis is committed.
    child = new ServiceChild(dataDir, BLOCK_INTERVAL_MS);
    await killAtGenesis(child);
    const k2 = afterKill('startup', 0, 0);
    assert.ok(k2.migrated, 'the service started without migrating its index');
    assert.ok(previous.genesis !== null, 'no devnet genesis was committed');
    t.diagnostic(`kill 2: first service start SIGKILLed right after the devnet genesis commit (zerostates and genesis accounts; ${k2.chainMaster} masterchain block(s) in the log)`);

    // 3. Runs under load, each killed at a random moment 200–1500 ms after its first block.
    for (let run = 0; run < MAX_RUNNING_KILLS; run++) {
        const running = kills.filter(k => k.kind === 'running');
        const hits = (mode: KillMode) => running.filter(k => k.mode === mode && k.hit).length;
        const enough = hits('in-index-write') >= MIN_KILLS_IN_INDEX_WRITE && hits('in-chain-write') >= 1;
        if (running.length >= MIN_RUNNING_KILLS && (enough || Date.now() - started > EXTRA_KILLS_UNTIL_MS)) break;

        child = new ServiceChild(dataDir, BLOCK_INTERVAL_MS);
        const base = await child.ready(READY_TIMEOUT_MS);
        await checkRestarted(base);
        const delayMs = 200 + Math.floor(random() * 1300);
        const mode = KILL_MODES[run % KILL_MODES.length];
        const offsetMs = random() * MAX_COMMIT_OFFSET_MS;
        const generator = new LoadGenerator(base, JSON.parse(manifestText!) as Manifest, load);
        let inFlight = 0;
        let hit = false;
        try {
            // The moment counts from the run's first block: a restarted devnet warms up first (its
            // executor, the reading threads' modules), and the kills are for a running chain.
            await producingAgain(previous.chainMaster, READY_TIMEOUT_MS);
            await sleep(delayMs);
            inFlight = generator.inFlight;
            hit = mode === 'after-chain-commit' ? await killAfterNextChainCommit(child, offsetMs)
                : await killInsideWrite(child, mode === 'in-index-write' ? indexFile : chainFile);
        } finally {
            await generator.stop();
        }
        const k = afterKill('running', delayMs, inFlight, mode, hit);
        const moment = mode === 'after-chain-commit'
            ? (hit ? `${offsetMs.toFixed(1)} ms after a chain log commit` : 'no chain log commit seen in time')
            : `${hit ? 'inside' : 'no open write caught in time in'} ${mode === 'in-index-write' ? 'an index' : 'a chain log'} write transaction`;
        t.diagnostic(`kill ${kills.length} at +${delayMs} ms, ${moment}: masterchain ${k.chainMaster}, ${k.indexedInRun} block(s) indexed in the run, ${k.backlog} committed block(s) not indexed yet, ${k.inFlight} request(s) in flight`);
    }

    // 4. The last run: submit once more through the restored wallets, catch up, stop gracefully.
    child = new ServiceChild(dataDir, FINAL_BLOCK_INTERVAL_MS);
    const base = await child.ready(READY_TIMEOUT_MS);
    await checkRestarted(base);
    const manifest = JSON.parse(manifestText!) as Manifest;
    const faucet = await post(`${base}/devnet/faucet`, { address: accountOf(manifest, 'bob-v5r1').address, amount: 1_000_000_000 });
    assert.equal(faucet.status, 200, `the faucet failed after the restarts: ${JSON.stringify(faucet.body)}`);
    // The seed may still be running after the restarts and spend alice's committed seqno in the same
    // block (exit code 33): sign again with the seqno committed then.
    let transfer = await sendAliceTransfer(base, manifest, 'after the restarts');
    for (let retry = 0; retry < 5 && transfer?.status === 400 && /exit code 33/.test(JSON.stringify(transfer.body)); retry++) {
        await sleep(200);
        transfer = await sendAliceTransfer(base, manifest, 'after the restarts');
    }
    assert.equal(transfer?.status, 200, `a signed transfer failed after the restarts: ${JSON.stringify(transfer?.body)}`);
    const head = await waitCaughtUp(base, previous.chainMaster, 20_000);
    const code = await child.terminate(15_000);
    assert.equal(code, 0, `the service did not stop cleanly: ${child.stderr}`);
    assert.ok(!child.stderr.includes('indexer stopped') && !child.stderr.includes('block production failed'), `the service reported a failure: ${child.stderr}`);

    // 5. The files.
    const index = sqliteIndexReader(indexFile);
    const summary = await verifyIngest(chainFile, index, head).finally(() => index.close());

    const running = kills.filter(k => k.kind === 'running');
    // During ingest: the run had indexed blocks, or the kill landed inside its (first) index write transaction.
    const midIngest = running.filter(k => k.indexedInRun > 0 || (k.mode === 'in-index-write' && k.hit));
    const withBacklog = running.filter(k => k.backlog > 0);
    const inWrite = running.filter(k => k.mode === 'in-index-write' && k.hit);
    const inChainWrite = running.filter(k => k.mode === 'in-chain-write' && k.hit);
    assert.ok(running.length >= MIN_RUNNING_KILLS, `only ${running.length} kills while running`);
    assert.equal(midIngest.length, running.length, 'a run was killed before it indexed anything: the kill was not during ingest');
    assert.ok(inWrite.length >= 1, 'no kill landed inside an index write transaction');
    assert.ok(load.ok > 0, `no submitted message made it into a block (${JSON.stringify(load)})`);
    assert.ok(summary.transactions > 0 && summary.multiTxTraces > 0, 'the blocks carried no transactions to check');
    t.diagnostic(`${kills.length} SIGKILLs: 2 at startup (mid-migration, at the genesis commit), ${running.length} while ingesting (${inWrite.length} inside an open index write transaction, ${inChainWrite.length} inside an open chain log write transaction, ${withBacklog.length} with committed chain blocks not indexed yet, ${running.filter(k => k.inFlight > 0).length} with requests in flight)`);
    t.diagnostic(`load: ${load.ok} accepted, ${load.rejected} rejected, ${load.failed} cut off by kills`);
    t.diagnostic(`checked ${summary.blocksPerWorkchain} masterchain + ${summary.blocksPerWorkchain} basechain blocks (and their state hash chains from the zerostates), ${summary.transactions} transactions, ${summary.messages} messages, ${summary.traces} traces (${summary.multiTxTraces} with several transactions), ${summary.accounts} accounts in ${((Date.now() - started) / 1000).toFixed(1)} s`);
    passed = true;
});

// ---------------------------------------------------------------------------------------------
// Kill moments

/** Runs test/helpers/crash-migration-child.ts on the data directory (it kills itself mid-migration). */
async function runMigrationChild(dir: string): Promise<{ code: number | null; signal: NodeJS.Signals | null; stderr: string }> {
    const proc = spawn(process.execPath, ['--import', 'tsx', MIGRATION_CHILD, dir], { cwd: REPO_ROOT, env: childEnv(), stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    proc.stderr.setEncoding('utf8').on('data', (chunk: string) => { stderr += chunk; });
    const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>(resolve => proc.once('exit', (code, signal) => resolve({ code, signal })));
    try {
        return { ...(await withTimeout(exited, READY_TIMEOUT_MS, 'the migration child to exit')), stderr };
    } finally {
        proc.kill('SIGKILL');
    }
}

/** Polls the chain log (read-only, once the child has put it in WAL mode) and kills the child the moment the genesis is committed. */
async function killAtGenesis(service: ServiceChild): Promise<void> {
    const deadline = Date.now() + READY_TIMEOUT_MS;
    let probe: Database.Database | null = null;
    try {
        for (;;) {
            if (!service.alive) throw new Error(`the service exited during its first start: ${service.stderr}`);
            if (Date.now() > deadline) throw new Error('the devnet did not commit its genesis in time');
            if (!probe && existsSync(`${chainFile}-wal`)) probe = openReadOnly(chainFile);
            if (probe) {
                try {
                    if (probe.prepare("SELECT 1 FROM meta WHERE key = 'genesis'").get()) break;
                } catch {
                    // the tables are not created yet
                }
            }
            await sleep(1);
        }
    } finally {
        service.proc.kill('SIGKILL');
        probe?.close();
    }
    await service.kill();
}

/**
 * Freezes the child (SIGSTOP) at random points, 0.1–0.6 ms of running apart, until it is frozen
 * inside a write transaction on `file` — seen from outside as the SQLite write lock being held:
 * `BEGIN IMMEDIATE` on a probe connection fails with SQLITE_BUSY; when it succeeds the probe rolls
 * back at once, before the child runs again, so it never writes and the child never waits — and
 * SIGKILLs it there. Kills anyway after 3 s; returns whether it caught an open write.
 */
async function killInsideWrite(service: ServiceChild, file: string): Promise<boolean> {
    const probe = new Database(file, { fileMustExist: true, timeout: 0 });
    const begin = probe.prepare('BEGIN IMMEDIATE');
    const rollback = probe.prepare('ROLLBACK');
    const writeLockHeld = () => {
        try {
            begin.run();
        } catch (error) {
            if ((error as { code?: string }).code === 'SQLITE_BUSY') return true;
            throw error;
        }
        rollback.run();
        return false;
    };
    let caught = false;
    try {
        const until = performance.now() + 3_000;
        while (!caught && performance.now() < until && service.alive) {
            service.proc.kill('SIGSTOP');
            waitStopped(service.proc.pid!);
            caught = writeLockHeld();
            if (caught) break;
            service.proc.kill('SIGCONT');
            busyWait(0.1 + random() * 0.5);
        }
    } finally {
        probe.close();
        service.proc.kill('SIGKILL');
    }
    await service.kill();
    return caught;
}

/**
 * Busy-polls the chain log (read-only) until the devnet commits its next block pair, waits
 * `offsetMs` more and SIGKILLs the child: the indexer picks a block up right after its commit, so
 * this lands the kill in the indexer's work on it (parsing, its database transaction, or just
 * after). Kills anyway if no block comes within 3 s; returns whether a commit was seen.
 */
async function killAfterNextChainCommit(service: ServiceChild, offsetMs: number): Promise<boolean> {
    const probe = openReadOnly(chainFile);
    let aligned = false;
    try {
        const lastSeq = probe.prepare('SELECT COALESCE(MAX(seq), 0) AS v FROM blocks');
        const before = (lastSeq.get() as { v: bigint }).v;
        const until = performance.now() + 3_000;
        while (performance.now() < until && service.alive) {
            if ((lastSeq.get() as { v: bigint }).v !== before) {
                aligned = true;
                break;
            }
        }
        if (aligned) busyWait(offsetMs);
    } finally {
        service.proc.kill('SIGKILL');
        probe.close();
    }
    await service.kill();
    return aligned;
}

/** Polls the chain log (read-only) until the devnet has committed a masterchain block past `pastMaster`. */
async function producingAgain(pastMaster: number, timeoutMs: number): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (snapshot().chainMaster <= pastMaster) {
        if (Date.now() > deadline) throw new Error(`the restarted devnet produced no masterchain block past ${pastMaster} within ${timeoutMs} ms`);
        await sleep(5);
    }
}

/** Polls GET /v2/status until the index head is the chain head (lag 0) on a block produced by this run. */
async function waitCaughtUp(base: string, pastMaster: number, timeoutMs: number): Promise<number> {
    const deadline = Date.now() + timeoutMs;
    let last: StatusBody | null = null;
    while (Date.now() < deadline) {
        last = await getJson(`${base}/status`) as StatusBody;
        const master = last.heads.find(h => h.workchain_id === -1);
        const shard = last.heads.find(h => h.workchain_id === 0);
        if (master && shard && master.lag_blocks === 0 && master.chain_seqno === master.seqno && shard.seqno === master.seqno && master.seqno > pastMaster) return master.seqno;
        await sleep(20);
    }
    throw new Error(`the indexer did not catch up with the chain within ${timeoutMs} ms: ${JSON.stringify(last)}`);
}

// ---------------------------------------------------------------------------------------------
// Load

interface Manifest {
    accounts: Array<{ name: string; kind: string; address: string; public_key?: string; secret_key?: string }>;
}

function accountOf(manifest: Manifest, name: string) {
    const account = manifest.accounts.find(a => a.name === name);
    assert.ok(account, `the manifest has no ${name}`);
    return account;
}

class LoadStats {
    ok = 0;
    rejected = 0;
    failed = 0;
}

/** Faucet requests from several workers and signed transfers from alice's v3r2 wallet, until stopped. */
class LoadGenerator {
    inFlight = 0;
    private stopped = false;
    private readonly loops: Promise<void>[];

    constructor(base: string, manifest: Manifest, private readonly stats: LoadStats) {
        const targets = ['alice-v3r2', 'bob-v4r2', 'bob-v5r1'].map(name => accountOf(manifest, name).address);
        this.loops = [
            ...Array.from({ length: FAUCET_WORKERS }, (_, worker) =>
                this.loop(n => post(`${base}/devnet/faucet`, { address: targets[(n + worker) % targets.length], amount: 1_000_000_000 }))),
            this.loop(n => sendAliceTransfer(base, manifest, `crash test transfer ${n}`)),
        ];
    }

    async stop(): Promise<void> {
        this.stopped = true;
        await withTimeout(Promise.all(this.loops), 15_000, 'the load generators to stop');
    }

    private async loop(send: (n: number) => Promise<HttpReply | null>): Promise<void> {
        for (let n = 0; !this.stopped; n++) {
            this.inFlight++;
            try {
                const reply = await send(n);
                if (reply === null) await sleep(20);
                else if (reply.status === 200) this.stats.ok++;
                else this.stats.rejected++;
            } catch {
                this.stats.failed++;
                await sleep(20);
            } finally {
                this.inFlight--;
            }
        }
    }
}

/**
 * Alice (wallet v3r2, deployed by the seed) pays bob and a fresh address with a bounceable message,
 * which bounces back: a trace of four transactions. Her seqno comes from the devnet's committed
 * account state; null while she is not deployed yet.
 */
async function sendAliceTransfer(base: string, manifest: Manifest, text: string): Promise<HttpReply | null> {
    const alice = accountOf(manifest, 'alice-v3r2');
    const seqno = committedWalletSeqno(alice.address);
    if (seqno === null) return null;
    const wallet = new DevnetWallet('wallet_v3r2', { publicKey: Buffer.from(alice.public_key!, 'hex'), secretKey: Buffer.from(alice.secret_key!, 'hex') });
    assert.equal(`0:${wallet.address.hash.toString('hex')}`, alice.address, 'the manifest keys do not belong to alice');
    const message = await wallet.transfer(seqno, Math.floor(Date.now() / 1000) + 60, [
        internal({ to: Address.parseRaw(accountOf(manifest, 'bob-v4r2').address), value: GRAM / 100n, bounce: false, body: comment(text) }),
        internal({ to: new Address(0, randomBytes(32)), value: GRAM / 50n, bounce: true, body: comment('nobody lives here') }),
    ]);
    return post(`${base}/blockchain/message`, { boc: message.toBoc().toString('base64') });
}

/** Seqno of a v3/v4 wallet in the devnet's chain log (data starts with seqno:uint32), null if not active. */
function committedWalletSeqno(address: string): number | null {
    if (!existsSync(chainFile)) return null;
    const db = openReadOnly(chainFile);
    try {
        const row = db.prepare('SELECT shard_account FROM accounts WHERE address = ?').get(address) as { shard_account: Buffer } | undefined;
        if (!row) return null;
        const state = loadShardAccount(Cell.fromBoc(row.shard_account)[0].beginParse()).account?.storage.state;
        if (state?.type !== 'active' || !state.state.data) return null;
        return state.state.data.beginParse().loadUint(32);
    } finally {
        db.close();
    }
}

interface HttpReply {
    status: number;
    body: unknown;
}

async function post(url: string, json: unknown): Promise<HttpReply> {
    const response = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(json),
        signal: AbortSignal.timeout(10_000),
    });
    const text = await response.text();
    let body: unknown = text;
    try {
        body = JSON.parse(text);
    } catch {
        // not JSON
    }
    return { status: response.status, body };
}

async function getJson(url: string): Promise<unknown> {
    const response = await fetch(url, { signal: AbortSignal.timeout(10_000) });
    assert.equal(response.status, 200, `GET ${url} answered ${response.status}`);
    return response.json();
}

interface StatusBody {
    heads: Array<{ workchain_id: number; shard: string; seqno: number; chain_seqno?: number; lag_blocks?: number }>;
}

// ---------------------------------------------------------------------------------------------
// The files

interface Snapshot {
    chainSeq: number;
    chainMaster: number;
    indexCursor: number;
    indexMaster: number;
    genesis: string | null;
    migrated?: boolean;
}

type KillMode = 'in-index-write' | 'after-chain-commit' | 'in-chain-write';
const KILL_MODES: KillMode[] = ['in-index-write', 'after-chain-commit', 'in-chain-write'];

interface KillRecord {
    kind: 'startup' | 'running';
    mode?: KillMode;
    /** The kill landed where its mode aimed (inside a write transaction / after a chain log commit). */
    hit: boolean;
    delayMs: number;
    inFlight: number;
    chainMaster: number;
    /** Blocks committed to the chain log but not to the index when the process died. */
    backlog: number;
    /** Blocks the index committed during the killed run. */
    indexedInRun: number;
    migrated?: boolean;
}

function tablesOf(db: Database.Database): Set<string> {
    return new Set((db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all() as Array<{ name: string }>).map(r => r.name));
}

/** The state a killed process left on disk (read with the process gone). */
function snapshot(): Snapshot {
    const snap: Snapshot = { chainSeq: 0, chainMaster: 0, indexCursor: 0, indexMaster: 0, genesis: null };
    if (existsSync(chainFile)) {
        const chain = openReadOnly(chainFile);
        try {
            // A process killed while it creates the chain log leaves the file without (all) its tables.
            const tables = tablesOf(chain);
            if (tables.has('blocks') && tables.has('meta')) {
                snap.chainSeq = Number((chain.prepare('SELECT COALESCE(MAX(seq), 0) AS v FROM blocks').get() as { v: bigint }).v);
                snap.chainMaster = Number((chain.prepare('SELECT COALESCE(MAX(seqno), 0) AS v FROM blocks WHERE workchain = -1').get() as { v: bigint }).v);
                snap.genesis = (chain.prepare("SELECT value FROM meta WHERE key = 'genesis'").get() as { value: string } | undefined)?.value ?? null;
            }
        } finally {
            chain.close();
        }
    }
    if (existsSync(indexFile)) {
        const index = openReadOnly(indexFile);
        try {
            const tables = tablesOf(index);
            snap.migrated = tables.has('kysely_migration') && (index.prepare('SELECT COUNT(*) AS n FROM kysely_migration').get() as { n: bigint }).n > 0n;
            if (tables.has('source_cursors')) {
                const row = index.prepare("SELECT cursor FROM source_cursors WHERE source = 'devnet'").get() as { cursor: string } | undefined;
                snap.indexCursor = row ? Number(row.cursor) : 0;
            }
            if (tables.has('blocks')) snap.indexMaster = Number((index.prepare('SELECT COALESCE(MAX(seqno), 0) AS v FROM blocks WHERE workchain = -1').get() as { v: bigint }).v);
        } finally {
            index.close();
        }
    }
    return snap;
}

