import type { Cell } from '@ton/core';
import {
    OP_JETTON_BURN, OP_JETTON_INTERNAL_TRANSFER, OP_JETTON_TRANSFER, OP_TEXT_COMMENT,
    loadJettonBurn, loadJettonInternalTransfer, loadJettonTransfer, loadTextComment, payloadJson, tryLoad,
} from '../ton/bodies/index.ts';
import { formatRawAddress } from '../ton/address.ts';
import type { ParsedTransaction, TransactionSummary } from '../ton/transaction.ts';
import type { Insertable, Transaction as DbTransaction } from 'kysely';
import type { IndexDatabase, JettonHistoryTable, JettonOperationsTable } from '../store/schema.ts';
import { BulkInsert } from '../store/bulk-insert.ts';
import { decodeOperation } from '../store/read/jettons.ts';
import { jettonOperationTemplate } from '../present/stored/jetton-operation-text.ts';

/** What the index knows of a jetton wallet: whose it is and which jetton it holds. */
export interface JettonWalletInfo {
    owner: string;
    master: string;
}

export interface DerivedJettonOperations {
    operations: Insertable<JettonOperationsTable>[];
    /** The operations in their parties' histories, with their texts. */
    history: JettonHistoryTable[];
    /** internal_transfer messages received in this block, with whether the receiving wallet accepted them. */
    receipts: Array<{ message: string; success: boolean; wallet: string }>;
}

/**
 * Jetton operations of a block, from the standard op codes on transactions of known jetton
 * wallets: a transfer request (0x0f8a7ea5) at the sender's wallet, an internal_transfer
 * (0x178d4519) from the master at the receiver's wallet (a mint), a burn request (0x595f07bc).
 * A transfer succeeds when the receiving wallet accepts its internal_transfer, which may be
 * indexed in a later block: until then the operation waits for that message (`receipts`).
 */
export function deriveJettonOperations(
    parsed: TransactionSummary[],
    withCells: (tx: TransactionSummary) => ParsedTransaction,
    traceIds: Map<string, string>,
    walletOf: (address: string) => JettonWalletInfo | undefined,
): DerivedJettonOperations {
    const operations: Insertable<JettonOperationsTable>[] = [];
    const receipts: DerivedJettonOperations['receipts'] = [];
    for (const tx of parsed) {
        const inMsg = tx.inMsg;
        if (!inMsg || inMsg.msgType !== 'int_msg' || inMsg.bounced) continue;
        const wallet = walletOf(tx.account);
        if (!wallet) continue;
        const base = { transaction_hash: tx.hash, lt: tx.lt, utime: tx.utime, master: wallet.master, trace_id: traceIds.get(tx.hash)! };
        const body = withCells(tx).inMsg!.message.body;
        switch (inMsg.opCode) {
            case OP_JETTON_TRANSFER: {
                const request = tryLoad(loadJettonTransfer, body);
                if (!request) break;
                const sent = tx.outMsgs.find(m => m.opCode === OP_JETTON_INTERNAL_TRANSFER && m.msgType === 'int_msg');
                operations.push({
                    ...base,
                    operation: 'transfer',
                    amount: request.amount.toString(),
                    source: wallet.owner,
                    destination: request.destination ? formatRawAddress(request.destination) : null,
                    source_wallet: tx.account,
                    destination_wallet: sent?.destination ?? null,
                    query_id: request.queryId.toString(),
                    payload: payloadText(request.forwardPayload.value),
                    success: tx.success && sent ? 1 : 0,
                    awaiting_message: tx.success && sent ? sent.hash : null,
                });
                break;
            }
            case OP_JETTON_INTERNAL_TRANSFER: {
                if (inMsg.source !== wallet.master) {
                    receipts.push({ message: inMsg.hash, success: tx.success, wallet: tx.account });
                    break;
                }
                const mint = tryLoad(loadJettonInternalTransfer, body);
                if (!mint) break;
                operations.push({
                    ...base,
                    operation: 'mint',
                    amount: mint.amount.toString(),
                    source: null,
                    destination: wallet.owner,
                    source_wallet: null,
                    destination_wallet: tx.account,
                    query_id: mint.queryId.toString(),
                    payload: payloadText(mint.forwardPayload.value),
                    success: tx.success ? 1 : 0,
                    awaiting_message: null,
                });
                break;
            }
            case OP_JETTON_BURN: {
                const burn = tryLoad(loadJettonBurn, body);
                if (!burn) break;
                operations.push({
                    ...base,
                    operation: 'burn',
                    amount: burn.amount.toString(),
                    source: wallet.owner,
                    destination: null,
                    source_wallet: tx.account,
                    destination_wallet: null,
                    query_id: burn.queryId.toString(),
                    payload: null,
                    success: tx.success ? 1 : 0,
                    awaiting_message: null,
                });
                break;
            }
        }
    }
    // Sorted by account: PostgreSQL keeps rows in the order written, so a block's rows of one account
    // share heap pages, and a page of a busy account's history reads a few pages instead of a page a row.
    return { operations, history: operations.flatMap(historyRowsOf).sort(byAccountThenLt), receipts };
}

function byAccountThenLt(a: JettonHistoryTable, b: JettonHistoryTable): number {
    if (a.account !== b.account) return a.account < b.account ? -1 : 1;
    return a.lt === b.lt ? 0 : a.lt < b.lt ? -1 : 1;
}

/** An operation's rows in its parties' histories (one for a transfer to oneself), with its text. */
export function historyRowsOf(op: Insertable<JettonOperationsTable>): JettonHistoryTable[] {
    const { text, holes } = jettonOperationTemplate(decodeOperation(op as Required<typeof op>));
    const parties = new Set([op.source, op.destination].filter((party): party is string => party != null));
    return [...parties].map(account => ({
        account, lt: op.lt, transaction_hash: op.transaction_hash, master: op.master, source: op.source ?? null, destination: op.destination ?? null, text, text_holes: holes,
    }));
}

/**
 * Forward payloads as users read them: a text comment as `{"text": …}`, another known message as
 * its decoded form, anything else as its hex BOC; null when there is none.
 */
export function payloadText(payload: Cell | null): string | null {
    if (!payload || (payload.bits.length === 0 && payload.refs.length === 0)) return null;
    if (payload.bits.length >= 32 && payload.beginParse().preloadUint(32) === OP_TEXT_COMMENT) {
        const comment = tryLoad(loadTextComment, payload);
        if (comment) return JSON.stringify({ text: comment.text });
    }
    const decoded = payloadJson(payload);
    if (decoded.sum_type === 'Cell') return JSON.stringify(payload.toBoc().toString('hex'));
    return JSON.stringify(decoded);
}

const OPERATIONS_INSERT = new BulkInsert<DerivedJettonOperations['operations'][number]>((db, rows) => db.insertInto('jetton_operations').values(rows)
    .onConflict(oc => oc.column('transaction_hash').doNothing()), 128);
const HISTORY_INSERT = new BulkInsert<JettonHistoryTable>((db, rows) => db.insertInto('jetton_history').values(rows)
    .onConflict(oc => oc.columns(['account', 'lt', 'transaction_hash']).doNothing()), 128);

/** Jetton operations of the block, and transfers completed by an internal_transfer received in it. */
export async function writeJettonOperations(trx: DbTransaction<IndexDatabase>, derived: DerivedJettonOperations): Promise<void> {
    await OPERATIONS_INSERT.run(trx, derived.operations);
    await HISTORY_INSERT.run(trx, derived.history);
    for (const receipt of derived.receipts) {
        await trx.updateTable('jetton_operations')
            .set({ success: receipt.success ? 1 : 0, awaiting_message: null, destination_wallet: receipt.wallet })
            .where('awaiting_message', '=', receipt.message)
            .execute();
    }
}
