import type { IndexDb } from '../schema.ts';
import { toNumber } from '../schema.ts';
import { readAmong } from './among.ts';

/** The seqno each of these wallets had in its newest indexed state; a wallet not deployed yet is absent. */
export async function walletSeqnos(db: IndexDb, addresses: readonly string[]): Promise<Map<string, number>> {
    const rows = await readAmong(db, 'address', addresses, condition => db.selectFrom('wallets').select(['address', 'seqno'])
        .where(condition).where('seqno', 'is not', null).execute());
    return new Map(rows.map(row => [row.address, toNumber(row.seqno!)]));
}
