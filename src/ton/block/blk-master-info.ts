import type { Slice } from '@ton/core';
import { type ExtBlkRef, loadExtBlkRef } from './ext-blk-ref.ts';

// master_info$_ master:ExtBlkRef = BlkMasterInfo;

export interface BlkMasterInfo {
    master: ExtBlkRef;
}

export function loadBlkMasterInfo(slice: Slice): BlkMasterInfo {
    return { master: loadExtBlkRef(slice) };
}
