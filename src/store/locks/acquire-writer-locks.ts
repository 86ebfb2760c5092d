import { dirname, join, resolve } from 'node:path';
import { describeStore } from '../store.ts';
import { acquireFileLock } from './file-lock.ts';
import { acquirePostgresLock } from './postgres-lock.ts';
import type { WriterLock } from './writer-lock.ts';

export const DATA_DIR_LOCK_FILE = 'writer.lock';

/**
 * Everything a writing process (the devnet with its indexer, import-blocks) must hold before it
 * touches anything: the data directory (devnet chain log, devnet.json, the default SQLite index)
 * and the index database — a SQLite file elsewhere gets a lock file beside it, PostgreSQL an
 * advisory lock. A second writer fails here, before it has written a byte. A PostgreSQL lock lost
 * with its connection is taken again when the database is back, if `onRegained` is given.
 */
export async function acquireWriterLocks(
    options: { dataDir: string; databaseUrl: string }, command: string, onLost: (error: Error) => void, onRegained?: () => void,
): Promise<WriterLock> {
    const locks: WriterLock[] = [acquireFileLock(join(options.dataDir, DATA_DIR_LOCK_FILE), `data directory ${options.dataDir}`, command)];
    try {
        const { dialect, target } = describeStore({ url: options.databaseUrl, dataDir: options.dataDir });
        if (dialect === 'postgres') {
            locks.push(await acquirePostgresLock(target, `index database ${redactPassword(target)}`, command, onLost, onRegained));
        } else if (target !== ':memory:' && resolve(dirname(target)) !== resolve(options.dataDir)) {
            locks.push(acquireFileLock(`${target}.${DATA_DIR_LOCK_FILE}`, `index database ${target}`, command));
        }
    } catch (error) {
        for (const lock of locks) await lock.release();
        throw error;
    }
    return {
        async release() {
            for (const lock of locks.reverse()) await lock.release();
        },
    };
}

function redactPassword(url: string): string {
    try {
        const parsed = new URL(url);
        if (parsed.password) parsed.password = '***';
        return parsed.toString();
    } catch {
        return url;
    }
}
