import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';
import { WriterLockHeldError, currentHolder, type LockHolder, type WriterLock } from './writer-lock.ts';

/**
 * An exclusive lock on a path, held by the operating system for as long as this process keeps it:
 * an open SQLite transaction (`BEGIN EXCLUSIVE`) on `<path>`, so a crash, even a SIGKILL, releases
 * it and no stale lock is ever left to clean up by hand. SQLite's locks also hold between two
 * connections of one process. Beside it, `<path>.holder.json` names the holder (pid, host, command)
 * for the message a refused process prints.
 */
export function acquireFileLock(path: string, target: string, command: string): WriterLock {
    mkdirSync(dirname(path), { recursive: true });
    const database = new Database(path, { timeout: 0 });
    try {
        database.pragma('journal_mode = MEMORY');
        database.exec('BEGIN EXCLUSIVE');
    } catch (error) {
        database.close();
        if ((error as { code?: string }).code === 'SQLITE_BUSY') throw new WriterLockHeldError(target, readHolder(path));
        throw error;
    }
    const holderFile = `${path}.holder.json`;
    const holder = currentHolder(command);
    writeFileSync(holderFile, `${JSON.stringify(holder)}\n`);
    let released = false;
    return {
        async release() {
            if (released) return;
            released = true;
            if (readHolder(path)?.pid === holder.pid) rmSync(holderFile, { force: true });
            database.exec('ROLLBACK');
            database.close();
        },
    };
}

function readHolder(path: string): LockHolder | null {
    try {
        return JSON.parse(readFileSync(`${path}.holder.json`, 'utf8')) as LockHolder;
    } catch {
        return null;
    }
}
