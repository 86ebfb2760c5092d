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
import { sql } from 'kysely';
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
    /** Transaction texts and block lists made at ingest (`--transaction-texts`); on unless false. */
    texts?: boolean;
}

/** Passes over the blocks before the timed one, for at least this long, so both sides are timed warm. */
const WARM_UP_MS = 1000;

const round = JSON.parse(process.argv[2]) as IngestRound;
const log = 'devnetDataDir' in round.blocks ? new ChainLog(`${round.blocks.devnetDataDir}/devnet/chain.sqlite`, { readonly: true }) : undefined;
const bocs = log ? [...log.allBlocks()].map(b => b.boc) : (round.blocks as { files: string[] }).files.map(f => readFileSync(f));
const reader: AccountStateReader | undefined = log
    ? withKnownCells({ accountCellAt: async (block: BlockIdExt, address: string) => log.accountCellAt(block, address) })
    : undefined;

const result = round.side === 'parse' ? { ms: bareParse(), indexBytes: 0 } : await ingest();
log?.close();
console.log(JSON.stringify(result));
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

/** The index's size on disk: SQLite's pages after a checkpoint, or PostgreSQL's database. */
async function indexBytes(store: Store): Promise<number> {
    if (round.pgUrl) return Number((await sql<{ bytes: string }>`SELECT pg_database_size(current_database()) AS bytes`.execute(store.db)).rows[0].bytes);
    await sql`PRAGMA wal_checkpoint(TRUNCATE)`.execute(store.db);
    const pages = (await sql<{ page_count: number | bigint }>`PRAGMA page_count`.execute(store.db)).rows[0].page_count;
    const size = (await sql<{ page_size: number | bigint }>`PRAGMA page_size`.execute(store.db)).rows[0].page_size;
    return Number(pages) * Number(size);
}

async function ingest(): Promise<{ ms: number; indexBytes: number }> {
    const pool = new BlockReadingPool(reader, round.threads, round.texts ?? true);
    try {
        // The warm-up writes stores of its own (a new one each pass), dropped before the timed run opens its own.
        for (const start = performance.now(); performance.now() - start < WARM_UP_MS;) {
            const warm = await openFresh();
            await indexInto(warm.store, pool, WARM_UP_MS - (performance.now() - start));
            await warm.dispose();
        }
        const { store, dispose } = await openFresh();
        const empty = await indexBytes(store);
        const ms = await indexInto(store, pool);
        const bytes = await indexBytes(store) - empty;
        await dispose();
        return { ms, indexBytes: bytes };
    } finally {
        await pool.close();
    }
}
