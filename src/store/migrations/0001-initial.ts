import { sql, type Kysely, type Migration } from 'kysely';
import type { StoreDialect } from '../schema.ts';

export function initialSchema(dialect: StoreDialect): Migration {
    const bytes = dialect === 'postgres' ? sql`bytea` : sql`blob`;
    return {
        async up(db: Kysely<any>) {
            await db.schema.createTable('blocks')
                .addColumn('workchain', 'integer', c => c.notNull())
                .addColumn('shard', 'text', c => c.notNull())
                .addColumn('seqno', 'bigint', c => c.notNull())
                .addColumn('root_hash', 'text', c => c.notNull())
                .addColumn('file_hash', 'text', c => c.notNull())
                .addColumn('utime', 'bigint', c => c.notNull())
                .addColumn('start_lt', 'bigint', c => c.notNull())
                .addColumn('end_lt', 'bigint', c => c.notNull())
                .addColumn('is_key_block', 'smallint', c => c.notNull())
                .addColumn('parents', 'text', c => c.notNull())
                .addColumn('master_ref', 'text')
                .addColumn('shard_blocks', 'text', c => c.notNull())
                .addColumn('tx_count', 'integer', c => c.notNull())
                .addPrimaryKeyConstraint('blocks_pk', ['workchain', 'shard', 'seqno'])
                .execute();
            await db.schema.createIndex('blocks_utime').on('blocks').columns(['utime', 'workchain', 'seqno']).execute();

            await db.schema.createTable('transactions')
                .addColumn('hash', 'text', c => c.primaryKey())
                .addColumn('account', 'text', c => c.notNull())
                .addColumn('lt', 'bigint', c => c.notNull())
                .addColumn('utime', 'bigint', c => c.notNull())
                .addColumn('workchain', 'integer', c => c.notNull())
                .addColumn('shard', 'text', c => c.notNull())
                .addColumn('seqno', 'bigint', c => c.notNull())
                .addColumn('trace_id', 'text', c => c.notNull())
                .addColumn('in_msg_hash', 'text')
                .addColumn('success', 'smallint', c => c.notNull())
                .addColumn('end_balance', 'bigint')
                .addColumn('boc', bytes, c => c.notNull())
                .execute();
            await db.schema.createIndex('transactions_account_lt').on('transactions').columns(['account', 'lt']).execute();
            await db.schema.createIndex('transactions_trace').on('transactions').columns(['trace_id', 'lt']).execute();
            await db.schema.createIndex('transactions_block').on('transactions').columns(['workchain', 'shard', 'seqno', 'lt']).execute();

            await db.schema.createTable('messages')
                .addColumn('hash', 'text', c => c.primaryKey())
                .addColumn('msg_type', 'text', c => c.notNull())
                .addColumn('source', 'text')
                .addColumn('destination', 'text')
                .addColumn('created_lt', 'bigint', c => c.notNull())
                .addColumn('value', 'bigint')
                .addColumn('op_code', 'bigint')
                .addColumn('tx_out_hash', 'text')
                .addColumn('tx_in_hash', 'text')
                .execute();
            await db.schema.createIndex('messages_tx_out').on('messages').column('tx_out_hash').execute();

            await db.schema.createTable('traces')
                .addColumn('trace_id', 'text', c => c.primaryKey())
                .addColumn('tx_count', 'integer', c => c.notNull())
                .addColumn('pending', 'integer', c => c.notNull())
                .addColumn('orphan', 'smallint', c => c.notNull())
                .addColumn('start_lt', 'bigint', c => c.notNull())
                .addColumn('end_lt', 'bigint', c => c.notNull())
                .addColumn('start_utime', 'bigint', c => c.notNull())
                .execute();

            await db.schema.createTable('account_states')
                .addColumn('address', 'text', c => c.primaryKey())
                .addColumn('status', 'text', c => c.notNull())
                .addColumn('balance', 'bigint', c => c.notNull())
                .addColumn('code_hash', 'text')
                .addColumn('data_hash', 'text')
                .addColumn('code', bytes)
                .addColumn('data', bytes)
                .addColumn('last_tx_lt', 'bigint', c => c.notNull())
                .addColumn('last_tx_hash', 'text', c => c.notNull())
                .addColumn('last_utime', 'bigint', c => c.notNull())
                .addColumn('interfaces', 'text', c => c.notNull())
                .execute();
            await db.schema.createIndex('account_states_code_hash').on('account_states').column('code_hash').execute();

            await db.schema.createTable('source_cursors')
                .addColumn('source', 'text', c => c.primaryKey())
                .addColumn('cursor', 'text', c => c.notNull())
                .execute();
        },
    };
}
