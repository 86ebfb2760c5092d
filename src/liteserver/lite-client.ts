/**
 * A lite-API client over our ADNL client (adnl/adnl-client.ts), with ton-lite-client's call shape:
 * `query(Functions.liteServer_getTime, { kind: 'liteServer.getTime' })`. Unlike ton-lite-client's
 * engine it never throws from an event handler, rejects undecodable answers, keeps liteServer.error
 * codes, clears every timer when a query settles and has no reconnect timers.
 *
 * Reconnection is lazy: the first query (or an explicit `connect()`) opens the connection; when it
 * is lost (server closed it, garbage, ping timeout) the client goes back to 'disconnected' and the
 * next query (or `connect()`) opens a new one. Nothing reconnects in the background. `close()` is
 * final. With `autoConnect: false`, queries never connect: only `connect()` does.
 *
 * Failures, all LiteClientError subclasses (lite-client-errors.ts):
 * - LiteServerAnswerError: the server answered liteServer.error; `code` is its code;
 * - LiteTransportError: refused, closed, connect timeout, handshake or frame garbage, ping timeout;
 *   LiteDecodeError (a subclass, reason `bad-answer`) when the answer does not decode as the
 *   function's result (only that query fails);
 * - LiteTimeoutError: no answer within the query's timeout (which also bounds the wait for a connection).
 */
import { EventEmitter } from 'node:events';
import { Codecs } from 'ton-lite-client/dist/schema.js';
import type { TLFunction, TLReadBuffer } from 'ton-tl';
import { AdnlClientConnection, type AdnlClientOptions } from './adnl/adnl-client.ts';
import { LiteDecodeError, LiteServerAnswerError, LiteTimeoutError, LiteTransportError } from './lite-client-errors.ts';
import { decodeExact } from './tl/exact-decode.ts';
import { FastTlWriteBuffer } from './tl/fast-write-buffer.ts';
import { constructorId, int32LE, tlBytes } from './tl/tl-reader.ts';

export { LiteDecodeError, LiteServerAnswerError, LiteTimeoutError, LiteTransportError, type LiteTransportReason } from './lite-client-errors.ts';

const LITE_QUERY = constructorId('798c06df');
const WAIT_MASTERCHAIN_SEQNO = constructorId('baeab892');
const LITE_SERVER_ERROR = constructorId('bba9e148');

export interface LiteClientOptions extends AdnlClientOptions {
    /** For queries that give no `timeoutMs`. Default 5 s, as ton-lite-client's. */
    defaultTimeoutMs?: number;
    /** Whether a query opens the connection when there is none. Default true. */
    autoConnect?: boolean;
}

export interface LiteQueryOptions {
    /** From the call to the answer, waiting for a connection included. */
    timeoutMs?: number;
    /**
     * Adds the waitMasterchainSeqno prefix: the server answers once it has this masterchain block.
     * The server is asked to wait at most 90% of the time left, so that its 652 "timeout" answer
     * can arrive before our own timeout.
     */
    awaitSeqno?: number;
}

/**
 * - 'disconnected': no connection (never opened, or lost); the next query opens one;
 * - 'connecting': TCP connect and handshake under way;
 * - 'ready': connected;
 * - 'closed': `close()` was called; every query rejects.
 */
export type LiteClientState = 'disconnected' | 'connecting' | 'ready' | 'closed';

/**
 * Events:
 * - 'ready' (): a connection was established;
 * - 'close' (reason: LiteTransportError): a connection, or an attempt to open one, ended.
 */
export class LiteClientConnection extends EventEmitter {
    private readonly adnlOptions: AdnlClientOptions;
    private readonly defaultTimeoutMs: number;
    private readonly autoConnect: boolean;
    /** The current connection, ready or still connecting. */
    private connection: AdnlClientConnection | undefined;
    private closed = false;

    constructor(options: LiteClientOptions) {
        super();
        const { defaultTimeoutMs, autoConnect, ...adnlOptions } = options;
        this.adnlOptions = adnlOptions;
        this.defaultTimeoutMs = defaultTimeoutMs ?? 5_000;
        this.autoConnect = autoConnect ?? true;
    }

    get state(): LiteClientState {
        if (this.closed) return 'closed';
        if (!this.connection) return 'disconnected';
        return this.connection.state === 'ready' ? 'ready' : 'connecting';
    }

    get ready(): boolean {
        return this.state === 'ready';
    }

    /** `host:port`, for logs. */
    get address(): string {
        return `${this.adnlOptions.host}:${this.adnlOptions.port}`;
    }

    /**
     * Opens the connection if there is none (or joins the attempt under way) and resolves once it is
     * ready. Rejects with LiteTransportError; a failed attempt leaves the client 'disconnected'.
     */
    async connect(): Promise<void> {
        await this.currentConnection(true).whenReady();
    }

    /**
     * Runs one lite function: encodes the request with the schema's function, wraps it in
     * liteServer.query (after the waitMasterchainSeqno prefix if `awaitSeqno` is given), and decodes
     * the answer exactly as the function's result.
     */
    async query<REQ, RES>(f: TLFunction<REQ, RES>, req: REQ, opts: LiteQueryOptions = {}): Promise<RES> {
        const writer = new FastTlWriteBuffer();
        f.encodeRequest(req, writer);
        const answer = await this.queryRaw(writer.build(), opts);
        return decodeAnswer(answer, (reader) => f.decodeResponse(reader));
    }

    /**
     * The same for a function call already encoded (boxed: constructor id, then its arguments), for
     * functions the schema lacks; resolves with the answer's bytes. A liteServer.error answer
     * rejects with LiteServerAnswerError, as in `query`.
     */
    async queryRaw(call: Buffer, opts: LiteQueryOptions = {}): Promise<Buffer> {
        const timeoutMs = opts.timeoutMs ?? this.defaultTimeoutMs;
        const deadline = Date.now() + timeoutMs;
        const connection = await this.readyConnection(timeoutMs);
        const remaining = deadline - Date.now();
        if (remaining <= 0) throw new LiteTimeoutError(timeoutMs);
        let data = call;
        if (opts.awaitSeqno !== undefined) data = Buffer.concat([waitMasterchainSeqnoPrefix(opts.awaitSeqno, Math.floor(remaining * 0.9)), call]);
        let answer: Buffer;
        try {
            answer = await connection.query(Buffer.concat([int32LE(LITE_QUERY), tlBytes(data)]), remaining);
        } catch (err) {
            if (err instanceof LiteTimeoutError) throw new LiteTimeoutError(timeoutMs);
            throw err;
        }
        if (answer.length >= 4 && answer.readInt32LE(0) === LITE_SERVER_ERROR) {
            const error = decodeAnswer(answer, (reader) => Codecs.liteServer_Error.decode(reader));
            throw new LiteServerAnswerError(error.code, error.message);
        }
        return answer;
    }

    /** Ends the connection for good: pending queries reject with LiteTransportError `closed`, later ones too. */
    close(): void {
        if (this.closed) return;
        this.closed = true;
        const connection = this.connection;
        this.connection = undefined;
        connection?.close('the lite client was closed');
    }

    /** Queries currently waiting for an answer on the current connection. */
    get pendingQueries(): number {
        return this.connection?.pendingQueries ?? 0;
    }

    /** Waits for a ready connection for at most `timeoutMs` (the timer is cleared either way). */
    private async readyConnection(timeoutMs: number): Promise<AdnlClientConnection> {
        const connection = this.currentConnection(this.autoConnect);
        if (connection.state === 'ready') return connection;
        let timer: NodeJS.Timeout | undefined;
        const timedOut = new Promise<never>((_, reject) => {
            timer = setTimeout(() => reject(new LiteTimeoutError(timeoutMs, `no connection to ${this.address} within the query timeout of ${timeoutMs} ms`)), timeoutMs);
        });
        try {
            await Promise.race([connection.whenReady(), timedOut]);
            return connection;
        } finally {
            clearTimeout(timer);
        }
    }

    /** The connection to use; throws LiteTransportError when there is none and `open` is false. */
    private currentConnection(open: boolean): AdnlClientConnection {
        if (this.closed) throw new LiteTransportError('closed', 'the lite client was closed');
        if (this.connection) return this.connection;
        if (!open) throw new LiteTransportError('not-connected', `not connected to ${this.address}; call connect()`);
        const connection = new AdnlClientConnection(this.adnlOptions);
        this.connection = connection;
        connection.whenReady().then(
            () => this.emitSafely('ready'),
            () => {},
        );
        connection.once('close', (reason: LiteTransportError) => {
            if (this.connection === connection) this.connection = undefined;
            this.emitSafely('close', reason);
        });
        return connection;
    }

    /** A throwing listener must not break our state; it is reported as uncaught, the usual way. */
    private emitSafely(event: string, ...args: unknown[]): void {
        try {
            this.emit(event, ...args);
        } catch (err) {
            queueMicrotask(() => {
                throw err;
            });
        }
    }
}

function waitMasterchainSeqnoPrefix(seqno: number, timeoutMs: number): Buffer {
    const prefix = Buffer.alloc(12);
    prefix.writeInt32LE(WAIT_MASTERCHAIN_SEQNO, 0);
    prefix.writeInt32LE(seqno | 0, 4);
    prefix.writeInt32LE(Math.max(0, Math.min(timeoutMs, 0x7fffffff)), 8);
    return prefix;
}

function decodeAnswer<T>(answer: Buffer, decode: (reader: TLReadBuffer) => T): T {
    try {
        return decodeExact(answer, decode);
    } catch (err) {
        throw new LiteDecodeError(`undecodable answer: ${(err as Error).message}`, { cause: err });
    }
}
