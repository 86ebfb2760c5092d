import assert from 'node:assert/strict';
import { connect } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { parse } from 'yaml';
import { startDevnetService, waitForSeed, type DevnetService } from '../helpers/devnet-service.ts';
import { request, type HttpResult } from '../helpers/http.ts';
import { assertSchemaMatches } from '../helpers/openapi-assert.ts';
import { openapiDocument, openapiYaml } from '../../src/api/openapi/document.ts';
import { assertError, call, STACK_TRACE } from './api-call.ts';

let service: DevnetService;
let root: string;
/** Every response this file received, checked at the end for stack traces. */
const seen: HttpResult[] = [];

async function raw(url: string, init: Parameters<typeof request>[1] = {}): Promise<HttpResult> {
    const response = await request(url, init);
    seen.push(response);
    return response;
}

async function checked(operationId: string, url: string, init: Parameters<typeof request>[1] = {}): Promise<HttpResult> {
    const response = await call(operationId, url, init);
    seen.push(response);
    return response;
}

const faucetUrl = () => `${service.base}/devnet/faucet`;

/** Bytes written straight to the server's socket; the whole reply as text. */
function rawHttp(text: string): Promise<string> {
    const { hostname, port } = new URL(service.base);
    return new Promise((resolve, reject) => {
        const socket = connect(Number(port), hostname, () => socket.end(text));
        const chunks: Buffer[] = [];
        socket.on('data', chunk => chunks.push(chunk));
        socket.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
        socket.on('error', reject);
    });
}

before(async () => {
    service = await startDevnetService();
    await waitForSeed(service);
    root = service.base.replace(/\/v2$/, '');
});

after(async () => {
    await service?.dispose();
});

describe('error responses', () => {
    it('answers an unknown route with 404 and a JSON error body', async () => {
        for (const path of [`${service.base}/nope`, `${root}/nope`, `${root}/v3/traces/abc`, `${service.base}/traces`, `${service.base}/blockchain/accounts/x/transactions/extra`]) {
            const response = await raw(path);
            assert.equal(response.status, 404, path);
            assert.match(response.headers.get('content-type') ?? '', /^application\/json/);
            assertSchemaMatches('Error', response.body);
            assertError(response, 404);
        }
    });

    it('answers a method no route knows (even one that takes a body) with 405 and an Allow header', async () => {
        for (const method of ['QUERY', 'PROPFIND']) {
            const response = await raw(`${service.base}/status`, { method });
            assertError(response, 405, method);
            assert.equal(response.headers.get('allow'), 'GET');
        }
    });

    it('sends GET / to the API documentation', async () => {
        const response = await raw(`${root}/`, { redirect: 'manual' });
        assert.equal(response.status, 302);
        assert.equal(response.headers.get('location'), '/docs');
    });

    it('answers a wrong method with 405 and an Allow header', async () => {
        const cases: Array<[string, string, string, string]> = [
            ['getDevnetManifest', 'POST', `${service.base}/devnet/manifest`, 'GET'],
            ['getTrace', 'DELETE', `${service.base}/traces/${'ab'.repeat(32)}`, 'GET'],
            ['devnetFaucet', 'GET', faucetUrl(), 'POST'],
            ['sendBlockchainMessage', 'PUT', `${service.base}/blockchain/message`, 'POST'],
            ['getReducedBlockchainBlocks', 'PATCH', `${service.base}/blockchain/reduced/blocks?from=1&to=2`, 'GET'],
        ];
        for (const [operationId, method, url, allowed] of cases) {
            const response = await checked(operationId, url, { method, ...(method === 'GET' ? {} : { json: {} }) });
            assertError(response, 405, method);
            assert.equal(response.headers.get('allow'), allowed, `${method} ${url}`);
        }
    });

    it('refuses a body over 1 MiB with 413', async () => {
        const padding = 'x'.repeat(1024 * 1024);
        const response = await checked('devnetFaucet', faucetUrl(), { method: 'POST', json: JSON.stringify({ address: `0:${'1'.repeat(64)}`, amount: 1, padding }) });
        assertError(response, 413);
        // Just under the limit is parsed (and then judged on its content).
        const small = await checked('devnetFaucet', faucetUrl(), { method: 'POST', json: JSON.stringify({ address: 'nope', amount: 1, padding: 'x'.repeat(1000) }) });
        assertError(small, 400, 'nope');
    });

    it('answers invalid JSON with 400', async () => {
        for (const body of ['{"address":', '{address: 1}', '{"a":1} trailing', '[1,]', '{"amount":01}', 'nul']) {
            const response = await checked('devnetFaucet', faucetUrl(), { method: 'POST', json: body });
            assertError(response, 400, 'JSON');
        }
        const empty = await checked('devnetFaucet', faucetUrl(), { method: 'POST', headers: { 'content-type': 'application/json' } });
        assertError(empty, 400);
        const notObject = await checked('devnetFaucet', faucetUrl(), { method: 'POST', json: '[1,2]' });
        assertError(notObject, 400, 'body');
    });

    it('answers a content type other than JSON with 415 on every JSON endpoint', async () => {
        for (const [type, body] of [['application/x-www-form-urlencoded', 'address=x&amount=1'], ['text/plain', '{"address":"x","amount":1}'], ['text/plain; charset=utf-8', '{}'], ['application/xml', '<a/>']]) {
            const response = await checked('devnetFaucet', faucetUrl(), { method: 'POST', headers: { 'content-type': type }, body });
            assertError(response, 415, type.split(';')[0], 'application/json');
        }
        for (const [operationId, url] of [['sendBlockchainMessage', `${service.base}/blockchain/message`], ['emulateMessageToWallet', `${service.base}/wallet/emulate`], ['getWalletsByPublicKeyBulk', `${service.base}/pubkeys/wallets/_bulk`]]) {
            const response = await checked(operationId, url, { method: 'POST', headers: { 'content-type': 'text/plain' }, body: '{"boc":"te6"}' });
            assertError(response, 415, 'text/plain');
        }
        const form = await checked('devnetFaucet', faucetUrl(), { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'a=1' });
        assertError(form, 415, 'application/x-www-form-urlencoded');
    });

    it('answers undecodable and over-long URLs with an error body', async () => {
        const bad = await checked('getTrace', `${service.base}/traces/%E0%A4%A`);
        assertError(bad, 400);
        const long = await checked('getTrace', `${service.base}/traces/${'a'.repeat(5000)}`);
        assert.ok(long.status >= 400 && long.status < 500, String(long.status));
        assertError(long, long.status);
    });

    it('answers requests the HTTP parser refuses (oversized headers, a malformed request line) with an error body', async () => {
        const big = await raw(`${service.base}/devnet/manifest`, { headers: { 'accept-language': `en;q=0.9, ${'x'.repeat(20_000)}` } });
        assertError(big, 431, 'too large');
        const reply = await rawHttp(`GARBAGE / HTTP/1.1\r\nHost: x\r\n\r\n`);
        assert.match(reply, /^HTTP\/1\.1 400 /);
        const body = JSON.parse(reply.slice(reply.indexOf('\r\n\r\n') + 4));
        assert.deepEqual(Object.keys(body), ['error']);
        assertSchemaMatches('Error', body);
    });

    it('answers an OPTIONS preflight with 204 and CORS headers', async () => {
        for (const url of [faucetUrl(), `${service.base}/traces/abc`, `${service.base}/devnet/manifest`]) {
            const response = await raw(url, {
                method: 'OPTIONS',
                headers: { 'origin': 'http://example.test', 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type' },
            });
            assert.equal(response.status, 204);
            assert.equal(response.text, '');
            assert.equal(response.headers.get('access-control-allow-origin'), '*');
            assert.match(response.headers.get('access-control-allow-methods') ?? '', /\bPOST\b/);
            assert.match(response.headers.get('access-control-allow-methods') ?? '', /\bGET\b/);
            assert.match(response.headers.get('access-control-allow-headers') ?? '', /content-type/i);
        }
        // Plain responses allow any origin too.
        const manifest = await checked('getDevnetManifest', `${service.base}/devnet/manifest`, { headers: { origin: 'http://example.test' } });
        assert.equal(manifest.headers.get('access-control-allow-origin'), '*');
    });
});

describe('interface description', () => {
    it('serves the OpenAPI document as JSON, equal to the document', async () => {
        const response = await checked('getOpenapiJson', `${service.base}/openapi.json`);
        assert.equal(response.status, 200);
        assert.match(response.headers.get('content-type') ?? '', /^application\/json/);
        assert.deepEqual(response.body, openapiDocument);
        assert.equal(response.body.openapi, '3.1.0');
    });

    it('serves the same document as YAML', async () => {
        const response = await checked('getOpenapiYml', `${service.base}/openapi.yml`);
        assert.equal(response.status, 200);
        assert.match(response.headers.get('content-type') ?? '', /yaml/);
        assert.equal(response.text, openapiYaml);
        assert.deepEqual(parse(response.text), openapiDocument);
    });

    it('serves Swagger UI at /docs', async () => {
        let response = await raw(`${root}/docs`, { redirect: 'manual' });
        if (response.status >= 300 && response.status < 400) {
            const location = response.headers.get('location');
            assert.ok(location, 'a redirect names its target');
            response = await raw(new URL(location, `${root}/docs`).toString());
        }
        assert.equal(response.status, 200);
        assert.match(response.headers.get('content-type') ?? '', /^text\/html/);
        assert.match(response.text, /swagger-ui/i);
        // The UI loads the document the service describes itself with.
        const spec = await raw(`${root}/docs/json`);
        assert.equal(spec.status, 200);
        assert.equal(JSON.parse(spec.text).info.title, openapiDocument.info.title);
        assert.deepEqual(Object.keys(JSON.parse(spec.text).paths).sort(), Object.keys(openapiDocument.paths).sort());
    });
});

describe('no stack traces', () => {
    it('answers an internal failure with 500 and a bare message, no details', async () => {
        // Make the index fail for one request (the last of this file's service's life).
        const db = service.store.db as unknown as { selectFrom: (...args: unknown[]) => unknown };
        const original = db.selectFrom;
        db.selectFrom = () => {
            throw new Error(`secret failure at ${import.meta.filename}:1:1`);
        };
        let response: HttpResult;
        try {
            response = await checked('getBlockchainAccountTransactions', `${service.base}/blockchain/accounts/0:${'0'.repeat(64)}/transactions`);
        } finally {
            db.selectFrom = original;
        }
        assertError(response, 500);
        assert.deepEqual(response.body, { error: 'internal error' });
        assert.equal((await checked('getBlockchainAccountTransactions', `${service.base}/blockchain/accounts/0:${'0'.repeat(64)}/transactions`)).status, 200, 'the service recovered');
    });

    it('never leaks a stack trace in any response of this file', () => {
        assert.ok(seen.length >= 30, `only ${seen.length} responses were checked`);
        for (const response of seen) assert.doesNotMatch(response.text, STACK_TRACE);
        // The pattern itself recognises a Node stack trace.
        const sample = new Error('boom').stack ?? '';
        assert.match(JSON.stringify({ error: sample }), STACK_TRACE);
        assert.match(sample, STACK_TRACE);
    });
});
