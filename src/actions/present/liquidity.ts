import type { LiquidityDepositDraft } from '../action.ts';
import { formatAsset, priceJson } from './assets.ts';
import type { PresentContext } from './context.ts';

/** LiquidityDepositAction: the protocol, who deposits, and each asset with the contract that took it. */
export function liquidityDepositJson(a: LiquidityDepositDraft, ctx: PresentContext): Record<string, unknown> {
    const protocol: Record<string, unknown> = { name: a.protocol.name };
    if (a.protocol.image !== undefined) protocol.image = a.protocol.image;
    return {
        protocol,
        from: ctx.accounts(a.from),
        tokens: a.tokens.map((t) => ({ price: priceJson(ctx.facts, t.asset), vault: t.vault })),
    };
}

/** The deposited assets as one preview value: "5 gram + 120 USDT". */
export function liquidityDepositValue(a: LiquidityDepositDraft, ctx: PresentContext): string {
    return a.tokens.map((t) => formatAsset(ctx.facts, t.asset)).join(' + ');
}
