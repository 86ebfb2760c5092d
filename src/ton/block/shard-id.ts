import type { ShardIdent } from '@ton/core';

// A shard id is a uint64 whose top bits are the shard prefix, followed by a single 1 bit
// and zeros: 0x8000000000000000 is the whole workchain, 0x4000000000000000 its left half.

export const ROOT_SHARD = 1n << 63n;
export const MASTERCHAIN_ID = -1;

function lowestBit(shard: bigint): bigint {
    return shard & -shard;
}

export function shardIdFromIdent(ident: ShardIdent): bigint {
    if (ident.shardPrefixBits > 60) {
        throw new Error(`Invalid shard prefix length ${ident.shardPrefixBits}`);
    }
    const tag = 1n << BigInt(63 - ident.shardPrefixBits);
    if ((ident.shardPrefix & (tag - 1n)) !== 0n) {
        throw new Error(`Shard prefix has bits set beyond its ${ident.shardPrefixBits} bit length`);
    }
    return ident.shardPrefix | tag;
}

export function shardChild(shard: bigint, side: 'left' | 'right'): bigint {
    const half = lowestBit(shard) >> 1n;
    if (half === 0n) {
        throw new Error(`Shard ${formatShard(shard)} cannot be split further`);
    }
    return side === 'left' ? shard - half : shard + half;
}

export function shardParent(shard: bigint): bigint {
    if (shard === ROOT_SHARD) {
        throw new Error('The root shard has no parent');
    }
    const bit = lowestBit(shard);
    return (shard - bit) | (bit << 1n);
}

export function formatShard(shard: bigint): string {
    return shard.toString(16).padStart(16, '0');
}
