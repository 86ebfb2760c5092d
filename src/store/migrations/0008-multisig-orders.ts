import { sql, type Kysely, type Migration } from 'kysely';
import type { StoreDialect } from '../schema.ts';
import { inChunks } from '../chunks.ts';
import { multisigOrderRow, orderStateFromData, refreshCreationDates } from '../multisig-orders.ts';

/**
 * Multisig v2 orders, as their newest states have them. Orders indexed before this migration are
 * filled in from their stored account state and their indexed `init` transactions.
 */
export function multisigOrders(dialect: StoreDialect): Migration {
    const bytes = dialect === 'postgres' ? sql`bytea` : sql`blob`;
    return {
        async up(db: Kysely<any>) {
            await db.schema.createTable('multisig_orders')
                .addColumn('address', 'text', c => c.primaryKey())
                .addColumn('multisig', 'text', c => c.notNull())
                /** uint256 as decimal text */
                .addColumn('order_seqno', 'text', c => c.notNull())
                .addColumn('threshold', 'integer', c => c.notNull())
                .addColumn('sent_for_execution', 'integer', c => c.notNull())
                /** JSON arrays of raw addresses */
                .addColumn('signers', 'text', c => c.notNull())
                .addColumn('signed_by', 'text', c => c.notNull())
                .addColumn('approvals_num', 'integer', c => c.notNull())
                .addColumn('expiration_date', 'bigint', c => c.notNull())
                /** BOC of the order's actions dictionary */
                .addColumn('actions', bytes, c => c.notNull())
                .addColumn('creation_date', 'bigint')
                .addColumn('last_tx_lt', 'bigint', c => c.notNull())
                .execute();
            await db.schema.createIndex('multisig_orders_multisig').on('multisig_orders').columns(['multisig', 'order_seqno']).execute();
            await backfill(db);
        },
    };
}

async function backfill(db: Kysely<any>): Promise<void> {
    const states: Array<{ address: string; interfaces: string; data: Buffer | null; last_tx_lt: bigint | number | string }> = await db.selectFrom('account_states')
        .select(['address', 'interfaces', 'data', 'last_tx_lt'])
        .where('status', '=', 'active')
        .where('interfaces', 'like', '%"multisig_order_v2"%')
        .execute();
    const rows = states.flatMap(state => {
        const order = orderStateFromData(JSON.parse(state.interfaces) as string[], state.data);
        const row = order ? multisigOrderRow(state.address, order, BigInt(state.last_tx_lt)) : null;
        return row ? [row] : [];
    });
    await inChunks(rows, 200, chunk => db.insertInto('multisig_orders').values(chunk).execute());
    await refreshCreationDates(db, rows.map(row => row.address));
}
