import type { TLFunction } from 'ton-tl';
import type { LiteServerAddress } from './global-config.ts';
import { sleep } from '../../sleep.ts';

/** What the pool needs of one connection to a liteserver (our lite client's call shape). */
export interface LiteConnection {
    query<REQ, RES>(f: TLFunction<REQ, RES>, req: REQ, options?: { timeoutMs?: number; awaitSeqno?: number }): Promise<RES>;
    close(): void;
}

export type LiteConnectionFactory = (server: LiteServerAddress) => LiteConnection;

export interface LiteQueryOptions {
    timeoutMs?: number;
    /** Sent as the waitMasterchainSeqno prefix: the server answers once it has this masterchain block. */
    awaitSeqno?: number;
    /** Prefer servers whose masterchain head is known to have reached this seqno. */
    atLeastSeqno?: number;
    signal?: AbortSignal;
    /** Servers tried before giving up (default: every server twice, at least 3). */
    attempts?: number;
}

/** Every attempt of a query failed; `cause` is the last server's error. */
export class LitePoolError extends Error {
    override readonly name = 'LitePoolError';
}

/** Whether an error (or the last error behind a LitePoolError) is a query that ran out of time, e.g. a long poll with no new block. */
export function isTimeout(error: unknown): boolean {
    const last = error instanceof LitePoolError ? error.cause : error;
    const code = (last as { code?: unknown } | undefined)?.code;
    return code === 652 || (last instanceof Error && (last.name === 'LiteTimeoutError' || /timed? ?out/i.test(last.message)));
}

export interface LiteServerStatus {
    server: string;
    /** False while the server sits out a backoff after failures. */
    available: boolean;
    failures: number;
    /** Newest masterchain seqno the server has reported; null until it has. */
    head: number | null;
    lastError: string | null;
}

interface Slot {
    name: string;
    address: LiteServerAddress;
    connection: LiteConnection | null;
    failures: number;
    backoffUntil: number;
    head: number | null;
    lastError: string | null;
}

/** Codes of liteServer.error that mean "not yet" (the server lags or is busy), not "this server is broken". */
const NOT_READY_CODES = new Set([651, 652]);
const MAX_BACKOFF_MS = 30_000;
const BASE_BACKOFF_MS = 250;

/**
 * Queries spread round-robin over the liteservers of a global config. A query that fails on one
 * server (refused, closed, timed out, garbage, an error answer) is retried on the next; a failing
 * server sits out a backoff that doubles with each failure in a row (up to 30 s) and is reconnected
 * when it comes back. Servers known to lag behind the block a query needs are asked last.
 */
export class LitePool {
    private readonly slots: Slot[];
    private next = 0;
    private closed = false;

    constructor(servers: LiteServerAddress[], private readonly connect: LiteConnectionFactory, private readonly options: { timeoutMs?: number } = {}) {
        if (servers.length === 0) throw new Error('a liteserver pool needs at least one server');
        this.slots = servers.map(address => ({ name: `${address.host}:${address.port}`, address, connection: null, failures: 0, backoffUntil: 0, head: null, lastError: null }));
    }

    get size(): number {
        return this.slots.length;
    }

    /** Runs the query on the next available server, failing over to the others; throws the last error once every attempt failed. */
    async query<REQ, RES>(f: TLFunction<REQ, RES>, req: REQ, options: LiteQueryOptions = {}): Promise<{ result: RES; server: string }> {
        const attempts = options.attempts ?? Math.max(3, this.slots.length * 2);
        let lastError: Error | null = null;
        for (let attempt = 0; attempt < attempts; attempt++) {
            if (this.closed) throw new Error('the liteserver pool is closed');
            options.signal?.throwIfAborted();
            const slot = await this.pick(options);
            let connection: LiteConnection | null = null;
            try {
                connection = slot.connection ??= this.connect(slot.address);
                const result = await connection.query(f, req, { timeoutMs: options.timeoutMs ?? this.options.timeoutMs ?? 10_000, awaitSeqno: options.awaitSeqno });
                slot.failures = 0;
                slot.lastError = null;
                return { result, server: slot.name };
            } catch (error) {
                lastError = error instanceof Error ? error : new Error(String(error));
                this.failed(slot, lastError, false, connection);
            }
        }
        throw new LitePoolError(`liteservers failed: ${lastError?.message ?? 'no attempt'}`, { cause: lastError });
    }

    /** A server answered something that failed a check (e.g. a block whose hash is not its id): it sits out like a failing one. */
    penalize(server: string, reason: string): void {
        const slot = this.slots.find(s => s.name === server);
        if (slot) this.failed(slot, new Error(reason), true);
    }

    /** Records a server's masterchain head (from getMasterchainInfo), for lag-aware picking. */
    noteHead(server: string, seqno: number): void {
        const slot = this.slots.find(s => s.name === server);
        if (slot && (slot.head === null || seqno > slot.head)) slot.head = seqno;
    }

    status(): LiteServerStatus[] {
        const now = Date.now();
        return this.slots.map(s => ({ server: s.name, available: s.backoffUntil <= now, failures: s.failures, head: s.head, lastError: s.lastError }));
    }

    close(): void {
        this.closed = true;
        for (const slot of this.slots) {
            slot.connection?.close();
            slot.connection = null;
        }
    }

    /**
     * `connection`: the one the query failed on. When it is no longer the slot's (it was already
     * dropped for an earlier failure), this is the same loss seen by another query that was in flight
     * on it: it neither counts as one more failure nor closes the slot's newer connection.
     */
    private failed(slot: Slot, error: Error, broken = false, connection: LiteConnection | null = null): void {
        if (connection && slot.connection !== connection) return;
        slot.lastError = error.message;
        const code = (error as { code?: unknown }).code;
        if (!broken && typeof code === 'number' && NOT_READY_CODES.has(code)) {
            // lagging or busy: let the others answer for a moment, without treating the server as down
            slot.backoffUntil = Date.now() + BASE_BACKOFF_MS;
            return;
        }
        slot.failures++;
        slot.backoffUntil = Date.now() + Math.min(MAX_BACKOFF_MS, BASE_BACKOFF_MS * 2 ** (slot.failures - 1));
        // a fresh connection next time: the old one may be half-open or out of sync
        slot.connection?.close();
        slot.connection = null;
    }

    /** The next server in turn that is out of backoff, preferring those known to have the needed block; waits when all sit out. */
    private async pick(options: LiteQueryOptions): Promise<Slot> {
        for (;;) {
            const now = Date.now();
            const order = this.slots.map((_, i) => this.slots[(this.next + i) % this.slots.length]);
            const ready = order.filter(s => s.backoffUntil <= now);
            const caughtUp = options.atLeastSeqno === undefined ? ready : ready.filter(s => s.head === null || s.head >= options.atLeastSeqno!);
            const slot = caughtUp[0] ?? ready[0];
            if (slot) {
                this.next = (this.slots.indexOf(slot) + 1) % this.slots.length;
                return slot;
            }
            const wait = Math.max(10, Math.min(...this.slots.map(s => s.backoffUntil)) - now);
            await sleep(wait, options.signal);
        }
    }
}
