import { sql, type Kysely, type Migration } from 'kysely';
import type { StoreDialect } from '../schema.ts';

/**
 * Each account's jetton history as its own rows, one an operation and party, in the order pages read
 * them (account, then lt; on SQLite the table is that index, WITHOUT ROWID): a page is then one range
 * read, where the operations' own rows (in lt order, the parties' interleaved) took a table lookup
 * each. A row holds the operation's text as the history shows it, made when it was indexed, with
 * holes for its parties' `is_wallet` and its jetton (present/stored/jetton-operation-text.ts). Operations
 * indexed before this migration get their rows here without a text, and are presented from their
 * columns. The operations' own source and destination indexes served only the history and go.
 */
export function jettonHistory(dialect: StoreDialect): Migration {
    return {
        async up(db: Kysely<any>) {
            let table = db.schema.createTable('jetton_history')
                .addColumn('account', 'text', c => c.notNull())
                .addColumn('lt', 'bigint', c => c.notNull())
                .addColumn('transaction_hash', 'text', c => c.notNull())
                .addColumn('master', 'text', c => c.notNull())
                .addColumn('source', 'text')
                .addColumn('destination', 'text')
                .addColumn('text', 'text')
                .addPrimaryKeyConstraint('jetton_history_pk', ['account', 'lt', 'transaction_hash']);
            if (dialect === 'sqlite') table = table.modifyEnd(sql`without rowid`);
            await table.execute();
            await sql`insert into jetton_history (account, lt, transaction_hash, master, source, destination)
                select source, lt, transaction_hash, master, source, destination from jetton_operations where source is not null
                union all
                select destination, lt, transaction_hash, master, source, destination from jetton_operations
                    where destination is not null and (source is null or source <> destination)`.execute(db);
            await db.schema.dropIndex('jetton_operations_source').execute();
            await db.schema.dropIndex('jetton_operations_destination').execute();
        },
    };
}
