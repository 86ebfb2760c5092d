import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import pg from 'pg';
import { startDevnetService, waitForSeed, type DevnetService } from '../helpers/devnet-service.ts';
import { call, eventually, manifestOf } from '../api/api-call.ts';
import { startThrowawayPostgres, throwawayPostgresUnavailable, type ThrowawayPostgres } from './throwaway-postgres.ts';
import { assertContiguousBlocks } from '../helpers/ingest-checks.ts';

/**
 * The index on a PostgreSQL cluster of the test's own, stopped and started again under read load:
 * reads answer 503 with an `{"error": …}` body while it is away (never 500, the process stays up),
 * recover by themselves once it is back, and the indexer catches up with no block missing.
 */
const unavailable = throwawayPostgresUnavailable();

describe('PostgreSQL restarted under read load', { skip: unavailable ?? false }, () => {
    let postgres: ThrowawayPostgres;
    let service: DevnetService;
    const lines: string[] = [];
    let reads: string[];

    before(async () => {
        postgres = await startThrowawayPostgres();
        service = await startDevnetService({ databaseUrl: postgres.url }, undefined, { log: line => lines.push(line) });
        await waitForSeed(service);
        service.indexer!.on('block', item => {
            if (item.block.id.workchain === -1) indexedMaster = item.block.id.seqno;
        });
        const manifest = await manifestOf(service.base);
        const wallet = manifest.accounts.find(account => account.name === 'bob-v4r2')!.address;
        reads = [
            `${service.base}/status`,
            `${service.base}/blockchain/reduced/blocks?from=${manifest.genesis_utime}&to=${manifest.genesis_utime + 3}`,
            `${service.base}/blockchain/accounts/${encodeURIComponent(wallet)}/transactions?limit=5`,
        ];
    });

    after(async () => {
        await service?.dispose();
        postgres?.dispose();
    });

    const operations = ['getStatus', 'getReducedBlockchainBlocks', 'getBlockchainAccountTransactions'];

    /** Every read once; the statuses, each response checked against the OpenAPI document. */
    async function readAll(): Promise<{ status: number; body: { error?: unknown } }[]> {
        return Promise.all(reads.map((url, i) => call(operations[i], url)));
    }

    let indexedMaster = 0;
    const indexedMasterchainSeqno = async () => indexedMaster;

    it('answers 503 while the database is away, recovers by itself, and indexes every block once', async () => {
        for (const response of await readAll()) assert.equal(response.status, 200);

        // Read load throughout: four readers in a loop, every status recorded.
        const statuses: number[] = [];
        let loading = true;
        const readers = Array.from({ length: 4 }, async () => {
            while (loading) {
                for (const response of await readAll()) {
                    statuses.push(response.status);
                    if (response.status !== 200) assert.equal(typeof response.body.error, 'string');
                }
            }
        });

        postgres.stop();
        const seqnoAtStop = (await service.source!.head())!.seqno;
        const during = await eventually('reads to answer 503 while the database is away', async () => {
            const responses = await readAll();
            return responses.every(r => r.status === 503) ? responses : undefined;
        });
        for (const response of during) assert.match(String(response.body.error), /index database is unavailable/);
        const metrics = await fetch(`${service.url.replace(/\/$/, '')}/metrics`);
        assert.notEqual(metrics.status, 500, `/metrics while the database is away: ${await metrics.text()}`);
        if (process.env.CHAOS_VERBOSE) console.log('metrics during the outage', metrics.status);
        // The chain goes on while the index waits (some seconds: the indexer and the writer lock back off meanwhile).
        await eventually('the devnet to produce blocks meanwhile', async () => ((await service.source!.head())!.seqno > seqnoAtStop + 40 ? true : undefined));
        const producedWhileAway = (await service.source!.head())!.seqno;

        postgres.start();
        await eventually('reads to recover after the database is back', async () => ((await readAll()).every(r => r.status === 200) ? true : undefined), 30_000);
        await eventually('the indexer to catch up past the outage', async () => ((await indexedMasterchainSeqno()) > producedWhileAway + 2 ? true : undefined), 60_000);
        loading = false;
        await Promise.all(readers);

        if (process.env.CHAOS_VERBOSE) console.log(lines.join('\n'), statuses.filter(s => s === 503).length, statuses.length);
        assert.ok(statuses.includes(503), 'the readers saw the outage');
        assert.deepEqual([...new Set(statuses)].sort(), [200, 503], `statuses seen: ${[...new Set(statuses)].join(', ')}`);
        assert.ok(lines.some(line => /indexer: paused, the index database is unavailable/.test(line)), `log:\n${lines.join('\n')}`);
        assert.ok(lines.some(line => /index writer lock taken again/.test(line)), `log:\n${lines.join('\n')}`);

        // No gap and no duplicate in either chain's blocks, across the outage.
        const client = new pg.Client({ connectionString: postgres.url });
        await client.connect();
        try {
            const { rows } = await client.query<{ workchain: number; shard: string; seqno: number }>(
                'SELECT workchain, shard::text AS shard, seqno FROM blocks ORDER BY workchain, shard, seqno');
            assertContiguousBlocks(rows, producedWhileAway, 'during the outage');
        } finally {
            await client.end();
        }
    });
});
