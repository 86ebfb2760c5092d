/**
 * What a follower's index must be after any fault: the devnet's own index (every table but the
 * source cursor; blocks up to a compared head), no block with other hashes than the devnet's, no
 * masterchain gap, no block twice, every block's parents indexed.
 */
import assert from 'node:assert/strict';
import { sql } from 'kysely';
import type { Store } from '../../../src/store/store.ts';
import type { RunningService } from '../../../src/app.ts';

/** Waits until the in-process `service` has indexed masterchain block `seqno`. */
export async function indexedTo(service: RunningService, seqno: number, timeoutMs = 60_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (Date.now() < deadline) {
        const last = service.indexer?.lastIndexed?.block.id;
        if (last && last.workchain === -1 && last.seqno >= seqno) return;
        await new Promise(resolve => setTimeout(resolve, 25));
    }
    const last = service.indexer?.lastIndexed?.block.id;
    throw new Error(`not indexed up to masterchain block ${seqno} within ${timeoutMs} ms (last: ${last ? `${last.workchain}:${last.seqno}` : 'none'})`);
}

/** The newest masterchain seqno an in-process service has indexed (or whose round it is in). */
export function masterHead(service: RunningService): number {
    const last = service.indexer!.lastIndexed!.block;
    return last.id.workchain === -1 ? last.id.seqno : last.masterRef!.seqno;
}

/**
 * Stops the devnet's block production and waits until its own index holds its last block; returns
 * that masterchain seqno. The elector and the config contract run on every masterchain block, so the
 * chain is never quiet: indexes are compared at a paused head. Call `devnet.devnet!.resume()` after.
 */
export async function pausedHead(devnet: RunningService): Promise<number> {
    await devnet.devnet!.pause();
    const head = (await devnet.devnet!.head())!.seqno;
    await indexedTo(devnet, head);
    return head;
}

/** The index equals the devnet's: every table but the bookkeeping ones (source_cursors, index_generation), blocks up to masterchain block `head`. */
export async function assertSameIndex(devnet: Store, follower: Store, head: number): Promise<void> {
    const tables = await tablesOf(devnet);
    assert.deepEqual(await tablesOf(follower), tables);
    for (const table of tables) {
        if (table === 'source_cursors' || table === 'index_generation') continue;
        if (table === 'jetton_masters') await assertSameFetchProgress(devnet, follower);
        const own = await rowsOf(devnet, table, head);
        const followed = await rowsOf(follower, table, head);
        if (followed.length !== own.length) assert.fail(`${table}: ${followed.length} rows followed, ${own.length} in the devnet's index`);
        assert.deepEqual(followed, own, `${table} differs`);
    }
}

interface BlockRow {
    workchain: number;
    shard: string;
    seqno: number;
    root_hash: string;
    file_hash: string;
    parents: string;
}

async function blocksOf(store: Store): Promise<BlockRow[]> {
    const rows = await sql<{ workchain: number; shard: string; seqno: number | bigint; root_hash: string; file_hash: string; parents: string }>`SELECT workchain, shard, seqno, root_hash, file_hash, parents FROM blocks`.execute(store.db);
    return rows.rows.map(r => ({ ...r, workchain: Number(r.workchain), seqno: Number(r.seqno) }));
}

const key = (b: { workchain: number; shard: string; seqno: number }) => `(${b.workchain},${b.shard},${b.seqno})`;

/**
 * No wrong block, no gap, no duplicate: every block the follower indexed is the devnet's (same root
 * and file hash), masterchain seqnos run 1..N without a hole, each block is there once, and each
 * block's parents are indexed too (so no shard block was skipped). Returns the follower's newest
 * masterchain seqno.
 */
export async function assertNoWrongBlockNoGap(devnet: Store, follower: Store): Promise<number> {
    const own = new Map((await blocksOf(devnet)).map(b => [key(b), b]));
    const followed = await blocksOf(follower);
    const seen = new Set<string>();
    for (const block of followed) {
        const k = key(block);
        assert.ok(!seen.has(k), `block ${k} indexed twice`);
        seen.add(k);
        const real = own.get(k);
        assert.ok(real, `the follower indexed block ${k}, which the devnet does not have`);
        assert.equal(block.root_hash, real.root_hash, `block ${k}: root hash of another block`);
        assert.equal(block.file_hash, real.file_hash, `block ${k}: file hash of another block`);
    }
    const masters = followed.filter(b => b.workchain === -1).map(b => b.seqno).sort((a, b) => a - b);
    assert.ok(masters.length > 0, 'no masterchain block followed');
    masters.forEach((seqno, i) => assert.equal(seqno, i + 1, `masterchain block ${i + 1} missing (found ${seqno} next)`));
    for (const block of followed) {
        if (block.workchain === -1 && block.seqno === 1) continue;
        for (const parent of JSON.parse(block.parents) as string[]) {
            const seqno = Number(/,(\d+)\)$/.exec(parent)![1]);
            // the first blocks' parents are zerostates, not blocks
            if (seqno === 0) continue;
            assert.ok(seen.has(parent), `block ${key(block)}: parent ${parent} not indexed`);
        }
    }
    const basechain = followed.filter(b => b.workchain === 0);
    assert.ok(basechain.length > 0, 'no basechain block followed');
    return masters[masters.length - 1];
}

async function tablesOf(store: Store): Promise<string[]> {
    const rows = await sql<{ name: string }>`SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name NOT LIKE 'kysely_%'`.execute(store.db);
    return rows.rows.map(r => r.name).sort();
}

/** A table's rows as sorted JSON lines; blocks only up to masterchain block `head` (and the basechain blocks it commits). */
async function rowsOf(store: Store, table: string, head: number): Promise<string[]> {
    const rows = table === 'blocks'
        ? (await sql<Record<string, unknown>>`SELECT * FROM blocks WHERE seqno <= ${head}`.execute(store.db)).rows
        : (await sql<Record<string, unknown>>`SELECT * FROM ${sql.table(table)}`.execute(store.db)).rows;
    if (table === 'jetton_masters') for (const row of rows) if (row.metadata_uri !== null) withoutFetchProgress(row);
    return rows.map(r => JSON.stringify(r, (_k, v) => (typeof v === 'bigint' ? v.toString() : v instanceof Uint8Array ? Buffer.from(v).toString('hex') : v))).sort();
}

/**
 * A master with off-chain metadata has it fetched after its block is indexed, by each service's own
 * fetcher (src/indexer/jetton-metadata.ts): what the fetch has come to is not chain data, and a
 * follower that has just caught up may not have tried yet. Compared apart (assertSameFetchProgress).
 */
function withoutFetchProgress(row: Record<string, unknown>): void {
    delete row.metadata;
    delete row.metadata_status;
}

/** Each off-chain metadata fetch that both services have finished came to the same result; one not tried yet is pending. */
async function assertSameFetchProgress(devnet: Store, follower: Store): Promise<void> {
    const progress = async (store: Store) => new Map((await store.db.selectFrom('jetton_masters').select(['address', 'metadata', 'metadata_status'])
        .where('metadata_uri', 'is not', null).execute()).map(row => [row.address, row]));
    const own = await progress(devnet);
    for (const [address, followed] of await progress(follower)) {
        const expected = own.get(address);
        assert.ok(expected, `jetton master ${address} has off-chain metadata in the follower's index only`);
        if (followed.metadata_status === 'pending' || expected.metadata_status === 'pending') continue;
        assert.deepEqual(followed, expected, `jetton master ${address}: the metadata fetch came to another result in the follower`);
    }
}
