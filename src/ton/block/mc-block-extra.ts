import { type Cell, type Slice, loadCurrencyCollection } from '@ton/core';
import { type ConfigParams, loadConfigParams } from './config-params.ts';
import { loadShardHashes, type ShardHashes } from './shard-hashes.ts';

// masterchain_block_extra#cca5
//   key_block:(## 1)
//   shard_hashes:ShardHashes
//   shard_fees:ShardFees
//   ^[ prev_blk_signatures:(HashmapE 16 CryptoSignaturePair)
//      recover_create_msg:(Maybe ^InMsg)
//      mint_msg:(Maybe ^InMsg) ]
//   config:key_block?ConfigParams
// = McBlockExtra;
//
// _ (HashmapAugE 96 ShardFeeCreated ShardFeeCreated) = ShardFees;
// _ fees:CurrencyCollection create:CurrencyCollection = ShardFeeCreated;

export interface McBlockExtra {
    keyBlock: boolean;
    shardHashes: ShardHashes;
    /** Root of the ShardFees hashmap (not decoded), null when empty. */
    shardFees: Cell | null;
    /** The ref holding prev_blk_signatures, recover_create_msg and mint_msg (not decoded). */
    signaturesAndMessages: Cell;
    /** Present in key blocks only. */
    config?: ConfigParams;
}

export function loadMcBlockExtra(slice: Slice): McBlockExtra {
    if (slice.loadUint(16) !== 0xcca5) {
        throw new Error('Invalid McBlockExtra tag');
    }
    const keyBlock = slice.loadBit();
    const shardHashes = loadShardHashes(slice);
    const shardFees = slice.loadMaybeRef();
    // ShardFees' augmentation (a ShardFeeCreated) sits inline after its root
    loadCurrencyCollection(slice);
    loadCurrencyCollection(slice);
    const signaturesAndMessages = slice.loadRef();
    const config = keyBlock ? loadConfigParams(slice) : undefined;
    return { keyBlock, shardHashes, shardFees, signaturesAndMessages, config };
}
