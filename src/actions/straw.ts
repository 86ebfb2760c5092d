import type { ActionDraft } from './action.ts';
import { actionAccounts } from './action-accounts.ts';
import type { Bubble, EngineContext } from './bubble.ts';
import { ValueFlow } from './value-flow.ts';

/** A condition on one bubble (and, where a pattern needs it, on its children). */
export type Check = (bubble: Bubble, ctx: EngineContext) => boolean;

/**
 * One node of a pattern: the checks its bubble must pass, the children it needs, and what it
 * contributes to the action under construction (`T`, shared by every node of the pattern).
 */
export interface Straw<T extends ActionDraft> {
    checks: Check[];
    /** fills the draft from this node's bubble; run root first, then deeper nodes */
    build?: (draft: T, bubble: Bubble, ctx: EngineContext) => void;
    /** the first child bubble matching this straw */
    singleChild?: Straw<T>;
    /** each takes the first not-yet-taken child bubble matching it */
    children?: Straw<T>[];
    /** a missing match does not fail the parent */
    optional?: boolean;
    /** moves value between accounts in the merged flow (e.g. jettons); only the deepest one runs */
    valueFlow?: (draft: T, flow: ValueFlow) => void;
    /** the bubble is matched but kept as a child of the new action instead of being merged */
    notMerge?: boolean;
}

/**
 * A named pattern: how to start the draft and the straw its root bubble must match.
 *
 * Steps share what they learn through the draft `W` they all build. When a step leaves something
 * for another that is not part of the action `T` (e.g. the payload a transfer carried, for the
 * notification's step to render), `W` declares it as a required field and `finish` takes it off:
 * every step's inputs are in its types, and nothing is kept on the side.
 */
export type Pattern<T extends ActionDraft = ActionDraft, W extends T = T> = {
    name: string;
    create: () => W;
    root: Straw<W>;
} & ([T] extends [W] ? { finish?: (draft: W) => T } : { finish: (draft: W) => T });

/** A pattern of any action type, as the ordered list holds them. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyPattern = Pattern<any, any>;

interface Mapping<T extends ActionDraft> {
    straw: Straw<T>;
    bubble: Bubble;
}

function match<T extends ActionDraft>(straw: Straw<T>, bubble: Bubble, ctx: EngineContext): Mapping<T>[] | null {
    if (bubble.merged) return null;
    for (const check of straw.checks) if (!check(bubble, ctx)) return null;
    const mappings: Mapping<T>[] = [];
    if (straw.singleChild) {
        let found = false;
        for (const child of bubble.children) {
            const m = match(straw.singleChild, child, ctx);
            if (m) {
                mappings.push(...m);
                found = true;
                break;
            }
        }
        if (!found && !straw.singleChild.optional) return null;
    }
    if (straw.children) {
        const taken = new Set<Bubble>();
        for (const childStraw of straw.children) {
            let found = false;
            for (const child of bubble.children) {
                if (taken.has(child)) continue;
                const m = match(childStraw, child, ctx);
                if (m) {
                    taken.add(child);
                    mappings.push(...m);
                    found = true;
                    break;
                }
            }
            if (!found && !childStraw.optional) return null;
        }
    }
    // Self last, so that the reversed list starts at the root (builders run root first).
    if (!straw.notMerge) mappings.push({ straw, bubble });
    return mappings;
}

/**
 * Tries the pattern on `bubble`; on a match the matched bubbles become one action bubble, put in
 * `bubble`'s place. Their other children become the new bubble's children.
 */
export function mergeIfMatches<T extends ActionDraft, W extends T>(pattern: Pattern<T, W>, bubble: Bubble, ctx: EngineContext): boolean {
    const mappings = match(pattern.root, bubble, ctx);
    if (!mappings || mappings.length === 0) return false;
    const draft = pattern.create();
    const flow = new ValueFlow();
    let updater: Straw<W>['valueFlow'];
    const accounts: string[] = [];
    const txHashes: string[] = [];
    const mapped = new Set<Bubble>();
    for (let i = mappings.length - 1; i >= 0; i--) {
        const { straw, bubble: b } = mappings[i];
        straw.build?.(draft, b, ctx);
        flow.merge(b.valueFlow);
        if (straw.valueFlow) updater = straw.valueFlow;
        accounts.push(...b.accounts);
        txHashes.push(...b.txHashes);
        mapped.add(b);
    }
    updater?.(draft, flow);
    const action: T = pattern.finish ? pattern.finish(draft) : draft;
    for (const b of mapped) b.merged = true;

    const children: Bubble[] = [];
    const keep = (b: Bubble) => {
        b.children = b.children.filter((c) => !c.merged);
        children.push(b);
    };
    const rootKept = !mapped.has(bubble);
    for (const b of mappings.map((m) => m.bubble)) {
        for (const child of b.children) if (!child.merged && !mapped.has(child) && !children.includes(child)) keep(child);
    }
    let rootCopy: Bubble | undefined;
    if (rootKept) {
        rootCopy = { ...bubble, children: bubble.children.filter((c) => !c.merged && !children.includes(c)) };
        children.push(rootCopy);
    }
    for (const account of actionAccounts(action)) accounts.push(account);
    const replacement: Bubble = {
        info: { kind: 'action', action },
        accounts: [...new Set(accounts)],
        children: children.filter((c) => c !== rootCopy).concat(rootCopy ? [rootCopy] : []),
        valueFlow: flow,
        txHashes,
        merged: false,
    };
    Object.assign(bubble, replacement);
    return true;
}

const MAX_MERGES_PER_PATTERN = 10_000;

/** Applies each pattern in order, over the whole tree (pre-order), until it no longer matches anywhere. */
export function applyPatterns(root: Bubble, patterns: readonly AnyPattern[], ctx: EngineContext): void {
    for (const pattern of patterns) {
        // Each merge removes at least one bubble from the tree, except with a kept (notMerge) root;
        // the bound only guards against a pattern that keeps matching its own result.
        for (let n = 0; n < MAX_MERGES_PER_PATTERN && mergeAnywhere(root, pattern, ctx); n++) {
            // merged once; look again from the top
        }
    }
}

function mergeAnywhere(bubble: Bubble, pattern: AnyPattern, ctx: EngineContext): boolean {
    if (mergeIfMatches(pattern, bubble, ctx)) return true;
    for (const child of bubble.children) if (mergeAnywhere(child, pattern, ctx)) return true;
    return false;
}
