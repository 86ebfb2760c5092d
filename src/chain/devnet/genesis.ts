import type { ShardAccount } from '@ton/core';
import { extraCurrencyDict } from '../../ton/extra-currencies.ts';
import { DEVNET_EXTRA_CURRENCY_ID } from './extra-currency.ts';
import { keyPairFromSeed, newKeyPair, type KeyPair } from './keys.ts';
import { DevnetWallet, type DevnetWalletKind } from './wallets.ts';
import { BASE_VALIDATORS, DEFAULT_ROUND_SECONDS, STAKING_WALLETS, extraValidatorWallets, type ElectionsSpec } from './elections.ts';

const GRAM = 1_000_000_000n;

/** What the devnet was created with; saved once in its chain log and published as the manifest. */
export interface GenesisSpec {
    utime: number;
    globalId: number;
    /**
     * `extra`: extra currencies held at genesis, amount by currency id (decimal strings). Chains
     * created before the devnet minted one have none.
     */
    wallets: Array<{ name: string; kind: DevnetWalletKind; seed: string; balance: string; extra?: Record<string, string>; workchain?: number }>;
    /** The validator economy (elector, config contract, validators staking through pools); absent on chains created before it. */
    elections?: ElectionsSpec;
    /** Base URL of the devnet's own metadata documents, as reachable when the chain was created. */
    metadataBaseUrl?: string;
    /** How many basechain shards the chain has (absent: one, as on chains made before shards). */
    shards?: number;
}

export interface GenesisWallet {
    name: string;
    wallet: DevnetWallet;
    balance: bigint;
    /** Extra currencies held at genesis, by currency id. */
    extra: Map<number, bigint>;
}

/**
 * Genesis accounts: uninitialized wallets holding coins, each with its own key except the v4r2 and
 * v5r1 wallets, which share one key (as a wallet app shows both versions for one key). The faucet
 * holds more than 2^53 nanograms so exact integers are exercised from the first request. alice-v3r2
 * also holds a million of the devnet's extra currency (DGEM, 6 decimals).
 */
export function newGenesis(utime: number, globalId: number, metadataBaseUrl?: string, roundSeconds = DEFAULT_ROUND_SECONDS, validators = BASE_VALIDATORS): GenesisSpec {
    const seedOf = (keys: KeyPair) => keys.secretKey.subarray(0, 32).toString('hex');
    const faucetKeys = newKeyPair();
    const aliceKeys = newKeyPair();
    const bobKeys = newKeyPair();
    return {
        utime,
        globalId,
        metadataBaseUrl,
        wallets: [
            { name: 'faucet', kind: 'wallet_v4r2', seed: seedOf(faucetKeys), balance: (1_000_000_000n * GRAM).toString() },
            {
                name: 'alice-v3r2', kind: 'wallet_v3r2', seed: seedOf(aliceKeys), balance: (100_000n * GRAM).toString(),
                extra: { [DEVNET_EXTRA_CURRENCY_ID]: (1_000_000n * 1_000_000n).toString() },
            },
            { name: 'bob-v4r2', kind: 'wallet_v4r2', seed: seedOf(bobKeys), balance: (100_000n * GRAM).toString() },
            { name: 'bob-v5r1', kind: 'wallet_v5r1', seed: seedOf(bobKeys), balance: (100_000n * GRAM).toString() },
            // The validator economy's wallets: validators (masterchain), nominators and a pool owner.
            ...[...STAKING_WALLETS, ...extraValidatorWallets(validators)]
                .map(w => ({ name: w.name, kind: w.kind, seed: seedOf(newKeyPair()), balance: w.balance.toString(), workchain: w.workchain })),
        ],
        elections: validators === BASE_VALIDATORS ? { roundSeconds } : { roundSeconds, validators },
    };
}

export function genesisWallets(spec: GenesisSpec): GenesisWallet[] {
    return spec.wallets.map(w => ({
        name: w.name,
        wallet: new DevnetWallet(w.kind, keyPairFromSeed(Buffer.from(w.seed, 'hex')), w.workchain ?? 0),
        balance: BigInt(w.balance),
        extra: new Map(Object.entries(w.extra ?? {}).map(([id, amount]) => [Number(id), BigInt(amount)])),
    }));
}

/** An account that exists with a balance but no code yet: its owner's first transfer deploys it. */
export function uninitializedAccount(wallet: DevnetWallet, balance: bigint, utime: number, extra?: ReadonlyMap<number, bigint>): ShardAccount {
    return {
        account: {
            addr: wallet.address,
            storageStats: { used: { cells: 0n, bits: 0n }, storageExtra: null, lastPaid: utime, duePayment: null },
            storage: { lastTransLt: 0n, balance: { coins: balance, other: extraCurrencyDict(extra) }, state: { type: 'uninit' } },
        },
        lastTransactionHash: 0n,
        lastTransactionLt: 0n,
    };
}
