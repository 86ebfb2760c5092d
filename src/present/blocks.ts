import type { IndexedBlock } from '../store/read/blocks.ts';

/** ReducedBlock (spec 2.16). */
export function presentReducedBlock(block: IndexedBlock) {
    return {
        workchain_id: block.id.workchain,
        shard: block.id.shard,
        seqno: block.id.seqno,
        master_ref: block.masterRef ?? undefined,
        tx_quantity: block.txCount,
        utime: block.utime,
        shards_blocks: block.shardBlocks,
        parent: block.parents,
    };
}
