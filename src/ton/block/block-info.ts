import { loadShardIdent, type ShardIdent, type Slice } from '@ton/core';
import { type BlkMasterInfo, loadBlkMasterInfo } from './blk-master-info.ts';
import { type BlkPrevInfo, loadBlkPrevInfo } from './blk-prev-info.ts';
import { type GlobalVersion, loadGlobalVersion } from './global-version.ts';

// block_info#9bc7a987 version:uint32
//   not_master:(## 1)
//   after_merge:(## 1) before_split:(## 1)
//   after_split:(## 1)
//   want_split:Bool want_merge:Bool
//   key_block:Bool vert_seqno_incr:(## 1)
//   flags:(## 8) { flags <= 1 }
//   seq_no:# vert_seq_no:# { vert_seq_no >= vert_seqno_incr }
//   { prev_seq_no:# } { ~prev_seq_no + 1 = seq_no }
//   shard:ShardIdent gen_utime:uint32
//   start_lt:uint64 end_lt:uint64
//   gen_validator_list_hash_short:uint32
//   gen_catchain_seqno:uint32
//   min_ref_mc_seqno:uint32
//   prev_key_block_seqno:uint32
//   gen_software:flags . 0?GlobalVersion
//   master_ref:not_master?^BlkMasterInfo
//   prev_ref:^(BlkPrevInfo after_merge)
//   prev_vert_ref:vert_seqno_incr?^(BlkPrevInfo 0)
//   = BlockInfo;

export interface BlockInfo {
    version: number;
    notMaster: boolean;
    afterMerge: boolean;
    beforeSplit: boolean;
    afterSplit: boolean;
    wantSplit: boolean;
    wantMerge: boolean;
    keyBlock: boolean;
    vertSeqnoIncr: boolean;
    flags: number;
    seqno: number;
    vertSeqno: number;
    shard: ShardIdent;
    genUtime: number;
    startLt: bigint;
    endLt: bigint;
    genValidatorListHashShort: number;
    genCatchainSeqno: number;
    minRefMcSeqno: number;
    prevKeyBlockSeqno: number;
    genSoftware?: GlobalVersion;
    masterRef?: BlkMasterInfo;
    prevRef: BlkPrevInfo;
    prevVertRef?: BlkPrevInfo;
}

export function loadBlockInfo(slice: Slice): BlockInfo {
    if (slice.loadUint(32) !== 0x9bc7a987) {
        throw new Error('Invalid BlockInfo tag');
    }
    const version = slice.loadUint(32);
    const notMaster = slice.loadBit();
    const afterMerge = slice.loadBit();
    const beforeSplit = slice.loadBit();
    const afterSplit = slice.loadBit();
    const wantSplit = slice.loadBit();
    const wantMerge = slice.loadBit();
    const keyBlock = slice.loadBit();
    const vertSeqnoIncr = slice.loadBit();
    const flags = slice.loadUint(8);
    if (flags > 1) {
        throw new Error(`Unsupported BlockInfo flags ${flags}`);
    }
    const seqno = slice.loadUint(32);
    const vertSeqno = slice.loadUint(32);
    if (vertSeqnoIncr && vertSeqno < 1) {
        throw new Error('BlockInfo: vert_seq_no must be >= vert_seqno_incr');
    }
    const shard = loadShardIdent(slice);
    const genUtime = slice.loadUint(32);
    const startLt = slice.loadUintBig(64);
    const endLt = slice.loadUintBig(64);
    const genValidatorListHashShort = slice.loadUint(32);
    const genCatchainSeqno = slice.loadUint(32);
    const minRefMcSeqno = slice.loadUint(32);
    const prevKeyBlockSeqno = slice.loadUint(32);
    const genSoftware = flags & 1 ? loadGlobalVersion(slice) : undefined;
    const masterRef = notMaster ? loadBlkMasterInfo(slice.loadRef().beginParse()) : undefined;
    const prevRef = loadBlkPrevInfo(slice.loadRef().beginParse(), afterMerge);
    const prevVertRef = vertSeqnoIncr ? loadBlkPrevInfo(slice.loadRef().beginParse(), false) : undefined;
    return {
        version,
        notMaster,
        afterMerge,
        beforeSplit,
        afterSplit,
        wantSplit,
        wantMerge,
        keyBlock,
        vertSeqnoIncr,
        flags,
        seqno,
        vertSeqno,
        shard,
        genUtime,
        startLt,
        endLt,
        genValidatorListHashShort,
        genCatchainSeqno,
        minRefMcSeqno,
        prevKeyBlockSeqno,
        genSoftware,
        masterRef,
        prevRef,
        prevVertRef,
    };
}
