import { sql, type Kysely, type Migration } from 'kysely';
import type { StoreDialect } from '../schema.ts';

/**
 * Each transaction's text as the API shows it, made when its block was read, with holes for what
 * depends on the index's knowledge when it is read (present/stored/transaction-template.ts): a block's
 * list is then put together from stored texts instead of decoding and presenting every transaction.
 * Null for transactions indexed before this migration and those without a template; those are
 * presented from their BOC, as before.
 */
export function transactionTexts(dialect: StoreDialect): Migration {
    return {
        async up(db: Kysely<any>) {
            const bytes = dialect === 'postgres' ? sql`bytea` : sql`blob`;
            await db.schema.alterTable('transactions').addColumn('text', bytes).execute();
            await db.schema.alterTable('transactions').addColumn('text_holes', 'text').execute();
        },
    };
}
