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

/**
 * Per wallet: how many distinct multisigs it takes part in, as a v2 signer or proposer (by its
 * address) or as a v1 owner (by its public key).
 */
export async function multisigCountOf(db: IndexDb, wallets: Array<{ address: string; public_key: string }>): Promise<Map<string, number>> {
    const result = new Map(wallets.map(w => [w.address, 0]));
    if (wallets.length === 0) return result;
    const addresses = [...new Set(wallets.map(w => w.address))];
    const keys = [...new Set(wallets.map(w => w.public_key))];
    const rows = await db.selectFrom('multisig_members').select(['multisig', 'member', 'kind'])
        .where(eb => eb.or([
            eb.and([eb('kind', '=', 'address'), eb('member', 'in', addresses)]),
            eb.and([eb('kind', '=', 'public_key'), eb('member', 'in', keys)]),
        ]))
        .execute();
    const byMember = new Map<string, string[]>();
    for (const row of rows) {
        const key = `${row.kind}:${row.member}`;
        byMember.set(key, [...byMember.get(key) ?? [], row.multisig]);
    }
    for (const wallet of wallets) {
        const multisigs = new Set([...byMember.get(`address:${wallet.address}`) ?? [], ...byMember.get(`public_key:${wallet.public_key}`) ?? []]);
        result.set(wallet.address, multisigs.size);
    }
    return result;
}

/** For each address: how many staking pools (TF nominator pools, single-nominator pools) it has a stake in. */
export async function stakingCountOf(db: IndexDb, addresses: readonly string[]): Promise<Map<string, number>> {
    const result = new Map(addresses.map(address => [address, 0]));
    const unique = [...new Set(addresses)];
    for (let i = 0; i < unique.length; i += 500) {
        const rows = await db.selectFrom('pool_stakers').select(['staker', eb => eb.fn.count<string>('pool').as('pools')])
            .where('staker', 'in', unique.slice(i, i + 500)).groupBy('staker').execute();
        for (const row of rows) result.set(row.staker, Number(row.pools));
    }
    return result;
}
