import type { DepositTokenStakeDraft, OracleRequestDraft, ProtocolInfo, WithdrawTokenStakeRequestDraft } from '../action.ts';
import { formatAsset, jettonPreviewJson, priceJson } from './assets.ts';
import type { PresentContext } from './context.ts';
import { translate } from './i18n.ts';

/** Detail and preview parts of the token-staking and oracle actions (DepositTokenStake, WithdrawTokenStakeRequest, OracleRequest). */

type TokenStakeDraft = DepositTokenStakeDraft | WithdrawTokenStakeRequestDraft;

function protocolJson(p: ProtocolInfo): Record<string, unknown> {
    return p.image === undefined ? { name: p.name } : { name: p.name, image: p.image };
}

/** DepositTokenStakeAction / WithdrawTokenStakeRequestAction: staker, protocol, the staked (or unstaked) jettons. */
export function tokenStakeJson(a: TokenStakeDraft, ctx: PresentContext): Record<string, unknown> {
    const out: Record<string, unknown> = { staker: ctx.accounts(a.staker), protocol: protocolJson(a.protocol) };
    if (a.stakeMeta) out.stake_meta = priceJson(ctx.facts, a.stakeMeta);
    return out;
}

/** OracleRequestAction: who asked, who gets the answer, and the feeds (with the rate when the oracle answered). */
export function oracleRequestJson(a: OracleRequestDraft, ctx: PresentContext): Record<string, unknown> {
    return {
        requester: ctx.accounts(a.requester),
        response_to: ctx.accounts(a.responseTo),
        price_feeds: a.priceFeeds.map((f) => (f.rate === undefined ? { id: f.id, display_symbol: f.displaySymbol } : { id: f.id, display_symbol: f.displaySymbol, rate: f.rate })),
    };
}

export interface PreviewParts {
    name: string;
    description: string;
    value?: string;
    valueImage?: string;
    accounts: Array<string | undefined>;
}

export function tokenStakePreview(a: TokenStakeDraft, ctx: PresentContext): PreviewParts {
    const deposit = a.type === 'DepositTokenStake';
    const value = a.stakeMeta ? formatAsset(ctx.facts, a.stakeMeta) : undefined;
    const protocol = a.protocol.name;
    const description = value === undefined
        ? translate(deposit ? 'depositTokenStakeNoValue' : 'withdrawTokenStakeRequestNoValue', ctx.language, { protocol })
        : translate(deposit ? 'depositTokenStake' : 'withdrawTokenStakeRequest', ctx.language, { value, protocol });
    const image = a.stakeMeta?.kind === 'jetton' ? jettonPreviewJson(ctx.facts, a.stakeMeta.master).image : undefined;
    return {
        name: deposit ? 'Deposit Token Stake' : 'Withdraw Token Stake Request',
        description,
        value,
        valueImage: image || undefined,
        accounts: [a.staker],
    };
}

export function oracleRequestPreview(a: OracleRequestDraft, ctx: PresentContext): PreviewParts {
    const feeds = a.priceFeeds.map((f) => f.displaySymbol).filter((s) => s !== '').join(', ');
    return {
        name: 'Oracle Request',
        description: feeds === '' ? translate('oracleRequestNoFeeds', ctx.language) : translate('oracleRequest', ctx.language, { feeds }),
        value: feeds === '' ? undefined : feeds,
        accounts: [a.requester, a.oracle],
    };
}
