/**
 * The action engine: a trace (tree of transactions) → user-facing actions (spec 2.18) and the
 * AccountEvent (spec 2.17) of one account.
 */
export { findActions, type ActionsResult, type FindActionsOptions } from './find-actions.ts';
export { buildAccountEvent, type AccountEventJson, type AccountEventOptions } from './account-event.ts';
export { actionJson, type ActionJson } from './present/action-json.ts';
export type { AccountAddressJson, PresentContext } from './present/context.ts';
export { pickLanguage, type PreviewLanguage } from './present/language.ts';
export { formatTokens, formatGrams, NATIVE_SYMBOL } from './present/format-tokens.ts';
export { nftItemJson } from './present/assets.ts';
export { PATTERNS } from './patterns/index.ts';
export type { ActionDraft, ActionType, EngineAction } from './action.ts';
export type { ActionTraceNode, TraceFacts, JettonPreviewFacts, NftItemFacts } from './trace-input.ts';
