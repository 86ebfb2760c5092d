import type { Slice } from '@ton/core';

// ext_blk_ref$_ end_lt:uint64
//   seq_no:uint32 root_hash:bits256 file_hash:bits256
//   = ExtBlkRef;

export interface ExtBlkRef {
    endLt: bigint;
    seqno: number;
    rootHash: Buffer;
    fileHash: Buffer;
}

export function loadExtBlkRef(slice: Slice): ExtBlkRef {
    return {
        endLt: slice.loadUintBig(64),
        seqno: slice.loadUint(32),
        rootHash: slice.loadBuffer(32),
        fileHash: slice.loadBuffer(32),
    };
}
