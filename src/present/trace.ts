import type { ExtraCurrencyCatalog } from '../ton/extra-currencies.ts';
import type { IndexedTransactions, TraceTransactionText } from '../store/read/transactions.ts';
import { RawJson } from '../json/json.ts';
import { AccountDirectory } from './account-address.ts';
import { presentIndexedTransaction } from './indexed-transaction.ts';

/** Where a transaction hangs in its trace: under the transaction of the trace that sent its inbound message (null at the root). */
interface TraceLink {
    hash: string;
    account: string;
    parent: { hash: string; createdLt: bigint } | null;
}

type TraceNode = { transaction: unknown; interfaces: string[]; children?: TraceNode[]; emulated: boolean };

/**
 * Trace (spec 2.14): the transactions of one trace as a tree, each child hanging under the
 * transaction that sent its inbound message, children ordered by that message's created lt.
 */
export function presentTraceTree(trace: IndexedTransactions, currencies?: ExtraCurrencyCatalog) {
    const accounts = new AccountDirectory(trace.interfaces, currencies);
    const senderOf = new Map<string, string>();
    for (const { parsed } of trace.transactions) for (const m of parsed.outMsgs) senderOf.set(m.hash, parsed.hash);
    const links = trace.transactions.map(item => {
        const inMsg = item.parsed.inMsg;
        const sender = inMsg ? senderOf.get(inMsg.hash) : undefined;
        return { hash: item.parsed.hash, account: item.parsed.account, parent: sender ? { hash: sender, createdLt: inMsg!.createdLt } : null, item };
    });
    return hangTree(links, link => presentIndexedTransaction(link.item, accounts), account => accounts.interfaces(account));
}

/** The same tree from the trace's stored transaction texts, filled already (`texts` by hash). */
export function presentTraceOfTexts(transactions: TraceTransactionText[], texts: Map<string, Buffer>, interfaces: Map<string, string[]>) {
    return hangTree(transactions, item => new RawJson(texts.get(item.hash)!), account => interfaces.get(account) ?? []);
}

function hangTree<T extends TraceLink>(items: T[], transactionOf: (item: T) => unknown, interfacesOf: (account: string) => string[]): TraceNode {
    const children = new Map<string, T[]>();
    for (const item of items) {
        if (!item.parent) continue;
        const siblings = children.get(item.parent.hash);
        if (siblings) siblings.push(item);
        else children.set(item.parent.hash, [item]);
    }
    for (const siblings of children.values()) siblings.sort((a, b) => a.parent!.createdLt < b.parent!.createdLt ? -1 : a.parent!.createdLt > b.parent!.createdLt ? 1 : 0);
    const build = (item: T): TraceNode => {
        const below = children.get(item.hash);
        return {
            transaction: transactionOf(item),
            interfaces: interfacesOf(item.account),
            children: below ? below.map(build) : undefined,
            emulated: false,
        };
    };
    return build(items.find(item => !item.parent) ?? items[0]);
}
