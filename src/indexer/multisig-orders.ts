import type { Transaction as DbTransaction } from 'kysely';
import type { AccountStateRecord } from '../chain/chain-source.ts';
import { OP_MULTISIG_ORDER_INIT } from '../ton/interfaces/multisig-order.ts';
import type { TransactionSummary } from '../ton/transaction.ts';
import { inChunks } from '../store/chunks.ts';
import { multisigOrderRow, orderStateFromData, refreshCreationDates } from '../store/multisig-orders.ts';
import type { IndexDatabase } from '../store/schema.ts';
import { interfacesOf, type InspectedAccount } from './inspect-accounts.ts';

type Trx = DbTransaction<IndexDatabase>;

/**
 * Rewrites the multisig v2 orders among the block's accounts from their newest states (`current`, see
 * current-states.ts: a block delivered out of order changes nothing): an account that is no longer an
 * initialised order loses its row. Then the creation date of every order the block touched, or whose
 * `init` it processed, is taken again from the indexed init transactions.
 */
export async function writeMultisigOrders(trx: Trx, current: AccountStateRecord[], inspected: Map<string, InspectedAccount>, parsed: TransactionSummary[]): Promise<void> {
    await inChunks(current, 500, chunk => trx.deleteFrom('multisig_orders').where('address', 'in', chunk.map(state => state.address)).execute());
    const rows = current.flatMap(state => {
        if (state.status !== 'active') return [];
        const found = inspected.get(state.address);
        // The data cell when it has the reference layout; else what the contract's get_order_data says.
        const order = orderStateFromData(interfacesOf(state, found), state.data) ?? found?.detected.multisigOrder;
        const row = order ? multisigOrderRow(state.address, order, state.lastTransLt) : null;
        return row ? [row] : [];
    });
    await inChunks(rows, 200, chunk => trx.insertInto('multisig_orders').values(chunk).execute());
    const initialised = parsed.filter(tx => tx.inMsg?.msgType === 'int_msg' && tx.inMsg.opCode === OP_MULTISIG_ORDER_INIT && tx.success).map(tx => tx.account);
    await refreshCreationDates(trx, [...rows.map(row => row.address), ...initialised]);
}
