import { type Cell, type DictionaryValue } from '@ton/core';
import { formatRawAddress } from '../address.ts';
import { DictKeys } from '../cells/dict-keys.ts';

/** How a known staking pool keeps its stakers in the data cell. */
export type StakingPoolLayout = 'tf_nominator_pool' | 'single_nominator';

/** One staker of a pool: a nominator of a TF pool (with its stake), or a single-nominator pool's owner. */
export interface PoolStaker {
    /** Raw `wc:hex` address. */
    address: string;
    /** Nanograms staked, where the pool's data says (TF pools); null otherwise. */
    amount: bigint | null;
    /** Nanograms deposited but not yet staked (TF pools, while a stake is out); null otherwise. */
    pendingDeposit: bigint | null;
}

const LAYOUT_BY_INTERFACE: ReadonlyMap<string, StakingPoolLayout> = new Map([
    ['tv_pool', 'tf_nominator_pool'],
    ['single_nominator_pool', 'single_nominator'],
]);

/** The layout of a contract with these interfaces, if it is a known staking pool. */
export function stakingPoolLayoutOf(interfaces: readonly string[]): StakingPoolLayout | undefined {
    for (const name of interfaces) {
        const layout = LAYOUT_BY_INTERFACE.get(name);
        if (layout) return layout;
    }
    return undefined;
}

/** A nominator's entry of a TF pool: amount:Coins pending_deposit_amount:Coins. */
const NOMINATOR: DictionaryValue<{ amount: bigint; pending: bigint }> = {
    serialize(src, builder) {
        builder.storeCoins(src.amount).storeCoins(src.pending);
    },
    parse(s) {
        return { amount: s.loadCoins(), pending: s.loadCoins() };
    },
};

/**
 * Reads who has a stake in a known pool from its data cell; null when the cell does not have the
 * layout's shape.
 *
 * TF nominator pool (ton-blockchain/nominator-pool, `load_data`; nominators live in the basechain):
 *   state:uint8 nominators_count:uint16 stake_amount_sent:Coins validator_amount:Coins config:^Cell
 *   nominators:(HashmapE 256 [amount:Coins pending_deposit_amount:Coins]) ...
 * Single nominator (orbs-network/single-nominator): owner_address:MsgAddressInt validator_address:MsgAddressInt
 */
export function readPoolStakers(layout: StakingPoolLayout, data: Cell): PoolStaker[] | null {
    try {
        const s = data.beginParse();
        if (layout === 'single_nominator') {
            const owner = s.loadAddress();
            s.loadAddress(); // validator
            return [{ address: formatRawAddress(owner), amount: null, pendingDeposit: null }];
        }
        s.skip(8 + 16); // state, nominators_count
        s.loadCoins(); // stake_amount_sent
        s.loadCoins(); // validator_amount
        s.loadRef(); // config
        const nominators = s.loadDict(DictKeys.BigUint(256), NOMINATOR);
        return [...nominators]
            .filter(([, entry]) => entry.amount + entry.pending > 0n)
            .map(([key, entry]) => ({ address: `0:${key.toString(16).padStart(64, '0')}`, amount: entry.amount, pendingDeposit: entry.pending }));
    } catch {
        return null;
    }
}
