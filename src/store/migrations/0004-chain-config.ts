import { sql, type Kysely, type Migration } from 'kysely';
import type { StoreDialect } from '../schema.ts';

/**
 * The blockchain configuration (ConfigParams dictionary) of the newest key block, which
 * emulation runs transactions with. One row: a key block replaces it.
 */
export function chainConfig(dialect: StoreDialect): Migration {
    const bytes = dialect === 'postgres' ? sql`bytea` : sql`blob`;
    return {
        async up(db: Kysely<any>) {
            await db.schema.createTable('chain_config')
                .addColumn('id', 'integer', c => c.primaryKey())
                .addColumn('block_workchain', 'integer', c => c.notNull())
                .addColumn('block_seqno', 'bigint', c => c.notNull())
                .addColumn('utime', 'bigint', c => c.notNull())
                /** BOC of the `Hashmap 32 ^Cell` root. */
                .addColumn('config', bytes, c => c.notNull())
                .execute();
        },
    };
}
