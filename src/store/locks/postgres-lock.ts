import pg from 'pg';
import { WriterLockHeldError, currentHolder, type LockHolder, type WriterLock } from './writer-lock.ts';

/** The advisory lock key of the index writer: the bytes "native" followed by 0x0001. */
const INDEX_WRITER_KEY = 0x6e61746976650001n;

/**
 * The index writer's lock on a PostgreSQL database: a session advisory lock held by a connection
 * of its own for the process's life. The server drops it with the connection, so a crashed writer
 * leaves nothing behind. The holder is named in the connection's application_name, which a refused
 * process reads back from pg_stat_activity. If the connection is lost, so is the lock: `onLost` is
 * told, and the writer must stop writing.
 */
export async function acquirePostgresLock(url: string, target: string, command: string, onLost: (error: Error) => void): Promise<WriterLock> {
    const holder = currentHolder(command);
    const client = new pg.Client({ connectionString: url, application_name: applicationName(holder) });
    await client.connect();
    const { rows } = await client.query<{ locked: boolean }>('SELECT pg_try_advisory_lock($1::bigint) AS locked', [INDEX_WRITER_KEY.toString()]);
    if (!rows[0].locked) {
        const other = await lockHolder(client);
        await client.end();
        throw new WriterLockHeldError(target, other);
    }
    let released = false;
    const lost = (error: Error) => {
        if (!released) onLost(error);
    };
    client.on('error', lost);
    client.on('end', () => lost(new Error('the connection holding the index writer lock closed')));
    return {
        async release() {
            if (released) return;
            released = true;
            await client.end().catch(() => undefined);
        },
    };
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
