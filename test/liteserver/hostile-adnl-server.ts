/**
 * Misbehaving ADNL servers for the client's fault tests: plain `net` servers that do the real
 * handshake (with the server's own code) and then send whatever the test wants.
 */
import { createHash, randomBytes } from 'node:crypto';
import { createServer, type AddressInfo, type Server, type Socket } from 'node:net';
import { encodeFrame, FrameDecoder } from '../../src/liteserver/adnl/frames.ts';
import { acceptHandshake, HANDSHAKE_LENGTH, type SessionCiphers } from '../../src/liteserver/adnl/handshake.ts';
import { serverKeyFromSeed } from '../../src/liteserver/adnl/server-key.ts';
import { tlBytes } from '../../src/liteserver/tl/tl-reader.ts';

export interface HostileSession {
    readonly socket: Socket;
    /** A well-formed frame. */
    sendFrame(payload: Buffer): void;
    /** Writes `plain` through the outgoing CTR stream (for hand-made frames). */
    sendEncrypted(plain: Buffer): void;
    /** Encrypts `plain` with the outgoing CTR stream without writing it. */
    encrypt(plain: Buffer): Buffer;
    /** The next `length` bytes of the outgoing key stream (consumes them). */
    keystream(length: number): Buffer;
}

export interface HostileBehaviour {
    /** Whether to read and accept the handshake at all. Default true. */
    acceptHandshake?: boolean;
    /** Called once the handshake is in; default: send the empty "accepted" frame. */
    onHandshake?: (session: HostileSession) => void;
    /** Each frame the client sends after the handshake (pings included). */
    onPayload?: (session: HostileSession, payload: Buffer) => void;
}

export interface HostileServer {
    readonly port: number;
    readonly publicKey: Buffer;
    /** Payloads received from clients, in order. */
    readonly received: Buffer[];
    close(): Promise<void>;
}

export async function startHostileServer(behaviour: HostileBehaviour): Promise<HostileServer> {
    const key = serverKeyFromSeed(randomBytes(32));
    const received: Buffer[] = [];
    const sockets = new Set<Socket>();
    const server: Server = createServer((socket) => {
        sockets.add(socket);
        socket.on('close', () => sockets.delete(socket));
        socket.on('error', () => {});
        if (behaviour.acceptHandshake === false) return; // read nothing, answer nothing
        let pending = Buffer.alloc(0);
        let session: { ciphers: SessionCiphers; decoder: FrameDecoder; api: HostileSession } | undefined;
        socket.on('data', (chunk: Buffer) => {
            try {
                receive(chunk);
            } catch {
                socket.destroy();
            }
        });
        function receive(chunk: Buffer): void {
            if (!session) {
                pending = Buffer.concat([pending, chunk]);
                if (pending.length < HANDSHAKE_LENGTH) return;
                const ciphers = acceptHandshake(pending.subarray(0, HANDSHAKE_LENGTH), key);
                const api: HostileSession = {
                    socket,
                    sendFrame: (payload) => socket.write(encodeFrame(payload, ciphers.encryptOutgoing)),
                    sendEncrypted: (plain) => socket.write(ciphers.encryptOutgoing.update(plain)),
                    encrypt: (plain) => ciphers.encryptOutgoing.update(plain),
                    keystream: (length) => ciphers.encryptOutgoing.update(Buffer.alloc(length)),
                };
                session = { ciphers, decoder: new FrameDecoder(ciphers.decryptIncoming), api };
                (behaviour.onHandshake ?? ((s) => s.sendFrame(Buffer.alloc(0))))(api);
                chunk = pending.subarray(HANDSHAKE_LENGTH);
            }
            if (socket.destroyed) return;
            for (const payload of session.decoder.push(chunk)) {
                received.push(payload);
                behaviour.onPayload?.(session.api, payload);
            }
        }
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return {
        port: (server.address() as AddressInfo).port,
        publicKey: key.publicKey,
        received,
        close: async () => {
            const closed = new Promise<void>((resolve) => server.close(() => resolve()));
            for (const socket of sockets) socket.destroy();
            await closed;
        },
    };
}

/** The plaintext of a frame, optionally with a wrong checksum or a forged length word. */
export function plainFrame(payload: Buffer, options: { corruptChecksum?: boolean; length?: number } = {}): Buffer {
    const header = Buffer.alloc(4);
    header.writeUInt32LE(options.length ?? payload.length + 64);
    const nonce = randomBytes(32);
    const checksum = createHash('sha256').update(nonce).update(payload).digest();
    if (options.corruptChecksum) checksum[0] ^= 0xff;
    return Buffer.concat([header, nonce, payload, checksum]);
}

const TCP_PING = 0x4d082b9a | 0;
const ADNL_MESSAGE_QUERY = 0xb48bf97a | 0;
const ADNL_MESSAGE_ANSWER = Buffer.from('1684ac0f', 'hex');

/** The query id and lite query of an `adnl.message.query`, or undefined for anything else (pings). */
export function parseQuery(payload: Buffer): { queryId: Buffer; query: Buffer } | undefined {
    if (payload.length < 4 || payload.readInt32LE(0) !== ADNL_MESSAGE_QUERY) return undefined;
    const queryId = payload.subarray(4, 36);
    let length = payload[36];
    let start = 37;
    if (length === 254) {
        length = payload.readUIntLE(37, 3);
        start = 40;
    }
    return { queryId, query: payload.subarray(start, start + length) };
}

export function isPing(payload: Buffer): boolean {
    return payload.length === 12 && payload.readInt32LE(0) === TCP_PING;
}

export function answerPayload(queryId: Buffer, answer: Buffer): Buffer {
    return Buffer.concat([ADNL_MESSAGE_ANSWER, queryId, tlBytes(answer)]);
}
