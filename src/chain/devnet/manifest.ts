import type { Address } from '@ton/core';
import { formatRawAddress } from '../../ton/address.ts';
import { devnetTokens } from './token-seed.ts';
import { devnetMultisig } from './multisig-seed.ts';
import { devnetLibraryJetton } from './library-seed.ts';
import type { GenesisSpec, GenesisWallet } from './genesis.ts';
import { devnetExtraCurrencies } from './extra-currency.ts';
import { devnetDns } from './dns-seed.ts';
import { devnetMultisigOrders, devnetMultisigsV2 } from './multisig-v2-seed.ts';
import { devnetStaking } from './elections.ts';
import { ELECTOR_ADDRESS } from './contracts/elector.ts';
import { CONFIG_ADDRESS } from './contracts/config.ts';

export interface DevnetManifest {
    network: 'devnet';
    global_id: number;
    genesis_utime: number;
    accounts: Array<{
        name: string;
        kind: string;
        address: string;
        friendly_address: string;
        workchain_id: number;
        public_key?: string;
        secret_key?: string;
        wallet_id?: number;
        /** A seeded wallet's seqno as last indexed (0 until it is deployed); added by the API, which reads the index. */
        seqno?: number;
        metadata_uri?: string;
    }>;
    /** The extra currencies minted at genesis, as the devnet's extra currency table describes them (absent on chains that have none). */
    extra_currencies?: Array<{ id: number; symbol: string; name: string; decimals: number; image: string; holders: string[] }>;
    /** The validator economy (absent on chains created without one): round length, validators with their keys, pools and nominators. */
    elections?: {
        round_seconds: number;
        elector: string;
        config: string;
        /** The config contract's master key (signs its external actions). */
        config_public_key: string;
        config_secret_key: string;
        validators: Array<{ name: string; route: string; public_key: string; secret_key: string; adnl_address: string; wallet: string; stake_from: string }>;
        pools: Array<{ name: string; kind: 'nominator_pool' | 'single_nominator_pool'; address: string; validator: string; nominators?: string[]; owner?: string; validator_reward_share?: number }>;
    };
}

/** Every seeded account, with the keys of the wallets so users and tests can sign messages, and the extra currencies of genesis. */
export function buildManifest(genesis: GenesisSpec, wallets: GenesisWallet[], options: { elections?: boolean } = {}): DevnetManifest {
    const byName = new Map(wallets.map(w => [w.name, w.wallet]));
    const tokens = devnetTokens(byName, genesis.metadataBaseUrl);
    const library = devnetLibraryJetton(byName);
    const dns = devnetDns(byName);
    const multisigs = devnetMultisigsV2(byName);
    const contract = (name: string, kind: string, address: Address, extra: { metadata_uri?: string } = {}) => ({
        name, kind, address: formatRawAddress(address), friendly_address: address.toString({ bounceable: true, testOnly: true }),
        workchain_id: address.workChain, ...extra,
    });
    const manifest: DevnetManifest = {
        network: 'devnet',
        global_id: genesis.globalId,
        genesis_utime: genesis.utime,
        accounts: wallets.map(({ name, wallet }): DevnetManifest['accounts'][number] => ({
            name,
            kind: wallet.kind,
            address: formatRawAddress(wallet.address),
            friendly_address: wallet.address.toString({ bounceable: false, testOnly: true }),
            workchain_id: wallet.address.workChain,
            public_key: wallet.keys.publicKey.toString('hex'),
            secret_key: wallet.keys.secretKey.toString('hex'),
            wallet_id: wallet.walletId,
        })).concat([
            contract('DUSD', 'jetton_master', tokens.dollar.address),
            contract('DPTS', 'jetton_master', tokens.points.address, { metadata_uri: tokens.points.uri }),
            contract('devnet-nft', 'nft_collection', tokens.collection.address),
            contract('devnet-multisig', 'multisig_v1', devnetMultisig(byName).address),
            contract('devnet-librarian', 'librarian', library.librarian),
            contract('DSTB', 'jetton_master', library.stable.address),
            contract('devnet-dns', 'nft_collection', dns.collection.address),
            contract(`${dns.domain.name}.ton`, 'nft_item', dns.domain.item),
            contract(multisigs.small.name, 'multisig_v2', multisigs.small.address),
            contract(multisigs.large.name, 'multisig_v2', multisigs.large.address),
            ...devnetMultisigOrders(multisigs).map(order => contract(order.name, 'multisig_order_v2', order.address)),
        ]),
    };
    const staking = genesis.elections ? devnetStaking(byName) : null;
    if (staking && genesis.elections) {
        manifest.accounts.push(
            contract('elector', 'elector', ELECTOR_ADDRESS),
            contract('config', 'config', CONFIG_ADDRESS),
            contract(staking.nominatorPool.name, 'nominator_pool', staking.nominatorPool.address),
            contract(staking.singleNominator.name, 'single_nominator_pool', staking.singleNominator.address),
        );
        if (options.elections) manifest.elections = {
            round_seconds: genesis.elections.roundSeconds,
            elector: formatRawAddress(ELECTOR_ADDRESS),
            config: formatRawAddress(CONFIG_ADDRESS),
            config_public_key: staking.configKeys.publicKey.toString('hex'),
            config_secret_key: staking.configKeys.secretKey.toString('hex'),
            validators: staking.validators.map(v => ({
                name: v.name, route: v.route, public_key: v.keys.publicKey.toString('hex'), secret_key: v.keys.secretKey.toString('hex'),
                adnl_address: v.adnl.toString(16).padStart(64, '0'), wallet: formatRawAddress(v.wallet.address), stake_from: formatRawAddress(v.stakeFrom),
            })),
            pools: [
                {
                    name: staking.nominatorPool.name, kind: 'nominator_pool', address: formatRawAddress(staking.nominatorPool.address), validator: 'validator-pool',
                    nominators: staking.nominatorPool.nominators, validator_reward_share: staking.nominatorPool.config.validatorRewardShare,
                },
                { name: staking.singleNominator.name, kind: 'single_nominator_pool', address: formatRawAddress(staking.singleNominator.address), validator: 'validator-single', owner: staking.singleNominator.owner },
            ],
        };
    }
    const minted = [...new Set(wallets.flatMap(w => [...w.extra.keys()]))].sort((a, b) => a - b);
    if (minted.length > 0) {
        const table = devnetExtraCurrencies();
        manifest.extra_currencies = minted.map(id => {
            const { symbol, decimals, image } = table.preview(id);
            return { id, symbol, name: table.get(id)?.name ?? '', decimals, image, holders: wallets.filter(w => w.extra.has(id)).map(w => w.name) };
        });
    }
    return manifest;
}
