import { before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { once } from 'node:events';
import type { BlockRecord, ChainSource, SourceHead, SourceItem } from '../../src/chain/chain-source.ts';
import { blockRecordFromParts as blockRecordFromFile } from '../../src/chain/block-reading.ts';
import { Indexer } from '../../src/indexer/indexer.ts';
import type { Store } from '../../src/store/store.ts';
import { parseBlockFile } from '../../src/ton/block/block-file.ts';
import { mainnetSkip, readBlockBoc, readSummary } from '../helpers/fixtures.ts';
import { storeBackends } from '../helpers/stores.ts';

/** The fixture blocks in start-lt order, the order a source gives them. */
const NAMES = ['block-4', 'block-5', 'block-1', 'block-2', 'block-6'];

/**
 * A source over a fixed list of real block records, cursors `seq:1`… It honours the cursor, records
 * every `blocksAfter` call, and can make only the first `available` blocks visible: a live source
 * then waits (as a live chain does) until it is aborted.
 */
class FixedSource implements ChainSource {
    readonly calls: Array<string | null> = [];
    readonly given: string[] = [];
    available: number;

    constructor(readonly name: string, private readonly items: SourceItem[], readonly live: boolean, available = items.length) {
        this.available = available;
    }

    async start(): Promise<void> {}
    async stop(): Promise<void> {}
    async head(): Promise<SourceHead | null> {
        const last = this.items[this.available - 1]?.block;
        return last ? { workchain: last.id.workchain, shard: last.id.shard, seqno: last.id.seqno, utime: last.utime } : null;
    }

    async *blocksAfter(cursor: string | null, signal: AbortSignal): AsyncIterable<SourceItem> {
        this.calls.push(cursor);
        let next = 0;
        if (cursor !== null) {
            next = this.items.findIndex(item => item.cursor === cursor) + 1;
            if (next === 0) throw new Error(`unknown cursor ${cursor}`);
        }
        for (; next < this.available; next++) {
            if (signal.aborted) return;
            this.given.push(this.items[next].cursor);
            yield this.items[next];
        }
        if (this.live && !signal.aborted) await once(signal, 'abort');
    }
}

async function rowCounts(store: Store) {
    const blocks = await store.db.selectFrom('blocks').select(['workchain', 'shard', 'seqno']).execute();
    const txs = await store.db.selectFrom('transactions').select('hash').execute();
    const cursors = await store.db.selectFrom('source_cursors').selectAll().orderBy('source').execute();
    return { blocks: blocks.length, transactions: txs.length, cursors };
}

function txTotal(names: string[]): number {
    return names.reduce((sum, n) => sum + readSummary(n).tx_quantity, 0);
}

/** Starts the indexer and resolves once it has indexed `n` blocks (collecting every block event). */
function indexBlocks(indexer: Indexer, n: number, seen: Array<{ cursor: string; transactions: number }>) {
    const reached = new Promise<void>(resolve => {
        const onBlock = (item: SourceItem, transactions: number) => {
            seen.push({ cursor: item.cursor, transactions });
            if (seen.length >= n) {
                indexer.off('block', onBlock);
                resolve();
            }
        };
        indexer.on('block', onBlock);
    });
    const loop = indexer.start();
    return { reached, loop };
}

describe('indexer loop over real block records', { skip: mainnetSkip }, () => {
    let items: SourceItem[];
    before(() => {
        items = NAMES.map((name, i) => ({ cursor: `seq:${i + 1}`, block: blockRecordFromFile(parseBlockFile(readBlockBoc(name))) }));
    });

    for (const backend of storeBackends()) {
        describe(backend.name, () => {
            test('a finite source is indexed to its end and its cursor saved', async () => {
                const store = await backend.open();
                try {
                    const source = new FixedSource('fixed', items, false);
                    const indexer = new Indexer(store, source);
                    const seen: Array<{ cursor: string; transactions: number }> = [];
                    indexer.on('block', (item, transactions) => seen.push({ cursor: item.cursor, transactions }));
                    assert.equal(await indexer.savedCursor(), null);
                    await indexer.start();
                    assert.deepEqual(source.calls, [null]);
                    assert.deepEqual(seen, NAMES.map((n, i) => ({ cursor: `seq:${i + 1}`, transactions: readSummary(n).tx_quantity })));
                    assert.equal(await indexer.savedCursor(), 'seq:5');
                    assert.equal(indexer.lastIndexed?.cursor, 'seq:5');
                    assert.deepEqual(await rowCounts(store), { blocks: 5, transactions: txTotal(NAMES), cursors: [{ source: 'fixed', cursor: 'seq:5' }] });

                    // A second run over the finished source asks for blocks after the end and indexes nothing.
                    const again = new Indexer(store, new FixedSource('fixed', items, false));
                    let events = 0;
                    again.on('block', () => events++);
                    await again.start();
                    assert.equal(events, 0);
                    assert.deepEqual(await rowCounts(store), { blocks: 5, transactions: txTotal(NAMES), cursors: [{ source: 'fixed', cursor: 'seq:5' }] });
                } finally {
                    await store.dispose();
                }
            });

            test('stopped and restarted, a new indexer resumes right after the saved cursor', async () => {
                const store = await backend.open();
                try {
                    // A live source that has produced two blocks so far.
                    const first = new FixedSource('live', items, true, 2);
                    const indexer = new Indexer(store, first);
                    const seen: Array<{ cursor: string; transactions: number }> = [];
                    const run = indexBlocks(indexer, 2, seen);
                    await run.reached;
                    await indexer.stop();
                    await run.loop; // stopping ends the loop without an error
                    assert.deepEqual(first.calls, [null]);
                    assert.deepEqual(seen.map(s => s.cursor), ['seq:1', 'seq:2']);
                    assert.equal(await indexer.savedCursor(), 'seq:2');
                    assert.deepEqual(await rowCounts(store), { blocks: 2, transactions: txTotal(NAMES.slice(0, 2)), cursors: [{ source: 'live', cursor: 'seq:2' }] });

                    // Restart: a new indexer, a new source instance over the same chain, which now has all five.
                    const second = new FixedSource('live', items, true);
                    const resumed = new Indexer(store, second);
                    const seenAfter: Array<{ cursor: string; transactions: number }> = [];
                    const rerun = indexBlocks(resumed, 3, seenAfter);
                    await rerun.reached;
                    await resumed.stop();
                    await rerun.loop;
                    assert.deepEqual(second.calls, ['seq:2'], 'the source is asked for blocks after the saved cursor');
                    assert.deepEqual(second.given, ['seq:3', 'seq:4', 'seq:5']);
                    assert.deepEqual(seenAfter, NAMES.slice(2).map((n, i) => ({ cursor: `seq:${i + 3}`, transactions: readSummary(n).tx_quantity })));
                    assert.equal(await resumed.savedCursor(), 'seq:5');
                    assert.deepEqual(await rowCounts(store), { blocks: 5, transactions: txTotal(NAMES), cursors: [{ source: 'live', cursor: 'seq:5' }] });

                    // Every transaction exactly once, in the block it came from.
                    for (const name of NAMES) {
                        const summary = readSummary(name);
                        const rows = await store.db.selectFrom('transactions').select('hash')
                            .where('workchain', '=', summary.workchain).where('shard', '=', summary.shard).where('seqno', '=', summary.seqno).execute();
                        assert.deepEqual(rows.map(r => r.hash).sort(), summary.transactions.map(t => t.hash).sort(), name);
                    }
                } finally {
                    await store.dispose();
                }
            });

            test('each source keeps its own cursor in a shared index; a source re-delivering blocks indexes nothing twice', async () => {
                const store = await backend.open();
                try {
                    await new Indexer(store, new FixedSource('first-three', items.slice(0, 3), false)).start();
                    // Another source over the same blocks: its own cursor starts at null, the blocks it repeats are skipped.
                    const other = new FixedSource('all-five', items, false);
                    const indexer = new Indexer(store, other);
                    const seen: Array<{ cursor: string; transactions: number }> = [];
                    indexer.on('block', (item, transactions) => seen.push({ cursor: item.cursor, transactions }));
                    await indexer.start();
                    assert.deepEqual(other.calls, [null]);
                    assert.deepEqual(seen, [
                        { cursor: 'seq:1', transactions: 0 },
                        { cursor: 'seq:2', transactions: 0 },
                        { cursor: 'seq:3', transactions: 0 },
                        { cursor: 'seq:4', transactions: readSummary('block-2').tx_quantity },
                        { cursor: 'seq:5', transactions: readSummary('block-6').tx_quantity },
                    ]);
                    assert.deepEqual(await rowCounts(store), {
                        blocks: 5,
                        transactions: txTotal(NAMES),
                        cursors: [{ source: 'all-five', cursor: 'seq:5' }, { source: 'first-three', cursor: 'seq:3' }],
                    });
                } finally {
                    await store.dispose();
                }
            });

            test('a block that fails to index stops the loop with an error and leaves the cursor before it', async () => {
                const store = await backend.open();
                try {
                    // The third block arrives with a corrupted transaction BOC.
                    const broken: BlockRecord = {
                        ...items[2].block,
                        transactions: [{ boc: Buffer.from('b5ee9c72deadbeef', 'hex') }, ...items[2].block.transactions.slice(1).map(t => ({ boc: t.boc }))],
                    };
                    const list = [items[0], items[1], { cursor: items[2].cursor, block: broken }, items[3], items[4]];
                    const indexer = new Indexer(store, new FixedSource('flaky', list, false));
                    const errors: Error[] = [];
                    indexer.on('error', error => errors.push(error));
                    await assert.rejects(indexer.start());
                    assert.equal(errors.length, 1);
                    assert.equal(await indexer.savedCursor(), 'seq:2');
                    assert.deepEqual(await rowCounts(store), { blocks: 2, transactions: txTotal(NAMES.slice(0, 2)), cursors: [{ source: 'flaky', cursor: 'seq:2' }] });

                    // Once the source delivers the block intact, a new indexer picks up at exactly that block.
                    const fixed = new FixedSource('flaky', items, false);
                    await new Indexer(store, fixed).start();
                    assert.deepEqual(fixed.calls, ['seq:2']);
                    assert.deepEqual(fixed.given, ['seq:3', 'seq:4', 'seq:5']);
                    assert.deepEqual(await rowCounts(store), { blocks: 5, transactions: txTotal(NAMES), cursors: [{ source: 'flaky', cursor: 'seq:5' }] });
                } finally {
                    await store.dispose();
                }
            });
        });
    }
});
