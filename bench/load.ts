import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';

/** One request of a load row. */
export interface LoadRequest {
    method: 'GET' | 'POST';
    path: string;
    body?: string;
    headers?: Record<string, string>;
}

/** What a load row measured: latency percentiles in ms, requests a second, answers not 2xx, mean answer bytes (headers included). */
export interface LoadResult {
    p50: number;
    p99: number;
    rps: number;
    non2xx: number;
    /** Connection, read, write and time-out errors (autocannon: errors and time-outs). */
    errors: number;
    meanBytes: number;
    generator: LoadGenerator;
}

export type LoadGenerator = 'wrk' | 'autocannon';

let chosen: LoadGenerator | undefined;

/**
 * The load generator of this run: BENCH_LOAD (`wrk` or `autocannon`), else wrk when it is on the
 * PATH (`apt-get install wrk`), else autocannon. Both run in a process of their own beside the
 * server's; wrk (C, epoll) takes a fraction of autocannon's CPU for the same requests, which on two
 * cores shared with the server is a good part of a row's tail (a bare server's 1.4 MB answers at ten
 * connections: p99 91 ms measured with autocannon, 12.7 ms with wrk).
 */
export function loadGenerator(): LoadGenerator {
    if (chosen) return chosen;
    const asked = process.env.BENCH_LOAD;
    if (asked !== undefined && asked !== 'wrk' && asked !== 'autocannon') throw new Error(`BENCH_LOAD is wrk or autocannon, not ${asked}`);
    const hasWrk = spawnSync('wrk', ['--version'], { stdio: 'ignore' }).error === undefined;
    if (asked === 'wrk' && !hasWrk) throw new Error('BENCH_LOAD=wrk, but wrk is not on the PATH (apt-get install wrk)');
    chosen = asked ?? (hasWrk ? 'wrk' : 'autocannon');
    return chosen;
}

/** How many requests a row prepares for wrk, which replays them in turn: bodies are kept smaller in number, they are large. */
const PREPARED_REQUESTS = 20_000;
const PREPARED_WITH_BODY = 2_000;

/**
 * `connections` connections kept busy for `seconds` against `base`, each request taken from `next`;
 * with wrk, a prepared list of them replayed in turn (`next` is called up to 20,000 times first).
 */
export async function loadRow(base: string, connections: number, next: () => LoadRequest, seconds = 10, generator = loadGenerator()): Promise<LoadResult> {
    return generator === 'wrk' ? await wrkRow(base, connections, next, seconds) : await autocannonRow(base, connections, next, seconds);
}

async function autocannonRow(base: string, connections: number, next: () => LoadRequest, seconds: number): Promise<LoadResult> {
    const result = await autocannon({ url: base, connections, duration: seconds, requests: [{ setupRequest: req => ({ ...req, ...next() }) }] });
    return {
        p50: result.latency.p50,
        p99: result.latency.p99,
        rps: result.requests.average,
        non2xx: result.non2xx,
        errors: result.errors + result.timeouts,
        meanBytes: Math.round(result.throughput.total / Math.max(1, result.requests.total)),
        generator: 'autocannon',
    };
}

/** The Lua script wrk runs: the prepared requests, read from a file of length-prefixed records, replayed in turn; a summary line at the end. */
const WRK_SCRIPT = `
local requests = {}
local index = 0
init = function(args)
  local file = assert(io.open(args[1], "rb"))
  local data = file:read("*a")
  file:close()
  local at = 1
  while at <= #data do
    local size_end = data:find("\\n", at, true)
    local size = tonumber(data:sub(at, size_end - 1))
    requests[#requests + 1] = data:sub(size_end + 1, size_end + size)
    at = size_end + size + 1
  end
end
request = function()
  index = index % #requests + 1
  return requests[index]
end
done = function(summary, latency, requests)
  local e = summary.errors
  io.write(string.format("WRK_RESULT %d %d %d %d %d %.3f %.3f\\n",
    summary.requests, summary.duration, summary.bytes, e.status, e.connect + e.read + e.write + e.timeout,
    latency:percentile(50) / 1000, latency:percentile(99) / 1000))
end
`;

async function wrkRow(base: string, connections: number, next: () => LoadRequest, seconds: number): Promise<LoadResult> {
    const url = new URL(base);
    const first = next();
    const count = first.body === undefined ? PREPARED_REQUESTS : PREPARED_WITH_BODY;
    const parts: Buffer[] = [];
    for (let i = 0; i < count; i++) {
        const request = wrkRequest(url.host, i === 0 ? first : next());
        parts.push(Buffer.from(`${request.length}\n`), request);
    }
    const dir = mkdtempSync(join(tmpdir(), 'bench-wrk-'));
    try {
        writeFileSync(join(dir, 'requests'), Buffer.concat(parts));
        writeFileSync(join(dir, 'replay.lua'), WRK_SCRIPT);
        // One thread: ten connections are far from what one wrk thread can drive, and a second would take the server's core.
        const out = await run('wrk', ['-t1', `-c${connections}`, `-d${seconds}s`, '--timeout', '10s', '-s', join(dir, 'replay.lua'), `${url.origin}/`, '--', join(dir, 'requests')]);
        const line = /WRK_RESULT (\d+) (\d+) (\d+) (\d+) (\d+) ([\d.]+) ([\d.]+)/.exec(out);
        if (!line) throw new Error(`wrk printed no result:\n${out}`);
        const [requests, durationUs, bytes, non2xx, errors] = line.slice(1, 6).map(Number);
        return {
            p50: Number(line[6]),
            p99: Number(line[7]),
            rps: requests / (durationUs / 1e6),
            non2xx,
            errors,
            meanBytes: Math.round(bytes / Math.max(1, requests)),
            generator: 'wrk',
        };
    } finally {
        rmSync(dir, { recursive: true, force: true });
    }
}

/** A request as wrk sends it: HTTP/1.1, kept alive. */
function wrkRequest(host: string, request: LoadRequest): Buffer {
    const body = request.body === undefined ? undefined : Buffer.from(request.body);
    const headers: Record<string, string> = { host, ...(request.headers ?? {}) };
    if (body) headers['content-length'] = String(body.length);
    const head = `${request.method} ${request.path} HTTP/1.1\r\n${Object.entries(headers).map(([k, v]) => `${k}: ${v}\r\n`).join('')}\r\n`;
    return body ? Buffer.concat([Buffer.from(head), body]) : Buffer.from(head);
}

function run(command: string, args: string[]): Promise<string> {
    return new Promise((resolve, reject) => {
        const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'] });
        let out = '';
        child.stdout.on('data', chunk => { out += chunk; });
        child.stderr.on('data', chunk => { out += chunk; });
        child.on('error', reject);
        child.on('exit', code => (code === 0 ? resolve(out) : reject(new Error(`${command} exited with ${code}:\n${out}`))));
    });
}

/** The row's figures as the load tables print them: p50 and p99 in ms, requests a second, non-2xx. */
export function loadCells(result: LoadResult): string {
    // wrk gives percentiles in µs, autocannon in whole ms.
    const ms = (v: number) => (result.generator === 'wrk' ? v.toFixed(1) : String(v));
    const failed = result.errors > 0 ? ` (+${result.errors} errors)` : '';
    return `${ms(result.p50)} | ${ms(result.p99)} | ${result.rps.toFixed(0)} | ${result.non2xx}${failed}`;
}
