import { PostgresAdapter, sql } from 'kysely';
import type { IndexDb } from '../schema.ts';
import { readInChunks } from '../chunks.ts';

/** Interfaces of the given accounts as the index knows them (accounts it has no state for are absent). */
export async function accountInterfaces(db: IndexDb, addresses: Iterable<string>): Promise<Map<string, string[]>> {
    const unique = [...new Set(addresses)];
    if (unique.length === 0) return new Map();
    const rows = db.getExecutor().adapter instanceof PostgresAdapter
        // One array parameter: PostgreSQL parses and plans an IN list anew for each call, and a block's list
        // names ~520 accounts (4.1 ms a list as IN, 3.0 ms as ANY; docs/BENCHMARKS.md, twenty-fourth session).
        ? await db.selectFrom('account_states').select(['address', 'interfaces']).where(sql<boolean>`address = any(${unique}::text[])`).execute()
        : await readInChunks(unique, 5000, chunk => db.selectFrom('account_states').select(['address', 'interfaces']).where('address', 'in', chunk).execute());
    return new Map(rows.map(row => [row.address, JSON.parse(row.interfaces) as string[]]));
}
