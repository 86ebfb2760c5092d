import type { Cell } from '@ton/core';
import { parseBody, type ParsedBody } from '../ton/bodies/index.ts';
import type { ActionDraft } from './action.ts';
import type { ActionTraceNode, TraceFacts } from './trace-input.ts';
import type { ValueFlow } from './value-flow.ts';

/** One transaction not merged into an action (yet): what the patterns and the fallbacks read. */
export interface BubbleTx {
    kind: 'tx';
    hash: string;
    account: string;
    interfaces: string[];
    success: boolean;
    /** no inbound message, or an external one */
    external: boolean;
    tickTock: boolean;
    /** in_msg value (+ ihr_fee when IHR is enabled); 0 for externals */
    inputAmount: bigint;
    /** extra currencies of the in_msg by id */
    inputExtra: Map<number, bigint>;
    /** in_msg source; null for externals */
    inputFrom: string | null;
    /** interfaces of the sender (its parent node's) */
    inputFromInterfaces: string[];
    bounce: boolean;
    bounced: boolean;
    /** first 32 bits of the in_msg body; null when shorter */
    opCode: number | null;
    body: Cell | null;
    /** body parsed by the shared decoders (lazy) */
    readonly parsed: ParsedBody | null;
    /** ext-out message bodies (events of DEX pools) */
    externalOut: Cell[];
    /** false only when an ordinary transaction's compute phase was skipped for lack of state */
    activeAtCompute: boolean;
    exitCode: number | null;
    node: ActionTraceNode;
}

/** A pattern's result: one action in the making. */
export interface BubbleAction {
    kind: 'action';
    action: ActionDraft;
}

export type BubbleInfo = BubbleTx | BubbleAction;

/** A node of the tree the patterns rewrite: a transaction or an action built from several. */
export interface Bubble {
    info: BubbleInfo;
    /** accounts of the merged transactions, for the account filter */
    accounts: string[];
    children: Bubble[];
    valueFlow: ValueFlow;
    txHashes: string[];
    merged: boolean;
}

/** Everything a pattern may read besides the bubbles. */
export interface EngineContext {
    facts: TraceFacts;
    /** interfaces of every account of the trace (as its nodes carry them), for checks on action bubbles */
    accountInterfaces?: ReadonlyMap<string, readonly string[]>;
}

export function txOf(bubble: Bubble): BubbleTx | undefined {
    return bubble.info.kind === 'tx' ? bubble.info : undefined;
}

export function actionOf<K extends ActionDraft['type']>(bubble: Bubble, type: K): Extract<ActionDraft, { type: K }> | undefined {
    const info = bubble.info;
    return info.kind === 'action' && info.action.type === type ? (info.action as Extract<ActionDraft, { type: K }>) : undefined;
}

export function parseTxBody(body: Cell | null, external: boolean, interfaces: string[]): ParsedBody | null {
    return body ? parseBody(body, { external, destinationInterfaces: interfaces }) : null;
}
