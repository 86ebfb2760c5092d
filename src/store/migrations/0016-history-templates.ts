import { sql, type Kysely, type Migration } from 'kysely';
import type { StoreDialect } from '../schema.ts';

/**
 * Jetton history texts stored as every text with holes is (json/template.ts): the text's bytes with
 * NUL marks, and the holes' descriptors beside it (`text_holes`), where they were a string with their
 * own marks and positional holes. The old texts are dropped, not converted: the rows are then as
 * those of operations indexed before texts were stored, shown from their operations' columns, and
 * the indexer gives them texts of the new form in the background (indexer/history-texts.ts), found
 * through the partial index of rows without one, made again on the new column.
 */
export function historyTemplates(dialect: StoreDialect): Migration {
    return {
        async up(db: Kysely<any>) {
            await db.schema.dropIndex('jetton_history_untexted').execute();
            await db.schema.alterTable('jetton_history').dropColumn('text').execute();
            await db.schema.alterTable('jetton_history').addColumn('text', dialect === 'postgres' ? sql`bytea` : sql`blob`).execute();
            await db.schema.alterTable('jetton_history').addColumn('text_holes', 'text').execute();
            await db.schema.createIndex('jetton_history_untexted').on('jetton_history').column('transaction_hash')
                .where(sql.ref('text'), 'is', null).execute();
        },
        // Back to the texts' old form, without texts: the version before shows those rows from their columns.
        async down(db: Kysely<any>) {
            await db.schema.dropIndex('jetton_history_untexted').execute();
            await db.schema.alterTable('jetton_history').dropColumn('text_holes').execute();
            await db.schema.alterTable('jetton_history').dropColumn('text').execute();
            await db.schema.alterTable('jetton_history').addColumn('text', 'text').execute();
            await db.schema.createIndex('jetton_history_untexted').on('jetton_history').column('transaction_hash')
                .where(sql.ref('text'), 'is', null).execute();
        },
    };
}
