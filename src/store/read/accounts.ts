import type { IndexDb } from '../schema.ts';
import { readInChunks } from '../chunks.ts';

/** Interfaces of the given accounts as the index knows them (accounts it has no state for are absent). */
export async function accountInterfaces(db: IndexDb, addresses: Iterable<string>): Promise<Map<string, string[]>> {
    const rows = await readInChunks([...new Set(addresses)], 5000, chunk => db.selectFrom('account_states').select(['address', 'interfaces'])
        .where('address', 'in', chunk).execute());
    return new Map(rows.map(row => [row.address, JSON.parse(row.interfaces) as string[]]));
}
