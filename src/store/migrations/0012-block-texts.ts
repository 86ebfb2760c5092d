import { sql, type Kysely, type Migration } from 'kysely';
import type { StoreDialect } from '../schema.ts';

/**
 * Each block's list of transactions as the API shows it, stored as one text with holes when its
 * block is read (present/stored/transaction-template.ts, listTemplate): a list is then one row read
 * instead of one row a transaction. Blocks indexed before this migration, and those with a
 * transaction without a text, have no row; their lists are put together from the transactions.
 */
export function blockTexts(dialect: StoreDialect): Migration {
    return {
        async up(db: Kysely<any>) {
            const bytes = dialect === 'postgres' ? sql`bytea` : sql`blob`;
            await db.schema.createTable('block_texts')
                .addColumn('workchain', 'integer', c => c.notNull())
                .addColumn('shard', 'text', c => c.notNull())
                .addColumn('seqno', 'bigint', c => c.notNull())
                .addColumn('text', bytes, c => c.notNull())
                .addColumn('holes', 'text', c => c.notNull())
                .addPrimaryKeyConstraint('block_texts_pk', ['workchain', 'shard', 'seqno'])
                .execute();
            // A list is megabytes of JSON, compressed when stored: lz4, where the server has it,
            // decompresses in a fraction of the time of the default (pglz), on every read.
            if (dialect === 'postgres') {
                const { rows } = await sql<{ lz4: boolean }>`select exists (select 1 from pg_settings where name = 'default_toast_compression' and 'lz4' = any(enumvals)) as lz4`.execute(db);
                if (rows[0]?.lz4) await sql`alter table block_texts alter column text set compression lz4`.execute(db);
            }
        },
    };
}
