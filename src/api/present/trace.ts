import type { ExtraCurrencyCatalog } from '../../ton/extra-currencies.ts';
import type { IndexedTransaction, IndexedTransactions, TraceTransactionText } from '../../store/read/transactions.ts';
import { RawJson } from '../json.ts';
import { AccountDirectory } from './account-address.ts';
import { presentIndexedTransaction } from './indexed-transaction.ts';

/**
 * Trace (spec 2.14): the transactions of one trace as a tree, each child hanging under the
 * transaction that sent its inbound message, children ordered by that message's created lt.
 */
export function presentTraceTree(trace: IndexedTransactions, currencies?: ExtraCurrencyCatalog) {
    const accounts = new AccountDirectory(trace.interfaces, currencies);
    const loaded = trace.transactions;
    const byInMessage = new Map<string, IndexedTransaction>();
    for (const item of loaded) if (item.parsed.inMsg) byInMessage.set(item.parsed.inMsg.hash, item);
    const sentInTrace = new Set(loaded.flatMap(item => item.parsed.outMsgs.map(m => m.hash)));
    const root = loaded.find(item => !item.parsed.inMsg || !sentInTrace.has(item.parsed.inMsg.hash)) ?? loaded[0];

    type TraceNode = { transaction: ReturnType<typeof presentIndexedTransaction>; interfaces: string[]; children?: TraceNode[]; emulated: boolean };
    const build = (item: IndexedTransaction): TraceNode => {
        const children = item.parsed.outMsgs
            .map(m => byInMessage.get(m.hash))
            .filter((child): child is IndexedTransaction => child !== undefined)
            .map(build);
        return {
            transaction: presentIndexedTransaction(item, accounts),
            interfaces: accounts.interfaces(item.parsed.account),
            children: children.length > 0 ? children : undefined,
            emulated: false,
        };
    };
    return build(root);
}

/**
 * The same tree from the trace's stored transaction texts, filled already (`texts` by hash): each
 * child under the transaction that sent its inbound message, children by that message's created lt.
 */
export function presentTraceOfTexts(transactions: TraceTransactionText[], texts: Map<string, Buffer>, interfaces: Map<string, string[]>) {
    const children = new Map<string, TraceTransactionText[]>();
    for (const item of transactions) {
        if (!item.parent) continue;
        const siblings = children.get(item.parent.hash);
        if (siblings) siblings.push(item);
        else children.set(item.parent.hash, [item]);
    }
    for (const siblings of children.values()) siblings.sort((a, b) => a.parent!.createdLt < b.parent!.createdLt ? -1 : a.parent!.createdLt > b.parent!.createdLt ? 1 : 0);
    const root = transactions.find(item => !item.parent) ?? transactions[0];

    type TraceNode = { transaction: RawJson; interfaces: string[]; children?: TraceNode[]; emulated: boolean };
    const build = (item: TraceTransactionText): TraceNode => {
        const below = children.get(item.hash);
        return {
            transaction: new RawJson(texts.get(item.hash)!),
            interfaces: interfaces.get(item.account) ?? [],
            children: below ? below.map(build) : undefined,
            emulated: false,
        };
    };
    return build(root);
}
