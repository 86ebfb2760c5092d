import type { IndexDb } from '../schema.ts';
import { readAmong } from './among.ts';

/** Interfaces of the given accounts as the index knows them (accounts it has no state for are absent). */
export async function accountInterfaces(db: IndexDb, addresses: Iterable<string>): Promise<Map<string, string[]>> {
    const unique = [...new Set(addresses)];
    if (unique.length === 0) return new Map();
    // On PostgreSQL an IN list was parsed and planned anew for each call, and a block's list names ~520
    // accounts (4.1 ms a list as IN, 3.0 ms as ANY, for the largest lists of a 100k-transaction devnet).
    const rows = await readAmong(db, 'address', unique, condition => db.selectFrom('account_states').select(['address', 'interfaces']).where(condition).execute(), 5000);
    return new Map(rows.map(row => [row.address, JSON.parse(row.interfaces) as string[]]));
}
