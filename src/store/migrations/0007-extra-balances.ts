import type { Kysely, Migration } from 'kysely';

/**
 * The extra currencies each account holds (what emulation needs to run a transfer of them): a JSON
 * object of decimal amounts by currency id, null when the account holds none. States indexed
 * before this migration read as holding none until the account's next transaction.
 */
export function extraBalances(): Migration {
    return {
        async up(db: Kysely<any>) {
            await db.schema.alterTable('account_states').addColumn('extra_balance', 'text').execute();
        },
    };
}
