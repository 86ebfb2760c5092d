/**
 * The reduced CI form of `npm run chaos` (test/chaos/kill-loop.ts): 6 SIGKILLs of `serve` under the
 * transfer load on SQLite, and 6 on a fresh PostgreSQL database when TEST_PG_URL is set; then no
 * block of the devnet's chain log lost, duplicated or half-written in the index, the chain
 * continuous, and the index equal to one built from the same chain without crashes.
 * The kill times come from a fixed seed; CHAOS_SEED=<n> runs another (the seed is printed as a diagnostic).
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { runChaos, type ChaosBackend } from './kill-loop.ts';

const KILLS = 6;
const seed = Number(process.env.CHAOS_SEED ?? 1207);

for (const backend of ['sqlite', 'postgres'] as ChaosBackend[]) {
    const skip = backend === 'postgres' && !process.env.TEST_PG_URL ? 'TEST_PG_URL is not set' : false;
    test(`${KILLS} SIGKILLs during loaded ingest on ${backend}: nothing lost, duplicated or half-written`, { skip, timeout: 420_000 }, async t => {
        t.diagnostic(`seed ${seed} (CHAOS_SEED)`);
        const figures = await runChaos({
            backend, kills: KILLS, seed, postgresServerUrl: process.env.TEST_PG_URL,
            // Later kills than the full run's, so the short loop reaches the load after the devnet's seed.
            minDelayMs: 800, maxDelayMs: 3000,
            log: line => t.diagnostic(line),
        });
        assert.equal(figures.kills.length, KILLS);
        assert.equal(figures.survived, KILLS, 'a restart after a kill did not come up');
        assert.deepEqual({ lost: figures.lostBlocks, duplicated: figures.duplicatedBlocks, halfWritten: figures.halfWrittenBlocks }, { lost: 0, duplicated: 0, halfWritten: 0 });
        // On a loaded machine a kill can come while the service still starts its devnet and indexer; most must come during ingest.
        const midIngest = figures.kills.filter(k => k.indexedInRun > 0 || k.inIndexWrite).length;
        assert.ok(midIngest >= KILLS / 2, `only ${midIngest} of ${KILLS} kills came in runs that were indexing`);
        assert.ok(figures.load.accepted > 0, `no transfer of the load made it into a block: ${JSON.stringify(figures.load)}`);
        assert.ok(figures.summary.transactions > 0 && figures.summary.multiTxTraces > 0, 'the blocks carried no transactions to check');
        assert.ok(figures.reference.rows > 0);
        t.diagnostic(`${figures.kills.filter(k => k.inIndexWrite).length} kills inside an index write transaction, ${figures.kills.filter(k => k.inChainWrite).length} inside a chain log write transaction; `
            + `${figures.summary.blocksPerWorkchain} block pairs, ${figures.summary.transactions} transactions checked in ${figures.seconds.toFixed(0)} s`);
    });
}
