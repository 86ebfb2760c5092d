import type { AccountDirectory } from './account-address.ts';
import { presentLoaded, type LoadedTransaction } from './transaction-rows.ts';

/**
 * Trace (spec 2.14): the transactions of one trace as a tree, each child hanging under the
 * transaction that sent its inbound message, children ordered by that message's created lt.
 */
export function presentTraceTree(loaded: LoadedTransaction[], accounts: AccountDirectory) {
    const byInMessage = new Map<string, LoadedTransaction>();
    for (const item of loaded) if (item.parsed.inMsg) byInMessage.set(item.parsed.inMsg.hash, item);
    const sentInTrace = new Set(loaded.flatMap(item => item.parsed.outMsgs.map(m => m.hash)));
    const root = loaded.find(item => !item.parsed.inMsg || !sentInTrace.has(item.parsed.inMsg.hash)) ?? loaded[0];

    type TraceNode = { transaction: ReturnType<typeof presentLoaded>; interfaces: string[]; children?: TraceNode[]; emulated: boolean };
    const build = (item: LoadedTransaction): TraceNode => {
        const children = item.parsed.outMsgs
            .map(m => byInMessage.get(m.hash))
            .filter((child): child is LoadedTransaction => child !== undefined)
            .map(build);
        return {
            transaction: presentLoaded(item, accounts),
            interfaces: accounts.interfaces(item.parsed.account),
            children: children.length > 0 ? children : undefined,
            emulated: false,
        };
    };
    return build(root);
}
