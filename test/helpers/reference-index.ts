/**
 * A reference index of a devnet chain log: every block of the log indexed once, in order, in one
 * process that never crashes (the devnet's own path: the log's BOCs with the log as account-state
 * reader, the get-method inspector as the service runs it). An index built through crashes must
 * equal it in every table: tokens, wallets, multisig, staking and library rows included.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { ChainLog } from '../../src/chain/devnet/chain-log.ts';
import { readBlockBoc } from '../../src/chain/block-reading.ts';
import { withKnownCells } from '../../src/chain/known-cells.ts';
import { AccountInspector } from '../../src/indexer/inspect-accounts.ts';
import { indexBlock } from '../../src/indexer/index-block.ts';
import { openStore, type Store, type StoreOptions } from '../../src/store/store.ts';

/** Tables that are not derived from the chain alone. */
const NOT_FROM_THE_CHAIN = new Set(['source_cursors', 'index_generation']);

/**
 * Columns not derived from the chain alone: a jetton's off-chain metadata document and its fetch
 * state (src/indexer/jetton-metadata.ts fetches it in the background, while the service runs).
 */
const OFF_CHAIN_COLUMNS: Record<string, (row: Record<string, unknown>) => string[]> = {
    jetton_masters: row => (row.metadata_uri === null ? [] : ['metadata', 'metadata_status']),
};

export interface ReferenceComparison {
    tables: number;
    rows: number;
}

/** Builds the reference index of `chainFile` and asserts that the index at `index` holds the same rows in every table. */
export async function assertSameAsReference(chainFile: string, index: StoreOptions): Promise<ReferenceComparison> {
    const dir = mkdtempSync(join(tmpdir(), 'ne-reference-index-'));
    const reference = await openStore({ dataDir: dir });
    const actual = await openStore(index);
    try {
        await buildReference(chainFile, reference);
        let rows = 0;
        const tables = (await tablesOf(reference)).filter(t => !NOT_FROM_THE_CHAIN.has(t));
        for (const table of tables) {
            const expected = await rowsOf(reference, table);
            const found = await rowsOf(actual, table);
            if (found.length !== expected.length) {
                const missing = expected.filter(r => !found.includes(r)).slice(0, 3);
                const extra = found.filter(r => !expected.includes(r)).slice(0, 3);
                assert.fail(`${table}: ${found.length} rows, the reference index has ${expected.length}; missing e.g. ${missing.join(' ')}; extra e.g. ${extra.join(' ')}`);
            }
            assert.deepEqual(found, expected, `${table} differs from the reference index`);
            rows += found.length;
        }
        return { tables: tables.length, rows };
    } finally {
        await actual.close();
        await reference.close();
        rmSync(dir, { recursive: true, force: true });
    }
}

async function buildReference(chainFile: string, store: Store): Promise<void> {
    const log = new ChainLog(chainFile, { readonly: true });
    try {
        const reader = withKnownCells({ accountCellAt: async (block, address) => log.accountCellAt(block, address) });
        const context = { inspector: await AccountInspector.create() };
        for (let seq = 0; ;) {
            const batch = log.blocksAfter(seq, 64);
            if (batch.length === 0) break;
            for (const item of batch) {
                seq = item.seq;
                await indexBlock(store, await readBlockBoc(item.boc, reader), undefined, context);
            }
        }
    } finally {
        log.close();
    }
}

async function tablesOf(store: Store): Promise<string[]> {
    const rows = await sql<{ name: string }>`SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name NOT LIKE 'kysely_%'`.execute(store.db);
    return rows.rows.map(r => r.name).sort();
}

/** A table's rows as sorted JSON lines, the same whichever database holds them (integers as decimal text, bytes as hex, keys sorted). */
async function rowsOf(store: Store, table: string): Promise<string[]> {
    const rows = (await sql<Record<string, unknown>>`SELECT * FROM ${sql.table(table)}`.execute(store.db)).rows;
    return rows.map(row => {
        const skip = OFF_CHAIN_COLUMNS[table]?.(row) ?? [];
        return JSON.stringify(Object.fromEntries(Object.keys(row).filter(key => !skip.includes(key)).sort().map(key => [key, normalize(row[key])])));
    }).sort();
}

function normalize(value: unknown): unknown {
    if (typeof value === 'bigint' || typeof value === 'number') return String(value);
    if (value instanceof Uint8Array) return Buffer.from(value).toString('hex');
    return value;
}
