import { sql, type Kysely, type Migration } from 'kysely';

/**
 * The history rows still without a text (those of operations indexed before 0013): a partial index,
 * so the indexer finds what is left to fill (indexer/history-texts.ts) without reading the table,
 * and costs nothing once they are all filled. Rows written since carry their text and never enter it.
 */
export function untextedHistory(): Migration {
    return {
        async up(db: Kysely<any>) {
            await db.schema.createIndex('jetton_history_untexted').on('jetton_history').column('transaction_hash')
                .where(sql.ref('text'), 'is', null).execute();
        },
    };
}
