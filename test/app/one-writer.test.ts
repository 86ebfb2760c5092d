import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { sql } from 'kysely';
import { startService, type RunningService } from '../../src/app.ts';
import { MAPPED_READ_BYTES } from '../../src/store/sqlite/sqlite-connection.ts';
import { DEFAULT_CONFIG, type ServiceConfig } from '../../src/config/config.ts';
import { WriterLockHeldError } from '../../src/store/locks/writer-lock.ts';
import { importBlockFiles } from '../../src/commands/import-blocks.ts';
import { blockFile } from '../helpers/fixtures.ts';
import { startDevnetService } from '../helpers/devnet-service.ts';
import { createTestDatabase, tempDir } from '../helpers/stores.ts';
import { call } from '../api/api-call.ts';
import { builtCommand } from '../helpers/built-command.ts';

/** Every file below `dir` with its size and modification time: what a refused writer must leave as it was. */
function snapshot(dir: string): Record<string, string> {
    const files: Record<string, string> = {};
    const walk = (path: string) => {
        for (const entry of readdirSync(path, { withFileTypes: true })) {
            const full = join(path, entry.name);
            if (entry.isDirectory()) walk(full);
            else {
                const stat = statSync(full);
                files[full.slice(dir.length)] = `${stat.size}@${stat.mtimeMs}`;
            }
        }
    };
    walk(dir);
    return files;
}

/** The snapshot once two taken 300 ms apart agree (the holder has caught up and sits idle). */
async function settledSnapshot(dir: string): Promise<Record<string, string>> {
    let last = snapshot(dir);
    for (let i = 0; i < 40; i++) {
        await new Promise(resolve => setTimeout(resolve, 300));
        const next = snapshot(dir);
        if (JSON.stringify(next) === JSON.stringify(last)) return next;
        last = next;
    }
    throw new Error('the holder never stood still');
}

/** A devnet that produced its first blocks and then sits idle, so its files stand still. */
const IDLE: Partial<ServiceConfig> = { blockIntervalMs: 600_000 };

/**
 * Until the index holds the devnet's newest masterchain block: a restarted holder indexes what the
 * last run committed and did not index yet, and its reading threads may take a while to start.
 */
async function indexedToHead(service: Awaited<ReturnType<typeof startService>>): Promise<void> {
    const head = await service.devnet!.head();
    assert.ok(head, 'the restarted devnet knows its head');
    for (let i = 0; i < 200; i++) {
        const newest = await service.store.db.selectFrom('blocks').select(eb => eb.fn.max('seqno').as('seqno')).where('workchain', '=', -1).executeTakeFirst();
        if (Number(newest?.seqno ?? -1) >= head.seqno) return;
        await new Promise(resolve => setTimeout(resolve, 100));
    }
    throw new Error(`the index never reached masterchain block ${head.seqno}`);
}

async function waitFirstBlock(service: Awaited<ReturnType<typeof startService>>): Promise<void> {
    await service.devnet!.nextBlock().catch(() => undefined);
}

describe('one writer per data directory', () => {
    test('a second serve (or import-blocks) on the same data directory is refused at once, names the holder and writes nothing', async () => {
        const dir = tempDir();
        const first = await startDevnetService({ blockIntervalMs: 50 }, dir.path);
        try {
            await waitFirstBlock(first);
            await first.stop();
            // Restart idle: the files of the data directory stop changing.
            const holder = await startService({ ...DEFAULT_CONFIG, dataDir: dir.path, port: 0, liteserverPort: 0, ...IDLE });
            try {
                // It indexes what the first run committed and did not index yet; then its files stand still.
                await indexedToHead(holder);
                const before = await settledSnapshot(dir.path);
                assert.ok(before['/devnet.json'] && before['/devnet/chain.sqlite'] && before['/index.sqlite']);

                await assert.rejects(startService({ ...DEFAULT_CONFIG, dataDir: dir.path, port: 0, liteserverPort: 0, ...IDLE }), (error: Error) => {
                    assert.ok(error instanceof WriterLockHeldError, String(error));
                    assert.match(error.message, new RegExp(`data directory ${dir.path} is in use by another writer: pid ${process.pid} on \\S+ \\(serve, since `));
                    return true;
                });

                // The CLI, as a user runs it: exit code 1, the holder named, no stack trace.
                const started = Date.now();
                const child = spawn(...builtCommand(['serve', '--data-dir', dir.path, '--port', '0', '--liteserver-port', '0']), { stdio: ['ignore', 'pipe', 'pipe'] });
                let stderr = '';
                child.stderr!.on('data', chunk => { stderr += chunk; });
                const [code] = await once(child, 'exit');
                assert.equal(code, 1);
                assert.match(stderr, new RegExp(`^data directory ${dir.path} is in use by another writer: pid ${process.pid} `));
                assert.doesNotMatch(stderr, /\n\s+at /);
                assert.ok(Date.now() - started < 20_000);

                // import-blocks writes the index too: refused the same way.
                await assert.rejects(importBlockFiles({ ...DEFAULT_CONFIG, dataDir: dir.path }, [blockFile('block-5')], () => undefined), (error: Error) => {
                    assert.ok(error instanceof WriterLockHeldError);
                    assert.match(error.message, new RegExp(`pid ${process.pid} on \\S+ \\(serve, `));
                    return true;
                });

                assert.deepEqual(snapshot(dir.path), before, 'the refused writers changed the data directory');
            } finally {
                await holder.stop();
            }
        } finally {
            dir.remove();
        }
    });

    test('an API-only process (--source none) shares the data directory with the writer, and reads the index mapped where the writer does not', async () => {
        const dir = tempDir();
        const writer = await startDevnetService({ blockIntervalMs: 50 }, dir.path);
        try {
            await waitFirstBlock(writer);
            const reader = await startService({ ...DEFAULT_CONFIG, dataDir: dir.path, port: 0, liteserverPort: 0, source: 'none' });
            try {
                const response = await call('getStatus', `${reader.url.replace(/\/$/, '')}/v2/status`);
                assert.equal(response.status, 200);
                const mapped = async (service: RunningService) => Number(Object.values((await sql.raw<Record<string, unknown>>('pragma mmap_size').execute(service.store.db)).rows[0])[0]);
                assert.equal(await mapped(reader), MAPPED_READ_BYTES);
                assert.equal(await mapped(writer), 0);
            } finally {
                await reader.stop();
            }
        } finally {
            await writer.dispose();
        }
    });

    test('after the writer stops, the next one starts on the same directory and continues its chain', async () => {
        const dir = tempDir();
        try {
            const first = await startDevnetService({ blockIntervalMs: 50 }, dir.path);
            await waitFirstBlock(first);
            const genesis = first.devnet!.manifest().genesis_utime;
            await first.stop();
            const second = await startDevnetService({ blockIntervalMs: 50 }, dir.path);
            assert.equal(second.devnet!.manifest().genesis_utime, genesis);
            await second.stop();
        } finally {
            dir.remove();
        }
    });
});

const PG_URL = process.env.TEST_PG_URL;

describe('one index writer per PostgreSQL database', { skip: PG_URL ? false : 'TEST_PG_URL is not set' }, () => {
    test('a second devnet writing to the same database is refused before it writes; API-only processes may share it', async () => {
        const database = await createTestDatabase(PG_URL!);
        const { name, url } = database;
        const a = tempDir();
        const b = tempDir();
        try {
            const writer = await startDevnetService({ databaseUrl: url, blockIntervalMs: 50 }, a.path);
            try {
                await waitFirstBlock(writer);
                await assert.rejects(startService({ ...DEFAULT_CONFIG, dataDir: b.path, port: 0, liteserverPort: 0, databaseUrl: url }), (error: Error) => {
                    assert.ok(error instanceof WriterLockHeldError);
                    assert.match(error.message, new RegExp(`index database postgres://\\S+/${name} is in use by another writer: pid ${process.pid} `));
                    return true;
                });
                // Refused before it touched its own (empty) data directory beyond taking its lock there.
                assert.deepEqual(readdirSync(b.path).filter(f => !f.startsWith('writer.lock')), []);

                const reader = await startService({ ...DEFAULT_CONFIG, dataDir: b.path, port: 0, liteserverPort: 0, source: 'none', databaseUrl: url });
                const response = await call('getStatus', `${reader.url.replace(/\/$/, '')}/v2/status`);
                assert.equal(response.status, 200);
                await reader.stop();
            } finally {
                await writer.stop();
            }
        } finally {
            a.remove();
            b.remove();
            await database.drop();
        }
    });
});
