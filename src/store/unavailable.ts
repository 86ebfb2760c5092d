/**
 * Failures that say the index database is away or out of space rather than that a query is wrong:
 * the API answers them 503 and the indexer waits them out. Returns null for any other error; else
 * `message` is for users (it names no host), `detail` for the operator's log.
 */
export function storeUnavailable(error: unknown): StoreUnavailable | null {
    for (let cause = error, depth = 0; cause && depth < 4; cause = (cause as { cause?: unknown }).cause, depth++) {
        const code = String((cause as { code?: unknown }).code ?? '');
        const message = cause instanceof Error ? cause.message : String(cause);
        if (FULL_CODES.has(code)) return { kind: 'full', message: FULL, detail: `${code}: ${message}` };
        if (UNREACHABLE_CODES.has(code) || code.startsWith('08') || UNREACHABLE_MESSAGES.some(pattern => pattern.test(message))) {
            return { kind: 'unreachable', message: UNREACHABLE, detail: code ? `${code}: ${message}` : message };
        }
        if (cause instanceof AggregateError && cause.errors.some(inner => storeUnavailable(inner)?.kind === 'unreachable')) {
            return { kind: 'unreachable', message: UNREACHABLE, detail: `${code ? `${code}: ` : ''}${cause.errors.map(inner => (inner as Error).message).join('; ')}` };
        }
    }
    return null;
}

export interface StoreUnavailable {
    kind: 'unreachable' | 'full';
    message: string;
    detail: string;
}

const UNREACHABLE = 'the index database is unavailable right now; try again in a few seconds';
const FULL = 'the index database is out of disk space; reads still work, writes wait until the operator frees space';

/** SQLite's full database or disk, ENOSPC, PostgreSQL's disk_full and out_of_memory. */
const FULL_CODES = new Set(['SQLITE_FULL', 'ENOSPC', '53100', '53200']);

/**
 * Connection refused or reset on the way to the server; PostgreSQL's admin_shutdown, crash_shutdown
 * and cannot_connect_now (starting up, shutting down), too_many_connections. Class 08 (connection
 * exception) is matched by prefix.
 */
const UNREACHABLE_CODES = new Set([
    'ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'EPIPE', 'ENOTFOUND', 'EAI_AGAIN',
    '57P01', '57P02', '57P03', '53300',
]);

/** node-postgres reports a lost connection without a code. */
const UNREACHABLE_MESSAGES = [
    /^Connection terminated/,
    /^Client has encountered a connection error and is not queryable/,
    /^Client was closed and is not queryable/,
    /^timeout expired$/,
    /^timeout exceeded when trying to connect/,
    /^Connection ended unexpectedly/,
];
