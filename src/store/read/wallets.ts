import type { IndexDb } from '../schema.ts';

/** Wallet contracts holding any of the keys, with their account state. */
export function walletsByPublicKeys(db: IndexDb, publicKeys: string[]) {
    return db.selectFrom('wallets')
        .innerJoin('account_states', 'account_states.address', 'wallets.address')
        .select([
            'wallets.address', 'wallets.public_key', 'wallets.signature_allowed', 'wallets.plugins',
            'account_states.balance', 'account_states.status', 'account_states.last_utime', 'account_states.last_tx_lt',
            'account_states.interfaces', 'account_states.get_methods',
        ])
        .where('wallets.public_key', 'in', [...new Set(publicKeys)])
        .orderBy('wallets.address')
        .execute();
}

/** Per owner: jetton wallets with a non-zero balance and NFT items held. */
export async function holdingsOf(db: IndexDb, owners: string[]): Promise<Map<string, { jettons: number; nfts: number }>> {
    const result = new Map(owners.map(o => [o, { jettons: 0, nfts: 0 }]));
    if (owners.length === 0) return result;
    const jettons = await db.selectFrom('jetton_wallets').select(['owner', eb => eb.fn.countAll().as('n')])
        .where('owner', 'in', owners).where('verified', '=', 1).where('balance', '!=', '0').groupBy('owner').execute();
    const nfts = await db.selectFrom('nft_items').select(['owner', eb => eb.fn.countAll().as('n')])
        .where('owner', 'in', owners).groupBy('owner').execute();
    for (const row of jettons) result.get(row.owner)!.jettons = Number(row.n);
    for (const row of nfts) if (row.owner) result.get(row.owner)!.nfts = Number(row.n);
    return result;
}
