/**
 * With `serve --workers N` and no Redis each worker counts limits in its own memory and takes
 * ⌈rps / N⌉ of every budget; with Redis the counters are shared and each worker allows the whole.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { buildServer } from '../../src/api/server.ts';
import type { AccessOptions } from '../../src/api/access/access-limits.ts';
import { request } from '../helpers/http.ts';
import { storeBackends } from '../helpers/stores.ts';

/** Long enough that the budgets below are spent inside one window (which starts at a client's first request). */
const WINDOW_MS = 10_000;
let store: Awaited<ReturnType<ReturnType<typeof storeBackends>[number]['open']>>;
const servers: FastifyInstance[] = [];

before(async () => {
    store = await storeBackends()[0].open();
});

after(async () => {
    for (const server of servers) await server.close();
    await store?.dispose();
});

async function allowedPerWindow(access: Omit<AccessOptions, 'keys' | 'windowMs'>): Promise<number> {
    const app = await buildServer({ store, chain: { source: 'none', live: false, head: async () => null } }, {
        access: { keys: null, windowMs: WINDOW_MS, ...access, redisPrefix: `native-explorer:test-shares:${process.pid}:${Math.random()}:` },
    });
    servers.push(app);
    const base = (await app.listen({ host: '127.0.0.1', port: 0 })).replace(/\/$/, '');
    for (let allowed = 0; allowed < 100; allowed++) {
        const answer = await request(`${base}/v2/status`);
        if (answer.status === 429) return allowed;
        assert.equal(answer.status, 200, answer.text);
    }
    assert.fail('no 429 after 100 requests');
}

const perWindow = (rps: number) => rps * WINDOW_MS / 1000;

describe('rate limits shared by in-memory workers', () => {
    it('gives each of N workers ⌈rps / N⌉ of the budget', async () => {
        assert.equal(await allowedPerWindow({ anonRps: 4 }), perWindow(4));
        assert.equal(await allowedPerWindow({ anonRps: 4, inMemoryShares: 2 }), perWindow(2));
        // 3 rps over 2 workers: 2 each (rounded up), not 1.5.
        assert.equal(await allowedPerWindow({ anonRps: 3, inMemoryShares: 2 }), perWindow(2));
    });

    it('leaves the whole budget to every worker when Redis counts for all', async () => {
        const redisUrl = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
        assert.equal(await allowedPerWindow({ anonRps: 4, inMemoryShares: 2, redisUrl }), perWindow(4));
    });
});
