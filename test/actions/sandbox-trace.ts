import { Address, type Cell } from '@ton/core';
import type { Blockchain, BlockchainTransaction } from '@ton/sandbox';
import { knownCode } from '../../src/ton/interfaces/known-code.ts';
import { parseTransactionCell } from '../../src/ton/transaction.ts';
import type { ActionTraceNode } from '../../src/actions/trace-input.ts';

/**
 * Turns what the sandbox executed for one message into the engine's input: each transaction parsed
 * from its own BOC, children linked by out-message hash → in-message hash, interfaces from the code
 * hash of the account as it is after the trace (known-code table, then `extraCode`).
 */
export async function traceFromSandbox(
    chain: Blockchain,
    transactions: readonly BlockchainTransaction[],
    extraCode: ReadonlyMap<string, string[]> = new Map(),
): Promise<ActionTraceNode> {
    const nodes = transactions.map((t) => {
        const dest = t.inMessage?.info.dest;
        const workchain = dest && 'workChain' in dest ? dest.workChain : 0;
        return { transaction: parseTransactionCell(t.raw, workchain), interfaces: [] as string[], children: [] as ActionTraceNode[] };
    });
    const interfacesByAccount = new Map<string, string[]>();
    for (const node of nodes) {
        const account = node.transaction.account;
        if (!interfacesByAccount.has(account)) interfacesByAccount.set(account, await interfacesOf(chain, account, extraCode));
        node.interfaces = interfacesByAccount.get(account)!;
    }
    // The sandbox hands a message to the next contract re-serialized (a StateInit may move between
    // inline and a ref), so besides the hash a message is also known by sender, receiver and lt.
    const key = (m: { source: string | null; destination: string | null; createdLt: bigint }) => `${m.source}>${m.destination}@${m.createdLt}`;
    const byInMessage = new Map<string, ActionTraceNode>();
    for (const n of nodes) {
        const inMsg = n.transaction.inMsg;
        if (!inMsg || inMsg.msgType !== 'int_msg') continue;
        byInMessage.set(inMsg.hash, n);
        byInMessage.set(key(inMsg), n);
    }
    const childHashes = new Set<string>();
    for (const node of nodes) {
        for (const out of node.transaction.outMsgs) {
            if (out.msgType !== 'int_msg') continue;
            const child = byInMessage.get(out.hash) ?? byInMessage.get(key(out));
            if (child) {
                node.children.push(child);
                childHashes.add(child.transaction.hash);
            }
        }
    }
    const roots = nodes.filter((n) => !childHashes.has(n.transaction.hash));
    if (roots.length !== 1) throw new Error(`expected one root transaction, got ${roots.length}`);
    for (const node of nodes) {
        node.children.sort((a, b) => compare(a.transaction.inMsg!.createdLt, b.transaction.inMsg!.createdLt));
    }
    return roots[0];
}

function compare(a: bigint, b: bigint): number {
    return a < b ? -1 : a > b ? 1 : 0;
}

async function interfacesOf(chain: Blockchain, raw: string, extraCode: ReadonlyMap<string, string[]>): Promise<string[]> {
    const contract = await chain.getContract(Address.parse(raw));
    const state = contract.accountState;
    if (state?.type !== 'active' || !state.state.code) return [];
    const code: Cell = state.state.code;
    const known = knownCode(code);
    if (known) return [...known.interfaces];
    return [...(extraCode.get(code.hash().toString('hex')) ?? [])];
}
