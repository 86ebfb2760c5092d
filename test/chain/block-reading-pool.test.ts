import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Worker } from 'node:worker_threads';
import { readBlockBoc } from '../../src/chain/block-reading.ts';
import type { BlockRecord } from '../../src/chain/chain-source.ts';
import { BlockReadingPool, readAhead } from '../../src/chain/reading/block-reading-pool.ts';
import { hasCells, summarizeTransaction, type ParsedTransaction } from '../../src/ton/transaction.ts';
import { FIXTURE_BLOCKS, mainnetSkip, readBlockBoc as fixtureBoc } from '../helpers/fixtures.ts';

/** A record read in this thread, as it would look after crossing from a reading thread. */
function withoutCells(record: BlockRecord): BlockRecord {
    return {
        ...record,
        transactions: record.transactions.map(({ boc, summary, endBalance, text }) => ({ boc, summary: summarizeTransaction(summary as ParsedTransaction), endBalance, text })),
    };
}

describe('block reading threads', { skip: mainnetSkip }, () => {
    test('without transaction texts (--transaction-texts off), the threads make none', async () => {
        const pool = new BlockReadingPool(undefined, 2, false);
        try {
            await pool.loaded();
            for await (const { record } of readAhead(pool, [{ boc: fixtureBoc('block-5') }])) {
                assert.ok(record.transactions.length > 0);
                assert.ok(record.transactions.every(tx => tx.text === undefined));
            }
        } finally {
            await pool.close();
        }
    });

    test('read the mainnet fixture blocks exactly as this thread does, bytes as Buffers, in the order given', async () => {
        const pool = new BlockReadingPool(undefined, 2);
        try {
            await pool.loaded();
            const bocs = FIXTURE_BLOCKS.map(name => ({ name, boc: fixtureBoc(name) }));
            const seen: string[] = [];
            let transactions = 0;
            for await (const { item, record } of readAhead(pool, bocs)) {
                seen.push(item.name);
                const expected = await readBlockBoc(item.boc);
                assert.deepEqual(record, withoutCells(expected));
                transactions += record.transactions.length;
                for (const tx of record.transactions) {
                    assert.ok(Buffer.isBuffer(tx.boc));
                    assert.ok(tx.summary && !hasCells(tx.summary));
                    assert.ok(tx.text && Buffer.isBuffer(tx.text.text));
                }
                for (const state of record.accountStates ?? []) {
                    if (state.code) assert.ok(Buffer.isBuffer(state.code));
                    if (state.data) assert.ok(Buffer.isBuffer(state.data));
                }
                if (record.config) assert.ok(Buffer.isBuffer(record.config));
            }
            assert.deepEqual(seen, [...FIXTURE_BLOCKS]);
            assert.ok(transactions > 100);
        } finally {
            await pool.close();
        }
    });

    test('a BOC that is not a block fails its own read with the parser\'s reason; the threads go on reading', async () => {
        const pool = new BlockReadingPool(undefined, 1);
        try {
            await pool.loaded();
            await assert.rejects(pool.read(Buffer.from('b5ee9c72', 'hex')), (error: Error) => error.message.length > 0 && !/exited/.test(error.message));
            const record = await pool.read(fixtureBoc(FIXTURE_BLOCKS[0]));
            assert.deepEqual(record.id, (await readBlockBoc(fixtureBoc(FIXTURE_BLOCKS[0]))).id);
        } finally {
            await pool.close();
        }
    });

    test('accounts a block prunes are asked of the source\'s reader in this thread; its failure fails the read', async () => {
        // Mainnet blocks prune most accounts' unchanged code: without their states every such account is a question.
        const asked: string[] = [];
        const failing = new BlockReadingPool({ accountCellAt: async (_block, address) => { asked.push(address); throw new Error(`liteserver gave up on ${address}`); } }, 1);
        try {
            await failing.loaded();
            await assert.rejects(failing.read(fixtureBoc(FIXTURE_BLOCKS[0])), /liteserver gave up on -?\d:[0-9a-f]{64}/);
            assert.ok(asked.length > 0);
        } finally {
            await failing.close();
        }
        const empty = new BlockReadingPool({ accountCellAt: async () => null }, 1);
        try {
            await empty.loaded();
            await assert.rejects(empty.read(fixtureBoc(FIXTURE_BLOCKS[0])), /the source has no state of/);
        } finally {
            await empty.close();
        }
    });

    test('a thread that dies leaves the pool; the blocks it was reading are read by the others, then in this thread', async () => {
        const pool = new BlockReadingPool(undefined, 2);
        const threads = (pool as unknown as { threads: Array<{ worker: Worker; pending: Map<number, unknown> }> }).threads;
        try {
            await pool.loaded();
            const boc = fixtureBoc(FIXTURE_BLOCKS[2]);
            const expected = withoutCells(await readBlockBoc(boc));
            for (const survivors of [1, 0]) {
                const reads = [pool.read(boc), pool.read(boc), pool.read(boc)];
                const dying = threads.find(t => t.pending.size > 0)!;
                await dying.worker.terminate();
                for (const record of await Promise.all(reads)) {
                    assert.deepEqual(record.id, expected.id);
                    assert.equal(record.transactions.length, expected.transactions.length);
                }
                assert.equal(pool.threadCount, survivors);
            }
            // No thread left: read here, with cells.
            const record = await pool.read(boc);
            assert.ok(record.transactions.every(tx => tx.summary && hasCells(tx.summary)));
        } finally {
            await pool.close();
        }
    });

    test('until its threads have loaded, blocks are read in this thread; then in the threads', async () => {
        const pool = new BlockReadingPool(undefined, 2);
        try {
            const boc = fixtureBoc(FIXTURE_BLOCKS[1]);
            // A worker thread takes tens of milliseconds at least to start and load its modules; this
            // read is placed one turn of the event loop after the pool was made.
            const early = await pool.read(boc);
            assert.ok(early.transactions.every(tx => tx.summary && hasCells(tx.summary)), 'read before the threads loaded, not here');
            assert.equal(pool.depth, 1);
            await pool.loaded();
            assert.equal(pool.depth, 8, "four blocks in flight a loaded thread");
            const late = await pool.read(boc);
            assert.ok(late.transactions.every(tx => tx.summary && !hasCells(tx.summary)), 'read here although the threads had loaded');
            assert.deepEqual(late, withoutCells(early));
        } finally {
            await pool.close();
        }
    });

    test('an indexer that never lets the event loop turn still gets its blocks read in the threads once they have loaded', async () => {
        const pool = new BlockReadingPool(undefined, 1);
        try {
            const boc = fixtureBoc(FIXTURE_BLOCKS[1]);
            const deadline = performance.now() + 30_000;
            let reads = 0;
            let inThread = false;
            // Like an indexer on SQLite, whose awaits all settle as microtasks: nothing here waits for a macrotask.
            while (!inThread && performance.now() < deadline) {
                const record = await pool.read(boc);
                reads++;
                inThread = record.transactions.every(tx => tx.summary && !hasCells(tx.summary));
            }
            assert.ok(inThread, `after ${reads} reads in 30 s every block was still read in this thread`);
        } finally {
            await pool.close();
        }
    });

    test('with no threads, blocks are read in this thread; a closed pool refuses reads', async () => {
        const pool = new BlockReadingPool(undefined, 0);
        const record = await pool.read(fixtureBoc(FIXTURE_BLOCKS[1]));
        assert.ok(record.transactions.every(tx => tx.summary && hasCells(tx.summary)));
        await pool.close();
        await assert.rejects(pool.read(fixtureBoc(FIXTURE_BLOCKS[1])), /closed/);
    });
});
