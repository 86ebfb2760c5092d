import type { IndexDb } from '../schema.ts';
import { toNumber } from '../schema.ts';
import { among } from './among.ts';

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
    /** The get methods' names as the indexer stored them: the text of a JSON array of strings, shown as it is. */
    getMethodsJson: string;
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
        .where(among(db, 'wallets.public_key', [...new Set(publicKeys)]))
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
        getMethodsJson: row.get_methods,
        plugins: JSON.parse(row.plugins) as string[],
        signatureAllowed: row.signature_allowed === null ? undefined : toNumber(row.signature_allowed) !== 0,
        stats: { jettons: Number(row.jettons ?? 0), nfts: Number(row.nfts ?? 0), multisigs: Number(row.multisigs ?? 0), stakingPools: Number(row.pools ?? 0) },
    }));
}
