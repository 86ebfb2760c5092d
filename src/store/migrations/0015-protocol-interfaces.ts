import type { Kysely, Migration } from 'kysely';
import { knownInterfaces } from '../../ton/interfaces/known-code.ts';
import { PROTOCOL_CODE, singletonAddresses } from '../../ton/interfaces/mainnet-contracts.ts';
import { inChunks } from '../chunks.ts';

/**
 * The mainnet protocol table (pools and vaults by code hash; routers, factories, pTON masters and
 * one-account protocols by address) came after accounts were indexed: their stored interfaces
 * are detected again by it, adding what the table says to what probing found.
 */
export function protocolInterfaces(): Migration {
    return {
        async up(db: Kysely<any>) {
            await redetect(db);
        },
    };
}

export async function redetect(db: Kysely<any>): Promise<number> {
    const rows: Array<{ address: string; code_hash: string | null; interfaces: string }> = [];
    await inChunks([...PROTOCOL_CODE.keys()], 200, async (hashes) => {
        rows.push(...await db.selectFrom('account_states').select(['address', 'code_hash', 'interfaces']).where('code_hash', 'in', hashes).execute());
    });
    await inChunks([...singletonAddresses().keys()], 200, async (addresses) => {
        rows.push(...await db.selectFrom('account_states').select(['address', 'code_hash', 'interfaces']).where('address', 'in', addresses).execute());
    });
    let changed = 0;
    const seen = new Set<string>();
    for (const row of rows) {
        if (seen.has(row.address)) continue;
        seen.add(row.address);
        const stored = JSON.parse(row.interfaces) as string[];
        const merged = [...new Set([...stored, ...knownInterfaces(row.address, row.code_hash)])];
        if (merged.length === stored.length) continue;
        await db.updateTable('account_states').set({ interfaces: JSON.stringify(merged) }).where('address', '=', row.address).execute();
        changed++;
    }
    return changed;
}
