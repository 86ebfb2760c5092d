import type { Kysely, Migration } from 'kysely';

/**
 * Each jetton operation's text as its account's history shows it, made when the operation is
 * indexed, with holes for what the index may learn later (its parties' `is_wallet`, its jetton's
 * preview; api/present/jetton-history.ts): a history page is then its rows' texts put together,
 * neither decoded nor written again. Null for operations indexed before this migration; those are
 * presented from their columns, as before.
 */
export function jettonOperationTexts(): Migration {
    return {
        async up(db: Kysely<any>) {
            await db.schema.alterTable('jetton_operations').addColumn('text', 'text').execute();
        },
    };
}
