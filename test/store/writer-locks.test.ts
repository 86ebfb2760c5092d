import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { join } from 'node:path';
import pg from 'pg';
import { acquireFileLock } from '../../src/store/locks/file-lock.ts';
import { acquirePostgresLock } from '../../src/store/locks/postgres-lock.ts';
import { WriterLockHeldError } from '../../src/store/locks/writer-lock.ts';
import { createTestDatabase, tempDir } from '../helpers/stores.ts';

/** A child process that takes a lock (file path or PostgreSQL URL), says `locked`, and holds it until killed. */
async function lockingChild(kind: 'file' | 'postgres', target: string): Promise<ChildProcess> {
    const source = kind === 'file'
        ? `import { acquireFileLock } from './src/store/locks/file-lock.ts'; acquireFileLock(${JSON.stringify(target)}, 'test', 'child'); console.log('locked'); setInterval(() => {}, 1000);`
        : `import { acquirePostgresLock } from './src/store/locks/postgres-lock.ts'; await acquirePostgresLock(${JSON.stringify(target)}, 'test', 'child', () => {}); console.log('locked'); setInterval(() => {}, 1000);`;
    const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', source], { stdio: ['ignore', 'pipe', 'inherit'] });
    await new Promise<void>((resolve, reject) => {
        child.stdout!.on('data', chunk => String(chunk).includes('locked') && resolve());
        child.once('exit', code => reject(new Error(`the locking child exited with ${code}`)));
    });
    return child;
}

async function kill(child: ChildProcess): Promise<void> {
    const exited = once(child, 'exit');
    child.kill('SIGKILL');
    await exited;
}

describe('file lock', () => {
    test('a second holder is refused with the holder named; after release the lock can be taken again', async () => {
        const dir = tempDir();
        try {
            const path = join(dir.path, 'writer.lock');
            const first = acquireFileLock(path, `data directory ${dir.path}`, 'serve');
            assert.throws(() => acquireFileLock(path, `data directory ${dir.path}`, 'import-blocks'), (error: Error) => {
                assert.ok(error instanceof WriterLockHeldError);
                assert.match(error.message, new RegExp(`data directory ${dir.path} is in use by another writer: pid ${process.pid} on \\S+ \\(serve, since `));
                return true;
            });
            await first.release();
            await first.release(); // idempotent
            const again = acquireFileLock(path, 'x', 'serve');
            await again.release();
        } finally {
            dir.remove();
        }
    });

    test('another process holds it until it dies; a SIGKILLed holder leaves no stale lock', async () => {
        const dir = tempDir();
        try {
            const path = join(dir.path, 'writer.lock');
            const child = await lockingChild('file', path);
            assert.throws(() => acquireFileLock(path, 'the data directory', 'serve'), new RegExp(`pid ${child.pid} on \\S+ \\(child, `));
            await kill(child);
            const after = acquireFileLock(path, 'the data directory', 'serve');
            await after.release();
        } finally {
            dir.remove();
        }
    });
});

const PG_URL = process.env.TEST_PG_URL;

describe('PostgreSQL advisory lock', { skip: PG_URL ? false : 'TEST_PG_URL is not set' }, () => {
    /** A database of its own: advisory locks are per database. */
    async function withDatabase(run: (url: string) => Promise<void>): Promise<void> {
        const database = await createTestDatabase(PG_URL!);
        try {
            await run(database.url);
        } finally {
            await database.drop();
        }
    }

    test('one writer per database: the second is refused with the holder named, and gets in after release', () => withDatabase(async url => {
        const first = await acquirePostgresLock(url, 'the index', 'serve', () => undefined);
        await assert.rejects(acquirePostgresLock(url, 'the index', 'import-blocks', () => undefined), (error: Error) => {
            assert.ok(error instanceof WriterLockHeldError);
            assert.match(error.message, new RegExp(`the index is in use by another writer: pid ${process.pid} on \\S+ \\(serve, since `));
            return true;
        });
        await first.release();
        const second = await acquirePostgresLock(url, 'the index', 'import-blocks', () => undefined);
        await second.release();
    }));

    test('a SIGKILLed holder leaves no lock behind (the server drops it with the session)', () => withDatabase(async url => {
        const child = await lockingChild('postgres', url);
        await assert.rejects(acquirePostgresLock(url, 'the index', 'serve', () => undefined), new RegExp(`pid ${child.pid} on \\S+ \\(child, `));
        await kill(child);
        const deadline = Date.now() + 10_000;
        for (;;) {
            try {
                const lock = await acquirePostgresLock(url, 'the index', 'serve', () => undefined);
                await lock.release();
                return;
            } catch (error) {
                if (!(error instanceof WriterLockHeldError) || Date.now() > deadline) throw error;
                await new Promise(resolve => setTimeout(resolve, 100));
            }
        }
    }));

    test('losing the lock\'s connection is reported, so the writer can stop', () => withDatabase(async url => {
        let lost: Error | undefined;
        const lock = await acquirePostgresLock(url, 'the index', 'serve', error => { lost = error; });
        const admin = new pg.Client({ connectionString: url });
        await admin.connect();
        await admin.query(`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name LIKE 'native-explorer ${process.pid}@%'`);
        await admin.end();
        const deadline = Date.now() + 5_000;
        while (!lost && Date.now() < deadline) await new Promise(resolve => setTimeout(resolve, 20));
        assert.ok(lost, 'the lock holder was not told');
        await lock.release();
    }));

    test('with onRegained, a lost lock is taken again, and meanwhile another writer may take it instead', () => withDatabase(async url => {
        const events: string[] = [];
        const lock = await acquirePostgresLock(url, 'the index', 'serve', () => events.push('lost'), () => events.push('regained'));
        const admin = new pg.Client({ connectionString: url });
        await admin.connect();
        const terminate = () => admin.query(`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name LIKE 'native-explorer ${process.pid}@% serve'`);
        try {
            await terminate();
            const deadline = Date.now() + 10_000;
            while (!events.includes('regained') && Date.now() < deadline) await new Promise(resolve => setTimeout(resolve, 20));
            assert.deepEqual(events, ['lost', 'regained']);
            await assert.rejects(acquirePostgresLock(url, 'the index', 'import-blocks', () => undefined), WriterLockHeldError, 'the lock is held again');

            // Lost again while another writer is quicker: it is not taken from that writer.
            events.length = 0;
            await terminate();
            let other: Awaited<ReturnType<typeof acquirePostgresLock>> | undefined;
            const until = Date.now() + 10_000;
            while (!other && Date.now() < until) {
                other = await acquirePostgresLock(url, 'the index', 'import-blocks', () => undefined).catch(() => undefined);
            }
            assert.ok(other, 'the other writer got the lock');
            await new Promise(resolve => setTimeout(resolve, 500));
            assert.deepEqual(events, ['lost'], 'not regained while the other writer holds it');
            await other.release();
            const later = Date.now() + 10_000;
            while (!events.includes('regained') && Date.now() < later) await new Promise(resolve => setTimeout(resolve, 20));
            assert.deepEqual(events, ['lost', 'regained'], 'taken again once the other writer let go');
        } finally {
            await admin.end();
            await lock.release();
        }
    }));
});
