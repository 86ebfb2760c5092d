import pg from 'pg';
import { WriterLockHeldError, currentHolder, type LockHolder, type WriterLock } from './writer-lock.ts';

/** The advisory lock key of the index writer: the bytes "native" followed by 0x0001. */
const INDEX_WRITER_KEY = 0x6e61746976650001n;

/**
 * The index writer's lock on a PostgreSQL database: a session advisory lock held by a connection
 * of its own for the process's life. The server drops it with the connection, so a crashed writer
 * leaves nothing behind. The holder is named in the connection's application_name, which a refused
 * process reads back from pg_stat_activity. If the connection is lost, so is the lock: `onLost` is
 * told, and the writer must stop writing. With `onRegained`, the lock is then taken again as soon
 * as the database answers and no other writer holds it (a database restart), and `onRegained` is
 * told that the writer may go on.
 */
export async function acquirePostgresLock(
    url: string, target: string, command: string, onLost: (error: Error) => void, onRegained?: () => void,
): Promise<WriterLock> {
    const holder = currentHolder(command);
    let released = false;
    let client = await lockedClient(url, target, holder);
    let retry: NodeJS.Timeout | undefined;

    const watch = (locked: pg.Client) => {
        let reported = false;
        const lost = (error: Error) => {
            if (released || reported) return;
            reported = true;
            onLost(error);
            if (onRegained) retake(RETAKE_FIRST_MS);
        };
        locked.on('error', lost);
        locked.on('end', () => lost(new Error('the connection holding the index writer lock closed')));
    };
    const retake = (waitMs: number) => {
        retry = setTimeout(async () => {
            try {
                const again = await lockedClient(url, target, holder);
                if (released) {
                    await again.end().catch(() => undefined);
                    return;
                }
                client = again;
                watch(again);
                onRegained!();
            } catch {
                if (!released) retake(Math.min(waitMs * 2, RETAKE_MAX_MS));
            }
        }, waitMs);
    };
    watch(client);
    return {
        async release() {
            if (released) return;
            released = true;
            clearTimeout(retry);
            await client.end().catch(() => undefined);
        },
    };
}

const RETAKE_FIRST_MS = 200;
const RETAKE_MAX_MS = 5_000;

/** A connection holding the writer lock, or WriterLockHeldError naming who holds it. */
async function lockedClient(url: string, target: string, holder: LockHolder): Promise<pg.Client> {
    const client = new pg.Client({ connectionString: url, application_name: applicationName(holder) });
    // A connection failing later (the server restarting) must not surface as an uncaught 'error' before it is watched.
    client.on('error', () => undefined);
    try {
        await client.connect();
        const { rows } = await client.query<{ locked: boolean }>('SELECT pg_try_advisory_lock($1::bigint) AS locked', [INDEX_WRITER_KEY.toString()]);
        if (!rows[0].locked) {
            const other = await lockHolder(client);
            throw new WriterLockHeldError(target, other);
        }
        return client;
    } catch (error) {
        await client.end().catch(() => undefined);
        throw error;
    }
}

async function lockHolder(client: pg.Client): Promise<LockHolder | null> {
    const high = Number(INDEX_WRITER_KEY >> 32n);
    const low = Number(INDEX_WRITER_KEY & 0xffffffffn);
    const { rows } = await client.query<{ pid: number; application_name: string; client_addr: string | null; backend_start: Date }>(
        `SELECT a.pid, a.application_name, host(a.client_addr) AS client_addr, a.backend_start
           FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid
          WHERE l.locktype = 'advisory' AND l.granted AND l.classid = $1 AND l.objid = $2 AND l.objsubid = 1 AND l.database = (SELECT oid FROM pg_database WHERE datname = current_database())`,
        [high, low],
    );
    const row = rows[0];
    if (!row) return null;
    const named = /^native-explorer (\d+)@(\S+) (.+)$/.exec(row.application_name);
    const since = row.backend_start.toISOString();
    return named
        ? { pid: Number(named[1]), host: named[2], command: named[3], since }
        : { pid: row.pid, host: row.client_addr ?? 'the database host', command: `database session ${row.pid} '${row.application_name}'`, since };
}

/** What the lock's connection calls itself (PostgreSQL keeps 63 bytes of it). */
function applicationName(holder: LockHolder): string {
    return `native-explorer ${holder.pid}@${holder.host} ${holder.command}`.slice(0, 63);
}
