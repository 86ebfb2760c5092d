import { createHash } from 'node:crypto';
import { Address, type Cell, type ShardAccount } from '@ton/core';
import { createShardAccount } from '@ton/sandbox';
import { keyPairFromSeed, type KeyPair } from './keys.ts';
import type { DevnetWallet, DevnetWalletKind } from './wallets.ts';
import { ELECTOR_ADDRESS, electorCode, electorData } from './contracts/elector.ts';
import {
    CONFIG_ADDRESS, addressParam, configCode, configData, configParamsCell, configParamsDict, stakeLimitsParam, validatorCountsParam,
    validatorSetCell, validatorTimingsParam, type ValidatorTimings,
} from './contracts/config.ts';
import {
    nominatorPoolAddress, singleNominatorAddress, type NominatorPoolConfig, type SingleNominatorConfig,
} from './contracts/staking-pools.ts';

const GRAM = 1_000_000_000n;

/** A round of the devnet's validators lasts this long unless `--round-seconds` says otherwise. */
export const DEFAULT_ROUND_SECONDS = 120;

/** The three validators every devnet has, one per stake route. */
export const BASE_VALIDATORS = 3;
/** The most validators a devnet can be created with (p16's max_validators, as mainnet). */
export const MAX_VALIDATORS = 400;

/** What a chain's validator economy was created with (saved in its genesis). */
export interface ElectionsSpec {
    roundSeconds: number;
    /** How many validators stake (default BASE_VALIDATORS): beyond the three routes' own, the rest stake from their wallets. */
    validators?: number;
}

/** How a devnet validator stakes. */
export type StakeRoute = 'nominator_pool' | 'single_nominator' | 'wallet';

/** The genesis wallets of the validator economy: validators' wallets in the masterchain, nominators and the single-nominator pool's owner in the basechain. */
export const STAKING_WALLETS: Array<{ name: string; kind: DevnetWalletKind; workchain: number; balance: bigint }> = [
    { name: 'validator-pool', kind: 'wallet_v4r2', workchain: -1, balance: 3_000n * GRAM },
    { name: 'validator-single', kind: 'wallet_v4r2', workchain: -1, balance: 200n * GRAM },
    { name: 'validator-direct', kind: 'wallet_v4r2', workchain: -1, balance: 50_000n * GRAM },
    { name: 'nominator-1', kind: 'wallet_v4r2', workchain: 0, balance: 10_000n * GRAM },
    { name: 'nominator-2', kind: 'wallet_v4r2', workchain: 0, balance: 10_000n * GRAM },
    { name: 'nominator-3', kind: 'wallet_v4r2', workchain: 0, balance: 1_000n * GRAM },
    { name: 'single-owner', kind: 'wallet_v4r2', workchain: 0, balance: 20_000n * GRAM },
];

/** The name of the k-th validator beyond the three routes' own (k from 1); each stakes from its masterchain wallet. */
export function extraValidatorName(k: number): string {
    return `validator-wallet-${k}`;
}

/** The genesis wallets of the validators beyond the three routes' own. */
export function extraValidatorWallets(validators: number): Array<{ name: string; kind: DevnetWalletKind; workchain: number; balance: bigint }> {
    return Array.from({ length: Math.max(0, validators - BASE_VALIDATORS) }, (_, i) => ({
        name: extraValidatorName(i + 1), kind: 'wallet_v4r2' as const, workchain: -1, balance: 10_000n * GRAM,
    }));
}

/** What a validator staking from its wallet stakes each round: validator-direct 3000 gram, the k-th extra one 1000 + 17·k gram (so that their stakes, weights and ranks differ). */
export function walletStake(k: number): bigint {
    return k === 0 ? 3_000n * GRAM : 1_000n * GRAM + 17n * GRAM * BigInt(k);
}

/** p15 from the round length: validators_elected_for = a round; elections open half a round before it ends and close a quarter before; stakes are held a quarter after. */
export function electionTimings(roundSeconds: number): ValidatorTimings {
    return {
        electedFor: roundSeconds,
        electionsStartBefore: Math.floor(roundSeconds / 2),
        electionsEndBefore: Math.floor(roundSeconds / 4),
        stakeHeldFor: Math.floor(roundSeconds / 4),
    };
}

export const STAKE_COUNTS = { maxValidators: MAX_VALIDATORS, maxMainValidators: 100, minValidators: 1 };
export const STAKE_LIMITS = { minStake: 10n * GRAM, maxStake: 10_000_000n * GRAM, minTotalStake: 10n * GRAM, maxStakeFactor: 3 * 65536 };

export interface DevnetValidator {
    name: string;
    route: StakeRoute;
    /** The validator's wallet (masterchain): it sends the stakes (to a pool, or to the elector itself). */
    wallet: DevnetWallet;
    /** The validator's own key: signs its stakes; p34 lists it. */
    keys: KeyPair;
    adnl: bigint;
    /** The address the elector sees the stake from (the pool, or the wallet). */
    stakeFrom: Address;
    /** Route `wallet`: what it stakes each round. */
    stake: bigint;
}

export interface DevnetStaking {
    validators: DevnetValidator[];
    nominatorPool: { name: string; config: NominatorPoolConfig; address: Address; nominators: string[] };
    singleNominator: { name: string; config: SingleNominatorConfig; address: Address; owner: string };
    /** The config contract's master key (signs its external actions). */
    configKeys: KeyPair;
}

function derived(label: string, wallet: DevnetWallet): Buffer {
    return createHash('sha256').update(`native-explorer devnet ${label}`).update(wallet.keys.secretKey.subarray(0, 32)).digest();
}

/** The chain's validators, pools and nominators; null on a chain created without a validator economy. */
export function devnetStaking(wallets: Map<string, DevnetWallet>): DevnetStaking | null {
    const poolValidator = wallets.get('validator-pool');
    const singleValidator = wallets.get('validator-single');
    const directValidator = wallets.get('validator-direct');
    const owner = wallets.get('single-owner');
    if (!poolValidator || !singleValidator || !directValidator || !owner) return null;
    const poolConfig: NominatorPoolConfig = {
        validatorAddress: poolValidator.address, validatorRewardShare: 3000, maxNominatorsCount: 40, minValidatorStake: 100n * GRAM, minNominatorStake: 10n * GRAM,
    };
    const singleConfig: SingleNominatorConfig = { owner: owner.address, validator: singleValidator.address };
    const poolAddress = nominatorPoolAddress(poolConfig);
    const singleAddress = singleNominatorAddress(singleConfig);
    const validator = (name: string, route: StakeRoute, wallet: DevnetWallet, stakeFrom: Address, stake = 0n): DevnetValidator => ({
        name, route, wallet, stakeFrom, stake,
        keys: keyPairFromSeed(derived('validator key', wallet)),
        adnl: BigInt(`0x${derived('validator adnl', wallet).toString('hex')}`),
    });
    return {
        validators: [
            validator('validator-pool', 'nominator_pool', poolValidator, poolAddress),
            validator('validator-single', 'single_nominator', singleValidator, singleAddress),
            validator('validator-direct', 'wallet', directValidator, directValidator.address, walletStake(0)),
            ...extraValidators(wallets).map(([k, wallet]) => validator(extraValidatorName(k), 'wallet', wallet, wallet.address, walletStake(k))),
        ],
        nominatorPool: { name: 'devnet-nominator-pool', config: poolConfig, address: poolAddress, nominators: ['nominator-1', 'nominator-2', 'nominator-3'] },
        singleNominator: { name: 'devnet-single-nominator', config: singleConfig, address: singleAddress, owner: 'single-owner' },
        configKeys: keyPairFromSeed(derived('config master key', wallets.get('faucet') ?? poolValidator)),
    };
}

function extraValidators(wallets: Map<string, DevnetWallet>): Array<[number, DevnetWallet]> {
    const found: Array<[number, DevnetWallet]> = [];
    for (let k = 1; wallets.has(extraValidatorName(k)); k++) found.push([k, wallets.get(extraValidatorName(k))!]);
    return found;
}

/**
 * The genesis config of a chain with elections: the sandbox's (mainnet's) config with the config
 * contract (p0) and the elector (p1), short round timings (p15), mainnet's validator counts (p16) and
 * stake limits small enough for devnet wallets (p17), and the devnet's validators as the current set
 * (p34, equal weights). The genesis set
 * ends three quarters of a round after genesis, so the first elections open a quarter of a round in
 * (once the seed has deployed the pools) and the first elected round starts at its end.
 */
export function electionsGenesisConfig(base: Cell, staking: DevnetStaking, utime: number, spec: ElectionsSpec): Cell {
    const params = configParamsDict(base);
    const timings = electionTimings(spec.roundSeconds);
    params.set(0, addressParam(CONFIG_ADDRESS));
    params.set(1, addressParam(ELECTOR_ADDRESS));
    params.set(15, validatorTimingsParam(timings));
    params.set(16, validatorCountsParam(STAKE_COUNTS));
    params.set(17, stakeLimitsParam(STAKE_LIMITS));
    const count = staking.validators.length;
    const weight = (1n << 60n) / BigInt(count);
    params.set(34, validatorSetCell({
        utimeSince: utime, utimeUntil: utime + Math.floor((spec.roundSeconds * 3) / 4), total: count, main: Math.min(count, STAKE_COUNTS.maxMainValidators),
        totalWeight: weight * BigInt(count),
        list: staking.validators.map(v => ({ publicKey: BigInt(`0x${v.keys.publicKey.toString('hex')}`), weight, adnlAddr: v.adnl })),
    }));
    params.delete(32);
    params.delete(36);
    return configParamsCell(params);
}

/** A special (tick-tock) masterchain account at genesis. */
function specialAccount(address: Address, code: Cell, data: Cell, balance: bigint): ShardAccount {
    const account = createShardAccount({ address, code, data, balance, workchain: -1 });
    const state = account.account!.storage.state;
    if (state.type !== 'active') throw new Error('a special account is active');
    state.state.special = { tick: true, tock: true };
    return account;
}

/** The elector (-1:3333…) and the config contract (-1:5555…) holding `config`, as genesis accounts. */
export function electionsGenesisAccounts(config: Cell, staking: DevnetStaking): Array<{ address: Address; account: ShardAccount }> {
    return [
        { address: ELECTOR_ADDRESS, account: specialAccount(ELECTOR_ADDRESS, electorCode(), electorData(), 100n * GRAM) },
        {
            address: CONFIG_ADDRESS,
            account: specialAccount(CONFIG_ADDRESS, configCode(), configData({
                configDict: config, seqno: 0, publicKey: BigInt(`0x${staking.configKeys.publicKey.toString('hex')}`),
            }), 100n * GRAM),
        },
    ];
}

/** The special accounts the collator runs tick and tock transactions on, in address order (as TON's collator). */
export const TICK_TOCK_ACCOUNTS = [ELECTOR_ADDRESS, CONFIG_ADDRESS];
