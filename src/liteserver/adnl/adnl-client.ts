/**
 * One ADNL-over-TCP client connection (the counterpart of adnl-connection.ts): an ephemeral ed25519
 * key, the 256-byte handshake addressed to the server's key id, the server's empty first frame as
 * "accepted", then frames both ways; queries are matched to answers by their 32-byte query id, and
 * an idle connection is kept alive (and checked) with tcp.ping.
 *
 * A connection is used once: after it closes, open a new one. Nothing here throws out of a socket
 * event or a timer: every bad input closes the connection with a LiteTransportError, which rejects
 * the open() promise and every pending query, and is passed to the 'close' event.
 */
import { createCipheriv, createDecipheriv, createHash, randomBytes, type Cipher } from 'node:crypto';
import { EventEmitter } from 'node:events';
import { connect as tcpConnect, type Socket } from 'node:net';
import { LiteTimeoutError, LiteTransportError } from '../lite-client-errors.ts';
import { encodePing, encodeQuery, parseServerMessage, QUERY_OVERHEAD } from './adnl-messages.ts';
import { encodeFrame, FrameDecoder, MAX_FRAME_PAYLOAD } from './frames.ts';
import { HANDSHAKE_LENGTH } from './handshake.ts';
import { adnlKeyId } from './server-key.ts';
import { adnlSharedSecret, generateEphemeralAdnlKey } from './x25519.ts';

export interface AdnlClientOptions {
    host: string;
    port: number;
    /** The server's 32-byte ed25519 public key (global config `id.key`). */
    publicKey: Buffer;
    /** TCP connect plus the server's handshake reply. Default 10 s. */
    connectTimeoutMs?: number;
    /** A tcp.ping goes out after this long without any frame from the server. Default 5 s. */
    pingIntervalMs?: number;
    /** The connection is closed when nothing (not even the pong) arrives this long after the ping. Default 10 s. */
    pingTimeoutMs?: number;
}

export type AdnlClientState = 'connecting' | 'ready' | 'closed';

/** The bytes and ciphers of a client's handshake; exported for tests. */
export interface ClientHandshake {
    readonly packet: Buffer;
    readonly encryptOutgoing: Cipher;
    readonly decoder: FrameDecoder;
}

/**
 * Builds the 256-byte handshake: key id ‖ our ephemeral ed25519 key ‖ sha256(P) ‖ P encrypted with
 * AES-256-CTR under a key and IV mixed from the shared secret and the digest. P's 160 random bytes
 * give the two session streams: we receive with P[0..32]/P[64..80] and send with P[32..64]/P[80..96].
 * Throws when the server key is not a usable ed25519 point.
 */
export function createClientHandshake(serverPublicKey: Buffer): ClientHandshake {
    if (serverPublicKey.length !== 32) throw new Error(`server public key must be 32 bytes, got ${serverPublicKey.length}`);
    const own = generateEphemeralAdnlKey();
    const shared = adnlSharedSecret(own.x25519PrivateKey, serverPublicKey);
    const params = randomBytes(160);
    const digest = createHash('sha256').update(params).digest();
    const key = Buffer.concat([shared.subarray(0, 16), digest.subarray(16, 32)]);
    const iv = Buffer.concat([digest.subarray(0, 4), shared.subarray(20, 32)]);
    const encryptedParams = createCipheriv('aes-256-ctr', key, iv).update(params);
    const packet = Buffer.concat([adnlKeyId(serverPublicKey), own.ed25519PublicKey, digest, encryptedParams]);
    if (packet.length !== HANDSHAKE_LENGTH) throw new Error('internal: handshake length');
    return {
        packet,
        encryptOutgoing: createCipheriv('aes-256-ctr', params.subarray(32, 64), params.subarray(80, 96)),
        decoder: new FrameDecoder(createDecipheriv('aes-256-ctr', params.subarray(0, 32), params.subarray(64, 80))),
    };
}

interface PendingQuery {
    resolve: (answer: Buffer) => void;
    reject: (err: Error) => void;
    timer: NodeJS.Timeout;
}

/** The largest lite query (the bytes inside adnl.message.query) that fits in one frame. */
export const MAX_QUERY_LENGTH = MAX_FRAME_PAYLOAD - QUERY_OVERHEAD;

/**
 * Events: 'close' (reason: LiteTransportError), emitted once, whether the connection was ready or
 * still connecting.
 */
export class AdnlClientConnection extends EventEmitter {
    private readonly socket: Socket;
    private readonly handshake: ClientHandshake;
    private readonly pending = new Map<string, PendingQuery>();
    private readonly pingIntervalMs: number;
    private readonly pingTimeoutMs: number;
    private stateValue: AdnlClientState = 'connecting';
    private reason: LiteTransportError | undefined;
    private connectTimer: NodeJS.Timeout | undefined;
    private keepaliveTimer: NodeJS.Timeout | undefined;
    private lastReceivedAt = 0;
    private lastPingAt = 0;
    private tcpConnected = false;
    private readonly opened: Promise<void>;
    private settleOpen!: { resolve: () => void; reject: (err: Error) => void };

    /**
     * Connects and resolves once the server accepted the handshake; rejects with a
     * LiteTransportError (`connect-failed`, `connect-timeout`, `handshake`, `protocol`, `closed`).
     */
    static async open(options: AdnlClientOptions): Promise<AdnlClientConnection> {
        const connection = new AdnlClientConnection(options);
        await connection.whenReady();
        return connection;
    }

    /**
     * Starts connecting at once; see `whenReady()`. Throws LiteTransportError `handshake` (and
     * opens nothing) when `publicKey` is not a usable ed25519 key.
     */
    constructor(options: AdnlClientOptions) {
        let handshake: ClientHandshake;
        try {
            handshake = createClientHandshake(options.publicKey);
        } catch (err) {
            throw new LiteTransportError('handshake', `unusable server public key: ${(err as Error).message}`, { cause: err });
        }
        super();
        this.handshake = handshake;
        this.pingIntervalMs = options.pingIntervalMs ?? 5_000;
        this.pingTimeoutMs = options.pingTimeoutMs ?? 10_000;
        this.opened = new Promise<void>((resolve, reject) => {
            this.settleOpen = { resolve, reject };
        });
        // open() awaits it; a rejection must not also count as unhandled when nobody else listens.
        this.opened.catch(() => {});
        try {
            this.socket = tcpConnect({ host: options.host, port: options.port });
        } catch (err) {
            // e.g. a port out of range: nothing was opened and no timer is running yet.
            throw new LiteTransportError('connect-failed', `cannot connect: ${(err as Error).message}`, { cause: err });
        }
        this.socket.setNoDelay(true);
        this.socket.on('connect', () => this.onConnect());
        this.socket.on('data', (chunk: Buffer) => this.onData(chunk));
        this.socket.on('error', (err: NodeJS.ErrnoException) => this.onSocketError(err));
        this.socket.on('close', () => this.fail(new LiteTransportError('closed', this.closedMessage())));
        const connectTimeoutMs = options.connectTimeoutMs ?? 10_000;
        this.connectTimer = setTimeout(() => {
            const stage = this.tcpConnected ? 'handshake reply' : 'TCP connection';
            this.fail(new LiteTransportError('connect-timeout', `no ${stage} from ${options.host}:${options.port} within ${connectTimeoutMs} ms`));
        }, connectTimeoutMs);
    }

    /** Resolves once the server accepted the handshake; rejects with the close reason if it closes first. */
    whenReady(): Promise<void> {
        return this.opened;
    }

    get state(): AdnlClientState {
        return this.stateValue;
    }

    /** Why the connection closed; undefined while it is open. */
    get closeReason(): LiteTransportError | undefined {
        return this.reason;
    }

    get pendingQueries(): number {
        return this.pending.size;
    }

    /**
     * Sends `query` (the bytes carried by adnl.message.query) and resolves with the answer's bytes.
     * Rejects with LiteTimeoutError after `timeoutMs` (the pending entry and its timer are removed;
     * a late answer is ignored) or with the connection's LiteTransportError when it closes first.
     */
    query(query: Buffer, timeoutMs: number): Promise<Buffer> {
        if (this.stateValue !== 'ready') {
            return Promise.reject(this.reason ?? new LiteTransportError('not-connected', 'the ADNL connection is not ready yet'));
        }
        if (query.length > MAX_QUERY_LENGTH) {
            return Promise.reject(new LiteTransportError('too-large', `query of ${query.length} bytes does not fit in an ADNL frame`));
        }
        let queryId = randomBytes(32);
        while (this.pending.has(queryId.toString('hex'))) queryId = randomBytes(32);
        const key = queryId.toString('hex');
        return new Promise<Buffer>((resolve, reject) => {
            const timer = setTimeout(() => {
                if (this.pending.delete(key)) reject(new LiteTimeoutError(timeoutMs));
            }, Math.max(0, timeoutMs));
            this.pending.set(key, { resolve, reject, timer });
            this.send(encodeQuery(queryId, query));
        });
    }

    /** Ends the connection; pending queries (and a pending open) reject with LiteTransportError `closed`. */
    close(message = 'connection closed by the client'): void {
        this.fail(new LiteTransportError('closed', message));
    }

    private onConnect(): void {
        if (this.stateValue === 'closed') return;
        this.tcpConnected = true;
        this.socket.write(this.handshake.packet);
    }

    private onData(chunk: Buffer): void {
        if (this.stateValue === 'closed') return;
        this.lastReceivedAt = Date.now();
        let payloads: Buffer[];
        try {
            payloads = this.handshake.decoder.push(chunk);
        } catch (err) {
            this.fail(new LiteTransportError('protocol', `bad frame from the server: ${(err as Error).message}`, { cause: err }));
            return;
        }
        for (const payload of payloads) {
            // Handling one payload may have closed the connection.
            if ((this.stateValue as AdnlClientState) === 'closed') return;
            if (this.stateValue === 'connecting') this.acceptFirstFrame(payload);
            else this.handlePayload(payload);
        }
    }

    /** The server's first frame must be empty: that is how it says the handshake was accepted. */
    private acceptFirstFrame(payload: Buffer): void {
        if (payload.length !== 0) {
            this.fail(new LiteTransportError('handshake', `bad handshake: the server's first frame carries ${payload.length} bytes`));
            return;
        }
        clearTimeout(this.connectTimer);
        this.connectTimer = undefined;
        this.stateValue = 'ready';
        this.startKeepalive();
        this.settleOpen.resolve();
    }

    private handlePayload(payload: Buffer): void {
        let message: ReturnType<typeof parseServerMessage>;
        try {
            message = parseServerMessage(payload);
        } catch (err) {
            this.fail(new LiteTransportError('protocol', `undecodable ADNL message from the server: ${(err as Error).message}`, { cause: err }));
            return;
        }
        if (message.kind !== 'answer') return; // keepalive or pong: receiving it was the point
        const key = message.queryId.toString('hex');
        const query = this.pending.get(key);
        if (!query) return; // an answer to a query that timed out
        this.pending.delete(key);
        clearTimeout(query.timer);
        query.resolve(message.answer);
    }

    /**
     * Checks a few times per interval. After `pingIntervalMs` with nothing received a ping goes out
     * (once per silence); after `pingIntervalMs + pingTimeoutMs` the connection is given up.
     */
    private startKeepalive(): void {
        const tick = Math.max(10, Math.min(this.pingIntervalMs, this.pingTimeoutMs) / 4);
        this.keepaliveTimer = setInterval(() => this.checkAlive(), tick);
        this.keepaliveTimer.unref();
    }

    private checkAlive(): void {
        if (this.stateValue !== 'ready') return;
        const now = Date.now();
        const silentFor = now - this.lastReceivedAt;
        if (silentFor >= this.pingIntervalMs + this.pingTimeoutMs) {
            this.fail(new LiteTransportError('ping-timeout', `nothing from the server for ${silentFor} ms, not even a tcp.pong`));
        } else if (silentFor >= this.pingIntervalMs && this.lastPingAt <= this.lastReceivedAt) {
            this.lastPingAt = now;
            this.send(encodePing(randomBytes(8)));
        }
    }

    private send(payload: Buffer): void {
        if (this.stateValue === 'closed') return;
        try {
            this.socket.write(encodeFrame(payload, this.handshake.encryptOutgoing));
        } catch (err) {
            // Sizes are checked before; a failure here leaves the cipher stream in an unknown state.
            this.fail(new LiteTransportError('closed', `cannot send: ${(err as Error).message}`, { cause: err }));
        }
    }

    private onSocketError(err: NodeJS.ErrnoException): void {
        if (this.stateValue === 'closed') return;
        if (!this.tcpConnected) {
            const what = err.code === 'ECONNREFUSED' ? 'connection refused' : `cannot connect: ${err.message}`;
            this.fail(new LiteTransportError('connect-failed', what, { cause: err }));
        } else {
            this.fail(new LiteTransportError('closed', `connection error: ${err.message}`, { cause: err }));
        }
    }

    private closedMessage(): string {
        return this.stateValue === 'connecting' ? 'the server closed the connection during the handshake' : 'the server closed the connection';
    }

    /** The single way out: idempotent, never throws. */
    private fail(reason: LiteTransportError): void {
        if (this.stateValue === 'closed') return;
        this.stateValue = 'closed';
        this.reason = reason;
        clearTimeout(this.connectTimer);
        clearInterval(this.keepaliveTimer);
        this.connectTimer = undefined;
        this.keepaliveTimer = undefined;
        this.socket.destroy();
        const pending = [...this.pending.values()];
        this.pending.clear();
        for (const query of pending) {
            clearTimeout(query.timer);
            query.reject(reason);
        }
        this.settleOpen.reject(reason);
        try {
            this.emit('close', reason);
        } catch (err) {
            // A throwing listener is its own bug; report it the usual way, after our state is consistent.
            queueMicrotask(() => {
                throw err;
            });
        }
    }
}
