import type { EngineAction } from './action.ts';
import { subjectAccounts } from './action-accounts.ts';
import { gramContribution } from './contribution.ts';
import { findActions, type ActionsResult } from './find-actions.ts';
import { actionJson, unknownActionJson, type ActionJson } from './present/action-json.ts';
import type { AccountAddressJson, PresentContext } from './present/context.ts';
import type { PreviewLanguage } from './present/language.ts';
import type { ActionTraceNode, TraceFacts } from './trace-input.ts';
import { ExtraCurrencyCatalog } from '../ton/extra-currencies.ts';

export interface AccountEventOptions {
    /** raw address of the account whose event this is */
    account: string;
    /**
     * true (wallet/emulate): only actions involving the account, and of those only the ones it is
     * a subject of; false (events/emulate): every action of the trace.
     */
    subjectOnly: boolean;
    language: PreviewLanguage;
    accounts: (raw: string) => AccountAddressJson;
    /** the service's extra currency table; without it extra currencies show by id only */
    currencies?: ExtraCurrencyCatalog;
    /** already computed actions of this trace, to avoid running the engine twice */
    result?: ActionsResult;
}

/** AccountEvent (spec 2.17) as the API returns it; bigints stay bigint. */
export interface AccountEventJson {
    event_id: string;
    account: AccountAddressJson;
    timestamp: bigint;
    actions: ActionJson[];
    is_scam: boolean;
    lt: bigint;
    in_progress: boolean;
    extra: bigint;
    progress: number;
    ext_msg_hash?: string;
}

/** The event of a complete (emulated) trace, seen from `options.account`. */
export function buildAccountEvent(root: ActionTraceNode, facts: TraceFacts, options: AccountEventOptions): AccountEventJson {
    const { actions, valueFlow } = options.result ?? findActions(root, facts);
    const account = options.account;
    const ctx: PresentContext = {
        facts, language: options.language, viewer: account, accounts: options.accounts, currencies: options.currencies ?? ExtraCurrencyCatalog.EMPTY,
    };
    const extra = actions.reduce((sum, a) => sum - gramContribution(a.draft, account), valueFlow.gramOf(account));
    const shown = options.subjectOnly ? actions.filter((a) => a.accounts.includes(account) && isSubject(a, account)) : actions;
    const rootTx = root.transaction;
    const event: AccountEventJson = {
        event_id: rootTx.hash,
        account: options.accounts(account),
        timestamp: BigInt(rootTx.utime),
        actions: shown.length > 0 ? shown.map((a) => actionJson(a, ctx)) : [unknownActionJson(ctx, account)],
        is_scam: false,
        lt: rootTx.lt,
        // An emulated trace is complete: every message was delivered.
        in_progress: false,
        extra,
        progress: 1,
    };
    if (rootTx.inMsg?.msgType === 'ext_in_msg') event.ext_msg_hash = rootTx.inMsg.hash;
    return event;
}

function isSubject(action: EngineAction, account: string): boolean {
    return action.draft.type === 'UnSubscribe' || subjectAccounts(action.draft).includes(account);
}
