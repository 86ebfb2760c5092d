import {
    type Cell,
    type DepthBalanceInfo,
    Dictionary,
    type DictionaryValue,
    loadDepthBalanceInfo,
    type Slice,
} from '@ton/core';

// account_descr$_ account:^Account last_trans_hash:bits256
//   last_trans_lt:uint64 = ShardAccount;
// _ (HashmapAugE 256 ShardAccount DepthBalanceInfo) = ShardAccounts;

export interface ShardAccountEntry {
    depthBalance: DepthBalanceInfo;
    /** The Account cell; a pruned branch when the state is a Merkle proof/update that leaves it out. */
    account: Cell;
    lastTransHash: Buffer;
    lastTransLt: bigint;
}

/** Accounts keyed by address (as uint256); accounts under pruned branches are absent. */
export type ShardAccounts = Dictionary<bigint, ShardAccountEntry>;

const shardAccountValue: DictionaryValue<ShardAccountEntry> = {
    serialize() {
        throw new Error('ShardAccounts are read-only');
    },
    parse(slice) {
        const depthBalance = loadDepthBalanceInfo(slice);
        return {
            depthBalance,
            account: slice.loadRef(),
            lastTransHash: slice.loadBuffer(32),
            lastTransLt: slice.loadUintBig(64),
        };
    },
};

export function loadShardAccounts(slice: Slice): ShardAccounts {
    return Dictionary.load(Dictionary.Keys.BigUint(256), shardAccountValue, slice);
}
