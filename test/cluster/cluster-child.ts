import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { request as httpRequest, type Agent } from 'node:http';
import { ServiceChild, sleep } from '../helpers/crash-child.ts';
import { parseMetrics, type Sample } from '../helpers/prometheus.ts';

export const READY_TIMEOUT_MS = 120_000;

export interface Answer {
    status: number;
    body: any;
    text: string;
}

/**
 * One request on a connection of its own (or of `agent`): the primary hands each new connection to
 * the next worker in turn, so a series of these reaches every worker (a kept-alive connection
 * would stay with one).
 */
export function send(url: string, options: { method?: string; json?: unknown; agent?: Agent } = {}): Promise<Answer> {
    const body = options.json === undefined ? undefined : JSON.stringify(options.json);
    return new Promise((resolve, reject) => {
        const req = httpRequest(url, {
            method: options.method ?? 'GET',
            agent: options.agent ?? false,
            headers: body === undefined ? {} : { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
        }, res => {
            let text = '';
            res.setEncoding('utf8').on('data', (chunk: string) => { text += chunk; });
            res.on('end', () => {
                let parsed: unknown;
                if ((res.headers['content-type'] ?? '').includes('json') && text !== '') parsed = JSON.parse(text);
                resolve({ status: res.statusCode!, body: parsed, text });
            });
        });
        req.on('error', reject);
        req.end(body);
    });
}

/** `serve --workers N` as a child process on a data directory (ServiceChild's flags plus these). */
export class ClusterChild extends ServiceChild {
    base = '';
    root = '';

    constructor(dataDir: string, extraArgs: string[]) {
        super(dataDir, 50, extraArgs);
    }

    /** Waits for the "serving" line and, on a devnet, for its seed to be indexed. */
    async start(devnet = true): Promise<void> {
        this.base = await this.ready(READY_TIMEOUT_MS);
        this.root = this.base.replace(/\/v2$/, '');
        if (!devnet) return;
        const started = Date.now();
        while (!/devnet ready: /.test(this.stdout)) {
            if (!this.alive) throw new Error(`serve exited: ${this.stderr}`);
            if (Date.now() - started > READY_TIMEOUT_MS) throw new Error(`the devnet did not get ready: ${this.stdout}`);
            await sleep(50);
        }
    }

    async metrics(): Promise<Sample[]> {
        const answer = await send(`${this.root}/metrics`);
        assert.equal(answer.status, 200, answer.text);
        return parseMetrics(answer.text);
    }

    /** Process ids of the running API workers, by cluster worker id (from `api_worker_info`). */
    async workerPids(): Promise<Map<string, number>> {
        const pids = new Map<string, number>();
        for (const sample of await this.metrics()) if (sample.name === 'api_worker_info') pids.set(sample.labels.worker, Number(sample.labels.pid));
        return pids;
    }

    /** Requests answered so far, by worker id. */
    async answeredByWorker(): Promise<Map<string, number>> {
        const counts = new Map<string, number>();
        for (const sample of await this.metrics()) if (sample.name === 'api_worker_requests_total') counts.set(sample.labels.worker, sample.value);
        return counts;
    }

    /** Child processes of the service (Linux). */
    childPids(): number[] {
        const pid = this.proc.pid!;
        const text = readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim();
        return text === '' ? [] : text.split(/\s+/).map(Number);
    }

    /** JSON log lines on stderr (Node's own warnings skipped). */
    logs(): Array<Record<string, any>> {
        return this.stderr.split('\n').filter(line => line.startsWith('{')).map(line => JSON.parse(line));
    }
}

/**
 * Runs `reads` (each on a fresh connection) `times` times and asserts from the per-worker counters
 * that every one of `workers` answered at least one of them: the checks the reads make held on
 * every worker.
 */
export async function onEveryWorker(child: ClusterChild, workers: number, times: number, read: () => Promise<void>): Promise<void> {
    const before = await child.answeredByWorker();
    for (let i = 0; i < times; i++) await read();
    const after = await child.answeredByWorker();
    const served = [...after].filter(([worker, count]) => count - (before.get(worker) ?? 0) >= 2);
    // ≥ 2: the scrape that read `before` counts on one worker; a worker with 2 more answered a read.
    assert.ok(served.length >= workers, `every worker answered some of the reads: before ${JSON.stringify([...before])}, after ${JSON.stringify([...after])}`);
}
