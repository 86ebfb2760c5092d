/**
 * `serve --workers N` as real processes: a primary running the devnet and the indexer, N API
 * workers on one port over the same index. Requests spread over the workers; what the writer owns
 * (the chain head, messages, the faucet) works through the primary; reads are fresh on every
 * worker; a killed worker is replaced; SIGTERM drains and exits 0 with the index consistent.
 */
import assert from 'node:assert/strict';
import { Agent } from 'node:http';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { Address } from '@ton/core';
import Database from 'better-sqlite3';
import { signTransferThroughApi } from '../../src/commands/sign-transfer.ts';
import { openStore } from '../../src/store/store.ts';
import { sleep, withTimeout } from '../helpers/crash-child.ts';
import { sampleValue } from '../helpers/prometheus.ts';
import { createTestDatabase, tempDir } from '../helpers/stores.ts';
import { ClusterChild, onEveryWorker, send } from './cluster-child.ts';

const GRAM = 1_000_000_000n;

const freshAddress = () => `0:${randomBytes(32).toString('hex')}`;

async function accountTransactions(child: ClusterChild, address: string): Promise<any[]> {
    const answer = await send(`${child.base}/blockchain/accounts/${address}/transactions?limit=100`);
    assert.equal(answer.status, 200, answer.text);
    return answer.body.transactions;
}

/** SIGTERM: exit 0, the "stopped" line last, JSON log lines only, none at error level. Returns the block the line names. */
async function terminate(child: ClusterChild): Promise<{ workchain: number; seqno: number }> {
    const code = await child.terminate(60_000);
    assert.equal(code, 0, `serve did not exit 0 after SIGTERM: ${child.stderr}`);
    const stopped = /^native-explorer: stopped; index at (masterchain|basechain) block (\d+)$/.exec(child.stdout.trim().split('\n').at(-1)!);
    assert.ok(stopped, `the last line names the last indexed block: ${child.stdout.slice(-300)}`);
    const logs = child.logs();
    assert.ok(logs.some(line => line.msg?.startsWith('shutting down') && line.signal === 'SIGTERM'), child.stderr);
    assert.ok(!logs.some(line => line.level >= 50 || /indexer stopped|block production failed|cut off/.test(line.msg)), `the stop reported no failure: ${child.stderr}`);
    return { workchain: stopped[1] === 'masterchain' ? -1 : 0, seqno: Number(stopped[2]) };
}

/** The devnet's faucet through a worker; the transfer is then read back on every worker. */
async function faucetLandsEverywhere(child: ClusterChild, workers: number): Promise<void> {
    const to = freshAddress();
    const paid = await send(`${child.base}/devnet/faucet`, { method: 'POST', json: { address: to, amount: Number(2n * GRAM) } });
    assert.equal(paid.status, 200, paid.text);
    assert.equal(paid.body.address, to);
    await onEveryWorker(child, workers, 6, async () => {
        const received = await accountTransactions(child, to);
        assert.equal(received.length, 1, 'the faucet transfer is in the index as every worker reads it');
        assert.equal(received[0].in_msg.value, Number(2n * GRAM));
        const trace = await send(`${child.base}/traces/${paid.body.trace_id}`);
        assert.equal(trace.status, 200, trace.text);
    });
}

describe('serve --workers 2 (SQLite)', () => {
    const dir = tempDir('native-explorer-cluster-');
    let child: ClusterChild;
    before(() => {
        child = new ClusterChild(dir.path, ['--workers', '2', '--request-timeout-ms', '2000']);
    });
    after(async () => {
        if (child.alive) await child.kill();
        dir.remove();
    });

    it('runs two API workers beside the primary and spreads connections over both', async () => {
        await child.start();
        const pids = await child.workerPids();
        assert.equal(pids.size, 2, 'two workers report themselves');
        assert.deepEqual([...pids.values()].sort(), child.childPids().sort(), 'the workers are the primary\'s child processes');
        assert.ok(![...pids.values()].includes(child.proc.pid!));
        // Linux shows a process's flags; each worker runs with the API's young generation (default 16 MB).
        for (const pid of pids.values()) {
            const cmdline = `/proc/${pid}/cmdline`;
            if (!existsSync(cmdline)) continue;
            const flags = readFileSync(cmdline, 'utf8').split('\0');
            assert.ok(flags.includes('--max-semi-space-size=16'), `flags of ${pid}: ${flags.join(' ')}`);
        }
        await onEveryWorker(child, 2, 8, async () => {
            const status = await send(`${child.base}/status`);
            assert.equal(status.status, 200, status.text);
        });
    });

    it('answers the chain head and the ingest rate through the primary', async () => {
        await onEveryWorker(child, 2, 6, async () => {
            const status = await send(`${child.base}/status`);
            assert.equal(status.status, 200, status.text);
            assert.equal(status.body.source, 'devnet');
            const master = status.body.heads.find((h: { workchain_id: number }) => h.workchain_id === -1);
            assert.ok(master.chain_seqno >= master.seqno, `the chain head comes from the devnet in the primary: ${status.text}`);
            assert.equal(typeof status.body.blocks_per_second, 'number');
        });
        const manifest = await send(`${child.base}/devnet/manifest`);
        assert.equal(manifest.status, 200);
        assert.ok(manifest.body.accounts.some((a: { name: string }) => a.name === 'alice-v3r2'));
        const config = await send(`${child.base}/devnet/global-config`);
        assert.equal(config.status, 200, config.text);
        // Round rewards are read by the primary; a young devnet has no finished round, and that answer keeps its kind (a 4xx).
        const rewards = await send(`${child.base}/rewards/round-rewards`);
        if (rewards.status !== 200) {
            assert.ok(rewards.status >= 400 && rewards.status < 500, rewards.text);
            assert.equal(typeof rewards.body.error, 'string');
        }
        const future = await send(`${child.base}/rewards/round-rewards?election_id=4000000000`);
        assert.ok(future.status === 404 || future.status === 409, future.text);
    });

    it('sends the faucet\'s transfer through the primary, and every worker reads it at once', async () => {
        await faucetLandsEverywhere(child, 2);
    });

    it('accepts a signed message, rejects its replay with the single process\'s 400, and every worker finds its trace', async () => {
        const to = freshAddress();
        const message = await signTransferThroughApi(child.root, { from: 'alice-v3r2', to, amount: GRAM / 2n, bounce: false });
        const boc = message.toBoc().toString('base64');
        const sent = await send(`${child.base}/blockchain/message`, { method: 'POST', json: { boc } });
        assert.equal(sent.status, 200, sent.text);
        assert.equal(sent.body.message_hash, message.hash().toString('hex'));
        const replay = await send(`${child.base}/blockchain/message`, { method: 'POST', json: { boc } });
        assert.equal(replay.status, 400, replay.text);
        assert.match(replay.body.error, /exit code 33/);
        const garbage = await send(`${child.base}/blockchain/message`, { method: 'POST', json: { boc: 'te6cckEBAQEAAgAAAEysuc0=' } });
        assert.equal(garbage.status, 400, garbage.text);
        await onEveryWorker(child, 2, 6, async () => {
            const trace = await send(`${child.base}/traces/${sent.body.trace_id}`);
            assert.equal(trace.status, 200, trace.text);
            assert.equal(trace.body.transaction.in_msg.hash, sent.body.message_hash);
            assert.equal((await accountTransactions(child, to)).length, 1);
        });
    });

    it('aggregates /metrics over the workers and the primary', async () => {
        const samples = await child.metrics();
        const answered = samples.filter(s => s.name === 'api_worker_requests_total');
        assert.equal(answered.length, 2);
        const total = samples.filter(s => s.name === 'http_request_duration_seconds_count').reduce((sum, s) => sum + s.value, 0);
        // Every answered request is in the latency histogram of the worker that answered it.
        assert.equal(total, answered.reduce((sum, s) => sum + s.value, 0));
        assert.ok((sampleValue(samples, 'ingest_blocks_total', { workchain: '-1' }) ?? 0) > 0, 'the primary\'s ingest counters are in');
        assert.ok((sampleValue(samples, 'ingest_last_indexed_masterchain_seqno') ?? 0) > 0);
    });

    it('answers 503 with an error body when the primary does not answer', async () => {
        const agent = new Agent({ keepAlive: true, maxSockets: 1 });
        try {
            // A kept-alive connection stays with its worker while the primary is stopped.
            assert.equal((await send(`${child.base}/status`, { agent })).status, 200);
            child.proc.kill('SIGSTOP');
            let answer;
            try {
                answer = await withTimeout(send(`${child.base}/status`, { agent }), 20_000, 'an answer while the primary is stopped');
            } finally {
                child.proc.kill('SIGCONT');
            }
            assert.equal(answer.status, 503, answer.text);
            assert.equal(typeof answer.body.error, 'string');
        } finally {
            agent.destroy();
        }
        assert.equal((await send(`${child.base}/status`)).status, 200);
    });

    it('replaces a worker killed with SIGKILL, and keeps answering', async () => {
        const before = await child.workerPids();
        const [victim, pid] = [...before][0];
        process.kill(pid, 'SIGKILL');
        const deadline = Date.now() + 60_000;
        let now = before;
        while (Date.now() < deadline) {
            await sleep(100);
            now = await child.workerPids();
            if (now.size === 2 && !now.has(victim)) break;
        }
        assert.equal(now.size, 2, `two workers again: ${JSON.stringify([...now])}`);
        assert.ok(!now.has(victim) && ![...now.values()].includes(pid), 'the killed worker is gone, a new one took its place');
        assert.ok(child.logs().some(line => line.level === 40 && new RegExp(`API worker ${victim} \\(pid ${pid}\\) exited \\(SIGKILL\\); starting another`).test(line.msg)), child.stderr);
        await faucetLandsEverywhere(child, 2);
    });

    it('keeps the port when every worker dies at once', async () => {
        const before = await child.workerPids();
        for (const pid of before.values()) process.kill(pid, 'SIGKILL');
        const deadline = Date.now() + 60_000;
        let now = new Map<string, number>();
        while (Date.now() < deadline) {
            await sleep(200);
            now = await child.workerPids().catch(() => new Map<string, number>());
            if (now.size === 2 && ![...now.keys()].some(worker => before.has(worker))) break;
        }
        assert.equal(now.size, 2, 'two new workers answer on the URL printed at start');
        assert.ok(![...now.keys()].some(worker => before.has(worker)));
        assert.equal((await send(`${child.base}/status`)).status, 200);
    });

    it('stops on SIGTERM with exit code 0 and an index with exactly the chain\'s blocks up to its cursor', async () => {
        const stopped = await terminate(child);
        const store = await openStore({ dataDir: dir.path });
        const chainLog = new Database(join(dir.path, 'devnet', 'chain.sqlite'), { readonly: true });
        try {
            const cursor = Number((await store.db.selectFrom('source_cursors').select('cursor').where('source', '=', 'devnet').executeTakeFirstOrThrow()).cursor);
            const indexed = (await store.db.selectFrom('blocks').select(['workchain', 'seqno', 'root_hash']).execute()).map(b => `${b.workchain}:${b.seqno}:${b.root_hash}`).sort();
            const chain = chainLog.prepare('SELECT seq, workchain, seqno, root_hash FROM blocks ORDER BY seq').all() as Array<{ seq: number; workchain: number; seqno: number; root_hash: string }>;
            assert.equal(chain.find(c => c.workchain === stopped.workchain && c.seqno === stopped.seqno)?.seq, cursor, 'the block named last is the committed cursor');
            assert.deepEqual(indexed, chain.filter(c => c.seq <= cursor).map(c => `${c.workchain}:${c.seqno}:${c.root_hash}`).sort());
        } finally {
            chainLog.close();
            await store.close();
        }
    });
});

describe('serve --workers 1', () => {
    it('is one process, as before: no workers, no worker metrics', async () => {
        const dir = tempDir('native-explorer-cluster-');
        const child = new ClusterChild(dir.path, ['--workers', '1', '--liteserver-port', 'off']);
        try {
            await child.start(false);
            assert.deepEqual(child.childPids(), []);
            const samples = await child.metrics();
            assert.ok(!samples.some(s => s.name.startsWith('api_worker_')));
            assert.equal((await send(`${child.base}/status`)).status, 200);
            const code = await child.terminate(60_000);
            assert.equal(code, 0, child.stderr);
            assert.match(child.stdout.trim().split('\n').at(-1)!, /^native-explorer: stopped/);
        } finally {
            if (child.alive) await child.kill();
            dir.remove();
        }
    });
});

const pgUrl = process.env.TEST_PG_URL;
describe('serve --workers 2 on PostgreSQL', { skip: pgUrl ? false : 'TEST_PG_URL is not set' }, () => {
    it('writes once in the primary and reads in both workers, each with its own pool', async () => {
        const database = await createTestDatabase(pgUrl!);
        const dir = tempDir('native-explorer-cluster-');
        const child = new ClusterChild(dir.path, ['--workers', '2', '--liteserver-port', 'off', '--db', database.url]);
        try {
            await child.start();
            await faucetLandsEverywhere(child, 2);
            const samples = await child.metrics();
            // The primary's pool (10) and one of ⌈32 / 2⌉ = 16 per worker.
            assert.equal(sampleValue(samples, 'db_pool_max_connections'), 10 + 2 * 16);
            await terminate(child);
        } finally {
            if (child.alive) await child.kill();
            dir.remove();
            await database.drop();
        }
    });
});

describe('serve --workers 2 --source none', () => {
    it('serves an existing index from the workers, with no writer', async () => {
        const dir = tempDir('native-explorer-cluster-');
        const child = new ClusterChild(dir.path, ['--workers', '2', '--source', 'none', '--anon-rps', '100000']);
        try {
            await child.start(false);
            await onEveryWorker(child, 2, 6, async () => {
                const status = await send(`${child.base}/status`);
                assert.equal(status.status, 200, status.text);
                assert.equal(status.body.source, 'none');
                const message = await send(`${child.base}/blockchain/message`, { method: 'POST', json: { boc: 'te6cckEBAQEAAgAAAEysuc0=' } });
                assert.equal(message.status, 503, message.text);
                const faucet = await send(`${child.base}/devnet/faucet`, { method: 'POST', json: { address: Address.parseRaw(freshAddress()).toRawString(), amount: 1 } });
                assert.equal(faucet.status, 404, faucet.text);
            });
            const code = await child.terminate(60_000);
            assert.equal(code, 0, child.stderr);
            assert.match(child.stdout.trim().split('\n').at(-1)!, /^native-explorer: stopped$/);
        } finally {
            if (child.alive) await child.kill();
            dir.remove();
        }
    });
});
