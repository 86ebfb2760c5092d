import type { Kysely, Migration } from 'kysely';
import { inChunks } from '../chunks.ts';
import { poolStakerRows } from '../pool-stakers.ts';

/**
 * Who has a stake in which staking pool (TF nominator pools' nominators, single-nominator pools'
 * owners), read from the pools' data. Pools indexed before this migration are filled in from their
 * stored account state.
 */
export function poolStakers(): Migration {
    return {
        async up(db: Kysely<any>) {
            await db.schema.createTable('pool_stakers')
                .addColumn('pool', 'text', c => c.notNull())
                .addColumn('staker', 'text', c => c.notNull())
                /** Nanograms as decimal text (Coins can exceed int64); null where the pool's data does not say. */
                .addColumn('amount', 'text')
                .addColumn('pending_deposit', 'text')
                .addPrimaryKeyConstraint('pool_stakers_pk', ['pool', 'staker'])
                .execute();
            await db.schema.createIndex('pool_stakers_staker').on('pool_stakers').column('staker').execute();
            await backfill(db);
        },
    };
}

async function backfill(db: Kysely<any>): Promise<void> {
    const states: Array<{ address: string; interfaces: string; data: Buffer | null }> = await db.selectFrom('account_states')
        .select(['address', 'interfaces', 'data'])
        .where('status', '=', 'active')
        .where(eb => eb.or([eb('interfaces', 'like', '%"tv_pool"%'), eb('interfaces', 'like', '%"single_nominator_pool"%')]))
        .execute();
    const rows = states.flatMap(state => poolStakerRows(state.address, JSON.parse(state.interfaces) as string[], state.data));
    await inChunks(rows, 500, chunk => db.insertInto('pool_stakers').values(chunk).execute());
}
