import { Dictionary, type DictionaryValue, loadCurrencyCollection, type Slice } from '@ton/core';
import { type AccountBlock, loadAccountBlock } from './account-block.ts';
import { DictKeys } from '../cells/dict-keys.ts';

// _ (HashmapAugE 256 AccountBlock CurrencyCollection) = ShardAccountBlocks;

/** Account blocks keyed by account address (as uint256); the fee augmentations are dropped. */
export type ShardAccountBlocks = Dictionary<bigint, AccountBlock>;

const accountBlockValue: DictionaryValue<AccountBlock> = {
    serialize() {
        throw new Error('ShardAccountBlocks are read-only');
    },
    parse(slice) {
        loadCurrencyCollection(slice); // the augmentation: fees of this account's transactions
        return loadAccountBlock(slice);
    },
};

export function loadShardAccountBlocks(slice: Slice): ShardAccountBlocks {
    return Dictionary.load(DictKeys.BigUint(256), accountBlockValue, slice);
}
