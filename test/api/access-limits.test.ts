import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { beginCell } from '@ton/core';
import type { FastifyInstance } from 'fastify';
import { Redis } from 'ioredis';
import { buildServer, type ServerOptions } from '../../src/api/server.ts';
import type { ApiServices } from '../../src/api/services.ts';
import { ApiKeyRing, readApiKeysFile } from '../../src/api/access/api-keys.ts';
import { reloadApiKeys } from '../../src/api/access/keys-reload.ts';
import { loadApiKeyRing, reloadKeysWhileServing } from '../../src/api/access/service-access.ts';
import { anonymousRps, ConfigError, DEVNET_ANON_RPS, loadConfig, PUBLIC_ANON_RPS } from '../../src/config/config.ts';
import { EmulationFailure } from '../../src/emulation/errors.ts';
import { request, type HttpResult } from '../helpers/http.ts';
import { storeBackends, tempDir } from '../helpers/stores.ts';
import { assertError, call, eventually } from './api-call.ts';

const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
/** Long counting windows: every budget below is spent well inside one window, however slow the machine. */
const WINDOW_MS = 60_000;
const perWindow = (rps: number) => rps * WINDOW_MS / 1000;

let store: Awaited<ReturnType<ReturnType<typeof storeBackends>[number]['open']>>;
const dir = tempDir('native-explorer-access-');
const servers: FastifyInstance[] = [];

before(async () => {
    store = await storeBackends()[0].open();
});

after(async () => {
    for (const server of servers) await server.close();
    await store?.dispose();
    dir.remove();
});

function services(overrides: Partial<ApiServices> = {}): ApiServices {
    return { store, chain: { source: 'none', live: false, head: async () => null }, ...overrides };
}

async function serve(options: ServerOptions, overrides: Partial<ApiServices> = {}, beforeListen?: (app: FastifyInstance) => void): Promise<{ app: FastifyInstance; root: string; base: string }> {
    const app = await buildServer(services(overrides), options);
    servers.push(app);
    beforeListen?.(app);
    const root = (await app.listen({ host: '127.0.0.1', port: 0 })).replace(/\/$/, '');
    return { app, root, base: `${root}/v2` };
}

function keysFile(name: string, keys: unknown): string {
    const path = join(dir.path, name);
    writeFileSync(path, typeof keys === 'string' ? keys : JSON.stringify(keys));
    return path;
}

const status = (base: string, headers: Record<string, string> = {}) => call('getStatus', `${base}/status`, { headers });

/** Requests until the first 429 (at most `cap` + 1 of them); how many got through, and the 429. */
async function spend(base: string, headers: Record<string, string>, cap: number): Promise<{ allowed: number; refused: HttpResult }> {
    for (let allowed = 0; allowed <= cap; allowed++) {
        const response = await status(base, headers);
        if (response.status === 429) return { allowed, refused: response };
        assert.equal(response.status, 200, response.text);
    }
    assert.fail(`no 429 after ${cap + 1} requests`);
}

function assertRateLimited(refused: HttpResult, limit: number, ...fragments: string[]): void {
    assertError(refused, 429, 'too many requests', ...fragments);
    const retryAfter = Number(refused.headers.get('retry-after'));
    assert.ok(Number.isInteger(retryAfter) && retryAfter >= 1 && retryAfter <= WINDOW_MS / 1000, `Retry-After ${refused.headers.get('retry-after')}`);
    assert.equal(refused.headers.get('x-ratelimit-limit'), String(limit));
    assert.equal(refused.headers.get('x-ratelimit-remaining'), '0');
}

const ALPHA = { key: 'alpha-0123456789abcdef', name: 'alpha', rps: 1 };
const BETA = { key: 'beta-fedcba9876543210', name: 'beta', rps: 2 };
const bearer = (key: string) => ({ authorization: `Bearer ${key}` });

describe('API keys and rate limits (in memory)', () => {
    it('gives each key its own budget from the keys file, and anonymous clients theirs', async () => {
        const keys = new ApiKeyRing(readApiKeysFile(keysFile('two-keys.json', [ALPHA, BETA])));
        const { base } = await serve({ access: { keys, anonRps: 3, windowMs: WINDOW_MS } });

        const alpha = await spend(base, bearer(ALPHA.key), perWindow(BETA.rps));
        assert.equal(alpha.allowed, perWindow(ALPHA.rps));
        assertRateLimited(alpha.refused, perWindow(ALPHA.rps), "API key 'alpha'", 'retry after');

        // alpha's budget is spent; beta and anonymous clients still have theirs, each of its own size.
        const beta = await spend(base, bearer(BETA.key), perWindow(3));
        assert.equal(beta.allowed, perWindow(BETA.rps));
        assertRateLimited(beta.refused, perWindow(BETA.rps), "API key 'beta'");

        const anonymous = await spend(base, {}, perWindow(4));
        assert.equal(anonymous.allowed, perWindow(3));
        assertRateLimited(anonymous.refused, perWindow(3), 'without an API key', 'Authorization: Bearer');
    });

    it('answers an unknown or malformed key with 401, whatever the budget', async () => {
        const keys = new ApiKeyRing([ALPHA]);
        const { base } = await serve({ access: { keys, anonRps: 1000, windowMs: WINDOW_MS } });
        for (const header of [`Bearer not-a-key`, `Bearer ${ALPHA.key}x`, `Basic ${Buffer.from('a:b').toString('base64')}`, 'Bearer', `Bearer ${ALPHA.key} extra`]) {
            const response = await status(base, { authorization: header });
            assertError(response, 401, 'Authorization');
            assert.equal(response.headers.get('www-authenticate'), 'Bearer', header);
        }
        const unknown = await status(base, bearer('not-a-key'));
        assertError(unknown, 401, 'unknown API key');
        // The scheme name is case-insensitive (RFC 7235); the key is not.
        assert.equal((await status(base, { authorization: `bearer ${ALPHA.key}` })).status, 200);
        assertError(await status(base, bearer(ALPHA.key.toUpperCase())), 401);
        assert.equal((await status(base)).status, 200);
    });

    it('requires a key when --anon-rps is 0', async () => {
        const { base } = await serve({ access: { keys: new ApiKeyRing([ALPHA]), anonRps: 0, windowMs: WINDOW_MS } });
        const anonymous = await status(base);
        assertError(anonymous, 401, 'requires an API key', 'Authorization: Bearer');
        assert.equal((await status(base, bearer(ALPHA.key))).status, 200);
    });

    it('does not limit or check keys on /metrics and /docs', async () => {
        const { root, base } = await serve({ access: { keys: new ApiKeyRing([ALPHA]), anonRps: 1, windowMs: WINDOW_MS } });
        const spent = await spend(base, {}, perWindow(2));
        assert.equal(spent.allowed, perWindow(1));
        for (let i = 0; i < 3; i++) {
            const metrics = await request(`${root}/metrics`, { headers: bearer('not-a-key') });
            assert.equal(metrics.status, 200, metrics.text);
            assert.equal(metrics.headers.get('x-ratelimit-limit'), null);
            const docs = await request(`${root}/docs/json`);
            assert.equal(docs.status, 200);
        }
        // The API itself stays limited.
        assert.equal((await status(base)).status, 429);
    });

    it('counts anonymous clients by the address a trusted proxy names, and only then', async () => {
        const forwarded = (address: string) => ({ 'x-forwarded-for': address });
        const behindProxy = await serve({ trustProxy: ['127.0.0.1'], access: { keys: null, anonRps: 1, windowMs: WINDOW_MS } });
        const first = await spend(behindProxy.base, forwarded('203.0.113.7'), perWindow(2));
        assert.equal(first.allowed, perWindow(1));
        assertRateLimited(first.refused, perWindow(1), '203.0.113.7');
        assert.equal((await status(behindProxy.base, forwarded('203.0.113.8'))).status, 200);
        // A hop count trusts that many proxies in front of the server.
        const oneHop = await serve({ trustProxy: 1, access: { keys: null, anonRps: 1, windowMs: WINDOW_MS } });
        assert.equal((await spend(oneHop.base, forwarded('198.51.100.1'), perWindow(2))).allowed, perWindow(1));
        assert.equal((await status(oneHop.base, forwarded('198.51.100.2'))).status, 200);

        // Without trusted proxies the header names nobody: a client cannot pose as another to dodge its limit.
        const direct = await serve({ access: { keys: null, anonRps: 1, windowMs: WINDOW_MS } });
        const spent = await spend(direct.base, forwarded('203.0.113.7'), perWindow(2));
        assert.equal(spent.allowed, perWindow(1));
        assertRateLimited(await status(direct.base, forwarded('203.0.113.8')), perWindow(1), '127.0.0.1');
    });

    it('without a keys file ignores the Authorization header (clients of other explorers send theirs)', async () => {
        const { base } = await serve({ access: { keys: null, anonRps: 1000, windowMs: WINDOW_MS } });
        assert.equal((await status(base, bearer('someone-elses-token'))).status, 200);
    });
});

describe('API keys file', () => {
    it('reload picks up a changed file; a bad file keeps the keys in force and says why', async () => {
        const path = keysFile('reloaded.json', [ALPHA]);
        const ring = new ApiKeyRing(readApiKeysFile(path));
        const { base } = await serve({ access: { keys: ring, anonRps: 1000, windowMs: WINDOW_MS } });
        assert.equal((await status(base, bearer(ALPHA.key))).status, 200);
        assertError(await status(base, bearer(BETA.key)), 401);

        const lines: string[] = [];
        keysFile('reloaded.json', [BETA]);
        assert.equal(reloadApiKeys(ring, path, line => lines.push(line)), true);
        assert.equal((await status(base, bearer(BETA.key))).status, 200);
        assertError(await status(base, bearer(ALPHA.key)), 401, 'unknown API key');

        keysFile('reloaded.json', '[{"key": "gamma-1", "name": "gamma", "rps": 0}]');
        assert.equal(reloadApiKeys(ring, path, line => lines.push(line)), false);
        assert.match(lines.at(-1)!, /not reloaded.*previous 1 key.*rps must be an integer/);
        assert.equal((await status(base, bearer(BETA.key))).status, 200);
    });

    it('SIGHUP reloads the file of a running server, until the server closes', async () => {
        const path = keysFile('sighup.json', [ALPHA]);
        const ring = loadApiKeyRing({ apiKeys: path })!;
        const listenersBefore = process.listenerCount('SIGHUP');
        const lines: string[] = [];
        const { app, base } = await serve({ access: { keys: ring, anonRps: 1000, windowMs: WINDOW_MS } }, {}, server => reloadKeysWhileServing(server, ring, path, line => lines.push(line)));
        assert.equal(process.listenerCount('SIGHUP'), listenersBefore + 1);

        keysFile('sighup.json', [ALPHA, BETA]);
        process.kill(process.pid, 'SIGHUP');
        await eventually('the keys to be reloaded', async () => (lines.length > 0 ? true : undefined));
        assert.match(lines[0], /reloaded .*2 key/);
        assert.equal((await status(base, bearer(BETA.key))).status, 200);

        await app.close();
        assert.equal(process.listenerCount('SIGHUP'), listenersBefore);
    });

    it('a bad file at start is a configuration error naming the file and the problem', () => {
        const cases: Array<[unknown, RegExp]> = [
            ['{"key": "x"', /not valid JSON/],
            [{ key: 'x', name: 'x', rps: 1 }, /JSON list/],
            [[{ key: 'x', rps: 1 }], /entry 0: name must be/],
            [[{ key: 'has space', name: 'a', rps: 1 }], /entry 0: key must be/],
            [[{ key: 'k1', name: 'a', rps: 1.5 }], /entry 0 \(a\): rps must be an integer/],
            [[{ key: 'k1', name: 'a', rps: 1 }, { key: 'k1', name: 'b', rps: 1 }], /entry 1 \(b\): the same key appears twice/],
            [[{ key: 'k1', name: 'a', rps: 1 }, { key: 'k2', name: 'a', rps: 1 }], /entry 1: the name 'a' appears twice/],
            [[{ key: 'k1', name: 'a', rps: 1, limit: 3 }], /unknown field\(s\) limit/],
        ];
        for (const [content, message] of cases) {
            const path = keysFile('bad.json', content);
            assert.throws(() => loadApiKeyRing({ apiKeys: path }), (error: Error) => {
                assert.ok(error instanceof ConfigError, error.message);
                assert.ok(error.message.includes(path), error.message);
                assert.match(error.message, message);
                return true;
            });
        }
        assert.throws(() => loadApiKeyRing({ apiKeys: join(dir.path, 'missing.json') }), /--api-keys: cannot read API keys file .*missing\.json/);
        assert.equal(loadApiKeyRing({ apiKeys: '' }), null);
    });

    it('reads the access settings from flags, with anonymous limits by source', () => {
        const { config } = loadConfig(['--api-keys', 'keys.json', '--anon-rps', '0', '--redis', REDIS_URL, '--cors-origins', 'https://a.example, http://localhost:3000', '--request-timeout-ms', '5000'], {});
        assert.ok(config.apiKeys.endsWith('/keys.json'));
        assert.equal(config.anonRps, 0);
        assert.equal(config.redisUrl, REDIS_URL);
        assert.deepEqual(config.corsOrigins, ['https://a.example', 'http://localhost:3000']);
        assert.equal(config.requestTimeoutMs, 5000);
        assert.deepEqual(loadConfig(['--trust-proxy', '127.0.0.1, 10.0.0.0/8'], {}).config.trustProxy, ['127.0.0.1', '10.0.0.0/8']);
        assert.equal(loadConfig(['--trust-proxy', '2'], {}).config.trustProxy, 2);
        assert.throws(() => loadConfig(['--trust-proxy', 'proxy.example'], {}), /not an IP address or CIDR/);
        assert.equal(anonymousRps(loadConfig([], {}).config), DEVNET_ANON_RPS);
        assert.equal(anonymousRps(loadConfig(['--source', 'none'], {}).config), PUBLIC_ANON_RPS);
        assert.equal(anonymousRps(loadConfig(['--source', 'none', '--anon-rps', '50'], {}).config), 50);
        assert.ok(PUBLIC_ANON_RPS < DEVNET_ANON_RPS);
        assert.throws(() => loadConfig(['--cors-origins', 'https://a.example/path'], {}), /not an origin/);
        assert.throws(() => loadConfig(['--redis', '127.0.0.1:6379'], {}), /redis:\/\//);
        assert.throws(() => loadConfig(['--anon-rps', '-1'], {}), /anon-rps must be an integer/);
    });
});

describe('rate limits shared through Redis', () => {
    const prefix = `native-explorer-test:${process.pid}:${Date.now()}:`;
    let redis: Redis;

    before(async () => {
        redis = new Redis(REDIS_URL);
    });

    after(async () => {
        const keys = await redis.keys(`${prefix}*`);
        if (keys.length > 0) await redis.del(...keys);
        redis.disconnect();
    });

    it('two API servers on one Redis share each budget', async () => {
        const shared = { keys: new ApiKeyRing([ALPHA]), anonRps: 1, windowMs: WINDOW_MS, redisUrl: REDIS_URL, redisPrefix: prefix };
        const one = await serve({ access: shared });
        const two = await serve({ access: shared });
        // Alternating between the servers: together they let the budget of one through, no more.
        for (const headers of [{}, bearer(ALPHA.key)]) {
            let allowed = 0;
            const refused: HttpResult[] = [];
            for (let i = 0; refused.length < 2; i++) {
                assert.ok(i <= perWindow(1) + 2, 'the servers kept answering past the shared budget');
                const response = await status(i % 2 === 0 ? one.base : two.base, headers);
                if (response.status === 200) allowed++;
                else refused.push(response);
            }
            assert.equal(allowed, perWindow(1));
            for (const response of refused) assertRateLimited(response, perWindow(1));
        }
        assert.ok((await redis.keys(`${prefix}*`)).length >= 2, 'the counters live in Redis under the test prefix');
    });

    it('serves unlimited while Redis is unreachable, and logs it', async () => {
        const port = await unusedPort();
        const lines: string[] = [];
        const { base } = await serve({ access: { keys: null, anonRps: 1, windowMs: WINDOW_MS, redisUrl: `redis://127.0.0.1:${port}`, redisPrefix: prefix, log: line => lines.push(line) } });
        for (let i = 0; i < perWindow(1) + 5; i++) assert.equal((await status(base)).status, 200);
        assert.ok(lines.some(line => /Redis at redis:\/\/127\.0\.0\.1:\d+\/? is unavailable/.test(line) && line.includes('not limited')), lines.join('\n'));
    });
});

describe('CORS', () => {
    const preflight = (url: string, origin: string) => request(url, {
        method: 'OPTIONS',
        headers: { origin, 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type, authorization' },
    });

    it('allows the listed origins only, on answers of every kind', async () => {
        const good = 'https://explorer.example';
        const { base } = await serve({ corsOrigins: [good, 'http://localhost:3000'], access: { keys: new ApiKeyRing([ALPHA]), anonRps: 1, windowMs: WINDOW_MS } });

        const allowed = await preflight(`${base}/wallet/emulate`, good);
        assert.equal(allowed.status, 204);
        assert.equal(allowed.text, '');
        assert.equal(allowed.headers.get('access-control-allow-origin'), good);
        assert.match(allowed.headers.get('access-control-allow-methods') ?? '', /\bPOST\b/);
        assert.match(allowed.headers.get('access-control-allow-headers') ?? '', /authorization/i);
        assert.match(allowed.headers.get('vary') ?? '', /origin/i);
        const refused = await preflight(`${base}/wallet/emulate`, 'https://evil.example');
        assert.equal(refused.headers.get('access-control-allow-origin'), null);

        const ok = await status(base, { origin: good });
        assert.equal(ok.status, 200);
        assert.equal(ok.headers.get('access-control-allow-origin'), good);
        assert.match(ok.headers.get('access-control-expose-headers') ?? '', /retry-after/i);
        assert.match(ok.headers.get('access-control-expose-headers') ?? '', /x-request-id/i, 'browser scripts can read the request id');
        assert.equal((await status(base, { origin: 'https://evil.example' })).headers.get('access-control-allow-origin'), null);

        // Errors a browser must be able to read: 401, 429, 404, and router errors before any hook.
        const unauthorized = await status(base, { origin: good, ...bearer('nope') });
        assertError(unauthorized, 401);
        assert.equal(unauthorized.headers.get('access-control-allow-origin'), good);
        const limited = await spend(base, { origin: good }, perWindow(2));
        assert.equal(limited.refused.headers.get('access-control-allow-origin'), good);
        const missing = await request(`${base}/nope`, { headers: { origin: good } });
        assertError(missing, 404);
        assert.equal(missing.headers.get('access-control-allow-origin'), good);
        const undecodable = await call('getTrace', `${base}/traces/%E0%A4%A`, { headers: { origin: good } });
        assertError(undecodable, 400);
        assert.equal(undecodable.headers.get('access-control-allow-origin'), good);
        const undecodableElsewhere = await request(`${base}/traces/%E0%A4%A`, { headers: { origin: 'https://evil.example' } });
        assert.equal(undecodableElsewhere.headers.get('access-control-allow-origin'), null);
    });

    it('allows any origin by default', async () => {
        const { base } = await serve({});
        const answer = await preflight(`${base}/devnet/faucet`, 'http://anything.example');
        assert.equal(answer.status, 204);
        assert.equal(answer.headers.get('access-control-allow-origin'), '*');
        // An OPTIONS request without the preflight headers is still a 204, not a text/plain 400.
        assert.equal((await request(`${base}/status`, { method: 'OPTIONS' })).status, 204);
        assert.equal((await status(base, { origin: 'http://anything.example' })).headers.get('access-control-allow-origin'), '*');
    });
});

describe('request timeout', () => {
    it('answers a request that runs past the timeout with 503 and the error body', async () => {
        const hanging = new Promise<never>(() => undefined);
        const { base } = await serve({ requestTimeoutMs: 200, corsOrigins: ['*'] }, { chain: { source: 'lite', live: true, head: () => hanging } });
        const response = await status(base, { origin: 'http://a.example' });
        assertError(response, 503, 'did not finish within 200 ms');
        assert.equal(response.headers.get('access-control-allow-origin'), '*');
        // The server keeps answering.
        assert.equal((await call('getOpenapiJson', `${base}/openapi.json`)).status, 200);
    });

    it('leaves emulations their own time budget and 504', async () => {
        // The emulation outlasts the request timeout but not its own budget, and then reports its own timeout.
        const emulation = {
            async emulateMessage() {
                await new Promise(resolve => setTimeout(resolve, 600));
                throw new EmulationFailure('timeout', 'emulation ran past its budget');
            },
        };
        const { base } = await serve({ requestTimeoutMs: 200, emulationTimeoutMs: 5000 }, { emulation: emulation as never });
        const boc = beginCell().storeUint(1, 8).endCell().toBoc().toString('base64');
        const response = await call('emulateMessageToAccountEvent', `${base}/accounts/0:${'1'.repeat(64)}/events/emulate`, { method: 'POST', json: { boc } });
        assertError(response, 504, 'emulation ran past its budget');
    });
});

/** A loopback port nothing listens on. */
async function unusedPort(): Promise<number> {
    const server = createServer();
    await new Promise<void>(resolve => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as { port: number };
    await new Promise(resolve => server.close(resolve));
    return port;
}
