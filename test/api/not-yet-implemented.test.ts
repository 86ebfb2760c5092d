import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { buildServer } from '../../src/api/server.ts';
import { findOperation } from '../helpers/openapi-assert.ts';
import { storeBackends } from '../helpers/stores.ts';
import { assertError, call } from './api-call.ts';

/**
 * Documented operations the service cannot answer yet are real routes: their input is validated
 * from the document (a bad value is a 400), then they answer 501 with the error body, never the
 * router's 404 "no such endpoint".
 */

const backend = storeBackends()[0];
let store: Awaited<ReturnType<typeof backend.open>>;
let app: FastifyInstance;
let base: string;

before(async () => {
    store = await backend.open();
    app = await buildServer({ store, chain: { source: 'test', live: false, head: async () => null } });
    base = `${await app.listen({ host: '127.0.0.1', port: 0 })}/v2`;
});

after(async () => {
    await app?.close();
    await store?.dispose();
});

describe('GET /v2/rewards/round-rewards (not implemented yet)', () => {
    const rewards = (query: string) => call('getRoundRewards', `${base}/rewards/round-rewards${query}`);

    it('answers 501 with an error body saying what is not implemented', async () => {
        for (const query of ['?election_id=1739958792', '?block=44531312', '?unixtime=1739958800', '?block=44531312&shallow=true', '?election_id=1739958792&shallow=1', '?unixtime=1&shallow=0']) {
            const response = await rewards(query);
            assertError(response, 501, 'round rewards', 'not implemented yet');
            assert.deepEqual(Object.keys(response.body), ['error'], query);
            assert.match(response.headers.get('content-type') ?? '', /^application\/json/);
        }
    });

    it('still validates its parameters from the document: bad input is a 400', async () => {
        assertError(await rewards('?election_id=soon'), 400, "query parameter 'election_id' must be an integer");
        assertError(await rewards('?block=-1'), 400, "query parameter 'block'");
        assertError(await rewards('?unixtime=4294967296'), 400, "query parameter 'unixtime'");
        assertError(await rewards('?block=1&shallow=maybe'), 400, "query parameter 'shallow'", 'true or false');
        assertError(await rewards(''), 400, 'exactly one of', 'election_id', 'block', 'unixtime');
        assertError(await rewards('?election_id=1&unixtime=2'), 400, 'exactly one of', 'election_id, unixtime');
    });

    it('allows GET only', async () => {
        const response = await call('getRoundRewards', `${base}/rewards/round-rewards?block=1`, { method: 'POST', json: {} });
        assertError(response, 405);
        assert.equal(response.headers.get('allow'), 'GET');
    });
});

describe('the document says so', () => {
    it('documents a 501 with the error body on the operation, and its description says it', () => {
        for (const operationId of ['getRoundRewards']) {
            const { operation } = findOperation(operationId);
            assert.deepEqual(operation.responses['501'], { $ref: '#/components/responses/NotImplemented' }, operationId);
            assert.match(operation.description, /not implemented yet/i, operationId);
            assert.match(operation.description, /501/, operationId);
        }
    });
});
