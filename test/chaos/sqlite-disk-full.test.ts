import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, rmSync, unlinkSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { startDevnetService, waitForSeed, type DevnetService } from '../helpers/devnet-service.ts';
import { call, eventually, manifestOf } from '../api/api-call.ts';
import { assertContiguousBlocks } from '../helpers/ingest-checks.ts';

/**
 * The SQLite index on a small tmpfs of its own, filled to the last byte while the devnet keeps
 * producing: ingest stops with a log line naming the full disk, reads keep working, and once space
 * returns ingest resumes from the last committed block with nothing missing or indexed twice.
 */
const MOUNT_SIZE = '64m';

function mountTmpfs(): { path: string; unmount(): void } | string {
    if (process.getuid?.() !== 0) return 'mounting a tmpfs needs root';
    const path = mkdtempSync(join(tmpdir(), 'ne-chaos-tmpfs-'));
    try {
        execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${MOUNT_SIZE}`, 'tmpfs', path], { stdio: 'pipe' });
    } catch (error) {
        rmSync(path, { recursive: true, force: true });
        return `mount -t tmpfs failed: ${String((error as { stderr?: Buffer }).stderr ?? (error as Error).message).trim()}`;
    }
    return {
        path,
        unmount() {
            execFileSync('umount', ['-l', path], { stdio: 'pipe' });
            rmSync(path, { recursive: true, force: true });
        },
    };
}

/** Writes a file until the file system has no byte left; returns its path. */
function fillUp(dir: string): string {
    const path = join(dir, 'filler');
    const fd = openSync(path, 'w');
    try {
        for (const size of [1 << 20, 1 << 12, 1]) {
            const chunk = Buffer.alloc(size, 0xa5);
            for (;;) {
                try {
                    writeSync(fd, chunk);
                } catch (error) {
                    if ((error as NodeJS.ErrnoException).code !== 'ENOSPC') throw error;
                    break;
                }
            }
        }
    } finally {
        closeSync(fd);
    }
    return path;
}

const mount = mountTmpfs();

describe('the SQLite index on a full disk', { skip: typeof mount === 'string' ? mount : false }, () => {
    const disk = mount as Exclude<typeof mount, string>;
    let service: DevnetService;
    const lines: string[] = [];
    let indexedMaster = 0;
    let reads: { operation: string; url: string }[];

    before(async () => {
        service = await startDevnetService({ databaseUrl: join(disk.path, 'index.sqlite') }, undefined, { log: line => lines.push(line) });
        await waitForSeed(service);
        service.indexer!.on('block', item => {
            if (item.block.id.workchain === -1) indexedMaster = item.block.id.seqno;
        });
        const manifest = await manifestOf(service.base);
        const wallet = manifest.accounts.find(account => account.name === 'bob-v4r2')!.address;
        reads = [
            { operation: 'getStatus', url: `${service.base}/status` },
            { operation: 'getReducedBlockchainBlocks', url: `${service.base}/blockchain/reduced/blocks?from=${manifest.genesis_utime}&to=${manifest.genesis_utime + 3}` },
            { operation: 'getBlockchainAccountTransactions', url: `${service.base}/blockchain/accounts/${encodeURIComponent(wallet)}/transactions?limit=5` },
        ];
    });

    after(async () => {
        await service?.dispose();
        disk.unmount();
    });

    const head = async () => (await service.source!.head())!.seqno;

    it('stops ingest with a clear log line, keeps answering reads, and resumes without a gap when space returns', async () => {
        const filler = fillUp(disk.path);
        await eventually('ingest to stop on the full disk', async () => {
            if (lines.some(line => /indexer stopped/.test(line))) assert.fail(`the indexer stopped instead of waiting:\n${lines.join('\n')}`);
            return lines.some(line => /indexer: paused, the index database is out of disk space \(SQLITE_FULL/.test(line)) ? true : undefined;
        }, 60_000);
        assert.ok(!lines.some(line => /indexer stopped/.test(line)), `the indexer must wait, not stop:\n${lines.join('\n')}`);

        // Stopped: the chain goes on, the index does not.
        const stoppedAt = indexedMaster;
        const headAtStop = await head();
        await eventually('the devnet to go on producing', async () => ((await head()) > headAtStop + 20 ? true : undefined));
        assert.equal(indexedMaster, stoppedAt, 'nothing is indexed while the disk is full');
        for (const { operation, url } of reads) {
            const response = await call(operation, url);
            assert.equal(response.status, 200, `${operation} while the disk is full: ${response.text}`);
        }

        unlinkSync(filler);
        const headAtFree = await head();
        await eventually('ingest to resume and catch up', async () => (indexedMaster > headAtFree ? true : undefined), 60_000);
        assert.ok(lines.some(line => /indexer: resumed after/.test(line)), `log:\n${lines.join('\n')}`);
        if (process.env.CHAOS_VERBOSE) console.log(lines.join('\n'));

        const rows = await service.store.db.selectFrom('blocks').select(['workchain', 'shard', 'seqno']).orderBy('workchain').orderBy('shard').orderBy('seqno').execute();
        assertContiguousBlocks(rows, headAtFree, 'while the disk was full');
    });
});
