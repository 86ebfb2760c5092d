import type { BlockId } from '../../chain/chain-source.ts';
import type { IndexDb } from '../schema.ts';
import { toNumber } from '../schema.ts';

/** Blocks of every workchain with `from <= utime <= to`, by utime, then workchain, then seqno. */
export function blocksInTimeRange(db: IndexDb, from: bigint, to: bigint) {
    return db.selectFrom('blocks').selectAll()
        .where('utime', '>=', from).where('utime', '<=', to)
        .orderBy('utime').orderBy('workchain').orderBy('seqno').orderBy('shard')
        .execute();
}

export function blockExists(db: IndexDb, id: BlockId) {
    return db.selectFrom('blocks').select('seqno')
        .where('workchain', '=', id.workchain).where('shard', '=', id.shard).where('seqno', '=', id.seqno)
        .executeTakeFirst();
}

export interface IndexHeadRow {
    workchain: number;
    shard: string;
    seqno: number;
    utime: number;
}

/** The newest indexed block of every shard. */
export async function indexHeads(db: IndexDb): Promise<IndexHeadRow[]> {
    const tops = await db.selectFrom('blocks')
        .select(['workchain', 'shard', eb => eb.fn.max('seqno').as('seqno')])
        .groupBy(['workchain', 'shard'])
        .execute();
    const heads: IndexHeadRow[] = [];
    for (const top of tops) {
        const row = await db.selectFrom('blocks').select(['utime'])
            .where('workchain', '=', top.workchain).where('shard', '=', top.shard).where('seqno', '=', top.seqno)
            .executeTakeFirstOrThrow();
        heads.push({ workchain: toNumber(top.workchain), shard: top.shard, seqno: toNumber(top.seqno), utime: toNumber(row.utime) });
    }
    return heads.sort((a, b) => a.workchain - b.workchain || (a.shard < b.shard ? -1 : 1));
}
