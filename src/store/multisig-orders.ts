import type { Insertable, Kysely, Transaction } from 'kysely';
import { formatRawAddress } from '../ton/address.ts';
import { approvedSigners, loadMultisigOrderState, OP_MULTISIG_ORDER_INIT, type MultisigOrderState } from '../ton/interfaces/multisig-order.ts';
import { readInChunks } from './chunks.ts';
import type { IndexDatabase, MultisigOrdersTable } from './schema.ts';
import { readBoc } from '../ton/boc/boc-reader.ts';

/** The interface of multisig v2 orders (known-code.ts, or probed by `get_order_data`). */
export const MULTISIG_ORDER_INTERFACE = 'multisig_order_v2';

/**
 * An order's state read from its data cell (the layout of multisig-contract-v2's order); null when
 * the account is not an order by its interfaces, or the data does not have the layout.
 */
export function orderStateFromData(interfaces: readonly string[], data: Buffer | null | undefined): MultisigOrderState | null {
    if (!interfaces.includes(MULTISIG_ORDER_INTERFACE) || !data) return null;
    try {
        const s = readBoc(data)[0].beginParse();
        const state = loadMultisigOrderState(s);
        return s.remainingBits === 0 && s.remainingRefs === 0 ? state : null;
    } catch {
        return null;
    }
}

/** The multisig_orders row of an initialised order (none before its init); creation_date is filled by {@link refreshCreationDates}. */
export function multisigOrderRow(address: string, state: MultisigOrderState, lastTxLt: bigint): Insertable<MultisigOrdersTable> | null {
    const params = state.params;
    if (!params) return null;
    return {
        address,
        multisig: formatRawAddress(state.multisig),
        order_seqno: state.orderSeqno.toString(),
        threshold: params.threshold,
        sent_for_execution: params.sentForExecution ? 1 : 0,
        signers: JSON.stringify([...params.signers.values()].map(formatRawAddress)),
        signed_by: JSON.stringify(approvedSigners(params).map(formatRawAddress)),
        approvals_num: params.approvalsNum,
        expiration_date: BigInt(params.expirationDate),
        actions: params.order.toBoc(),
        creation_date: null,
        last_tx_lt: lastTxLt,
    };
}

type Db = Kysely<IndexDatabase> | Transaction<IndexDatabase>;

/**
 * Sets each order's creation_date to the utime of the first successful transaction that processed an
 * `init` on it, among the indexed ones: the earliest wins, so a later init (an approval relayed in
 * arbitrary-seqno mode) never moves it and an init indexed late (blocks out of order) still counts.
 */
export async function refreshCreationDates(db: Db, orders: readonly string[]): Promise<void> {
    const firstInits = await readInChunks([...new Set(orders)], 500, chunk => db.selectFrom('transactions')
        .innerJoin('messages', 'messages.hash', 'transactions.in_msg_hash')
        .select(['transactions.account as account', eb => eb.fn.min('transactions.utime').as('utime')])
        .where('transactions.account', 'in', chunk)
        .where('messages.msg_type', '=', 'int_msg')
        .where('messages.op_code', '=', OP_MULTISIG_ORDER_INIT)
        .where('transactions.success', '=', 1)
        .groupBy('transactions.account')
        .execute());
    for (const init of firstInits) {
        await db.updateTable('multisig_orders').set({ creation_date: BigInt(init.utime) }).where('address', '=', init.account).execute();
    }
}
