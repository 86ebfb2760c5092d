import type { BlockId } from '../../ton/block-id.ts';
import type { IndexDb } from '../schema.ts';
import { toNumber } from '../schema.ts';
import { shardsOverlap } from '../../ton/block/shard-id.ts';

/** An indexed block, without its transactions. Block ids are `(wc,shard,seqno)` text. */
export interface IndexedBlock {
    id: BlockId;
    utime: number;
    /** The masterchain block committing this shard block; null for masterchain blocks. */
    masterRef: string | null;
    txCount: number;
    /** Shard blocks a masterchain block commits (empty for shard blocks). */
    shardBlocks: string[];
    parents: string[];
}

/** Blocks of every workchain with `from <= utime <= to`, by utime, then workchain, then seqno. */
export async function blocksInTimeRange(db: IndexDb, from: bigint, to: bigint): Promise<IndexedBlock[]> {
    const rows = await db.selectFrom('blocks')
        .select(['workchain', 'shard', 'seqno', 'utime', 'master_ref', 'tx_count', 'shard_blocks', 'parents'])
        .where('utime', '>=', from).where('utime', '<=', to)
        .orderBy('utime').orderBy('workchain').orderBy('seqno').orderBy('shard')
        .execute();
    return rows.map(row => ({
        id: { workchain: toNumber(row.workchain), shard: row.shard, seqno: toNumber(row.seqno) },
        utime: toNumber(row.utime),
        masterRef: row.master_ref,
        txCount: toNumber(row.tx_count),
        shardBlocks: JSON.parse(row.shard_blocks) as string[],
        parents: JSON.parse(row.parents) as string[],
    }));
}

export interface IndexHead {
    workchain: number;
    shard: string;
    seqno: number;
    utime: number;
}

/**
 * The newest indexed block of every shard there is now: a shard that split or merged since (a shard
 * overlapping it has a later block, whose seqno is higher) is no longer one.
 */
export async function indexHeads(db: IndexDb): Promise<IndexHead[]> {
    const all = await db.selectFrom('blocks')
        .select(['workchain', 'shard', eb => eb.fn.max('seqno').as('seqno')])
        .groupBy(['workchain', 'shard'])
        .execute();
    const overlap = (a: string, b: string) => shardsOverlap(BigInt(`0x${a}`), BigInt(`0x${b}`));
    const tops = all.filter(top => !all.some(other => other.workchain === top.workchain && other.shard !== top.shard
        && toNumber(other.seqno) > toNumber(top.seqno) && overlap(other.shard, top.shard)));
    const heads: IndexHead[] = [];
    for (const top of tops) {
        const row = await db.selectFrom('blocks').select(['utime'])
            .where('workchain', '=', top.workchain).where('shard', '=', top.shard).where('seqno', '=', top.seqno)
            .executeTakeFirstOrThrow();
        heads.push({ workchain: toNumber(top.workchain), shard: top.shard, seqno: toNumber(top.seqno), utime: toNumber(row.utime) });
    }
    return heads.sort((a, b) => a.workchain - b.workchain || (a.shard < b.shard ? -1 : 1));
}
