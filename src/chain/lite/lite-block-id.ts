import type { tonNode_blockIdExt } from 'ton-lite-client/dist/schema.js';
import type { BlockIdExt } from '../../ton/block-id.ts';

/** The masterchain's one shard, as the index writes shards (16 hex digits of the unsigned 64-bit id). */
export const MASTERCHAIN_SHARD = '8000000000000000';

/** Our shard (16 hex digits, unsigned) as the lite API's `long` (a signed decimal string). */
export function toTlShard(shard: string): string {
    return BigInt.asIntN(64, BigInt(`0x${shard}`)).toString();
}

export function fromTlShard(shard: string): string {
    return BigInt.asUintN(64, BigInt(shard)).toString(16).padStart(16, '0');
}

export function toTlBlockId(id: BlockIdExt): tonNode_blockIdExt {
    return {
        kind: 'tonNode.blockIdExt',
        workchain: id.workchain,
        shard: toTlShard(id.shard),
        seqno: id.seqno,
        rootHash: Buffer.from(id.rootHash, 'hex'),
        fileHash: Buffer.from(id.fileHash, 'hex'),
    };
}

export function fromTlBlockId(id: tonNode_blockIdExt): BlockIdExt {
    return {
        workchain: id.workchain,
        shard: fromTlShard(id.shard),
        seqno: id.seqno,
        rootHash: id.rootHash.toString('hex'),
        fileHash: id.fileHash.toString('hex'),
    };
}

/** Same block: same place in the chain and the same root and file hashes. */
export function sameBlock(a: BlockIdExt, b: BlockIdExt): boolean {
    return a.workchain === b.workchain && a.shard === b.shard && a.seqno === b.seqno && a.rootHash === b.rootHash && a.fileHash === b.fileHash;
}

/**
 * Whether two shards of a workchain share accounts: one's prefix contains the other's. A shard id is
 * its prefix bits followed by a 1 bit and zeros, so the lowest set bit marks where the prefix ends.
 */
export function shardsOverlap(a: string, b: string): boolean {
    const x = BigInt(`0x${a}`);
    const y = BigInt(`0x${b}`);
    const lowX = x & -x;
    const lowY = y & -y;
    // the shorter prefix (larger lowest bit) must agree with the longer on its own bits
    const [wide, narrow, low] = lowX >= lowY ? [x, y, lowX] : [y, x, lowY];
    const mask = ~(low | (low - 1n)) & ((1n << 64n) - 1n);
    return (wide & mask) === (narrow & mask);
}
