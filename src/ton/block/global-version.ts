import type { Slice } from '@ton/core';

// capabilities#c4 version:uint32 capabilities:uint64 = GlobalVersion;

export interface GlobalVersion {
    version: number;
    capabilities: bigint;
}

export function loadGlobalVersion(slice: Slice): GlobalVersion {
    if (slice.loadUint(8) !== 0xc4) {
        throw new Error('Invalid GlobalVersion tag');
    }
    return {
        version: slice.loadUint(32),
        capabilities: slice.loadUintBig(64),
    };
}
