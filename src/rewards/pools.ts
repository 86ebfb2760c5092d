import { Address, type Cell } from '@ton/core';
import { DictKeys } from '../ton/cells/dict-keys.ts';

export type PoolType = 'nominator-pool-v1.0' | 'single-nominator-pool-v1.0' | 'single-nominator-pool-v1.1' | 'other';

/**
 * Staking pool code hashes: mainnet's (ton-blockchain/nominator-pool, single-nominator v1.0 and
 * mytonctrl's v1.1) and this project's devnet contracts (contracts/nominator-pool.tolk and
 * single-nominator.tolk: the same storage layouts; the devnet single-nominator takes the "w"
 * comment, so it counts as v1.1). test/rewards checks the devnet hashes against the build.
 */
export const POOL_CODE_HASHES: ReadonlyMap<string, Exclude<PoolType, 'other'>> = new Map([
    ['9a3ec14bc098f6b44064c305222caea2800f17dda85ee6a8198a7095ede10dcf', 'nominator-pool-v1.0'],
    ['a42ae69eac76ffe0e452d3d4f13d387a14e46c01a5aadba5fc1d893e6c71f5ba', 'single-nominator-pool-v1.0'],
    ['cc0d39589eb2c0cfe0fde28456657a3bdd3d953955ae3f98f25664ab3c904fbd', 'single-nominator-pool-v1.1'],
    ['250ea77325763933e1d1ab8ffb31dca3fa8c6109fa8b51e76a2246624fbd91c0', 'nominator-pool-v1.0'],
    ['18804a132c87403855aa5d19f3b2415c3a5a457e3db3b3f739c87d24d4034e9e', 'single-nominator-pool-v1.1'],
]);

/** An account's code and data at a block; null fields for an account without them (uninit, frozen). */
export interface PoolAccount {
    code: Cell | null;
    data: Cell | null;
}

export interface NominatorPoolStorage {
    kind: 'nominator';
    validatorAmount: bigint;
    /** config.validator_address: the validator wallet's masterchain account id. */
    validatorAddress: bigint;
    /** In 1/10000. */
    validatorRewardShare: number;
    nominatorsCount: number;
    /** Ascending key (basechain account id) order; `amount` only (pending deposits do not earn). */
    nominators: { accountId: bigint; amount: bigint }[];
}

export interface SingleNominatorStorage {
    kind: 'single';
    owner: Address | null;
    validator: Address | null;
}

export interface DecodedPool {
    type: PoolType;
    storage: NominatorPoolStorage | SingleNominatorStorage | null;
}

export function poolTypeOf(account: PoolAccount | null): PoolType {
    if (!account?.code) return 'other';
    return POOL_CODE_HASHES.get(account.code.hash().toString('hex')) ?? 'other';
}

const NOMINATOR_AMOUNT = {
    serialize() {
        throw new Error('read only');
    },
    parse(s: import('@ton/core').Slice) {
        const amount = s.loadCoins();
        s.loadCoins(); // pending_deposit_amount
        return amount;
    },
};

/**
 * nominator-pool storage (ton-blockchain/nominator-pool `load_data`): state:uint8
 * nominators_count:uint16 stake_amount_sent:Coins validator_amount:Coins
 * ^[validator_address:uint256 validator_reward_share:uint16 max_nominators_count:uint16 …]
 * nominators:(HashmapE 256 [amount:Coins pending_deposit_amount:Coins]) …
 */
export function readNominatorPoolData(data: Cell): NominatorPoolStorage {
    const s = data.beginParse();
    s.loadUint(8); // state
    const nominatorsCount = s.loadUint(16);
    s.loadCoins(); // stake_amount_sent
    const validatorAmount = s.loadCoins();
    const config = s.loadRef().beginParse();
    const validatorAddress = config.loadUintBig(256);
    const validatorRewardShare = config.loadUint(16);
    const dict = s.loadDict(DictKeys.BigUint(256), NOMINATOR_AMOUNT);
    const nominators = [...dict].map(([accountId, amount]) => ({ accountId, amount })).sort((a, b) => (a.accountId < b.accountId ? -1 : 1));
    return { kind: 'nominator', validatorAmount, validatorAddress, validatorRewardShare, nominatorsCount, nominators };
}

/** single-nominator storage: owner_address:MsgAddressInt validator_address:MsgAddressInt (null for a non-addr_std). */
export function readSingleNominatorData(data: Cell): SingleNominatorStorage {
    const s = data.beginParse();
    const read = () => {
        try {
            return s.loadAddress();
        } catch {
            return null;
        }
    };
    const owner = read();
    const validator = owner ? read() : null;
    return { kind: 'single', owner, validator };
}

/** The pool's type by code hash and, for the known types, its storage (null when it does not decode). */
export function decodePool(account: PoolAccount | null): DecodedPool {
    const type = poolTypeOf(account);
    if (type === 'other' || !account?.data) return { type, storage: null };
    try {
        return { type, storage: type === 'nominator-pool-v1.0' ? readNominatorPoolData(account.data) : readSingleNominatorData(account.data) };
    } catch {
        return { type, storage: null };
    }
}
