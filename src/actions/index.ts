/**
 * The action engine: a trace (tree of transactions) → user-facing actions (spec 2.18) and the
 * AccountEvent (spec 2.17) of one account.
 */
export { buildAccountEvent, type AccountEventJson } from './account-event.ts';
export type { AccountAddressJson } from './present/context.ts';
export { pickLanguage, type PreviewLanguage } from './present/language.ts';
export { nftItemJson } from './present/assets.ts';
export type { ActionTraceNode } from './trace-input.ts';
