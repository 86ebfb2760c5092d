import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { RatesError } from '../../src/risk/errors.ts';
import { DEVNET_RATES_FILE, jettonRate, loadRatesSource, parseRateTable } from '../../src/risk/rates.ts';

const MASTER = '0:' + 'ab'.repeat(32);
const TABLE = JSON.stringify({ unit: 'gram', currencies: { usd: '0.2', EUR: '0.216' }, jettons: { [MASTER.toUpperCase()]: '0.19', DUSD: '0.2' } });

function fractionText(f: { num: bigint; den: bigint } | undefined): string | undefined {
    return f && `${f.num}/${f.den}`;
}

describe('rates table parsing', () => {
    it('reads currencies (any case) and jettons by address or symbol as exact fractions', () => {
        const table = parseRateTable(TABLE, 'test');
        assert.deepEqual([...table.currencies.keys()].sort(), ['EUR', 'GRAM', 'USD']);
        assert.equal(fractionText(table.currencies.get('USD')), '1/5');
        assert.equal(fractionText(table.currencies.get('EUR')), '27/125');
        assert.equal(fractionText(table.currencies.get('GRAM')), '1/1');
        assert.equal(fractionText(jettonRate(table, MASTER, 'OTHER')), '19/100');
        assert.equal(fractionText(jettonRate(table, '0:' + '11'.repeat(32), 'DUSD')), '1/5');
        assert.equal(jettonRate(table, '0:' + '11'.repeat(32), 'NOPE'), undefined);
    });

    it('the devnet table ships with USD, EUR, RUB and the devnet jettons by symbol', async () => {
        const source = loadRatesSource(DEVNET_RATES_FILE);
        assert.deepEqual(await source.supportedCurrencies(), ['EUR', 'GRAM', 'RUB', 'USD']);
        const table = await source.rates();
        assert.ok(table.jettons.has('DUSD') && table.jettons.has('DPTS'));
    });

    const bad: [string, string, RegExp][] = [
        ['not JSON', '{"currencies":', /not JSON/],
        ['an array', '[]', /expected a JSON object/],
        ['an unknown member', '{"rates":{}}', /unknown member "rates"/],
        ['another unit', '{"unit":"usd"}', /"unit" must be "gram"/],
        ['a float rate', '{"currencies":{"USD":0.2}}', /currencies\.USD must be a decimal string/],
        ['a negative rate', '{"currencies":{"USD":"-1"}}', /currencies\.USD must be a decimal string/],
        ['an exponent', '{"jettons":{"X":"1e3"}}', /jettons\.X must be a decimal string/],
        ['a zero currency rate', '{"currencies":{"USD":"0.000"}}', /must be positive/],
        ['a bad currency code', '{"currencies":{"U S":"1"}}', /"U S" is not a currency code/],
        ['GRAM redefined', '{"currencies":{"gram":"2"}}', /GRAM is the unit itself/],
        ['a duplicate currency', '{"currencies":{"usd":"1","USD":"2"}}', /USD appears twice/],
        ['currencies not an object', '{"currencies":["USD"]}', /"currencies" must be an object/],
    ];
    for (const [what, text, message] of bad) {
        it(`rejects ${what} with a clear error`, () => {
            assert.throws(() => parseRateTable(text, 'rates.json'), (error: unknown) =>
                error instanceof RatesError && /^rates table rates\.json: /.test(error.message) && message.test(error.message));
        });
    }
});

describe('rates source from a file', () => {
    const dir = mkdtempSync(join(tmpdir(), 'rates-'));
    after(() => rmSync(dir, { recursive: true, force: true }));

    it('no source: only GRAM', async () => {
        assert.deepEqual(await loadRatesSource(undefined).supportedCurrencies(), ['GRAM']);
    });

    it('a missing or malformed file is a RatesError naming it', async () => {
        await assert.rejects(loadRatesSource(join(dir, 'missing.json')).rates(), (error: unknown) =>
            error instanceof RatesError && error.message.includes('missing.json') && /ENOENT/.test(error.message));
        writeFileSync(join(dir, 'broken.json'), '{"currencies": {"USD": 5}}');
        await assert.rejects(loadRatesSource(join(dir, 'broken.json')).rates(), /broken\.json: currencies\.USD must be a decimal string/);
    });

    it('an unsupported scheme is refused at once', () => {
        assert.throws(() => loadRatesSource('ftp://example.com/rates.json'), /expected a file path or an http\(s\) URL/);
    });

    it('reloads after the TTL, and keeps serving the last good table when a reload fails', async () => {
        const path = join(dir, 'rates.json');
        writeFileSync(path, '{"currencies":{"USD":"0.2"}}');
        let now = 0;
        const stale: RatesError[] = [];
        const source = loadRatesSource(`file://${path}`, { ttlMs: 1000, now: () => now, onStaleRefresh: e => stale.push(e) });
        assert.deepEqual(await source.supportedCurrencies(), ['GRAM', 'USD']);
        writeFileSync(path, '{"currencies":{"USD":"0.2","EUR":"0.25"}}');
        now = 999;
        assert.deepEqual(await source.supportedCurrencies(), ['GRAM', 'USD']);
        now = 1000;
        assert.deepEqual(await source.supportedCurrencies(), ['EUR', 'GRAM', 'USD']);
        writeFileSync(path, 'garbage');
        now = 2000;
        assert.deepEqual(await source.supportedCurrencies(), ['EUR', 'GRAM', 'USD']);
        assert.equal(stale.length, 1);
        assert.match(stale[0].message, /not JSON/);
    });
});

describe('rates source from a URL', () => {
    let server: Server;
    let base: string;
    let requests = 0;
    const hanging: import('node:http').ServerResponse[] = [];

    before(async () => {
        server = createServer((request, response) => {
            requests++;
            if (request.url === '/rates.json') {
                response.writeHead(200, { 'content-type': 'application/json' }).end(TABLE);
            } else if (request.url === '/hang') {
                hanging.push(response); // never answers
            } else if (request.url === '/slow-body') {
                response.writeHead(200, { 'content-type': 'application/json' });
                response.write('{"currencies":');
                hanging.push(response);
            } else if (request.url === '/huge') {
                response.writeHead(200).end(JSON.stringify({ currencies: { USD: '1' + '0'.repeat(5000) } }));
            } else {
                response.writeHead(404).end('no');
            }
        });
        await new Promise<void>(resolve => server.listen(0, '127.0.0.1', resolve));
        base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    });
    after(async () => {
        for (const response of hanging) response.destroy();
        await new Promise(resolve => server.close(resolve));
    });

    it('fetches the table once per TTL, sharing one request between concurrent callers', async () => {
        requests = 0;
        const source = loadRatesSource(`${base}/rates.json`, { allowPrivateFetch: true, ttlMs: 60_000 });
        const [a, b] = await Promise.all([source.rates(), source.rates()]);
        assert.equal(a, b);
        assert.deepEqual(await source.supportedCurrencies(), ['EUR', 'GRAM', 'USD']);
        assert.equal(requests, 1);
    });

    it('while no table has loaded, a failed load is answered from memory until the retry interval passes', async () => {
        requests = 0;
        let clock = 1_000_000;
        const source = loadRatesSource(`${base}/missing`, { allowPrivateFetch: true, retryMs: 30_000, now: () => clock });
        await assert.rejects(source.rates(), /HTTP 404/);
        await assert.rejects(source.rates(), /HTTP 404/);
        clock += 29_999;
        await assert.rejects(source.rates(), /HTTP 404/);
        assert.equal(requests, 1, 'the dead source is asked once per retry interval');
        clock += 1;
        await assert.rejects(source.rates(), /HTTP 404/);
        assert.equal(requests, 2);
    });

    it('an HTTP error status is a RatesError', async () => {
        await assert.rejects(loadRatesSource(`${base}/missing`, { allowPrivateFetch: true }).rates(), (error: unknown) =>
            error instanceof RatesError && /HTTP 404/.test(error.message));
    });

    it('a server that never answers is a timeout error', async () => {
        const started = Date.now();
        await assert.rejects(loadRatesSource(`${base}/hang`, { allowPrivateFetch: true, timeoutMs: 200 }).rates(), (error: unknown) =>
            error instanceof RatesError && /no complete answer within 200 ms/.test(error.message));
        assert.ok(Date.now() - started < 5000);
    });

    it('a body that never ends is a timeout error too', async () => {
        await assert.rejects(loadRatesSource(`${base}/slow-body`, { allowPrivateFetch: true, timeoutMs: 200 }).rates(), /no complete answer within 200 ms/);
    });

    it('a URL on a loopback address is refused without --allow-private-fetch, before any request', async () => {
        requests = 0;
        await assert.rejects(loadRatesSource(`${base}/rates.json`).rates(), (error: unknown) =>
            error instanceof RatesError && /127\.0\.0\.1 is a loopback address \(--allow-private-fetch allows it\)/.test(error.message));
        assert.equal(requests, 0);
    });

    it('a table larger than the limit is refused', async () => {
        await assert.rejects(loadRatesSource(`${base}/huge`, { allowPrivateFetch: true, maxBytes: 1000 }).rates(), /larger than 1000 bytes/);
    });
});
