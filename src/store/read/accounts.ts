import type { IndexDb } from '../schema.ts';

/** Interfaces of the given accounts as the index knows them (accounts it has no state for are absent). */
export async function accountInterfaces(db: IndexDb, addresses: Iterable<string>): Promise<Map<string, string[]>> {
    const unique = [...new Set(addresses)];
    const found = new Map<string, string[]>();
    for (let i = 0; i < unique.length; i += 500) {
        const rows = await db.selectFrom('account_states').select(['address', 'interfaces'])
            .where('address', 'in', unique.slice(i, i + 500)).execute();
        for (const row of rows) found.set(row.address, JSON.parse(row.interfaces) as string[]);
    }
    return found;
}
