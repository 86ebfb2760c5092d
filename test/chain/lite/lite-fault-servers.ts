/**
 * Misbehaving liteservers for the follower's fault tests, all on real loopback sockets in front of
 * the devnet's real liteserver:
 * - a TCP proxy that forwards the handshake and cuts every connection after some bytes of answers;
 * - a transparent TCP proxy (to make a liteserver appear later on a port chosen in advance);
 * - a real liteserver (startLiteServer) whose method table forwards to the devnet's liteserver
 *   through our lite client, except getBlock, which answers another block's BOC or a flipped byte;
 * - a hostile ADNL server answering garbage after the handshake;
 * - a port with nothing listening.
 */
import { randomBytes } from 'node:crypto';
import { createServer, connect, type AddressInfo, type Server, type Socket } from 'node:net';
import { Functions, type liteServer_blockData, type tonNode_blockIdExt } from 'ton-lite-client/dist/schema.js';
import type { TLFunction } from 'ton-tl';
import { loadLiteServers, type LiteServerAddress } from '../../../src/chain/lite/global-config.ts';
import { LiteClientConnection, LiteServerAnswerError, LiteTimeoutError } from '../../../src/liteserver/lite-client.ts';
import { LiteServerError } from '../../../src/liteserver/lite-errors.ts';
import type { LiteMethodTable } from '../../../src/liteserver/lite-functions.ts';
import { startLiteServer } from '../../../src/liteserver/lite-server.ts';
import { answerPayload, isPing, parseQuery, plainFrame, startHostileServer, type HostileServer } from '../../liteserver/hostile-adnl-server.ts';
import { tempDir } from '../../helpers/stores.ts';

/** The devnet's own liteserver, as its data directory's global config names it. */
export async function devnetLiteserver(dataDir: string): Promise<LiteServerAddress> {
    const [server] = await loadLiteServers(`${dataDir}/devnet-global.config.json`);
    return server;
}

/** A loopback port nobody listens on (taken from the OS, then released). */
export async function freePort(): Promise<number> {
    const server = createServer();
    await new Promise<void>(resolve => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    await new Promise<void>(resolve => server.close(() => resolve()));
    return port;
}

export interface FaultServer {
    readonly host: string;
    readonly port: number;
    readonly publicKey: Buffer;
    /** `host:port`, as the pool and its log lines name the server. */
    readonly name: string;
    close(): Promise<void>;
}

/** The server's empty "accepted" frame after the handshake: length word, nonce, checksum. */
const HANDSHAKE_REPLY_LENGTH = 4 + 32 + 32;

export interface ProxyStats {
    connections: number;
    /** Connections cut in the middle of a server→client answer. */
    cuts: number;
}

/**
 * A TCP proxy to `target`. With `cutAfter`, each connection is cut (both sockets destroyed) once the
 * server has sent that many bytes after its handshake reply: the bytes up to the limit go through,
 * so the client sees an answer frame begin and never end.
 */
export async function startTcpProxy(target: LiteServerAddress, options: { port?: number; cutAfter?: number } = {}): Promise<FaultServer & { stats: ProxyStats; dropConnections(): void }> {
    const stats: ProxyStats = { connections: 0, cuts: 0 };
    const sockets = new Set<Socket>();
    const track = (socket: Socket) => {
        sockets.add(socket);
        socket.on('close', () => sockets.delete(socket));
        socket.on('error', () => undefined);
    };
    const server: Server = createServer(client => {
        stats.connections++;
        track(client);
        const upstream = connect(target.port, target.host);
        track(upstream);
        client.on('close', () => upstream.destroy());
        upstream.on('close', () => client.destroy());
        client.on('data', chunk => upstream.write(chunk));
        let sent = 0;
        upstream.on('data', (chunk: Buffer) => {
            if (client.destroyed) return;
            if (options.cutAfter === undefined) {
                client.write(chunk);
                return;
            }
            const limit = HANDSHAKE_REPLY_LENGTH + options.cutAfter;
            const room = limit - sent;
            if (chunk.length < room) {
                sent += chunk.length;
                client.write(chunk);
                return;
            }
            // part of this answer goes through, then the connection dies under it
            stats.cuts++;
            client.write(chunk.subarray(0, room), () => {
                client.destroy();
                upstream.destroy();
            });
            sent = limit;
        });
    });
    await new Promise<void>((resolve, reject) => {
        server.once('error', reject);
        server.listen(options.port ?? 0, '127.0.0.1', () => resolve());
    });
    const { port } = server.address() as AddressInfo;
    return {
        host: '127.0.0.1', port, publicKey: target.publicKey, name: `127.0.0.1:${port}`, stats,
        /** Destroys every open connection (a network blip); new ones are accepted as before. */
        dropConnections: () => {
            for (const socket of sockets) socket.destroy();
        },
        close: async () => {
            const closed = new Promise<void>(resolve => server.close(() => resolve()));
            for (const socket of sockets) socket.destroy();
            await closed;
        },
    };
}

export interface WrongBlockStats {
    /** getBlock answers that were another block's BOC. */
    swapped: number;
    /** getBlock answers with one byte flipped. */
    flipped: number;
}

/**
 * A real liteserver (its own key, ADNL, dispatcher) whose methods are the devnet liteserver's,
 * asked through our lite client, but whose getBlock never answers the block asked for: every other
 * answer is the previous block it was asked for (a real block, of another id), the rest the right
 * block with a byte in the middle flipped.
 */
export async function startWrongBlockServer(target: LiteServerAddress): Promise<FaultServer & { stats: WrongBlockStats }> {
    const upstream = new LiteClientConnection({ host: target.host, port: target.port, publicKey: target.publicKey });
    const stats: WrongBlockStats = { swapped: 0, flipped: 0 };
    const forward = <REQ, RES>(f: TLFunction<REQ, RES>) => async (args: REQ): Promise<RES> => {
        try {
            return await upstream.query(f, args, { timeoutMs: 30_000 });
        } catch (error) {
            // the devnet's own error answers (e.g. 651 "not ready") pass through as they are
            if (error instanceof LiteServerAnswerError) throw new LiteServerError(error.code, error.message);
            throw error;
        }
    };
    let previous: { id: tonNode_blockIdExt; data: Buffer } | null = null;
    const sameId = (a: tonNode_blockIdExt, b: tonNode_blockIdExt) => a.workchain === b.workchain && a.shard === b.shard && a.seqno === b.seqno;
    const methods: LiteMethodTable = {
        getMasterchainInfo: forward(Functions.liteServer_getMasterchainInfo),
        getMasterchainInfoExt: forward(Functions.liteServer_getMasterchainInfoExt),
        getTime: forward(Functions.liteServer_getTime),
        getVersion: forward(Functions.liteServer_getVersion),
        lookupBlock: forward(Functions.liteServer_lookupBlock),
        getBlockHeader: forward(Functions.liteServer_getBlockHeader),
        getAccountState: forward(Functions.liteServer_getAccountState),
        getConfigAll: forward(Functions.liteServer_getConfigAll),
        getLibraries: forward(Functions.liteServer_getLibraries),
        sendMessage: forward(Functions.liteServer_sendMessage),
        getBlock: async (args): Promise<liteServer_blockData> => {
            const real = await forward(Functions.liteServer_getBlock)(args);
            const other = previous && !sameId(previous.id, args.id) ? previous : null;
            previous = { id: args.id, data: real.data };
            if (other && (stats.swapped + stats.flipped) % 2 === 0) {
                stats.swapped++;
                return { ...real, data: other.data };
            }
            stats.flipped++;
            const data = Buffer.from(real.data);
            data[data.length >> 1] ^= 0x5a;
            return { ...real, data };
        },
    };
    const keys = tempDir('wrong-block-server-');
    const server = await startLiteServer({
        keyDir: keys.path, host: '127.0.0.1', port: 0, methods,
        waitForMasterchainSeqno: async (seqno, timeoutMs) => {
            try {
                await upstream.query(Functions.liteServer_getMasterchainInfo, { kind: 'liteServer.getMasterchainInfo' }, { awaitSeqno: seqno, timeoutMs });
                return true;
            } catch (error) {
                if (error instanceof LiteTimeoutError || (error instanceof LiteServerAnswerError && error.code === 652)) return false;
                if (error instanceof LiteServerAnswerError) throw new LiteServerError(error.code, error.message);
                throw error;
            }
        },
    });
    return {
        host: server.host, port: server.port, publicKey: server.publicKey, name: `${server.host}:${server.port}`, stats,
        close: async () => {
            await server.close();
            upstream.close();
            keys.remove();
        },
    };
}

export interface GarbageStats {
    /** Queries answered with a well-framed answer of random bytes. */
    randomAnswers: number;
    /** Queries answered with a frame whose checksum is wrong. */
    badFrames: number;
}

/**
 * An ADNL server that does the real handshake and answers every query with garbage: on one
 * connection an answer to the right query id whose bytes are random, on the next a frame with a
 * wrong checksum.
 */
export async function startGarbageServer(): Promise<FaultServer & { stats: GarbageStats; hostile: HostileServer }> {
    const stats: GarbageStats = { randomAnswers: 0, badFrames: 0 };
    const modes = new WeakMap<object, boolean>();
    let connections = 0;
    const hostile = await startHostileServer({
        onPayload(session, payload) {
            if (isPing(payload)) return;
            const query = parseQuery(payload);
            if (!query) return;
            let badFrame = modes.get(session.socket);
            if (badFrame === undefined) modes.set(session.socket, (badFrame = connections++ % 2 === 1));
            if (badFrame) {
                stats.badFrames++;
                session.sendEncrypted(plainFrame(answerPayload(query.queryId, randomBytes(48)), { corruptChecksum: true }));
            } else {
                stats.randomAnswers++;
                session.sendFrame(answerPayload(query.queryId, randomBytes(48)));
            }
        },
    });
    return { host: '127.0.0.1', port: hostile.port, publicKey: hostile.publicKey, name: `127.0.0.1:${hostile.port}`, stats, hostile, close: () => hostile.close() };
}
