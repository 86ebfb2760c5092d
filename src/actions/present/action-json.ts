import type { EngineAction } from '../action.ts';
import type { PresentContext } from './context.ts';
import { actionDetailJson } from './detail.ts';
import { simplePreview, unknownPreview, type SimplePreviewJson } from './preview.ts';

/** Action (spec 2.18) as the API returns it; bigints stay bigint for the exact-integer serializer. */
export interface ActionJson {
    type: string;
    status: 'ok' | 'failed';
    simple_preview: SimplePreviewJson;
    base_transactions: string[];
    [detail: string]: unknown;
}

export function actionJson(action: EngineAction, ctx: PresentContext): ActionJson {
    const draft = action.draft;
    return {
        type: draft.type,
        status: draft.success ? 'ok' : 'failed',
        simple_preview: simplePreview(draft, ctx),
        base_transactions: action.baseTransactions,
        [draft.type]: actionDetailJson(draft, ctx),
    };
}

/** What an event shows when no action concerns its account. */
export function unknownActionJson(ctx: PresentContext, account: string): ActionJson {
    return { type: 'Unknown', status: 'ok', simple_preview: unknownPreview(ctx, account), base_transactions: [] };
}
