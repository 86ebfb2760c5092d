import { toBigInt, type IndexDb } from '../schema.ts';

/** How many blocks the index has written: it moves with every change to what the index says. */
export async function indexGeneration(db: IndexDb): Promise<bigint> {
    const row = await db.selectFrom('index_generation').select('generation').where('id', '=', 1).executeTakeFirst();
    return row ? toBigInt(row.generation) : 0n;
}
