import type { EngineAction } from './action.ts';
import type { Bubble, EngineContext } from './bubble.ts';
import { bubblesFromTrace } from './bubble-from-trace.ts';
import { fallbackAction } from './fallback.ts';
import { addIntentions } from './intentions.ts';
import { PATTERNS } from './patterns/index.ts';
import { applyPatterns, type AnyPattern } from './straw.ts';
import type { ActionTraceNode, TraceFacts } from './trace-input.ts';
import { ValueFlow } from './value-flow.ts';

export interface ActionsResult {
    /** every action of the trace, in pre-order of the rewritten tree, failed intentions included */
    actions: EngineAction[];
    /** what each account gained or lost over the whole trace */
    valueFlow: ValueFlow;
}

export interface FindActionsOptions {
    /** patterns to apply instead of PATTERNS (engine tests) */
    patterns?: readonly AnyPattern[];
}

/**
 * Bubbles (one per transaction) → patterns in PATTERNS order, each until it matches nowhere →
 * fallbacks for the transactions left → failed sends from the wallets' signed requests.
 */
export function findActions(root: ActionTraceNode, facts: TraceFacts, options: FindActionsOptions = {}): ActionsResult {
    const ctx: EngineContext = { facts, accountInterfaces: accountInterfaces(root) };
    const tree = bubblesFromTrace(root);
    applyPatterns(tree, options.patterns ?? PATTERNS, ctx);
    const order = transactionOrder(root);
    const actions: EngineAction[] = [];
    const valueFlow = new ValueFlow();
    const visit = (bubble: Bubble) => {
        valueFlow.merge(bubble.valueFlow);
        const draft = bubble.info.kind === 'action' ? bubble.info.action : fallbackAction(bubble.info);
        if (draft) {
            actions.push({ draft, baseTransactions: sortTransactions(bubble.txHashes, order), accounts: bubble.accounts });
        }
        bubble.children.forEach(visit);
    };
    visit(tree);
    return { actions: addIntentions(root, actions, facts), valueFlow };
}

function accountInterfaces(root: ActionTraceNode): Map<string, readonly string[]> {
    const out = new Map<string, readonly string[]>();
    const walk = (n: ActionTraceNode) => {
        if (n.interfaces.length > 0 && !out.has(n.transaction.account)) out.set(n.transaction.account, n.interfaces);
        n.children.forEach(walk);
    };
    walk(root);
    return out;
}

/** Position of each transaction in the trace (by lt, then pre-order), to list base transactions chronologically. */
function transactionOrder(root: ActionTraceNode): Map<string, number> {
    const all: Array<{ hash: string; lt: bigint; seq: number }> = [];
    const walk = (n: ActionTraceNode) => {
        all.push({ hash: n.transaction.hash, lt: n.transaction.lt, seq: all.length });
        n.children.forEach(walk);
    };
    walk(root);
    all.sort((a, b) => (a.lt < b.lt ? -1 : a.lt > b.lt ? 1 : a.seq - b.seq));
    return new Map(all.map((t, i) => [t.hash, i]));
}

function sortTransactions(hashes: string[], order: Map<string, number>): string[] {
    return [...new Set(hashes)].sort((a, b) => (order.get(a) ?? 0) - (order.get(b) ?? 0));
}
