/**
 * `/metrics` (Prometheus text), request ids and JSON logs of the HTTP layer, on a real server over a
 * SQLite index on loopback; the PostgreSQL pool gauges when TEST_PG_URL is set.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { Address, beginCell, Cell, external, storeMessage } from '@ton/core';
import { buildServer } from '../../src/api/server.ts';
import { startService, type RunningService } from '../../src/app.ts';
import { ConfigError, DEFAULT_CONFIG, loadConfig } from '../../src/config/config.ts';
import { EmulationService } from '../../src/emulation/emulation-service.ts';
import { openStore, type Store } from '../../src/store/store.ts';
import { ServiceMetrics } from '../../src/observability/metrics.ts';
import { request } from '../helpers/http.ts';
import { parseMetrics, sampleValue, scrape, type Sample } from '../helpers/prometheus.ts';
import { createTestDatabase, tempDir } from '../helpers/stores.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

function requestCount(samples: Sample[], operation: string, status: number, method = 'GET'): number {
    return sampleValue(samples, 'http_request_duration_seconds_count', { operation, method, status: String(status) }) ?? 0;
}

describe('observability of the HTTP layer', () => {
    const dir = tempDir();
    let store: Store;
    let app: FastifyInstance;
    let root: string;
    const logLines: string[] = [];

    before(async () => {
        store = await openStore({ dataDir: dir.path });
        const emulation = new EmulationService(store.db, { maxTransactions: 100, timeBudgetMs: 10_000 });
        app = await buildServer({ store, chain: { source: 'none', live: false, head: async () => null }, emulation }, {
            logLevel: 'info', logRequests: true, logStream: { write: line => logLines.push(line) },
        });
        root = (await app.listen({ host: '127.0.0.1', port: 0 })).replace(/\/$/, '');
    });

    after(async () => {
        await app?.close();
        await store?.close();
        dir.remove();
    });

    it('serves /metrics as Prometheus text with the process metrics', async () => {
        const response = await request(`${root}/metrics`);
        assert.equal(response.status, 200);
        assert.equal(response.headers.get('content-type'), 'text/plain; version=0.0.4; charset=utf-8');
        const samples = parseMetrics(response.text);
        assert.ok(sampleValue(samples, 'process_cpu_user_seconds_total')! >= 0);
        assert.ok(sampleValue(samples, 'nodejs_heap_size_used_bytes')! > 0);
        assert.match(response.text, /^# TYPE http_request_duration_seconds histogram$/m);
    });

    it('counts each request under its operationId and status code, not its URL', async () => {
        const before = await scrape(root);
        for (let i = 0; i < 3; i++) assert.equal((await request(`${root}/v2/status`)).status, 200);
        const badBlock = await request(`${root}/v2/blockchain/blocks/${encodeURIComponent('(-1,zz,1)')}/transactions`);
        assert.equal(badBlock.status, 400);
        const missing = await request(`${root}/v2/no-such-thing/${Math.random()}`);
        assert.equal(missing.status, 404);
        const wrongMethod = await request(`${root}/v2/status`, { method: 'DELETE' });
        assert.equal(wrongMethod.status, 405);
        const after = await scrape(root);

        assert.equal(requestCount(after, 'getStatus', 200) - requestCount(before, 'getStatus', 200), 3);
        assert.equal(requestCount(after, 'getBlockchainBlockTransactions', 400) - requestCount(before, 'getBlockchainBlockTransactions', 400), 1);
        assert.equal(requestCount(after, 'unmatched', 404) - requestCount(before, 'unmatched', 404), 1);
        assert.equal(requestCount(after, 'unmatched', 405, 'DELETE') - requestCount(before, 'unmatched', 405, 'DELETE'), 1);
        // The first scrape is itself counted under its route.
        assert.ok(requestCount(after, '/metrics', 200) >= 1);
        // A histogram: the buckets of a series are cumulative and the last one holds every request.
        const buckets = after.filter(s => s.name === 'http_request_duration_seconds_bucket' && s.labels.operation === 'getStatus' && s.labels.status === '200');
        assert.ok(buckets.length > 5);
        for (let i = 1; i < buckets.length; i++) assert.ok(buckets[i].value >= buckets[i - 1].value);
        assert.equal(buckets.at(-1)!.labels.le, '+Inf');
        assert.equal(buckets.at(-1)!.value, requestCount(after, 'getStatus', 200));
        // No series is labelled with a raw URL.
        assert.ok(!after.some(s => s.labels.operation?.includes('no-such-thing')));
    });

    it('counts emulation requests by endpoint and outcome', async () => {
        const before = await scrape(root);
        const notABoc = await request(`${root}/v2/wallet/emulate`, { method: 'POST', json: { boc: 'te6cc' } });
        assert.equal(notABoc.status, 400);
        const noBody = await request(`${root}/v2/wallet/emulate`, { method: 'POST', json: {} });
        assert.equal(noBody.status, 400);
        const toNowhere = beginCell().store(storeMessage(external({ to: new Address(0, Buffer.alloc(32, 7)), body: Cell.EMPTY }))).endCell();
        const unknownWallet = await request(`${root}/v2/wallet/emulate`, { method: 'POST', json: { boc: toNowhere.toBoc().toString('base64') } });
        // An EmulationFailure of kind invalid_input (also a 400): labelled with its kind.
        assert.equal(unknownWallet.status, 400);
        assert.match(unknownWallet.body.error, /has no code/);
        const after = await scrape(root);
        const emulations = (samples: Sample[]) => samples.filter(s => s.name === 'emulations_total' && s.labels.endpoint === 'emulateMessageToWallet')
            .reduce((sum, s) => sum + s.value, 0);
        assert.equal(emulations(after) - emulations(before), 3);
        const outcome = (samples: Sample[], name: string) => sampleValue(samples, 'emulations_total', { endpoint: 'emulateMessageToWallet', outcome: name }) ?? 0;
        // A body that is no BOC or has none is rejected before an emulation runs.
        assert.equal(outcome(after, 'invalid_request') - outcome(before, 'invalid_request'), 2);
        assert.equal(outcome(after, 'invalid_input') - outcome(before, 'invalid_input'), 1);
        assert.equal(sampleValue(after, 'emulations_total', { endpoint: 'emulateMessageToWallet', outcome: 'ok' }), undefined);
    });

    it('has no pool gauges on SQLite (one connection)', async () => {
        const samples = await scrape(root);
        assert.ok(!samples.some(s => s.name.startsWith('db_pool_')));
    });

    it('is not in the OpenAPI document', async () => {
        const document = (await request(`${root}/v2/openapi.json`)).body;
        assert.ok(document.paths['/v2/status']);
        assert.ok(!Object.keys(document.paths).some(path => path.includes('metrics')));
        const swagger = (await request(`${root}/docs/json`)).body;
        assert.ok(!Object.keys(swagger.paths).some(path => path.includes('metrics')));
    });

    it('echoes a sane x-request-id, and gives a new id to requests without one or with an unusable one', async () => {
        const given = await request(`${root}/v2/status`, { headers: { 'x-request-id': 'client-42.a:b' } });
        assert.equal(given.headers.get('x-request-id'), 'client-42.a:b');
        const first = (await request(`${root}/v2/status`)).headers.get('x-request-id')!;
        const second = (await request(`${root}/v2/status`)).headers.get('x-request-id')!;
        assert.match(first, UUID);
        assert.match(second, UUID);
        assert.notEqual(first, second);
        for (const bad of ['has space', 'x'.repeat(129), 'semi;colon']) {
            const response = await request(`${root}/v2/status`, { headers: { 'x-request-id': bad } });
            assert.match(response.headers.get('x-request-id')!, UUID, bad);
        }
        // Errors carry it too, including a 404 no route matched.
        const missing = await request(`${root}/v2/nothing`, { headers: { 'x-request-id': 'trace-404' } });
        assert.equal(missing.status, 404);
        assert.equal(missing.headers.get('x-request-id'), 'trace-404');
    });

    it('writes one JSON log line per request and response, with the request id', async () => {
        const id = `log-test-${process.pid}`;
        await request(`${root}/v2/status`, { headers: { 'x-request-id': id } });
        const lines = logLines.map(line => JSON.parse(line) as Record<string, any>);
        const mine = lines.filter(line => line.reqId === id);
        assert.deepEqual(mine.map(line => line.msg), ['incoming request', 'request completed']);
        assert.equal(mine[0].level, 30);
        assert.equal(mine[0].req.url, '/v2/status');
        assert.equal(mine[1].res.statusCode, 200);
        assert.equal(typeof mine[1].responseTime, 'number');
    });
});

describe('transaction texts that could not be made at ingest', () => {
    it('are counted in ingest_render_failures_total, and the first is logged with its reason', async () => {
        const metrics = new ServiceMetrics();
        const lines: string[] = [];
        const failures = (n: number) => Array.from({ length: n }, (_, i) => `${String(i).padStart(64, '0')}: Cannot read properties of undefined`);
        metrics.countRenderFailures('(0,8000000000000000,7)', failures(2), line => lines.push(line));
        metrics.countRenderFailures('(0,8000000000000000,9)', failures(3), line => lines.push(line));
        assert.equal(sampleValue(parseMetrics(await metrics.text()), 'ingest_render_failures_total', {}), 5);
        assert.equal(lines.length, 1, 'logged once, then counted');
        assert.match(lines[0], /block \(0,8000000000000000,7\): 2 transaction text\(s\) could not be made, first 0{64}: Cannot read properties of undefined/);
    });
});

describe('log levels', () => {
    it('at warn, requests write no lines; at silent, nothing is written', async () => {
        const dir = tempDir();
        const store = await openStore({ dataDir: dir.path });
        try {
            for (const level of ['warn', 'silent'] as const) {
                const lines: string[] = [];
                const app = await buildServer({ store, chain: { source: 'none', live: false, head: async () => null } }, { logLevel: level, logStream: { write: line => lines.push(line) } });
                const root = (await app.listen({ host: '127.0.0.1', port: 0 })).replace(/\/$/, '');
                await request(`${root}/v2/status`);
                app.log.warn('a warning');
                await app.close();
                assert.deepEqual(lines.map(line => JSON.parse(line).msg), level === 'warn' ? ['a warning'] : [], level);
            }
        } finally {
            await store.close();
            dir.remove();
        }
    });

    it('a running service writes JSON lines to the stream it is given, at the configured level', async () => {
        const dir = tempDir();
        const lines: string[] = [];
        const plain: Array<[string, string]> = [];
        const service = await startService({ ...DEFAULT_CONFIG, source: 'none', dataDir: dir.path, port: 0, logLevel: 'debug' },
            { logStream: { write: line => lines.push(line) }, log: (line, level) => plain.push([line, level]) });
        try {
            await request(`${service.url.replace(/\/$/, '')}/v2/status`);
            const parsed = lines.map(line => JSON.parse(line) as Record<string, any>);
            assert.ok(parsed.some(line => /^Server listening at http:\/\/127\.0\.0\.1:\d+$/.test(line.msg)));
            // debug turns request lines on without --log
            assert.ok(parsed.some(line => line.msg === 'request completed' && line.res.statusCode === 200));
        } finally {
            await service.stop();
            dir.remove();
        }
        assert.deepEqual(plain, []);
    });
});

describe('settings', () => {
    it('--log-level takes the pino levels (also LOG_LEVEL), default info; --log stays the per-request switch', () => {
        assert.equal(loadConfig([], {}).config.logLevel, 'info');
        assert.equal(loadConfig(['--log-level', 'debug'], {}).config.logLevel, 'debug');
        assert.equal(loadConfig(['--log-level=silent'], {}).config.logLevel, 'silent');
        assert.equal(loadConfig([], { LOG_LEVEL: 'warn' }).config.logLevel, 'warn');
        assert.throws(() => loadConfig(['--log-level', 'verbose'], {}), (error: Error) => error instanceof ConfigError && /fatal, error, warn, info, debug, trace, silent/.test(error.message));
        const { config } = loadConfig(['--log'], {});
        assert.equal(config.logRequests, true);
        assert.equal(config.logLevel, 'info');
    });

    it('--shutdown-timeout-ms bounds the drain (default 10 s)', () => {
        assert.equal(loadConfig([], {}).config.shutdownTimeoutMs, 10_000);
        assert.equal(loadConfig(['--shutdown-timeout-ms', '2500'], {}).config.shutdownTimeoutMs, 2500);
        assert.equal(loadConfig([], { SHUTDOWN_TIMEOUT_MS: '0' }).config.shutdownTimeoutMs, 0);
        assert.throws(() => loadConfig(['--shutdown-timeout-ms', '-1'], {}), ConfigError);
    });
});

const PG_URL = process.env.TEST_PG_URL;

describe('PostgreSQL pool gauges', { skip: PG_URL ? false : 'TEST_PG_URL is not set' }, () => {
    let database: Awaited<ReturnType<typeof createTestDatabase>>;
    let service: RunningService;
    let root: string;
    const dir = tempDir();

    before(async () => {
        database = await createTestDatabase(PG_URL!);
        service = await startService({ ...DEFAULT_CONFIG, source: 'none', dataDir: dir.path, databaseUrl: database.url, port: 0 });
        root = service.url.replace(/\/$/, '');
    });

    after(async () => {
        await service?.stop();
        await database?.drop();
        dir.remove();
    });

    it('report the connections in use, idle and the queries waiting for one', async () => {
        const first = await scrape(root);
        assert.equal(sampleValue(first, 'db_pool_max_connections'), 10);
        // 12 slow queries on a pool of 10: all connections busy, 2 queries waiting.
        const release = sql`select pg_sleep(1.5)`;
        const slow = Promise.all(Array.from({ length: 12 }, () => release.execute(service.store.db)));
        let busy: Sample[] = [];
        for (let attempt = 0; attempt < 200; attempt++) {
            busy = await scrape(root);
            if (sampleValue(busy, 'db_pool_connections') === 10 && sampleValue(busy, 'db_pool_idle_connections') === 0 && sampleValue(busy, 'db_pool_waiting_queries')! >= 2) break;
            await new Promise(resolve => setTimeout(resolve, 10));
        }
        assert.equal(sampleValue(busy, 'db_pool_connections'), 10);
        assert.equal(sampleValue(busy, 'db_pool_idle_connections'), 0);
        assert.equal(sampleValue(busy, 'db_pool_waiting_queries'), 2);
        await slow;
        const done = await scrape(root);
        assert.equal(sampleValue(done, 'db_pool_waiting_queries'), 0);
        assert.equal(sampleValue(done, 'db_pool_connections'), 10);
        // Every connection goes back to idle. A scrape's own collectors query the index concurrently with the
        // reading of the pool gauges, so one scrape may still see its own query's connection in use.
        let idle: number | undefined;
        for (let attempt = 0; attempt < 50 && idle !== 10; attempt++) idle = sampleValue(await scrape(root), 'db_pool_idle_connections');
        assert.equal(idle, 10);
    });
});
