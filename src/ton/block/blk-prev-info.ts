import type { Slice } from '@ton/core';
import { type ExtBlkRef, loadExtBlkRef } from './ext-blk-ref.ts';

// prev_blk_info$_ prev:ExtBlkRef = BlkPrevInfo 0;
// prev_blks_info$_ prev1:^ExtBlkRef prev2:^ExtBlkRef = BlkPrevInfo 1;

export type BlkPrevInfo =
    | { kind: 'single'; prev: ExtBlkRef }
    | { kind: 'merged'; prev1: ExtBlkRef; prev2: ExtBlkRef };

/** `afterMerge` is the type parameter of BlkPrevInfo: BlockInfo.after_merge. */
export function loadBlkPrevInfo(slice: Slice, afterMerge: boolean): BlkPrevInfo {
    if (!afterMerge) {
        return { kind: 'single', prev: loadExtBlkRef(slice) };
    }
    return {
        kind: 'merged',
        prev1: loadExtBlkRef(slice.loadRef().beginParse()),
        prev2: loadExtBlkRef(slice.loadRef().beginParse()),
    };
}
