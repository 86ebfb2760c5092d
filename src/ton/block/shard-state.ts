import { type Cell, loadShardIdent, type ShardIdent, type Slice } from '@ton/core';

// shard_state#9023afe2 global_id:int32
//   shard_id:ShardIdent
//   seq_no:uint32 vert_seq_no:#
//   gen_utime:uint32 gen_lt:uint64
//   min_ref_mc_seqno:uint32
//   out_msg_queue_info:^OutMsgQueueInfo
//   before_split:(## 1)
//   accounts:^ShardAccounts
//   ^[ overload_history:uint64 underload_history:uint64
//   total_balance:CurrencyCollection
//   total_validator_fees:CurrencyCollection
//   libraries:(HashmapE 256 LibDescr)
//   master_ref:(Maybe BlkMasterInfo) ]
//   custom:(Maybe ^McStateExtra)
//   = ShardStateUnsplit;
//
// Only the header is decoded; the refs are kept as cells because in a Merkle update
// any of them may be a pruned branch.

export interface ShardStateUnsplit {
    globalId: number;
    shardId: ShardIdent;
    seqno: number;
    vertSeqno: number;
    genUtime: number;
    genLt: bigint;
    minRefMcSeqno: number;
    outMsgQueueInfo: Cell;
    beforeSplit: boolean;
    accounts: Cell;
    other: Cell;
    custom: Cell | null;
}

export function loadShardStateUnsplit(slice: Slice): ShardStateUnsplit {
    if (slice.loadUint(32) !== 0x9023afe2) {
        throw new Error('Invalid ShardStateUnsplit tag');
    }
    return {
        globalId: slice.loadInt(32),
        shardId: loadShardIdent(slice),
        seqno: slice.loadUint(32),
        vertSeqno: slice.loadUint(32),
        genUtime: slice.loadUint(32),
        genLt: slice.loadUintBig(64),
        minRefMcSeqno: slice.loadUint(32),
        outMsgQueueInfo: slice.loadRef(),
        beforeSplit: slice.loadBit(),
        accounts: slice.loadRef(),
        other: slice.loadRef(),
        custom: slice.loadMaybeRef(),
    };
}
