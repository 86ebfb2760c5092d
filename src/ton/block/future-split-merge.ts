import type { Slice } from '@ton/core';

// fsm_none$0 = FutureSplitMerge;
// fsm_split$10 split_utime:uint32 interval:uint32 = FutureSplitMerge;
// fsm_merge$11 merge_utime:uint32 interval:uint32 = FutureSplitMerge;

export type FutureSplitMerge =
    | { kind: 'none' }
    | { kind: 'split'; splitUtime: number; interval: number }
    | { kind: 'merge'; mergeUtime: number; interval: number };

export function loadFutureSplitMerge(slice: Slice): FutureSplitMerge {
    if (!slice.loadBit()) {
        return { kind: 'none' };
    }
    if (!slice.loadBit()) {
        return { kind: 'split', splitUtime: slice.loadUint(32), interval: slice.loadUint(32) };
    }
    return { kind: 'merge', mergeUtime: slice.loadUint(32), interval: slice.loadUint(32) };
}
