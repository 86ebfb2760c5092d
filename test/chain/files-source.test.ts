import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash, randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { BlockFilesSource } from '../../src/chain/files/files-source.ts';
import type { SourceItem } from '../../src/chain/chain-source.ts';
import { indexBlock } from '../../src/indexer/index-block.ts';
import type { Store } from '../../src/store/store.ts';
import { parseBlockFile } from '../../src/ton/block/block-file.ts';
import { blockFile, FIXTURE_BLOCKS, mainnetSkip, readBlockBoc, readSummary } from '../helpers/fixtures.ts';
import { storeBackends, tempDir } from '../helpers/stores.ts';

const TABLES = ['blocks', 'transactions', 'messages', 'traces', 'account_states', 'source_cursors'] as const;

/**
 * The masterchain block each shard fixture refers to. Read from the files themselves (BlkMasterInfo),
 * consistent with their dates: 2020 → ~3.1M, 2022 → ~25M, 2023 → ~34.6M, 2025 → ~49.4M.
 */
const MASTER_REFS: Record<string, string | null> = {
    'block-1': '(-1,8000000000000000,25310198)',
    'block-2': '(-1,8000000000000000,34606309)',
    'block-4': '(-1,8000000000000000,3085312)',
    'block-5': null,
    'block-6': '(-1,8000000000000000,49444053)',
};

/** Block files in the order the source must give them: by start lt. */
const LT_ORDER = ['block-4', 'block-5', 'block-1', 'block-2', 'block-6'];

async function collect(source: BlockFilesSource): Promise<SourceItem[]> {
    const items: SourceItem[] = [];
    for await (const item of source.blocksAfter(null, new AbortController().signal)) items.push(item);
    return items;
}

async function counts(store: Store): Promise<Record<string, number>> {
    const result: Record<string, number> = {};
    for (const table of TABLES) {
        const rows = await store.db.selectFrom(table).select(eb => eb.fn.countAll<number | bigint | string>().as('n')).executeTakeFirstOrThrow();
        result[table] = Number(rows.n);
    }
    return result;
}

/** Everything the trace linker decided, in a form two stores can be compared by. */
async function traceSnapshot(store: Store) {
    const txs = await store.db.selectFrom('transactions').select(['hash', 'trace_id']).orderBy('hash').execute();
    const traces = await store.db.selectFrom('traces').selectAll().orderBy('trace_id').execute();
    const messages = await store.db.selectFrom('messages').select(['hash', 'tx_in_hash', 'tx_out_hash']).orderBy('hash').execute();
    return {
        txs,
        traces: traces.map(t => ({ ...t, tx_count: Number(t.tx_count), pending: Number(t.pending), orphan: Number(t.orphan), start_utime: Number(t.start_utime) })),
        messages,
    };
}

for (const backend of storeBackends()) {
    describe(`block files source → index (${backend.name})`, { skip: mainnetSkip }, () => {
        for (const name of FIXTURE_BLOCKS) {
            test(`${name}: transactions and block row match the summary; re-indexing is a no-op`, async () => {
                const summary = readSummary(name);
                const store = await backend.open();
                try {
                    const items = await collect(new BlockFilesSource([blockFile(name)]));
                    assert.equal(items.length, 1);
                    const [{ block, cursor }] = items;
                    assert.equal(cursor, `file:${resolve(blockFile(name))}`);
                    assert.equal(block.transactions.length, summary.tx_quantity);

                    const result = await indexBlock(store, block);
                    assert.deepEqual(result, { inserted: true, transactions: summary.tx_quantity });

                    const rows = await store.db.selectFrom('transactions').select(['account', 'lt', 'hash', 'workchain', 'shard', 'seqno', 'utime'])
                        .where('workchain', '=', summary.workchain).where('shard', '=', summary.shard).where('seqno', '=', summary.seqno)
                        .orderBy('lt').orderBy('account').execute();
                    assert.deepEqual(rows.map(r => ({ account: r.account, lt: r.lt.toString(), hash: r.hash })), summary.transactions);
                    for (const row of rows) {
                        assert.equal(typeof row.lt, 'bigint');
                        assert.equal(Number(row.utime), summary.utime, 'every transaction of these blocks has the block utime');
                    }
                    const total = await store.db.selectFrom('transactions').select('hash').execute();
                    assert.equal(total.length, summary.tx_quantity, 'no transaction filed under another block');

                    const blocks = await store.db.selectFrom('blocks').selectAll().execute();
                    assert.equal(blocks.length, 1);
                    const row = blocks[0];
                    assert.equal(Number(row.workchain), summary.workchain);
                    assert.equal(row.shard, summary.shard);
                    assert.equal(Number(row.seqno), summary.seqno);
                    assert.equal(Number(row.utime), summary.utime);
                    assert.equal(row.start_lt, BigInt(summary.start_lt));
                    assert.equal(row.end_lt, BigInt(summary.end_lt));
                    assert.equal(row.root_hash, summary.root_hash);
                    assert.equal(row.file_hash, createHash('sha256').update(readBlockBoc(name)).digest('hex'));
                    assert.equal(Number(row.tx_count), summary.tx_quantity);
                    assert.equal(Number(row.is_key_block), summary.key_block ? 1 : 0);
                    assert.equal(row.master_ref, MASTER_REFS[name]);
                    assert.equal(summary.master, row.master_ref === null, 'shard blocks have a master_ref, masterchain blocks none');
                    const shardBlocks = JSON.parse(row.shard_blocks) as string[];
                    if (summary.master) assert.ok(shardBlocks.includes('(0,8000000000000000,22738548)'), `shard_blocks: ${row.shard_blocks}`);
                    else assert.deepEqual(shardBlocks, []);
                    const parents = JSON.parse(row.parents) as string[];
                    if (name === 'block-4') {
                        // right after a merge: the two children of 0d838 are the parents
                        assert.deepEqual(parents, ['(0,0d83400000000000,4168600)', '(0,0d83c00000000000,4168599)']);
                    } else {
                        assert.deepEqual(parents, [`(${summary.workchain},${summary.shard},${summary.seqno - 1})`]);
                    }

                    // Derived rows: every transaction is in a trace that counts it, every inbound message links back.
                    const traces = await store.db.selectFrom('traces').select(['trace_id', 'tx_count']).execute();
                    const traceIds = new Set(traces.map(t => t.trace_id));
                    const withTrace = await store.db.selectFrom('transactions').select(['hash', 'trace_id', 'in_msg_hash']).execute();
                    for (const tx of withTrace) assert.ok(traceIds.has(tx.trace_id), `trace ${tx.trace_id} of ${tx.hash} exists`);
                    assert.equal(traces.reduce((sum, t) => sum + Number(t.tx_count), 0), summary.tx_quantity);
                    for (const tx of withTrace.filter(t => t.in_msg_hash !== null)) {
                        const message = await store.db.selectFrom('messages').select('tx_in_hash').where('hash', '=', tx.in_msg_hash!).executeTakeFirstOrThrow();
                        assert.equal(message.tx_in_hash, tx.hash);
                    }

                    const before = await counts(store);
                    assert.equal(before.transactions, summary.tx_quantity);
                    const again = await indexBlock(store, (await collect(new BlockFilesSource([blockFile(name)])))[0].block);
                    assert.deepEqual(again, { inserted: false, transactions: 0 });
                    assert.deepEqual(await counts(store), before);
                } finally {
                    await store.dispose();
                }
            });
        }

        test('files given in reverse order are read in lt order and index to the same rows', async () => {
            const files = FIXTURE_BLOCKS.map(blockFile);
            const reversed = [...files].reverse();
            const forwardItems = await collect(new BlockFilesSource(files));
            const reverseItems = await collect(new BlockFilesSource(reversed));
            const summaries = new Map(FIXTURE_BLOCKS.map(n => [readSummary(n).root_hash, n]));
            assert.deepEqual(forwardItems.map(i => summaries.get(i.block.id.rootHash)), LT_ORDER);
            assert.deepEqual(reverseItems.map(i => summaries.get(i.block.id.rootHash)), LT_ORDER);

            const inOrder = await backend.open();
            const inReverse = await backend.open();
            const outOfOrder = await backend.open();
            try {
                for (const item of forwardItems) assert.equal((await indexBlock(inOrder, item.block)).inserted, true);
                for (const item of reverseItems) assert.equal((await indexBlock(inReverse, item.block)).inserted, true);
                // Bypassing the source's sort: the newest block first, the oldest last.
                for (const item of [...forwardItems].reverse()) assert.equal((await indexBlock(outOfOrder, item.block)).inserted, true);

                const expected = await counts(inOrder);
                const txTotal = FIXTURE_BLOCKS.reduce((sum, n) => sum + readSummary(n).tx_quantity, 0);
                assert.equal(expected.transactions, txTotal);
                assert.equal(expected.blocks, FIXTURE_BLOCKS.length);
                assert.ok(expected.messages >= txTotal, 'every mainnet transaction here has an inbound message');
                assert.ok(expected.traces > 0 && expected.traces <= txTotal);
                assert.deepEqual(await counts(inReverse), expected);
                assert.deepEqual(await counts(outOfOrder), expected);

                const snapshot = await traceSnapshot(inOrder);
                assert.deepEqual(await traceSnapshot(inReverse), snapshot);
                assert.deepEqual(await traceSnapshot(outOfOrder), snapshot);
            } finally {
                await inOrder.dispose();
                await inReverse.dispose();
                await outOfOrder.dispose();
            }
        });
    });
}

describe('block files source: unreadable and non-block files', { skip: mainnetSkip }, () => {
    const dir = tempDir('native-explorer-bad-blocks-');
    const good = blockFile('block-5');
    const random = join(dir.path, 'random.boc');
    const empty = join(dir.path, 'empty.boc');
    const transaction = join(dir.path, 'transaction.boc');
    const truncated = join(dir.path, 'truncated.boc');
    const missing = join(dir.path, 'missing.boc');

    test.before(() => {
        writeFileSync(random, randomBytes(4096));
        writeFileSync(empty, Buffer.alloc(0));
        // A real mainnet transaction cell, serialized on its own: a valid BOC, but not a block.
        const tx = parseBlockFile(readBlockBoc('block-5')).transactions[0];
        writeFileSync(transaction, tx.cell.toBoc());
        // A block file with its trailing bytes cut off.
        writeFileSync(truncated, readBlockBoc('block-5').subarray(0, 6000));
    });
    test.after(() => dir.remove());

    const cases: Array<[string, () => string, RegExp]> = [
        ['random bytes', () => random, /is not a block BOC/],
        ['an empty file', () => empty, /is not a block BOC/],
        ['a transaction cell', () => transaction, /is not a block BOC/],
        ['a truncated block file', () => truncated, /is not a block BOC/],
        ['a file that does not exist', () => missing, /cannot read block file/],
    ];
    for (const [what, file, kind] of cases) {
        test(`${what} throws an error naming the file, before any block is given`, async () => {
            const source = new BlockFilesSource([good, file()]);
            const given: SourceItem[] = [];
            await assert.rejects(
                (async () => {
                    for await (const item of source.blocksAfter(null, new AbortController().signal)) given.push(item);
                })(),
                (error: Error) => {
                    assert.match(error.message, kind);
                    assert.ok(error.message.includes(file()), `"${error.message}" names ${file()}`);
                    assert.ok(!error.message.includes(good), 'and not the good file');
                    return true;
                },
            );
            assert.deepEqual(given, [], 'files are all parsed before the first block is given');
        });
    }
});
