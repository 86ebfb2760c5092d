import type { ExtraCurrencyCatalog } from '../../ton/extra-currencies.ts';
import type { IndexedTransaction, IndexedTransactions } from '../../store/read/transactions.ts';
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
