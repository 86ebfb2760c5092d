import type { IndexDb } from '../schema.ts';
import { toNumber } from '../schema.ts';
import { readInChunks } from '../chunks.ts';

/** A wallet contract with its account state and what it holds or takes part in. Addresses are raw. */
export interface IndexedWallet {
    address: string;
    /** 64 lowercase hex characters. */
    publicKey: string;
    balance: bigint;
    status: string;
    lastUtime: number;
    lastTxLt: bigint;
    interfaces: string[];
    getMethods: string[];
    /** Installed plugins (v4) or extensions (v5). */
    plugins: string[];
    /** Whether signed messages are accepted; undefined for versions that cannot turn them off. */
    signatureAllowed: boolean | undefined;
    stats: WalletStats;
}

export interface WalletStats {
    /** Jetton wallets with a non-zero balance. */
    jettons: number;
    nfts: number;
    multisigs: number;
    stakingPools: number;
}

/**
 * Wallet contracts holding any of the keys, by address. One statement reads them with their
 * holdings' counts (a round trip for each count cost a PostgreSQL request more than the counts).
 */
export async function walletsByPublicKeys(db: IndexDb, publicKeys: string[]): Promise<IndexedWallet[]> {
    const rows = await db.selectFrom('wallets')
        .innerJoin('account_states', 'account_states.address', 'wallets.address')
        .select([
            'wallets.address', 'wallets.public_key', 'wallets.signature_allowed', 'wallets.plugins',
            'account_states.balance', 'account_states.status', 'account_states.last_utime', 'account_states.last_tx_lt',
            'account_states.interfaces', 'account_states.get_methods',
        ])
        .select(eb => [
            eb.selectFrom('jetton_wallets').select(eb.fn.countAll().as('n'))
                .whereRef('jetton_wallets.owner', '=', 'wallets.address').where('jetton_wallets.verified', '=', 1).where('jetton_wallets.balance', '!=', '0')
                .as('jettons'),
            eb.selectFrom('nft_items').select(eb.fn.countAll().as('n')).whereRef('nft_items.owner', '=', 'wallets.address').as('nfts'),
            // A multisig naming the wallet both by address (v2) and by key (v1 owner) counts once.
            eb.selectFrom('multisig_members').select(inner => inner.fn.count('multisig_members.multisig').distinct().as('n'))
                .where(member => member.or([
                    member.and([member('multisig_members.kind', '=', 'address'), member('multisig_members.member', '=', member.ref('wallets.address'))]),
                    member.and([member('multisig_members.kind', '=', 'public_key'), member('multisig_members.member', '=', member.ref('wallets.public_key'))]),
                ]))
                .as('multisigs'),
            eb.selectFrom('pool_stakers').select(inner => inner.fn.count('pool_stakers.pool').as('n')).whereRef('pool_stakers.staker', '=', 'wallets.address').as('pools'),
        ])
        .where('wallets.public_key', 'in', [...new Set(publicKeys)])
        .orderBy('wallets.address')
        .execute();
    return rows.map(row => ({
        address: row.address,
        publicKey: row.public_key,
        balance: row.balance,
        status: row.status,
        lastUtime: toNumber(row.last_utime),
        lastTxLt: row.last_tx_lt,
        interfaces: JSON.parse(row.interfaces) as string[],
        getMethods: JSON.parse(row.get_methods) as string[],
        plugins: JSON.parse(row.plugins) as string[],
        signatureAllowed: row.signature_allowed === null ? undefined : toNumber(row.signature_allowed) !== 0,
        stats: { jettons: Number(row.jettons ?? 0), nfts: Number(row.nfts ?? 0), multisigs: Number(row.multisigs ?? 0), stakingPools: Number(row.pools ?? 0) },
    }));
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
    const rows = await readInChunks([...new Set(addresses)], 500, chunk => db.selectFrom('pool_stakers')
        .select(['staker', eb => eb.fn.count<string>('pool').as('pools')])
        .where('staker', 'in', chunk).groupBy('staker').execute());
    for (const row of rows) result.set(row.staker, Number(row.pools));
    return result;
}
