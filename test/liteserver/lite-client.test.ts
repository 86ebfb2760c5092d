import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Codecs, Functions } from 'ton-lite-client/dist/schema.js';
import { TLWriteBuffer } from 'ton-tl';
import { LiteErrorCode, LiteServerError, encodeLiteError } from '../../src/liteserver/lite-errors.ts';
import { startLiteServer, type LiteServerOptions, type RunningLiteServer } from '../../src/liteserver/lite-server.ts';
import {
    LiteClientConnection,
    LiteDecodeError,
    LiteServerAnswerError,
    LiteTimeoutError,
    LiteTransportError,
    type LiteClientOptions,
    type LiteTransportReason,
} from '../../src/liteserver/lite-client.ts';
import { FIXED_BLOCK, FIXED_MASTERCHAIN_INFO, FIXED_METHODS, FIXED_NOW, FIXED_VERSION } from './fixtures.ts';
import { answerPayload, parseQuery, plainFrame, startHostileServer, type HostileBehaviour } from './hostile-adnl-server.ts';
import { encodeCall, liteQuery, waitPrefix } from './lite-query-bytes.ts';

// Whatever the server does, the client must never throw out of an event handler.
const uncaught: unknown[] = [];
const recordUncaught = (err: unknown) => uncaught.push(err);
process.on('uncaughtException', recordUncaught);
process.on('unhandledRejection', recordUncaught);

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const getTime = { kind: 'liteServer.getTime' } as const;

function isTransportError(reason: LiteTransportReason) {
    return (err: unknown) => {
        assert.ok(err instanceof LiteTransportError, `expected LiteTransportError, got ${String(err)}`);
        assert.equal(err.reason, reason, `reason of "${err.message}"`);
        return true;
    };
}

function encodeAnswer(encode: (writer: TLWriteBuffer) => void): Buffer {
    const writer = new TLWriteBuffer();
    encode(writer);
    return writer.build();
}

describe('lite client', () => {
    const keyDirs: string[] = [];
    const servers: RunningLiteServer[] = [];
    const clients: LiteClientConnection[] = [];
    const waits: Array<{ seqno: number; timeoutMs: number }> = [];
    let server: RunningLiteServer;

    async function start(options: Partial<LiteServerOptions> = {}): Promise<RunningLiteServer> {
        const keyDir = mkdtempSync(join(tmpdir(), 'lite-client-test-'));
        keyDirs.push(keyDir);
        const running = await startLiteServer({
            keyDir,
            methods: {
                ...FIXED_METHODS,
                getBlock: async () => {
                    throw new LiteServerError(LiteErrorCode.notReady, 'block is not known yet');
                },
                getConfigAll: async () => {
                    await sleep(400);
                    throw new LiteServerError(LiteErrorCode.error, 'too late anyway');
                },
            },
            waitForMasterchainSeqno: async (seqno, timeoutMs) => {
                waits.push({ seqno, timeoutMs });
                if (seqno <= FIXED_BLOCK.seqno) return true;
                await sleep(timeoutMs);
                return false;
            },
            ...options,
        });
        servers.push(running);
        return running;
    }

    function client(target: { port: number; publicKey: Buffer }, options: Partial<LiteClientOptions> = {}): LiteClientConnection {
        const c = new LiteClientConnection({ host: '127.0.0.1', port: target.port, publicKey: target.publicKey, ...options });
        clients.push(c);
        return c;
    }

    /** After each fault: a fresh client of a well-behaved server works. */
    async function assertGoodServerWorks(): Promise<void> {
        const c = client(server);
        assert.equal((await c.query(Functions.liteServer_getTime, getTime)).now, FIXED_NOW);
        c.close();
    }

    async function withHostile(behaviour: HostileBehaviour, run: (hostile: { port: number; publicKey: Buffer }) => Promise<void>): Promise<void> {
        const hostile = await startHostileServer(behaviour);
        try {
            await run(hostile);
        } finally {
            await hostile.close();
        }
        await assertGoodServerWorks();
    }

    before(async () => {
        server = await start();
    });

    after(async () => {
        for (const c of clients) c.close();
        for (const s of servers) await s.close();
        for (const dir of keyDirs) rmSync(dir, { recursive: true, force: true });
        process.off('uncaughtException', recordUncaught);
        process.off('unhandledRejection', recordUncaught);
        assert.deepEqual(uncaught, [], 'no uncaught exceptions or unhandled rejections');
    });

    test('getTime, getVersion and getMasterchainInfo round trips (connecting lazily)', async () => {
        const c = client(server);
        const states: string[] = [c.state];
        c.on('ready', () => states.push('ready event'));
        const time = c.query(Functions.liteServer_getTime, getTime);
        states.push(c.state);
        assert.deepEqual(await time, { kind: 'liteServer.currentTime', now: FIXED_NOW });
        assert.deepEqual(await c.query(Functions.liteServer_getVersion, { kind: 'liteServer.getVersion' }), FIXED_VERSION);
        assert.deepEqual(await c.query(Functions.liteServer_getMasterchainInfo, { kind: 'liteServer.getMasterchainInfo' }), FIXED_MASTERCHAIN_INFO);
        states.push(c.state);
        assert.deepEqual(states, ['disconnected', 'connecting', 'ready event', 'ready']);
        assert.equal(c.ready, true);
        assert.equal(c.pendingQueries, 0);
    });

    test('many concurrent queries on one connection', async () => {
        const c = client(server);
        await c.connect();
        const results = await Promise.all(
            Array.from({ length: 400 }, (_, i) =>
                i % 2 === 0
                    ? c.query(Functions.liteServer_getTime, getTime).then((r) => r.now)
                    : c.query(Functions.liteServer_getMasterchainInfo, { kind: 'liteServer.getMasterchainInfo' }).then((r) => r.last.seqno),
            ),
        );
        results.forEach((value, i) => assert.equal(value, i % 2 === 0 ? FIXED_NOW : FIXED_BLOCK.seqno));
        assert.equal(c.pendingQueries, 0);
    });

    test('queryRaw sends an encoded call and returns the answer bytes', async () => {
        const c = client(server);
        const answer = await c.queryRaw(encodeCall(Functions.liteServer_getTime, getTime));
        assert.deepEqual(answer, encodeAnswer((w) => Codecs.liteServer_CurrentTime.encode({ kind: 'liteServer.currentTime', now: FIXED_NOW }, w)));
        await assert.rejects(c.queryRaw(Buffer.from('00000000', 'hex')), (err: unknown) => {
            assert.ok(err instanceof LiteServerAnswerError);
            assert.equal(err.code, LiteErrorCode.protoviolation);
            assert.equal(err.serverMessage, 'unknown query');
            return true;
        });
    });

    test('awaitSeqno sends the waitMasterchainSeqno prefix', async () => {
        const c = client(server);
        waits.length = 0;
        assert.equal((await c.query(Functions.liteServer_getTime, getTime, { awaitSeqno: FIXED_BLOCK.seqno, timeoutMs: 3000 })).now, FIXED_NOW);
        assert.equal(waits.length, 1);
        assert.equal(waits[0].seqno, FIXED_BLOCK.seqno);
        assert.ok(waits[0].timeoutMs > 2000 && waits[0].timeoutMs < 3000, `server-side wait ${waits[0].timeoutMs} ms`);
        await assert.rejects(c.query(Functions.liteServer_getTime, getTime, { awaitSeqno: FIXED_BLOCK.seqno + 1, timeoutMs: 300 }), (err: unknown) => {
            assert.ok(err instanceof LiteServerAnswerError, String(err));
            assert.equal(err.code, LiteErrorCode.timeout);
            return true;
        });
    });

    test('liteServer.error answers become LiteServerAnswerError with their code', async () => {
        const c = client(server);
        await assert.rejects(c.query(Functions.liteServer_getBlock, { kind: 'liteServer.getBlock', id: FIXED_BLOCK }), (err: unknown) => {
            assert.ok(err instanceof LiteServerAnswerError);
            assert.equal(err.code, 651);
            assert.equal(err.serverMessage, 'block is not known yet');
            return true;
        });
        await assert.rejects(c.query(Functions.liteServer_getState, { kind: 'liteServer.getState', id: FIXED_BLOCK }), { name: 'LiteServerAnswerError', code: 621 });
        assert.equal(c.ready, true, 'an error answer does not close the connection');
    });

    test('a timeout rejects with LiteTimeoutError, clears the query and leaves the connection usable', async () => {
        const c = client(server);
        await c.connect();
        const started = Date.now();
        await assert.rejects(c.query(Functions.liteServer_getConfigAll, { kind: 'liteServer.getConfigAll', mode: 0, id: FIXED_BLOCK }, { timeoutMs: 100 }), (err: unknown) => {
            assert.ok(err instanceof LiteTimeoutError);
            assert.equal(err.timeoutMs, 100);
            return true;
        });
        assert.ok(Date.now() - started < 350);
        assert.equal(c.pendingQueries, 0);
        await sleep(400); // the late liteServer.error arrives and is ignored
        assert.equal(c.ready, true);
        assert.equal((await c.query(Functions.liteServer_getTime, getTime)).now, FIXED_NOW);
    });

    test('a lost connection is reopened lazily by the next query; nothing reconnects by itself', async () => {
        const strict = await start({ idleTimeoutMs: 150 });
        const c = client(strict, { pingIntervalMs: 60_000 });
        const closes: LiteTransportError[] = [];
        c.on('close', (reason: LiteTransportError) => closes.push(reason));
        await c.connect();
        await sleep(400);
        assert.equal(closes.length, 1, 'the server dropped the idle connection');
        assert.equal(closes[0].reason, 'closed');
        assert.equal(c.state, 'disconnected', 'and no reconnect happened');
        assert.equal((await c.query(Functions.liteServer_getTime, getTime)).now, FIXED_NOW);
        assert.equal(c.state, 'ready');
    });

    test('autoConnect: false queries only after connect()', async () => {
        const c = client(server, { autoConnect: false });
        await assert.rejects(c.query(Functions.liteServer_getTime, getTime), isTransportError('not-connected'));
        await c.connect();
        assert.equal((await c.query(Functions.liteServer_getTime, getTime)).now, FIXED_NOW);
    });

    test('close() rejects pending and later queries, also while connecting', async () => {
        const c = client(server);
        await c.connect();
        const pending = c.query(Functions.liteServer_getConfigAll, { kind: 'liteServer.getConfigAll', mode: 0, id: FIXED_BLOCK }, { timeoutMs: 5000 });
        c.close();
        await assert.rejects(pending, isTransportError('closed'));
        await assert.rejects(c.query(Functions.liteServer_getTime, getTime), isTransportError('closed'));
        await assert.rejects(c.connect(), isTransportError('closed'));
        assert.equal(c.state, 'closed');

        const early = client(server);
        const first = early.query(Functions.liteServer_getTime, getTime);
        early.close();
        await assert.rejects(first, isTransportError('closed'));
    });

    test('fault: nothing listening', async () => {
        const gone = await start();
        await gone.close();
        const c = client(gone);
        await assert.rejects(c.query(Functions.liteServer_getTime, getTime), isTransportError('connect-failed'));
        assert.equal(c.state, 'disconnected');
        await assertGoodServerWorks();
    });

    test('fault: the handshake is never answered (connect timeout shorter than the query timeout)', async () => {
        await withHostile({ acceptHandshake: false }, async (hostile) => {
            const c = client(hostile, { connectTimeoutMs: 150 });
            await assert.rejects(c.query(Functions.liteServer_getTime, getTime, { timeoutMs: 5000 }), isTransportError('connect-timeout'));
            // with a shorter query timeout, the query's own timeout wins
            const d = client(hostile, { connectTimeoutMs: 5000 });
            await assert.rejects(d.query(Functions.liteServer_getTime, getTime, { timeoutMs: 100 }), LiteTimeoutError);
            d.close();
        });
    });

    test('fault: the server closes mid-answer', async () => {
        await withHostile(
            {
                onPayload: (s, payload) => {
                    const query = parseQuery(payload);
                    if (!query) return;
                    const answer = encodeAnswer((w) => Codecs.liteServer_CurrentTime.encode({ kind: 'liteServer.currentTime', now: 1 }, w));
                    const frame = s.encrypt(plainFrame(answerPayload(query.queryId, answer)));
                    s.socket.end(frame.subarray(0, frame.length - 10));
                },
            },
            async (hostile) => {
                const c = client(hostile);
                await assert.rejects(c.query(Functions.liteServer_getTime, getTime), isTransportError('closed'));
            },
        );
    });

    test('fault: garbage after the handshake', async () => {
        await withHostile(
            {
                onPayload: (s, payload) => {
                    if (!parseQuery(payload)) return;
                    const keystream = s.keystream(4);
                    // Random bytes whose first word, as the client decrypts it, is not a valid frame length.
                    for (;;) {
                        const garbage = randomBytes(64);
                        const length = (garbage.readUInt32LE(0) ^ keystream.readUInt32LE(0)) >>> 0;
                        if (length >= 64 && length <= 2 ** 24) continue;
                        s.socket.write(garbage);
                        break;
                    }
                },
            },
            async (hostile) => {
                const c = client(hostile);
                await assert.rejects(c.query(Functions.liteServer_getTime, getTime), isTransportError('protocol'));
            },
        );
    });

    test('fault: a valid frame with an undecodable payload closes the connection', async () => {
        await withHostile(
            {
                onPayload: (s, payload) => {
                    if (parseQuery(payload)) s.sendFrame(Buffer.from('definitely not TL'));
                },
            },
            async (hostile) => {
                const c = client(hostile);
                await assert.rejects(c.query(Functions.liteServer_getTime, getTime), isTransportError('protocol'));
                assert.equal(c.state, 'disconnected');
            },
        );
    });

    test('fault: an answer that does not decode as the result fails that query only', async () => {
        const validTime = encodeAnswer((w) => Codecs.liteServer_CurrentTime.encode({ kind: 'liteServer.currentTime', now: 7 }, w));
        const answers = [
            validTime.subarray(0, 6), // truncated
            Buffer.concat([validTime, Buffer.alloc(4)]), // trailing bytes
            encodeAnswer((w) => Codecs.liteServer_Version.encode(FIXED_VERSION, w)), // another type
            Buffer.from('ffffffff', 'hex'),
            encodeLiteError(651, 'x').subarray(0, 9), // a truncated liteServer.error
            validTime,
        ];
        let next = 0;
        await withHostile(
            {
                onPayload: (s, payload) => {
                    const query = parseQuery(payload);
                    if (query) s.sendFrame(answerPayload(query.queryId, answers[next++]));
                },
            },
            async (hostile) => {
                const c = client(hostile);
                for (let i = 0; i < answers.length - 1; i++) {
                    await assert.rejects(c.query(Functions.liteServer_getTime, getTime), (err: unknown) => {
                        assert.ok(err instanceof LiteDecodeError, `answer ${i}: ${String(err)}`);
                        assert.equal(err.reason, 'bad-answer');
                        return true;
                    });
                    assert.equal(c.state, 'ready');
                }
                assert.equal((await c.query(Functions.liteServer_getTime, getTime)).now, 7);
            },
        );
    });

    test('the bytes sent are a liteServer.query, with the prefix when awaitSeqno is given', async () => {
        let received: Buffer[] = [];
        await withHostile(
            {
                onPayload: (s, payload) => {
                    const query = parseQuery(payload);
                    if (!query) return;
                    received.push(Buffer.from(query.query));
                    s.sendFrame(answerPayload(query.queryId, encodeAnswer((w) => Codecs.liteServer_CurrentTime.encode({ kind: 'liteServer.currentTime', now: 1 }, w))));
                },
            },
            async (hostile) => {
                const c = client(hostile);
                await c.query(Functions.liteServer_getTime, getTime);
                await c.query(Functions.liteServer_getTime, getTime, { awaitSeqno: 99, timeoutMs: 1000 });
                const call = encodeCall(Functions.liteServer_getTime, getTime);
                assert.deepEqual(received[0], liteQuery(call));
                const prefixed = received[1];
                const waitMs = prefixed.readInt32LE(4 + 1 + 8);
                assert.ok(waitMs > 800 && waitMs <= 900, `wait ${waitMs}`);
                assert.deepEqual(prefixed, liteQuery(Buffer.concat([waitPrefix(99, waitMs), call])));
                received = [];
            },
        );
    });
});
