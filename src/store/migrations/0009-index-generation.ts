import type { Kysely, Migration } from 'kysely';

/** The count of blocks written, bumped in each block's transaction (schema.ts, IndexGenerationTable). */
export function indexGeneration(): Migration {
    return {
        async up(db: Kysely<any>) {
            await db.schema.createTable('index_generation')
                .addColumn('id', 'integer', c => c.primaryKey())
                .addColumn('generation', 'bigint', c => c.notNull())
                .execute();
            await db.insertInto('index_generation').values({ id: 1, generation: 0 }).execute();
        },
    };
}
