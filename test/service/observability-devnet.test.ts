/**
 * The metrics of a running service on a devnet (ingest counters and lag, emulation outcomes), then
 * its graceful stop: a request in flight completes while new connections are refused, and the
 * indexer stops at a block boundary. One service for all of it (a devnet is slow to start); the stop
 * comes last.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { request as httpRequest } from 'node:http';
import { connect } from 'node:net';
import { once } from 'node:events';
import { Address, Cell, internal, toNano, type MessageRelaxed } from '@ton/core';
import { DevnetWallet } from '../../src/chain/devnet/wallets.ts';
import { startService } from '../../src/app.ts';
import { DEFAULT_CONFIG } from '../../src/config/config.ts';
import { openStore } from '../../src/store/store.ts';
import { connectionRefused, request } from '../helpers/http.ts';
import { startDevnetService, waitForSeed, type DevnetService } from '../helpers/devnet-service.ts';
import { sampleValue, scrape, type Sample } from '../helpers/prometheus.ts';
import { tempDir } from '../helpers/stores.ts';
import { accountNamed, manifestOf, type ManifestAccount } from '../api/api-call.ts';

let service: DevnetService;
let root: string;
let manifest: { accounts: ManifestAccount[] };

before(async () => {
    service = await startDevnetService();
    root = service.url.replace(/\/$/, '');
    await waitForSeed(service);
    manifest = await manifestOf(service.base);
});

after(async () => {
    await service?.dispose();
});

const blocks = (samples: Sample[], workchain: number) => sampleValue(samples, 'ingest_blocks_total', { workchain: String(workchain) }) ?? 0;
const transactions = (samples: Sample[]) => sampleValue(samples, 'ingest_transactions_total') ?? 0;

async function indexCounts() {
    const db = service.store.db;
    const perWorkchain = await db.selectFrom('blocks').select(['workchain', eb => eb.fn.countAll<number>().as('n')]).groupBy('workchain').execute();
    const tx = await db.selectFrom('transactions').select(eb => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    const master = await db.selectFrom('blocks').select(eb => eb.fn.max('seqno').as('seqno')).where('workchain', '=', -1).executeTakeFirstOrThrow();
    const byWorkchain = new Map(perWorkchain.map(row => [Number(row.workchain), Number(row.n)]));
    return { master: byWorkchain.get(-1) ?? 0, base: byWorkchain.get(0) ?? 0, tx: Number(tx.n), masterSeqno: Number(master.seqno) };
}

describe('ingest metrics on a running devnet', () => {
    it('count every block and transaction this process indexed, as the index holds them', async () => {
        // Every block of this fresh devnet was indexed by this process: the counters bracket the index's rows.
        const first = await scrape(root);
        const rows = await indexCounts();
        const second = await scrape(root);
        assert.ok(rows.master > 5 && rows.tx > 0, `the seed was indexed: ${JSON.stringify(rows)}`);
        assert.ok(blocks(first, -1) <= rows.master && rows.master <= blocks(second, -1), `masterchain ${blocks(first, -1)} ≤ ${rows.master} ≤ ${blocks(second, -1)}`);
        assert.ok(blocks(first, 0) <= rows.base && rows.base <= blocks(second, 0), `basechain ${blocks(first, 0)} ≤ ${rows.base} ≤ ${blocks(second, 0)}`);
        assert.ok(transactions(first) <= rows.tx && rows.tx <= transactions(second), `transactions ${transactions(first)} ≤ ${rows.tx} ≤ ${transactions(second)}`);
        const seqno = sampleValue(second, 'ingest_last_indexed_masterchain_seqno')!;
        assert.ok(seqno >= rows.masterSeqno);
    });

    it('move as the devnet produces blocks, with the lag behind its head and the rates', async () => {
        const first = await scrape(root);
        const from = blocks(first, -1);
        let now = first;
        for (let i = 0; i < 500 && blocks(now, -1) < from + 3; i++) {
            await new Promise(resolve => setTimeout(resolve, 20));
            now = await scrape(root);
        }
        assert.ok(blocks(now, -1) >= from + 3, 'three more masterchain blocks were counted');
        assert.ok(blocks(now, 0) > blocks(first, 0));
        assert.ok(sampleValue(now, 'ingest_last_indexed_masterchain_seqno')! > sampleValue(first, 'ingest_last_indexed_masterchain_seqno')!);
        const lagBlocks = sampleValue(now, 'ingest_lag_blocks');
        assert.ok(lagBlocks !== undefined && Number.isInteger(lagBlocks) && lagBlocks >= 0, `lag ${lagBlocks}`);
        const lagSeconds = sampleValue(now, 'ingest_lag_seconds')!;
        assert.ok(lagSeconds >= 0 && lagSeconds < 3600, `lag ${lagSeconds} s`);
        assert.ok(sampleValue(now, 'ingest_blocks_per_second')! > 0);
        assert.ok(sampleValue(now, 'ingest_transactions_per_second')! > 0);
    });
});

describe('emulation metrics on a running devnet', () => {
    async function signed(name: string, messages: MessageRelaxed[], mode?: number): Promise<string> {
        const entry = accountNamed(manifest, name);
        const wallet = DevnetWallet.fromManifest(entry);
        const row = await service.store.db.selectFrom('account_states').select(['data']).where('address', '=', entry.address).executeTakeFirstOrThrow();
        const seqno = DevnetWallet.seqnoFromData(wallet.kind, Cell.fromBoc(row.data!)[0]);
        return (await wallet.transfer(seqno, Math.floor(Date.now() / 1000) + 60, messages, mode)).toBoc().toString('base64');
    }

    it('count outcomes by endpoint: ok and the failure kind', async () => {
        const bob = Address.parseRaw(accountNamed(manifest, 'bob-v4r2').address);
        const before = await scrape(root);
        const fine = await request(`${service.base}/wallet/emulate`, { method: 'POST', json: { boc: await signed('alice-v3r2', [internal({ to: bob, value: toNano('1'), body: 'metrics' })]) } });
        assert.equal(fine.status, 200, fine.text);
        const tooMuch = await request(`${service.base}/wallet/emulate`, { method: 'POST', json: { boc: await signed('alice-v3r2', [internal({ to: bob, value: toNano('100000000'), body: 'x' })], 3) } });
        assert.equal(tooMuch.status, 409, tooMuch.text);
        const after = await scrape(root);
        const count = (samples: Sample[], outcome: string) => sampleValue(samples, 'emulations_total', { endpoint: 'emulateMessageToWallet', outcome }) ?? 0;
        assert.equal(count(after, 'ok') - count(before, 'ok'), 1);
        assert.equal(count(after, 'insufficient_funds') - count(before, 'insufficient_funds'), 1);
        const latency = (samples: Sample[], status: string) => sampleValue(samples, 'http_request_duration_seconds_count', { operation: 'emulateMessageToWallet', method: 'POST', status }) ?? 0;
        assert.equal(latency(after, '200') - latency(before, '200'), 1);
        assert.equal(latency(after, '409') - latency(before, '409'), 1);
    });
});

/** Sends the headers and part of a body; `finish` sends the rest. Resolves `response` with the status and body. */
function slowPost(url: string, body: string) {
    const target = new URL(url);
    const req = httpRequest({ host: target.hostname, port: target.port, path: target.pathname, method: 'POST', headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) } });
    const response = new Promise<{ status: number; text: string }>((resolve, reject) => {
        req.on('response', res => {
            let text = '';
            res.setEncoding('utf8').on('data', chunk => { text += chunk; }).on('end', () => resolve({ status: res.statusCode!, text }));
        });
        req.on('error', reject);
    });
    const half = Math.floor(body.length / 2);
    req.write(body.slice(0, half));
    return { response, finish: () => req.end(body.slice(half)) };
}


describe('graceful stop', () => {
    it('lets a request in flight finish while refusing new connections, then stops the indexer at a block boundary', async () => {
        const port = Number(new URL(root).port);
        const address = accountNamed(manifest, 'bob-v5r1').address;
        // A faucet request waits until its block is produced and indexed: it needs the devnet and the indexer running.
        const arrived = new Promise(resolve => service.server.server.once('request', resolve));
        const faucet = slowPost(`${service.base}/devnet/faucet`, JSON.stringify({ address, amount: 1_000_000_000 }));
        await arrived;

        const stopping = service.stop();
        let stopped = false;
        void stopping.then(() => { stopped = true; });
        let wasRefused = false;
        for (let attempt = 0; attempt < 200 && !wasRefused; attempt++) {
            wasRefused = await connectionRefused(port);
            if (!wasRefused) await new Promise(resolve => setTimeout(resolve, 5));
        }
        assert.ok(wasRefused, 'new connections are refused once the stop began');
        assert.equal(stopped, false, 'the stop waits for the request in flight');

        faucet.finish();
        const answer = await faucet.response;
        assert.equal(answer.status, 200, answer.text);
        const sent = JSON.parse(answer.text);
        assert.equal(BigInt(sent.amount), 1_000_000_000n);
        await stopping;

        // The index ends exactly at the last block the indexer reported: its cursor was committed with it.
        const last = service.indexer!.lastIndexed!;
        const store = await openStore({ dataDir: service.dataDir });
        try {
            const cursor = await store.db.selectFrom('source_cursors').select('cursor').where('source', '=', service.source!.name).executeTakeFirstOrThrow();
            assert.equal(cursor.cursor, last.cursor);
            const block = await store.db.selectFrom('blocks').select('root_hash').where('workchain', '=', last.block.id.workchain).where('seqno', '=', last.block.id.seqno).executeTakeFirst();
            assert.ok(block, 'the last reported block is in the index');
            // The faucet answered once its block was indexed, before the indexer stopped.
            const faucetTx = await store.db.selectFrom('transactions').select('hash').where('trace_id', '=', sent.trace_id).execute();
            assert.ok(faucetTx.length > 0, 'the faucet transfer is in the index');
        } finally {
            await store.close();
        }
    });

    it('answers 503 with an error body to a request arriving on a kept-alive connection during the drain', async () => {
        const dir = tempDir();
        const api = await startService({ ...DEFAULT_CONFIG, source: 'none', dataDir: dir.path, port: 0 });
        try {
            const socket = connect({ host: '127.0.0.1', port: Number(new URL(api.url).port) });
            await once(socket, 'connect');
            let data = '';
            socket.setEncoding('utf8').on('data', chunk => { data += chunk; });
            const closed = once(socket, 'close');
            const body = JSON.stringify({ boc: 'te6cckEBAQEAAgAAAEysuc0=' });
            const arrived = new Promise(resolve => api.server.server.once('request', resolve));
            socket.write(`POST /v2/wallet/emulate HTTP/1.1\r\nhost: x\r\ncontent-type: application/json\r\ncontent-length: ${body.length}\r\n\r\n${body.slice(0, 5)}`);
            await arrived;
            const stopping = api.stop();
            // The rest of the body, then a second request pipelined on the same connection.
            socket.write(`${body.slice(5)}GET /v2/status HTTP/1.1\r\nhost: x\r\n\r\n`);
            await closed;
            await stopping;
            const responses = data.split(/(?=HTTP\/1\.1 )/);
            assert.equal(responses.length, 2, data);
            assert.match(responses[0], /^HTTP\/1\.1 400 /, 'the request in flight is answered as usual');
            assert.match(responses[1], /^HTTP\/1\.1 503 /);
            assert.match(responses[1], /\r\nconnection: close\r\n/i);
            assert.deepEqual(JSON.parse(responses[1].slice(responses[1].indexOf('\r\n\r\n') + 4)), {
                error: 'the service is shutting down; send the request again once it is back (or to another instance)',
            });
        } finally {
            await api.stop();
            dir.remove();
        }
    });

    it('cuts off a request that outlasts the shutdown timeout', async () => {
        const dir = tempDir();
        const api = await startService({ ...DEFAULT_CONFIG, source: 'none', dataDir: dir.path, port: 0, shutdownTimeoutMs: 200 });
        try {
            const arrived = new Promise(resolve => api.server.server.once('request', resolve));
            // Its body never completes.
            const stuck = slowPost(`${api.url.replace(/\/$/, '')}/v2/wallet/emulate`, JSON.stringify({ boc: 'te6cckEBAQEAAgAAAEysuc0=' }));
            await arrived;
            await api.stop();
            await assert.rejects(stuck.response, (error: NodeJS.ErrnoException) => error.code === 'ECONNRESET' || /socket hang up/.test(error.message));
        } finally {
            await api.stop();
            dir.remove();
        }
    });
});
