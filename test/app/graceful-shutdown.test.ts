/**
 * SIGTERM of a real `native-explorer serve` process on a devnet: it logs the shutdown as JSON on
 * stderr, stops the indexer at a block boundary and exits 0; a restart on the same data directory
 * resumes the index where it stopped, so the index holds exactly the devnet's blocks up to its
 * cursor: no gap, no duplicate.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { request as httpRequest } from 'node:http';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { openStore } from '../../src/store/store.ts';
import { REPO_ROOT, ServiceChild, childEnv, sleep, withTimeout } from '../helpers/crash-child.ts';
import { connectionRefused, request } from '../helpers/http.ts';
import { tempDir } from '../helpers/stores.ts';
import { builtCommand } from '../helpers/built-command.ts';

const READY_TIMEOUT_MS = 60_000;

interface IndexSnapshot {
    cursor: number;
    blocks: Array<{ workchain: number; seqno: number; root_hash: string }>;
}

async function readIndex(dataDir: string): Promise<IndexSnapshot> {
    const store = await openStore({ dataDir });
    try {
        const cursor = await store.db.selectFrom('source_cursors').select('cursor').where('source', '=', 'devnet').executeTakeFirstOrThrow();
        const blocks = await store.db.selectFrom('blocks').select(['workchain', 'seqno', 'root_hash']).orderBy('workchain').orderBy('seqno').execute();
        return { cursor: Number(cursor.cursor), blocks: blocks.map(b => ({ workchain: Number(b.workchain), seqno: Number(b.seqno), root_hash: b.root_hash })) };
    } finally {
        await store.close();
    }
}

/** Polls /v2/status until the index's masterchain head reaches `seqno`. */
async function waitIndexedTo(base: string, seqno: number): Promise<void> {
    const deadline = Date.now() + READY_TIMEOUT_MS;
    while (Date.now() < deadline) {
        const status = await request(`${base}/status`);
        const master = status.body?.heads?.find((h: { workchain_id: number }) => h.workchain_id === -1);
        if (master && master.seqno >= seqno) return;
        await sleep(50);
    }
    throw new Error(`the index did not reach masterchain block ${seqno}`);
}

/** SIGTERM; asserts a clean exit and returns the block the "stopped" line names. */
async function terminate(child: ServiceChild): Promise<{ workchain: number; seqno: number }> {
    const code = await child.terminate(30_000);
    assert.equal(code, 0, `serve did not exit 0 after SIGTERM: ${child.stderr}`);
    const lines = child.stdout.trim().split('\n');
    const stopped = /^native-explorer: stopped; index at (masterchain|basechain) block (\d+)$/.exec(lines.at(-1)!);
    assert.ok(stopped, `the last line names the last indexed block: ${lines.at(-1)}`);
    // Every stderr line is a JSON log line; the shutdown is among them.
    const logs = child.stderr.split('\n').filter(line => line !== '' && !/^\(node:\d+\)|^\(Use `node --trace-warnings/.test(line)).map(line => JSON.parse(line) as Record<string, any>);
    const shutdown = logs.find(line => line.msg?.startsWith('shutting down'));
    assert.ok(shutdown, `a shutdown line on stderr: ${child.stderr}`);
    assert.equal(shutdown.signal, 'SIGTERM');
    // (Warnings may come from elsewhere: the devnet's seed points a token at an unresolvable metadata host.)
    assert.ok(!logs.some(line => line.level >= 50 || /indexer stopped|block production failed|cut off/.test(line.msg)), `the stop reported no failure: ${child.stderr}`);
    return { workchain: stopped[1] === 'masterchain' ? -1 : 0, seqno: Number(stopped[2]) };
}

test('serve stops on SIGTERM with exit code 0, and a restart resumes the index with no gap or duplicate', async () => {
    const dir = tempDir();
    let child: ServiceChild | null = null;
    try {
        child = new ServiceChild(dir.path, 50);
        await waitIndexedTo(await child.ready(READY_TIMEOUT_MS), 5);
        const firstStop = await terminate(child);
        const first = await readIndex(dir.path);

        child = new ServiceChild(dir.path, 50);
        const base = await child.ready(READY_TIMEOUT_MS);
        const firstMaster = Math.max(...first.blocks.filter(b => b.workchain === -1).map(b => b.seqno));
        await waitIndexedTo(base, firstMaster + 5);
        const secondStop = await terminate(child);
        child = null;
        const second = await readIndex(dir.path);

        const chainLog = new Database(join(dir.path, 'devnet', 'chain.sqlite'), { readonly: true });
        try {
            const chain = chainLog.prepare('SELECT seq, workchain, seqno, root_hash FROM blocks ORDER BY seq').all() as Array<{ seq: number; workchain: number; seqno: number; root_hash: string }>;
            const seqOf = (block: { workchain: number; seqno: number }) => chain.find(c => c.workchain === block.workchain && c.seqno === block.seqno)?.seq;
            // Each stop ended at a block boundary: the block the process reported last is the committed cursor.
            assert.equal(seqOf(firstStop), first.cursor);
            assert.equal(seqOf(secondStop), second.cursor);
            assert.ok(second.cursor > first.cursor);

            // The index holds exactly the chain's blocks up to its cursor, each once, as the first run left them plus the second run's.
            const expected = chain.filter(c => c.seq <= second.cursor).map(c => `${c.workchain}:${c.seqno}:${c.root_hash}`).sort();
            const indexed = second.blocks.map(b => `${b.workchain}:${b.seqno}:${b.root_hash}`).sort();
            assert.deepEqual(indexed, expected);
            for (const block of first.blocks) assert.ok(indexed.includes(`${block.workchain}:${block.seqno}:${block.root_hash}`));
            for (const workchain of [-1, 0]) {
                const seqnos = second.blocks.filter(b => b.workchain === workchain).map(b => b.seqno);
                assert.deepEqual(seqnos, Array.from({ length: seqnos.length }, (_, i) => i + 1), `workchain ${workchain} seqnos run 1..${seqnos.length}`);
            }
        } finally {
            chainLog.close();
        }
    } finally {
        if (child?.alive) await child.kill();
        dir.remove();
    }
});

/** `serve --source none` with JSON logs at debug (a line per request), its stdout and stderr collected. */
class ApiChild {
    readonly proc: ChildProcess;
    stdout = '';
    stderr = '';
    readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;

    constructor(dataDir: string) {
        this.proc = spawn(...builtCommand(['serve', '--source', 'none', '--data-dir', dataDir, '--port', '0', '--log-level', 'debug', '--shutdown-timeout-ms', '60000']),
            { cwd: REPO_ROOT, env: childEnv(), stdio: ['ignore', 'pipe', 'pipe'] });
        this.proc.stdout!.setEncoding('utf8').on('data', (chunk: string) => { this.stdout += chunk; });
        this.proc.stderr!.setEncoding('utf8').on('data', (chunk: string) => { this.stderr += chunk; });
        this.exited = new Promise(resolve => this.proc.once('exit', (code, signal) => resolve({ code, signal })));
    }

    /** Waits until `test` matches what the child wrote to `stream`. */
    async waitFor(stream: 'stdout' | 'stderr', test: RegExp): Promise<RegExpExecArray> {
        return withTimeout((async () => {
            for (;;) {
                const match = test.exec(this[stream]);
                if (match) return match;
                await sleep(10);
            }
        })(), READY_TIMEOUT_MS, `${test} on the child's ${stream}`);
    }

    logs(): Array<Record<string, any>> {
        return this.stderr.split('\n').filter(line => line.startsWith('{')).map(line => JSON.parse(line));
    }
}

/** A POST whose body is only half sent until `finish`. */
function halfSentPost(port: number, path: string, body: string, requestId: string) {
    const req = httpRequest({ host: '127.0.0.1', port, path, method: 'POST', headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), 'x-request-id': requestId } });
    const response = new Promise<{ status: number; requestId: string | undefined }>((resolve, reject) => {
        req.on('response', res => {
            res.resume().on('end', () => resolve({ status: res.statusCode!, requestId: res.headers['x-request-id'] as string | undefined }));
        });
        req.on('error', reject);
    });
    // Awaited later (or expected to fail): not an unhandled rejection meanwhile.
    response.catch(() => undefined);
    req.write(body.slice(0, 3));
    return { response, finish: () => req.end(body.slice(3)) };
}


test('after SIGTERM serve refuses new connections, answers the request in flight, then exits 0; a second signal ends it at once', async () => {
    const dir = tempDir();
    const children: ApiChild[] = [];
    try {
        for (const secondSignal of [false, true]) {
            const child = new ApiChild(dir.path);
            children.push(child);
            const port = Number((await child.waitFor('stdout', /serving http:\/\/127\.0\.0\.1:(\d+)\/v2 /))[1]);
            const id = `in-flight-${secondSignal}`;
            const inFlight = halfSentPost(port, '/v2/wallet/emulate', JSON.stringify({ boc: 'te6cckEBAQEAAgAAAEysuc0=' }), id);
            await child.waitFor('stderr', new RegExp(`"reqId":"${id}".*"msg":"incoming request"`));
            child.proc.kill('SIGTERM');
            await child.waitFor('stderr', /"msg":"shutting down/);
            let refused = false;
            for (let attempt = 0; attempt < 200 && !refused; attempt++) {
                refused = await connectionRefused(port);
                if (!refused) await sleep(10);
            }
            assert.ok(refused, 'new connections are refused during the drain');
            if (secondSignal) {
                child.proc.kill('SIGTERM');
                const { signal } = await withTimeout(child.exited, 10_000, 'the child to end on the second signal');
                assert.equal(signal, 'SIGTERM');
                await assert.rejects(inFlight.response);
                continue;
            }
            // Still draining: it waits for the request (its bound is a minute).
            await sleep(200);
            assert.equal(child.proc.exitCode, null, 'the process waits for the request in flight');
            inFlight.finish();
            const answer = await inFlight.response;
            assert.equal(answer.status, 400);
            assert.equal(answer.requestId, id);
            const { code } = await withTimeout(child.exited, 10_000, 'the child to exit after the drain');
            assert.equal(code, 0, child.stderr);
            assert.match(child.stdout.trim().split('\n').at(-1)!, /^native-explorer: stopped$/);
            const completed = child.logs().find(line => line.reqId === id && line.msg === 'request completed');
            assert.equal(completed?.res.statusCode, 400);
        }
    } finally {
        for (const child of children) if (child.proc.exitCode === null && child.proc.signalCode === null) child.proc.kill('SIGKILL');
        dir.remove();
    }
});
