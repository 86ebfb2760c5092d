import { sql, type Kysely, type Migration } from 'kysely';
import type { StoreDialect } from '../schema.ts';

/**
 * Jettons, NFTs and wallets. Token amounts can reach 2^120, beyond any SQL integer both dialects
 * share, so they are decimal text.
 */
export function tokensAndWallets(dialect: StoreDialect): Migration {
    const bytes = dialect === 'postgres' ? sql`bytea` : sql`blob`;
    return {
        async up(db: Kysely<any>) {
            await db.schema.createTable('jetton_masters')
                .addColumn('address', 'text', c => c.primaryKey())
                .addColumn('total_supply', 'text', c => c.notNull())
                .addColumn('mintable', 'smallint', c => c.notNull())
                .addColumn('admin', 'text')
                .addColumn('content', bytes, c => c.notNull())
                .addColumn('wallet_code_hash', 'text')
                /** JSON of the TEP-64 metadata known so far (on-chain fields, then the fetched off-chain document). */
                .addColumn('metadata', 'text', c => c.notNull())
                .addColumn('metadata_uri', 'text')
                /** none | pending | ok | failed (off-chain fetch state). */
                .addColumn('metadata_status', 'text', c => c.notNull())
                .addColumn('last_tx_lt', 'bigint', c => c.notNull())
                .execute();

            await db.schema.createTable('jetton_wallets')
                .addColumn('address', 'text', c => c.primaryKey())
                .addColumn('owner', 'text', c => c.notNull())
                .addColumn('master', 'text', c => c.notNull())
                .addColumn('balance', 'text', c => c.notNull())
                /** 1 when the master's get_wallet_address(owner) gives this address back. */
                .addColumn('verified', 'smallint', c => c.notNull())
                .addColumn('last_tx_lt', 'bigint', c => c.notNull())
                .execute();
            await db.schema.createIndex('jetton_wallets_owner').on('jetton_wallets').columns(['owner', 'master']).execute();

            await db.schema.createTable('jetton_operations')
                .addColumn('transaction_hash', 'text', c => c.primaryKey())
                .addColumn('lt', 'bigint', c => c.notNull())
                .addColumn('utime', 'bigint', c => c.notNull())
                /** transfer | mint | burn */
                .addColumn('operation', 'text', c => c.notNull())
                .addColumn('master', 'text', c => c.notNull())
                .addColumn('amount', 'text', c => c.notNull())
                .addColumn('source', 'text')
                .addColumn('destination', 'text')
                .addColumn('source_wallet', 'text')
                .addColumn('destination_wallet', 'text')
                .addColumn('query_id', 'text', c => c.notNull())
                /** JSON of the decoded forward payload, or null. */
                .addColumn('payload', 'text')
                .addColumn('trace_id', 'text', c => c.notNull())
                .addColumn('success', 'smallint', c => c.notNull())
                /** The internal_transfer this transfer sent, until its receiving transaction is indexed. */
                .addColumn('awaiting_message', 'text')
                .execute();
            await db.schema.createIndex('jetton_operations_source').on('jetton_operations').columns(['source', 'lt']).execute();
            await db.schema.createIndex('jetton_operations_destination').on('jetton_operations').columns(['destination', 'lt']).execute();
            await db.schema.createIndex('jetton_operations_awaiting').on('jetton_operations').column('awaiting_message').execute();

            await db.schema.createTable('nft_items')
                .addColumn('address', 'text', c => c.primaryKey())
                .addColumn('collection', 'text')
                .addColumn('item_index', 'text', c => c.notNull())
                .addColumn('owner', 'text')
                .addColumn('content', bytes, c => c.notNull())
                .addColumn('last_tx_lt', 'bigint', c => c.notNull())
                .execute();
            await db.schema.createIndex('nft_items_owner').on('nft_items').column('owner').execute();

            await db.schema.createTable('wallets')
                .addColumn('address', 'text', c => c.primaryKey())
                .addColumn('public_key', 'text', c => c.notNull())
                .addColumn('seqno', 'bigint')
                .addColumn('wallet_id', 'bigint')
                .addColumn('signature_allowed', 'smallint')
                /** JSON array of plugin (v4) / extension (v5) addresses. */
                .addColumn('plugins', 'text', c => c.notNull())
                .addColumn('last_tx_lt', 'bigint', c => c.notNull())
                .execute();
            await db.schema.createIndex('wallets_public_key').on('wallets').column('public_key').execute();

            // Get-method names found in each account's code, and probing results by code hash.
            await db.schema.alterTable('account_states').addColumn('get_methods', 'text', c => c.notNull().defaultTo('[]')).execute();
        },
    };
}
