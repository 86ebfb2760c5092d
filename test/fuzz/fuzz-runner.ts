import v8 from 'node:v8';
import { runInNewContext } from 'node:vm';
import fc from 'fast-check';
import { request, type HttpResult } from '../helpers/http.ts';
import { assertResponseMatches, findOperation } from '../helpers/openapi-assert.ts';
import { STACK_TRACE } from '../api/api-call.ts';
import { anyRequestArbitrary, documentOperations, type FuzzContext, type FuzzRequest } from './openapi-arbitraries.ts';

/**
 * Drives a running server over HTTP with generated requests and checks every answer: no 500 (nor
 * another 5xx the operation does not document), no answer slower than `hangMs`, the body valid
 * against the document for the operation and status, no stack trace; at the end the server still
 * answers GET /v2/status. Case `i` of seed `s` is generated from its own seed, mixed from both, so
 * each case can be replayed alone (`--seed <s> --first <i> --cases 1`).
 */

export interface FuzzOptions {
    /** `http://host:port/v2`-less origin plus `/v2`, e.g. `http://127.0.0.1:8081/v2`. */
    base: string;
    ctx: FuzzContext;
    cases: number;
    seed: number;
    /** Index of the first case (to replay one case of a run). */
    first?: number;
    concurrency?: number;
    /** Slower than this is a hang: every answer is due within 5 s. */
    hangMs?: number;
    /** Requests are abandoned after this long. */
    abortMs?: number;
    progress?: (done: number) => void;
}

export interface FuzzFailure {
    /** Run seed and case index that generate this case. */
    seed: number;
    index: number;
    kind: 'server error' | 'hang' | 'document mismatch' | 'stack trace' | 'no answer';
    request: FuzzRequest;
    status?: number;
    ms: number;
    detail: string;
}

export interface FuzzReport {
    cases: number;
    seed: number;
    durationMs: number;
    byOperation: Record<string, { cases: number; modes: Record<string, number>; statuses: Record<string, number> }>;
    statuses: Record<string, number>;
    latencyMs: { p50: number; p90: number; p99: number; max: number };
    slowest: { ms: number; operationId: string; note: string };
    /** `warm`: after the first tenth of the cases, once caches, JIT code and the emulator's memories have grown in. */
    rssMb: { before: number; warm: number; after: number; peak: number };
    /** The main thread's V8 heap in use (the RSS also holds the devnet's worker thread and SQLite). */
    heapMb: { before: number; after: number };
    /** RSS after every `cases / 10` cases: a leak climbs, an allocator's working set levels off. */
    rssTimelineMb: number[];
    failures: FuzzFailure[];
    /** GET /v2/status after the run. */
    aliveAfter: boolean;
}

const HANG_MS = 5_000;

/**
 * How much the process may grow over a run. The RSS holds the devnet's worker thread (which keeps
 * producing blocks), SQLite's page caches (64 MB per connection) and the emulator's WebAssembly
 * memories besides the server: it grows most in the first tenth of a run, then by 210 to 450 MB more
 * over 5,000 to 20,000 cases (more on a loaded machine, where the devnet makes more blocks per case),
 * so its growth is counted from there. The V8 heap (after a full GC) is where a leak of the server's
 * own objects would show: it grows by 30 to 50 MB over such runs.
 */
export const MEMORY_LIMITS_MB = { rssGrowthAfterWarmUp: 600, heapGrowth: 100 };

export function memoryWithinLimits(report: FuzzReport): boolean {
    return report.rssMb.after - report.rssMb.warm < MEMORY_LIMITS_MB.rssGrowthAfterWarmUp && report.heapMb.after - report.heapMb.before < MEMORY_LIMITS_MB.heapGrowth;
}
const ABORT_MS = 30_000;

/**
 * The seed of case `index` of a run: neighbouring seeds start fast-check's generator in similar
 * states, so the index is mixed in (murmur3's finalizer) rather than added.
 */
export function caseSeed(seed: number, index: number): number {
    let h = Math.imul(seed ^ 0x9e3779b9, 0x85ebca6b) ^ index;
    h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
    h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
    return (h ^ (h >>> 16)) | 0;
}

function documentedStatus(operationId: string, status: number): boolean {
    return String(status) in (findOperation(operationId).operation.responses ?? {});
}

/** What is wrong with one answer, or undefined when nothing is. */
export function checkAnswer(req: FuzzRequest, response: HttpResult): { kind: FuzzFailure['kind']; detail: string } | undefined {
    if (response.status === 500 || (response.status >= 500 && !documentedStatus(req.operationId, response.status))) {
        return { kind: 'server error', detail: response.text.slice(0, 500) };
    }
    if (STACK_TRACE.test(response.text)) return { kind: 'stack trace', detail: response.text.slice(0, 500) };
    try {
        // A HEAD answer has no body to check.
        if (req.method === 'HEAD') return undefined;
        if (response.status === 204) {
            if (response.text !== '') throw new Error('204 with a body');
            return undefined;
        }
        if (response.status !== 200 && !/^application\/json/.test(response.headers.get('content-type') ?? '')) throw new Error(`${response.status} is not JSON: ${response.headers.get('content-type')}`);
        assertResponseMatches(req.operationId, response.status, response.body === undefined ? response.text : response.body);
    } catch (error) {
        return { kind: 'document mismatch', detail: `${(error as Error).message.slice(0, 1500)}\nbody: ${response.text.slice(0, 500)}` };
    }
    return undefined;
}

export async function send(base: string, req: FuzzRequest, abortMs = ABORT_MS): Promise<HttpResult> {
    return request(`${base.replace(/\/v2$/, '')}${req.url}`, { method: req.method, headers: req.headers, body: req.body, signal: AbortSignal.timeout(abortMs) });
}

const mb = (bytes: number) => Math.round(bytes / 1024 / 1024);

/** A full garbage collection before each memory reading (without `--expose-gc`, turned on here). */
function settle(): void {
    let gc = (globalThis as { gc?: () => void }).gc;
    if (!gc) {
        v8.setFlagsFromString('--expose-gc');
        gc = runInNewContext('gc') as () => void;
    }
    gc();
}

export async function runFuzz(options: FuzzOptions): Promise<FuzzReport> {
    const { base, ctx, cases, seed } = options;
    const hangMs = options.hangMs ?? HANG_MS;
    const operations = documentOperations();
    const arbitrary = anyRequestArbitrary(operations, ctx);
    const report: FuzzReport = {
        cases, seed, durationMs: 0, byOperation: {}, statuses: {}, latencyMs: { p50: 0, p90: 0, p99: 0, max: 0 },
        slowest: { ms: 0, operationId: '', note: '' }, rssMb: { before: 0, warm: 0, after: 0, peak: 0 }, heapMb: { before: 0, after: 0 }, rssTimelineMb: [], failures: [], aliveAfter: false,
    };
    for (const op of operations) report.byOperation[op.operationId] = { cases: 0, modes: {}, statuses: {} };
    const latencies: number[] = [];
    settle();
    const { rss: rssBefore, heapUsed: heapBefore } = process.memoryUsage();
    let peak = rssBefore;
    const sampler = setInterval(() => { peak = Math.max(peak, process.memoryUsage().rss); }, 250);
    const started = performance.now();
    let next = 0;
    let done = 0;

    const worker = async () => {
        for (;;) {
            const index = (options.first ?? 0) + next++;
            if (index >= (options.first ?? 0) + cases) return;
            const req = fc.sample(arbitrary, { seed: caseSeed(seed, index), numRuns: 1 })[0];
            const t0 = performance.now();
            let response: HttpResult | undefined;
            let transportError: unknown;
            try {
                response = await send(base, req, options.abortMs);
            } catch (error) {
                transportError = error;
            }
            const ms = performance.now() - t0;
            latencies.push(ms);
            if (ms > report.slowest.ms) report.slowest = { ms: Math.round(ms), operationId: req.operationId, note: `${req.method} ${req.url.slice(0, 120)} ${req.note}`.trim() };
            const stats = report.byOperation[req.operationId];
            stats.cases++;
            stats.modes[req.mode] = (stats.modes[req.mode] ?? 0) + 1;
            const status = response ? String(response.status) : 'none';
            stats.statuses[status] = (stats.statuses[status] ?? 0) + 1;
            report.statuses[status] = (report.statuses[status] ?? 0) + 1;
            const fail = (kind: FuzzFailure['kind'], detail: string) => report.failures.push({ seed, index, kind, request: req, status: response?.status, ms: Math.round(ms), detail });
            if (!response) fail('no answer', String((transportError as Error)?.message ?? transportError));
            else {
                const problem = checkAnswer(req, response);
                if (problem) fail(problem.kind, problem.detail);
            }
            if (ms > hangMs) fail('hang', `answered after ${Math.round(ms)} ms`);
            if (++done % Math.max(1, Math.floor(cases / 10)) === 0) {
                const rss = mb(process.memoryUsage().rss);
                if (report.rssTimelineMb.length === 0) report.rssMb.warm = rss;
                report.rssTimelineMb.push(rss);
            }
            options.progress?.(done);
        }
    };
    await Promise.all(Array.from({ length: options.concurrency ?? 2 }, worker));
    report.durationMs = Math.round(performance.now() - started);
    clearInterval(sampler);

    const status = await request(`${base}/status`, { signal: AbortSignal.timeout(hangMs) }).catch(() => undefined);
    report.aliveAfter = status?.status === 200 && checkAnswer({ operationId: 'getStatus', mode: 'valid', method: 'GET', url: '/v2/status', headers: {}, note: '' }, status) === undefined;
    settle();
    const { rss: rssAfter, heapUsed: heapAfter } = process.memoryUsage();
    report.rssMb = { before: mb(rssBefore), warm: report.rssMb.warm || mb(rssBefore), after: mb(rssAfter), peak: mb(Math.max(peak, rssAfter)) };
    report.heapMb = { before: mb(heapBefore), after: mb(heapAfter) };
    latencies.sort((a, b) => a - b);
    const pct = (p: number) => Math.round(latencies[Math.min(latencies.length - 1, Math.floor(latencies.length * p))] ?? 0);
    report.latencyMs = { p50: pct(0.5), p90: pct(0.9), p99: pct(0.99), max: Math.round(latencies.at(-1) ?? 0) };
    return report;
}

/** The report as text: figures, then each failure with what reproduces it. */
export function formatReport(report: FuzzReport): string {
    const lines = [
        `cases ${report.cases}, seed ${report.seed}, ${(report.durationMs / 1000).toFixed(1)} s (${Math.round(report.cases / (report.durationMs / 1000))} requests/s)`,
        `statuses: ${Object.entries(report.statuses).sort().map(([s, n]) => `${s}×${n}`).join(' ')}`,
        `latency ms: p50 ${report.latencyMs.p50}, p90 ${report.latencyMs.p90}, p99 ${report.latencyMs.p99}, max ${report.latencyMs.max} (${report.slowest.operationId}: ${report.slowest.note.slice(0, 160)})`,
        `RSS MB: before ${report.rssMb.before}, after the first tenth ${report.rssMb.warm}, after ${report.rssMb.after} (growth ${report.rssMb.after - report.rssMb.before}, `
            + `${report.rssMb.after - report.rssMb.warm} after the first tenth), peak ${report.rssMb.peak}; every tenth: ${report.rssTimelineMb.join(' ')}`,
        `V8 heap MB (after a full GC): before ${report.heapMb.before}, after ${report.heapMb.after}`,
        `memory within limits (RSS growth after the first tenth < ${MEMORY_LIMITS_MB.rssGrowthAfterWarmUp} MB, V8 heap growth < ${MEMORY_LIMITS_MB.heapGrowth} MB): ${memoryWithinLimits(report) ? 'yes' : 'NO'}`,
        `server alive after the run: ${report.aliveAfter ? 'yes' : 'NO'}`,
        'per operation (cases; valid/boundary/invalid; statuses):',
        ...Object.entries(report.byOperation).map(([op, s]) =>
            `  ${op}: ${s.cases}; ${s.modes.valid ?? 0}/${s.modes.boundary ?? 0}/${s.modes.invalid ?? 0}; ${Object.entries(s.statuses).sort().map(([st, n]) => `${st}×${n}`).join(' ')}`),
        `failures: ${report.failures.length}`,
        ...report.failures.slice(0, 50).map(f => [
            `  [${f.kind}] ${f.request.operationId} ${f.status ?? '-'} in ${f.ms} ms; replay: npm run fuzz -- --seed ${f.seed} --first ${f.index} --cases 1`,
            `    ${f.request.method} ${f.request.url.slice(0, 300)}${f.request.body !== undefined ? ` body(${f.request.body.length}): ${f.request.body.slice(0, 300)}` : ''}`,
            `    ${f.request.note.slice(0, 300)}`,
            `    ${f.detail.replace(/\n/g, '\n    ').slice(0, 1500)}`,
        ].join('\n')),
    ];
    return lines.join('\n');
}
