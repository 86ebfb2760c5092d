import type { Transaction as DbTransaction } from 'kysely';
import type { AccountStateRecord } from '../chain/chain-source.ts';
import type { IndexDatabase } from '../store/schema.ts';
import { readInChunks } from '../store/chunks.ts';

/**
 * The states among `states` that are the accounts' newest in the index (after the block's
 * account_states upsert): rows derived from a state are rewritten only from those, so an older
 * block arriving late changes nothing.
 */
export async function currentStates(trx: DbTransaction<IndexDatabase>, states: AccountStateRecord[]): Promise<AccountStateRecord[]> {
    const stored = await readInChunks(states, 500, chunk => trx.selectFrom('account_states').select(['address', 'last_tx_lt'])
        .where('address', 'in', chunk.map(state => state.address)).execute());
    const newestLt = new Map(stored.map(row => [row.address, BigInt(row.last_tx_lt)]));
    return states.filter(state => newestLt.get(state.address) === state.lastTransLt);
}
