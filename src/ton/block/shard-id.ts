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

/** How many bits a shard's prefix has (0 for the whole workchain). */
export function shardPrefixBits(shard: bigint): number {
    return 64 - lowestBit(shard).toString(2).length;
}

/** Whether two shards overlap: one is the other or lies within it. */
export function shardsOverlap(a: bigint, b: bigint): boolean {
    const common = BigInt(Math.min(shardPrefixBits(a), shardPrefixBits(b)));
    return common === 0n || a >> (64n - common) === b >> (64n - common);
}

/** Whether an account (its 256-bit id) lies in the shard. */
export function shardHoldsAccount(shard: bigint, id: bigint): boolean {
    const bits = BigInt(shardPrefixBits(shard));
    return bits === 0n || id >> (256n - bits) === shard >> (64n - bits);
}

export function formatShard(shard: bigint): string {
    return shard.toString(16).padStart(16, '0');
}
