import { afterEach, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { AdnlServer, type AdnlServerOptions } from '../../src/liteserver/adnl/adnl-server.ts';
import { serverKeyFromSeed } from '../../src/liteserver/adnl/server-key.ts';
import { adnlQuery, parseAdnlAnswer } from './lite-query-bytes.ts';
import { RawAdnlClient, settlesWithin } from './raw-adnl-client.ts';

const key = serverKeyFromSeed(randomBytes(32));
const PING = Buffer.from('9a2b084d', 'hex');
const PONG = Buffer.from('03fb69dc', 'hex');
const echo = async (query: Buffer) => Buffer.concat([Buffer.from('echo:'), query]);

describe('ADNL TCP server', () => {
    let server: AdnlServer | undefined;
    const clients: RawAdnlClient[] = [];

    async function start(options: Partial<AdnlServerOptions> = {}): Promise<AdnlServer> {
        server = await AdnlServer.start({ key, handler: echo, ...options });
        return server;
    }

    async function client(options: Parameters<typeof RawAdnlClient.connect>[2] = {}): Promise<RawAdnlClient> {
        const c = await RawAdnlClient.connect(server!.port, key.publicKey, options);
        clients.push(c);
        return c;
    }

    afterEach(async () => {
        for (const c of clients.splice(0)) c.end();
        await server?.close();
        server = undefined;
    });

    test('a handshake split into pieces is accepted: empty first frame, then ping/pong', async () => {
        await start();
        const c = await client({ splitHandshakeAt: [1, 31, 32, 100, 255] });
        assert.equal((await c.nextPayload()).length, 0);
        const randomId = randomBytes(8);
        c.send(Buffer.concat([PING, randomId]));
        assert.deepEqual(await c.nextPayload(), Buffer.concat([PONG, randomId]));
    });

    test('a query in the same TCP write as the handshake is answered', async () => {
        await start();
        const queryId = randomBytes(32);
        const c = await client({ firstPayload: adnlQuery(queryId, Buffer.from('abc')) });
        await c.nextPayload();
        assert.deepEqual(parseAdnlAnswer(await c.nextPayload()), { queryId, answer: Buffer.from('echo:abc') });
    });

    test('a handshake for another key id is dropped without a frame', async () => {
        await start();
        const c = await client({ keyId: randomBytes(32) });
        assert.ok(await settlesWithin(c.closed, 2000));
        await assert.rejects(c.nextPayload(50));
    });

    test('a frame with a bad length or an unknown message closes the connection', async () => {
        await start();
        const badLength = await client();
        await badLength.nextPayload();
        badLength.socket.write(badLength.handshake.encryptOutgoing.update(Buffer.from([8, 0, 0, 0])));
        assert.ok(await settlesWithin(badLength.closed, 2000));

        const unknown = await client();
        await unknown.nextPayload();
        unknown.send(Buffer.from('not a TL message'));
        assert.ok(await settlesWithin(unknown.closed, 2000));
    });

    test('in-flight queries are capped per connection and every query is answered under its id', async () => {
        let running = 0;
        let maxRunning = 0;
        await start({
            maxInFlightQueriesPerConnection: 4,
            handler: async (query) => {
                running++;
                maxRunning = Math.max(maxRunning, running);
                await new Promise((resolve) => setTimeout(resolve, 2 + (query[0] % 5)));
                running--;
                return Buffer.concat([Buffer.from('re:'), query]);
            },
        });
        const c = await client();
        await c.nextPayload();
        const sent = new Map<string, Buffer>();
        for (let i = 0; i < 50; i++) {
            const queryId = randomBytes(32);
            const query = randomBytes(1 + i);
            sent.set(queryId.toString('hex'), query);
            c.send(adnlQuery(queryId, query));
        }
        for (let i = 0; i < 50; i++) {
            const { queryId, answer } = parseAdnlAnswer(await c.nextPayload());
            const query = sent.get(queryId.toString('hex'));
            assert.ok(query, 'answer for a query that was sent');
            assert.deepEqual(answer, Buffer.concat([Buffer.from('re:'), query]));
            sent.delete(queryId.toString('hex'));
        }
        assert.equal(maxRunning, 4);
    });

    test('a rejecting handler loses only that answer and is reported', async () => {
        const errors: unknown[] = [];
        await start({
            onError: (err) => errors.push(err),
            handler: async (query) => {
                if (query.toString() === 'fail') throw new Error('handler bug');
                return query;
            },
        });
        const c = await client();
        await c.nextPayload();
        c.send(adnlQuery(randomBytes(32), Buffer.from('fail')));
        const okId = randomBytes(32);
        c.send(adnlQuery(okId, Buffer.from('fine')));
        assert.deepEqual(parseAdnlAnswer(await c.nextPayload()), { queryId: okId, answer: Buffer.from('fine') });
        assert.equal((errors[0] as Error).message, 'handler bug');
    });

    test('an idle connection is closed after the idle timeout', async () => {
        await start({ idleTimeoutMs: 150 });
        const c = await client();
        await c.nextPayload();
        assert.ok(await settlesWithin(c.closed, 2000));
    });

    test('close() ends every connection', async () => {
        const s = await start();
        const a = await client();
        const b = await client();
        await a.nextPayload();
        await b.nextPayload();
        assert.equal(s.connectionCount, 2);
        await s.close();
        server = undefined;
        assert.ok(await settlesWithin(Promise.all([a.closed, b.closed]), 2000));
    });
});
