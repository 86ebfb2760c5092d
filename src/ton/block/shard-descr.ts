import { type CurrencyCollection, loadCurrencyCollection, type Slice } from '@ton/core';
import { type FutureSplitMerge, loadFutureSplitMerge } from './future-split-merge.ts';

// shard_descr#b seq_no:uint32 reg_mc_seqno:uint32
//   start_lt:uint64 end_lt:uint64
//   root_hash:bits256 file_hash:bits256
//   before_split:Bool before_merge:Bool
//   want_split:Bool want_merge:Bool
//   nx_cc_updated:Bool flags:(## 3) { flags = 0 }
//   next_catchain_seqno:uint32 next_validator_shard:uint64
//   min_ref_mc_seqno:uint32 gen_utime:uint32
//   split_merge_at:FutureSplitMerge
//   fees_collected:CurrencyCollection
//   funds_created:CurrencyCollection = ShardDescr;
//
// shard_descr_new#a (same fields, with fees_collected and funds_created moved into a ref:)
//   ^[ fees_collected:CurrencyCollection
//      funds_created:CurrencyCollection ] = ShardDescr;

export interface ShardDescr {
    seqno: number;
    regMcSeqno: number;
    startLt: bigint;
    endLt: bigint;
    rootHash: Buffer;
    fileHash: Buffer;
    beforeSplit: boolean;
    beforeMerge: boolean;
    wantSplit: boolean;
    wantMerge: boolean;
    nxCcUpdated: boolean;
    flags: number;
    nextCatchainSeqno: number;
    nextValidatorShard: bigint;
    minRefMcSeqno: number;
    genUtime: number;
    splitMergeAt: FutureSplitMerge;
    feesCollected: CurrencyCollection;
    fundsCreated: CurrencyCollection;
}

export function loadShardDescr(slice: Slice): ShardDescr {
    const tag = slice.loadUint(4);
    if (tag !== 0xb && tag !== 0xa) {
        throw new Error(`Invalid ShardDescr tag ${tag.toString(16)}`);
    }
    const seqno = slice.loadUint(32);
    const regMcSeqno = slice.loadUint(32);
    const startLt = slice.loadUintBig(64);
    const endLt = slice.loadUintBig(64);
    const rootHash = slice.loadBuffer(32);
    const fileHash = slice.loadBuffer(32);
    const beforeSplit = slice.loadBit();
    const beforeMerge = slice.loadBit();
    const wantSplit = slice.loadBit();
    const wantMerge = slice.loadBit();
    const nxCcUpdated = slice.loadBit();
    const flags = slice.loadUint(3);
    const nextCatchainSeqno = slice.loadUint(32);
    const nextValidatorShard = slice.loadUintBig(64);
    const minRefMcSeqno = slice.loadUint(32);
    const genUtime = slice.loadUint(32);
    const splitMergeAt = loadFutureSplitMerge(slice);
    const fees = tag === 0xa ? slice.loadRef().beginParse() : slice;
    const feesCollected = loadCurrencyCollection(fees);
    const fundsCreated = loadCurrencyCollection(fees);
    return {
        seqno,
        regMcSeqno,
        startLt,
        endLt,
        rootHash,
        fileHash,
        beforeSplit,
        beforeMerge,
        wantSplit,
        wantMerge,
        nxCcUpdated,
        flags,
        nextCatchainSeqno,
        nextValidatorShard,
        minRefMcSeqno,
        genUtime,
        splitMergeAt,
        feesCollected,
        fundsCreated,
    };
}
