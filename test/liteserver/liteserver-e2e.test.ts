import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ADNLClientTCP } from 'adnl';
import { LiteClient, LiteSingleEngine } from 'ton-lite-client';
import { Functions } from 'ton-lite-client/dist/schema.js';
import { AdnlServer } from '../../src/liteserver/adnl/adnl-server.ts';
import { serverKeyFromSeed } from '../../src/liteserver/adnl/server-key.ts';
import { startLiteServer } from '../../src/liteserver/lite-server.ts';
import { FIXED_BLOCK, FIXED_MASTERCHAIN_INFO, FIXED_METHODS, FIXED_NOW, FIXED_VERSION, fixedDispatcher } from './fixtures.ts';
import { adnlQuery, encodeCall, liteError, liteQuery, parseAdnlAnswer, waitPrefix } from './lite-query-bytes.ts';
import { RawAdnlClient } from './raw-adnl-client.ts';

async function openEngine(port: number, publicKey: Buffer): Promise<LiteSingleEngine> {
    // reconnectTimeout only delays the engine's no-op timer after close; keep it short so the test exits promptly.
    const engine = new LiteSingleEngine({ host: `tcp://127.0.0.1:${port}`, publicKey, reconnectTimeout: 50 });
    await new Promise<void>((resolve, reject) => {
        engine.once('ready', resolve);
        engine.once('error', () => reject(new Error('engine error')));
    });
    return engine;
}

describe('liteserver over loopback with ton-lite-client', () => {
    const key = serverKeyFromSeed(randomBytes(32));
    const waits: Array<{ seqno: number; timeoutMs: number }> = [];
    let server: AdnlServer;
    let engine: LiteSingleEngine;
    let client: LiteClient;

    before(async () => {
        const dispatcher = fixedDispatcher({
            waitForMasterchainSeqno: async (seqno, timeoutMs) => {
                waits.push({ seqno, timeoutMs });
                if (seqno <= FIXED_BLOCK.seqno) return true;
                await new Promise((resolve) => setTimeout(resolve, timeoutMs));
                return false;
            },
        });
        server = await AdnlServer.start({ key, handler: dispatcher, port: 0, maxInFlightQueriesPerConnection: 8 });
        engine = await openEngine(server.port, key.publicKey);
        client = new LiteClient({ engine });
    });

    after(async () => {
        engine.close();
        await server.close();
    });

    test('getCurrentTime, getVersion and getMasterchainInfo come back as served', async () => {
        assert.equal(await client.getCurrentTime(), FIXED_NOW);
        assert.deepEqual(await client.getVersion(), FIXED_VERSION);
        assert.deepEqual(await client.getMasterchainInfo(), FIXED_MASTERCHAIN_INFO);
    });

    test('a method missing from the table answers a liteServer.error the client surfaces', async () => {
        await assert.rejects(client.getConfig(FIXED_BLOCK), { message: 'not served: liteServer.getConfigAll' });
        await assert.rejects(
            engine.query(Functions.liteServer_getBlock, { kind: 'liteServer.getBlock', id: FIXED_BLOCK }),
            { message: 'not served: liteServer.getBlock' },
        );
    });

    test('a waitMasterchainSeqno prefix from the client is passed to the hook', async () => {
        waits.length = 0;
        assert.equal(await client.getCurrentTime({ awaitSeqno: FIXED_BLOCK.seqno }), FIXED_NOW);
        assert.deepEqual(waits, [{ seqno: FIXED_BLOCK.seqno, timeoutMs: 5000 }]);
    });

    test('a seqno not reached in time answers liteServer.error 652 "timeout"', async () => {
        const raw = await RawAdnlClient.connect(server.port, key.publicKey);
        try {
            assert.equal((await raw.nextPayload()).length, 0, 'the first frame is empty');
            const queryId = randomBytes(32);
            const call = encodeCall(Functions.liteServer_getTime, { kind: 'liteServer.getTime' });
            raw.send(adnlQuery(queryId, liteQuery(Buffer.concat([waitPrefix(FIXED_BLOCK.seqno + 1, 200), call]))));
            const answer = parseAdnlAnswer(await raw.nextPayload());
            assert.deepEqual(answer.queryId, queryId);
            assert.deepEqual(liteError(answer.answer), { kind: 'liteServer.error', code: 652, message: 'timeout' });
        } finally {
            raw.end();
        }
    });

    test('many concurrent queries on one connection are all answered, each under its own id', async () => {
        const methods = [
            () => client.getCurrentTime().then((now) => assert.equal(now, FIXED_NOW)),
            () => client.getVersion().then((v) => assert.deepEqual(v, FIXED_VERSION)),
            () => client.getMasterchainInfo().then((info) => assert.deepEqual(info, FIXED_MASTERCHAIN_INFO)),
        ];
        await Promise.all(Array.from({ length: 300 }, (_, i) => methods[i % methods.length]()));
        assert.equal(server.connectionCount, 1);
    });

    test('the adnl client gets tcp.pong for tcp.ping with the same random_id', async () => {
        const adnl = new ADNLClientTCP(`tcp://127.0.0.1:${server.port}`, key.publicKey);
        const ready = new Promise<void>((resolve) => adnl.once('ready', () => resolve()));
        await adnl.connect();
        await ready;
        const randomId = randomBytes(8);
        const pong = new Promise<Buffer>((resolve) => adnl.once('data', (data: Buffer) => resolve(data)));
        adnl.write(Buffer.concat([Buffer.from('9a2b084d', 'hex'), randomId]));
        assert.deepEqual(await pong, Buffer.concat([Buffer.from('03fb69dc', 'hex'), randomId]));
        adnl.end();
    });

    test('garbage on other connections does not disturb the server or this connection', async () => {
        const garbage = [randomBytes(10), randomBytes(256), randomBytes(5000), Buffer.alloc(300)];
        for (const bytes of garbage) {
            const socket = connect(server.port, '127.0.0.1');
            socket.on('error', () => {});
            await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
            const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
            socket.end(bytes);
            await closed;
        }
        // A valid handshake followed by a frame with a bad checksum is closed too.
        const raw = await RawAdnlClient.connect(server.port, key.publicKey);
        await raw.nextPayload();
        raw.socket.write(raw.handshake.encryptOutgoing.update(Buffer.concat([Buffer.from([100, 0, 0, 0]), randomBytes(100)])));
        await raw.closed;

        assert.equal(await client.getCurrentTime(), FIXED_NOW);
        const fresh = await openEngine(server.port, key.publicKey);
        try {
            assert.deepEqual(await new LiteClient({ engine: fresh }).getMasterchainInfo(), FIXED_MASTERCHAIN_INFO);
        } finally {
            fresh.close();
        }
    });
});

describe('startLiteServer', () => {
    test('keeps its key across restarts and serves ton-lite-client', async () => {
        const keyDir = mkdtempSync(join(tmpdir(), 'liteserver-'));
        try {
            const options = { keyDir, methods: FIXED_METHODS, waitForMasterchainSeqno: async () => true };
            const first = await startLiteServer(options);
            const publicKey = first.publicKey;
            await first.close();
            const second = await startLiteServer(options);
            assert.deepEqual(second.publicKey, publicKey);
            const engine = await openEngine(second.port, second.publicKey);
            try {
                assert.equal(await new LiteClient({ engine }).getCurrentTime(), FIXED_NOW);
            } finally {
                engine.close();
                await second.close();
            }
        } finally {
            rmSync(keyDir, { recursive: true, force: true });
        }
    });
});
