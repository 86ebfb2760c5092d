/**
 * One round of an ingest table, in a process of its own: the bare parse or the whole ingestion of
 * a list of blocks, warmed up first, timed, and printed as one JSON line `{"ms": …}`. Each round
 * gets a fresh heap: run in the bench's own process after earlier rounds, both sides came out
 * half again slower, by different amounts each round (an ingest of 80–83 s in a fresh process took
 * 121 s there).
 *
 * Its one argument is a JSON `IngestRound`.
 */
import { readFileSync } from 'node:fs';
import { parseBlockFile } from '../src/ton/block/block-file.ts';
import { indexBlock } from '../src/indexer/index-block.ts';
import { AccountInspector } from '../src/indexer/inspect-accounts.ts';
import { openStore, type Store } from '../src/store/store.ts';
import { tempDir } from '../test/helpers/stores.ts';
import { withKnownCells } from '../src/chain/known-cells.ts';
import { ChainLog } from '../src/chain/devnet/chain-log.ts';
import { BlockReadingPool, readAhead } from '../src/chain/reading/block-reading-pool.ts';
import type { AccountStateReader } from '../src/chain/chain-source.ts';
import type { BlockIdExt } from '../src/ton/block-id.ts';
import { freshPostgres } from './ingest.ts';

export interface IngestRound {
    side: 'parse' | 'ingest';
    /** Block files, or a devnet data directory whose chain log gives the blocks and the account states. */
    blocks: { files: string[] } | { devnetDataDir: string };
    /** Reading threads of the ingestion (0: blocks read in the indexing thread). */
    threads: number;
    /** The store: SQLite in a new directory, or a new database beside this PostgreSQL URL. */
    pgUrl?: string;
}

/** Passes over the blocks before the timed one, for at least this long, so both sides are timed warm. */
const WARM_UP_MS = 1000;

const round = JSON.parse(process.argv[2]) as IngestRound;
const log = 'devnetDataDir' in round.blocks ? new ChainLog(`${round.blocks.devnetDataDir}/devnet/chain.sqlite`, { readonly: true }) : undefined;
const bocs = log ? [...log.allBlocks()].map(b => b.boc) : (round.blocks as { files: string[] }).files.map(f => readFileSync(f));
const reader: AccountStateReader | undefined = log
    ? withKnownCells({ accountCellAt: async (block: BlockIdExt, address: string) => log.accountCellAt(block, address) })
    : undefined;

const ms = round.side === 'parse' ? bareParse() : await ingest();
log?.close();
console.log(JSON.stringify({ ms }));
process.exit(0);

function bareParse(): number {
    let start = performance.now();
    warmUp: for (;;) {
        for (const boc of bocs) {
            parseBlockFile(boc);
            if (performance.now() - start > WARM_UP_MS) break warmUp;
        }
    }
    start = performance.now();
    for (const boc of bocs) parseBlockFile(boc);
    return performance.now() - start;
}

async function openFresh(): Promise<{ store: Store; dispose: () => Promise<void> }> {
    if (round.pgUrl) return freshPostgres(round.pgUrl);
    const dir = tempDir('bench-ingest-');
    const store = await openStore({ dataDir: dir.path });
    return { store, dispose: async () => { await store.close(); dir.remove(); } };
}

/** Blocks from the start of the list into `store` through `pool` and indexBlock; none handed to the pool after `stopAfterMs`. */
async function indexInto(store: Store, pool: BlockReadingPool, stopAfterMs = Infinity): Promise<number> {
    // As the service indexes: accounts with code are inspected (get-methods) where the source gives their states.
    const context = { inspector: await AccountInspector.create() };
    const start = performance.now();
    // The list ends early rather than the loop breaking, so no read is left in flight in the pool.
    function* blocks() {
        for (const boc of bocs) {
            if (performance.now() - start > stopAfterMs) return;
            yield { boc };
        }
    }
    for await (const { record } of readAhead(pool, blocks())) await indexBlock(store, record, undefined, context);
    return performance.now() - start;
}

async function ingest(): Promise<number> {
    const pool = new BlockReadingPool(reader, round.threads);
    try {
        // The warm-up writes stores of its own (a new one each pass), dropped before the timed run opens its own.
        for (const start = performance.now(); performance.now() - start < WARM_UP_MS;) {
            const warm = await openFresh();
            await indexInto(warm.store, pool, WARM_UP_MS - (performance.now() - start));
            await warm.dispose();
        }
        const { store, dispose } = await openFresh();
        const ms = await indexInto(store, pool);
        await dispose();
        return ms;
    } finally {
        await pool.close();
    }
}
