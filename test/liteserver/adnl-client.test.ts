import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { createServer, type AddressInfo } from 'node:net';
import { AdnlClientConnection, createClientHandshake, type AdnlClientOptions } from '../../src/liteserver/adnl/adnl-client.ts';
import { encodePing, encodeQuery, parseInboundMessage, parseServerMessage, encodeAnswer, encodePong } from '../../src/liteserver/adnl/adnl-messages.ts';
import { AdnlServer } from '../../src/liteserver/adnl/adnl-server.ts';
import { encodeFrame, FrameDecoder } from '../../src/liteserver/adnl/frames.ts';
import { acceptHandshake } from '../../src/liteserver/adnl/handshake.ts';
import { serverKeyFromSeed } from '../../src/liteserver/adnl/server-key.ts';
import { LiteTimeoutError, LiteTransportError, type LiteTransportReason } from '../../src/liteserver/lite-client-errors.ts';
import { TlDecodeError } from '../../src/liteserver/tl/tl-reader.ts';
import { answerPayload, isPing, parseQuery, plainFrame, startHostileServer, type HostileBehaviour, type HostileServer } from './hostile-adnl-server.ts';

// Whatever the server does, the client must never throw out of an event handler.
const uncaught: unknown[] = [];
const recordUncaught = (err: unknown) => uncaught.push(err);
process.on('uncaughtException', recordUncaught);
process.on('unhandledRejection', recordUncaught);

const key = serverKeyFromSeed(randomBytes(32));
const echo = async (query: Buffer) => Buffer.concat([Buffer.from('echo:'), query]);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function isTransportError(reason: LiteTransportReason) {
    return (err: unknown) => {
        assert.ok(err instanceof LiteTransportError, `expected LiteTransportError, got ${String(err)}`);
        assert.equal(err.reason, reason, `reason of "${err.message}"`);
        return true;
    };
}

describe('ADNL client: handshake and messages', () => {
    test('the handshake is accepted by the server side and both streams line up', () => {
        const client = createClientHandshake(key.publicKey);
        assert.equal(client.packet.length, 256);
        const server = acceptHandshake(client.packet, key);
        const serverDecoder = new FrameDecoder(server.decryptIncoming);
        for (let i = 0; i < 3; i++) {
            const down = randomBytes(100 + i);
            assert.deepEqual(client.decoder.push(encodeFrame(down, server.encryptOutgoing)), [down]);
            const up = randomBytes(50 + i);
            assert.deepEqual(serverDecoder.push(encodeFrame(up, client.encryptOutgoing)), [up]);
        }
    });

    test('a handshake for another key is refused by the server', () => {
        const other = serverKeyFromSeed(randomBytes(32));
        assert.throws(() => acceptHandshake(createClientHandshake(other.publicKey).packet, key));
    });

    test('client messages parse on the server side, server messages on the client side', () => {
        const queryId = randomBytes(32);
        const randomId = randomBytes(8);
        assert.deepEqual(parseInboundMessage(encodeQuery(queryId, Buffer.from('hello'))), { kind: 'query', queryId, query: Buffer.from('hello') });
        assert.deepEqual(parseInboundMessage(encodePing(randomId)), { kind: 'ping', randomId });
        assert.deepEqual(parseServerMessage(encodeAnswer(queryId, Buffer.alloc(300, 7))), { kind: 'answer', queryId, answer: Buffer.alloc(300, 7) });
        assert.deepEqual(parseServerMessage(encodePong(randomId)), { kind: 'pong', randomId });
        assert.deepEqual(parseServerMessage(Buffer.alloc(0)), { kind: 'keepalive' });
        assert.throws(() => parseServerMessage(encodeQuery(queryId, Buffer.from('x'))), TlDecodeError);
        assert.throws(() => parseServerMessage(encodeAnswer(queryId, Buffer.alloc(10)).subarray(0, 40)), TlDecodeError);
        assert.throws(() => parseServerMessage(Buffer.concat([encodeAnswer(queryId, Buffer.alloc(4)), Buffer.alloc(4)])), TlDecodeError);
        assert.throws(() => parseServerMessage(Buffer.from([1, 2, 3])), TlDecodeError);
    });

    test('an unusable server key fails before connecting', () => {
        const notAPoint = Buffer.alloc(32);
        notAPoint[0] = 1; // y = 1 has no Montgomery counterpart
        assert.throws(() => new AdnlClientConnection({ host: '127.0.0.1', port: 1, publicKey: notAPoint }), isTransportError('handshake'));
        assert.throws(() => new AdnlClientConnection({ host: '127.0.0.1', port: 1, publicKey: Buffer.alloc(31) }), isTransportError('handshake'));
    });
});

describe('ADNL client against the ADNL server', () => {
    let server: AdnlServer;
    const open: AdnlClientConnection[] = [];

    async function connect(options: Partial<AdnlClientOptions> = {}, port = server.port, publicKey = key.publicKey): Promise<AdnlClientConnection> {
        const connection = await AdnlClientConnection.open({ host: '127.0.0.1', port, publicKey, ...options });
        open.push(connection);
        return connection;
    }

    /** After each fault: a fresh connection to a well-behaved server works. */
    async function assertGoodServerWorks(): Promise<void> {
        const connection = await connect();
        assert.deepEqual(await connection.query(Buffer.from('ok'), 2000), Buffer.from('echo:ok'));
        connection.close();
    }

    async function withHostile(behaviour: HostileBehaviour, run: (hostile: HostileServer) => Promise<void>): Promise<void> {
        const hostile = await startHostileServer(behaviour);
        try {
            await run(hostile);
        } finally {
            await hostile.close();
        }
        await assertGoodServerWorks();
    }

    before(async () => {
        server = await AdnlServer.start({ key, handler: echo, maxInFlightQueriesPerConnection: 16 });
    });

    after(async () => {
        for (const connection of open) connection.close();
        await server.close();
        process.off('uncaughtException', recordUncaught);
        process.off('unhandledRejection', recordUncaught);
        assert.deepEqual(uncaught, [], 'no uncaught exceptions or unhandled rejections');
    });

    test('queries are answered and matched by query id, also many at once', async () => {
        const connection = await connect();
        assert.equal(connection.state, 'ready');
        assert.deepEqual(await connection.query(Buffer.from('a'), 2000), Buffer.from('echo:a'));
        const queries = Array.from({ length: 300 }, (_, i) => Buffer.from(`q${i}-${'x'.repeat(i)}`));
        const answers = await Promise.all(queries.map((q) => connection.query(q, 5000)));
        answers.forEach((answer, i) => assert.deepEqual(answer, Buffer.concat([Buffer.from('echo:'), queries[i]])));
        const big = randomBytes(1 << 20);
        assert.deepEqual(await connection.query(big, 5000), Buffer.concat([Buffer.from('echo:'), big]));
        assert.equal(connection.pendingQueries, 0);
        connection.close();
    });

    test('close() rejects pending queries and emits close once', async () => {
        const slow = await AdnlServer.start({ key, handler: () => new Promise(() => {}) });
        try {
            const connection = await connect({}, slow.port);
            const reasons: LiteTransportError[] = [];
            connection.on('close', (reason: LiteTransportError) => reasons.push(reason));
            const pending = [connection.query(Buffer.from('1'), 10_000), connection.query(Buffer.from('2'), 10_000)];
            connection.close();
            connection.close();
            for (const p of pending) await assert.rejects(p, isTransportError('closed'));
            await assert.rejects(connection.query(Buffer.from('3'), 1000), isTransportError('closed'));
            assert.equal(connection.state, 'closed');
            assert.equal(connection.pendingQueries, 0);
            assert.equal(reasons.length, 1);
        } finally {
            await slow.close();
        }
    });

    test('a query timeout rejects with LiteTimeoutError and leaves the connection usable', async () => {
        let calls = 0;
        const handler = async (query: Buffer) => {
            if (calls++ === 0) await sleep(300);
            return query;
        };
        const slowOnce = await AdnlServer.start({ key, handler });
        try {
            const connection = await connect({}, slowOnce.port);
            const started = Date.now();
            await assert.rejects(connection.query(Buffer.from('slow'), 100), LiteTimeoutError);
            assert.ok(Date.now() - started < 280);
            assert.equal(connection.pendingQueries, 0, 'the timed-out query is forgotten');
            await sleep(300); // its late answer arrives and is ignored
            assert.equal(connection.state, 'ready');
            assert.deepEqual(await connection.query(Buffer.from('fast'), 1000), Buffer.from('fast'));
            connection.close();
        } finally {
            await slowOnce.close();
        }
    });

    test('idle connections are kept alive with tcp.ping', async () => {
        const strict = await AdnlServer.start({ key, handler: echo, idleTimeoutMs: 200 });
        try {
            const pinging = await connect({ pingIntervalMs: 50, pingTimeoutMs: 500 }, strict.port);
            const silent = await connect({ pingIntervalMs: 60_000 }, strict.port);
            const silentClosed = new Promise<LiteTransportError>((resolve) => silent.once('close', resolve));
            await sleep(600);
            assert.equal(pinging.state, 'ready', 'pings kept the server from closing it');
            assert.equal((await silentClosed).reason, 'closed', 'the server closed the silent one');
            assert.deepEqual(await pinging.query(Buffer.from('still'), 1000), Buffer.from('echo:still'));
            pinging.close();
        } finally {
            await strict.close();
        }
    });

    test('a server that stops answering (not even pongs) is given up after the ping timeout', async () => {
        await withHostile({ onPayload: () => {} }, async (hostile) => {
            const connection = await connect({ pingIntervalMs: 50, pingTimeoutMs: 100 }, hostile.port, hostile.publicKey);
            const started = Date.now();
            await assert.rejects(connection.query(Buffer.from('x'), 10_000), isTransportError('ping-timeout'));
            assert.ok(Date.now() - started < 2000);
            assert.ok(hostile.received.some(isPing), 'a ping was sent');
        });
    });

    test('fault: nothing listening on the port', async () => {
        const probe = createServer();
        await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
        const port = (probe.address() as AddressInfo).port;
        await new Promise<void>((resolve) => probe.close(() => resolve()));
        await assert.rejects(connect({}, port), isTransportError('connect-failed'));
        await assertGoodServerWorks();
    });

    test('fault: the server never answers the handshake', async () => {
        await withHostile({ acceptHandshake: false }, async (hostile) => {
            const started = Date.now();
            await assert.rejects(connect({ connectTimeoutMs: 200 }, hostile.port, hostile.publicKey), isTransportError('connect-timeout'));
            assert.ok(Date.now() - started < 1500);
        });
    });

    test('fault: the server closes the connection during the handshake', async () => {
        await withHostile({ onHandshake: (s) => s.socket.destroy() }, async (hostile) => {
            await assert.rejects(connect({}, hostile.port, hostile.publicKey), isTransportError('closed'));
        });
    });

    test('fault: a non-empty first frame is a bad handshake', async () => {
        await withHostile({ onHandshake: (s) => s.sendFrame(Buffer.from('hello')) }, async (hostile) => {
            await assert.rejects(connect({}, hostile.port, hostile.publicKey), isTransportError('handshake'));
        });
    });

    test('fault: garbage instead of the handshake reply', async () => {
        await withHostile({ onHandshake: (s) => s.socket.write(invalidLengthGarbage(s.keystream(4))) }, async (hostile) => {
            await assert.rejects(connect({}, hostile.port, hostile.publicKey), isTransportError('protocol'));
        });
    });

    test('fault: the connection closes mid-answer, after part of a frame', async () => {
        const behaviour: HostileBehaviour = {
            onPayload: (s, payload) => {
                const query = parseQuery(payload);
                if (!query) return;
                const frame = s.encrypt(plainFrame(answerPayload(query.queryId, Buffer.alloc(500, 1))));
                s.socket.write(frame.subarray(0, 200));
                setTimeout(() => s.socket.destroy(), 20);
            },
        };
        await withHostile(behaviour, async (hostile) => {
            const connection = await connect({}, hostile.port, hostile.publicKey);
            const reasons: LiteTransportError[] = [];
            connection.on('close', (reason: LiteTransportError) => reasons.push(reason));
            const queries = [connection.query(Buffer.from('a'), 5000), connection.query(Buffer.from('b'), 5000)];
            for (const q of queries) await assert.rejects(q, isTransportError('closed'));
            assert.equal(connection.state, 'closed');
            assert.equal(reasons.length, 1);
        });
    });

    test('fault: garbage after the handshake', async () => {
        const behaviour: HostileBehaviour = {
            onPayload: (s, payload) => {
                if (parseQuery(payload)) s.socket.write(invalidLengthGarbage(s.keystream(4)));
            },
        };
        await withHostile(behaviour, async (hostile) => {
            const connection = await connect({}, hostile.port, hostile.publicKey);
            await assert.rejects(connection.query(Buffer.from('a'), 5000), isTransportError('protocol'));
            assert.equal(connection.state, 'closed');
        });
    });

    test('fault: an answer frame with a bad checksum', async () => {
        const behaviour: HostileBehaviour = {
            onPayload: (s, payload) => {
                const query = parseQuery(payload);
                if (query) s.sendEncrypted(plainFrame(answerPayload(query.queryId, Buffer.from('answer')), { corruptChecksum: true }));
            },
        };
        await withHostile(behaviour, async (hostile) => {
            const connection = await connect({}, hostile.port, hostile.publicKey);
            await assert.rejects(connection.query(Buffer.from('a'), 5000), (err: unknown) => {
                isTransportError('protocol')(err);
                assert.match((err as Error).message, /checksum/);
                return true;
            });
        });
    });

    test('fault: an oversized frame length', async () => {
        const behaviour: HostileBehaviour = {
            onPayload: (s, payload) => {
                if (parseQuery(payload)) s.sendEncrypted(plainFrame(Buffer.alloc(16), { length: 2 ** 24 + 1 }));
            },
        };
        await withHostile(behaviour, async (hostile) => {
            const connection = await connect({}, hostile.port, hostile.publicKey);
            await assert.rejects(connection.query(Buffer.from('a'), 5000), isTransportError('protocol'));
        });
    });

    for (const [name, bad] of [
        ['an unknown constructor', (_queryId: Buffer) => randomBytes(40)],
        ['a query from the server', (queryId: Buffer) => encodeQuery(queryId, Buffer.from('?'))],
        ['a truncated adnl.message.answer', (queryId: Buffer) => answerPayload(queryId, Buffer.alloc(100)).subarray(0, 60)],
        ['an adnl.message.answer with trailing bytes', (queryId: Buffer) => Buffer.concat([answerPayload(queryId, Buffer.alloc(8)), Buffer.alloc(4)])],
        ['a short tcp.pong', (_queryId: Buffer) => Buffer.from('03fb69dc0102', 'hex')],
    ] as const) {
        test(`fault: a valid frame whose payload is undecodable (${name})`, async () => {
            const behaviour: HostileBehaviour = {
                onPayload: (s, payload) => {
                    const query = parseQuery(payload);
                    if (query) s.sendFrame(bad(query.queryId));
                },
            };
            await withHostile(behaviour, async (hostile) => {
                const connection = await connect({}, hostile.port, hostile.publicKey);
                await assert.rejects(connection.query(Buffer.from('a'), 5000), isTransportError('protocol'));
            });
        });
    }

    test('answers with unknown query ids, keepalives and pongs are ignored', async () => {
        const behaviour: HostileBehaviour = {
            onPayload: (s, payload) => {
                const query = parseQuery(payload);
                if (!query) return;
                s.sendFrame(answerPayload(randomBytes(32), Buffer.from('stray')));
                s.sendFrame(Buffer.alloc(0));
                s.sendFrame(encodePong(randomBytes(8)));
                s.sendFrame(answerPayload(query.queryId, Buffer.from('right')));
            },
        };
        await withHostile(behaviour, async (hostile) => {
            const connection = await connect({}, hostile.port, hostile.publicKey);
            assert.deepEqual(await connection.query(Buffer.from('a'), 5000), Buffer.from('right'));
            connection.close();
        });
    });
});

/** Random bytes whose first word, under the client's key stream `keystream`, is not a valid frame length. */
function invalidLengthGarbage(keystream: Buffer): Buffer {
    for (;;) {
        const garbage = randomBytes(64);
        const length = (garbage.readUInt32LE(0) ^ keystream.readUInt32LE(0)) >>> 0;
        if (length < 64 || length > 2 ** 24) return garbage;
    }
}
