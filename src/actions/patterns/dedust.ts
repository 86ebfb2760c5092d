import type { Cell, Slice } from '@ton/core';
import { loadDedustAsset, loadMsgAddress, tryLoad } from '../../ton/bodies/index.ts';
import type { Asset, JettonSwapDraft } from '../action.ts';
import { actionOf, type Bubble, type EngineContext } from '../bubble.ts';
import { anyOf, hasInterface, hasOp, isAction, isTx } from '../checks.ts';
import { OP } from '../protocol-ops.ts';
import type { Check, Pattern, Straw } from '../straw.ts';
import { newSwap, transferWithPayload } from './swap-helpers.ts';
import { tx } from './tx.ts';

/**
 * DeDust swaps: a vault takes the input, one pool per step of the request swaps (and logs it with
 * an ext-out swap event), the output vault pays out.
 */

/** A swap event's asset as the engine counts it (extra currencies are not swapped assets here). */
function loadAsset(s: Slice): Asset | undefined {
    const asset = loadDedustAsset(s);
    if (asset?.kind === 'native') return { kind: 'native', amount: 0n };
    if (asset?.kind === 'jetton') return { kind: 'jetton', master: asset.master, amount: 0n };
    return undefined;
}

/** swap#9c610de3 asset_in:Asset asset_out:Asset amount_in:Coins amount_out:Coins … (a pool's ext-out event) */
export function loadSwapEvent(body: Cell): { in: Asset; out: Asset } | null {
    return tryLoad((s) => {
        if (s.loadUint(32) !== OP.dedustSwapEvent) return null;
        const assetIn = loadAsset(s);
        const assetOut = loadAsset(s);
        if (!assetIn || !assetOut) return null;
        const amountIn = s.loadCoins();
        const amountOut = s.loadCoins();
        return { in: { ...assetIn, amount: amountIn }, out: { ...assetOut, amount: amountOut } };
    }, body);
}

function swapEventOf(b: Bubble) {
    for (const body of tx(b).externalOut) {
        const event = loadSwapEvent(body);
        if (event) return event;
    }
    return null;
}

/**
 * step#_ pool_addr:MsgAddress params:(kind_out:Bool limit:Coins next:(Maybe ^Step)): the steps a
 * swap request asks for, one pool each.
 */
function countSteps(s: Slice): number {
    let steps = 0;
    for (let step: Slice | null = s; step; ) {
        steps++;
        loadMsgAddress(step);
        step.loadBit();
        step.loadCoins();
        const next = step.loadMaybeRef();
        step = next ? next.beginParse() : null;
    }
    return steps;
}

/** swap#ea06185d query_id:uint64 amount:Coins step:Step swap_params:^SwapParams (grams to the native vault) */
function nativeRequestSteps(body: Cell | null): number | undefined {
    if (!body) return undefined;
    return tryLoad((s) => {
        s.skip(32 + 64);
        s.loadCoins();
        return countSteps(s);
    }, body) ?? undefined;
}

/** swap#e3a0d482 step:Step swap_params:^SwapParams (jetton payload) */
function jettonRequestSteps(payload: Cell | null | undefined): number | undefined {
    if (!payload) return undefined;
    return tryLoad((s) => {
        s.skip(32);
        return countSteps(s);
    }, payload) ?? undefined;
}

const isPoolStep: Check = (b, ctx) => isTx(b, ctx) && hasInterface('dedust_pool')(b, ctx) && swapEventOf(b) !== null;
const isPayoutCommand: Check = (b, ctx) => isTx(b, ctx) && hasOp(OP.dedustPayoutFromPool)(b, ctx) && hasInterface('dedust_vault')(b, ctx);
const isPayout: Check = anyOf([isAction('JettonTransfer')], [isTx, hasOp(OP.dedustPayout)]);

/**
 * The pools a swap went through, as the patterns below walk them: pool after pool (each logging
 * its swap), then the output vault's payout. Undefined when the chain does not end in a payout.
 */
function poolSteps(start: Bubble, ctx: EngineContext): number | undefined {
    let steps = 0;
    let at = start;
    for (;;) {
        const next = at.children.find((c) => isPoolStep(c, ctx) || isPayoutCommand(c, ctx));
        if (!next) return undefined;
        if (isPayoutCommand(next, ctx)) return steps > 0 && next.children.some((c) => isPayout(c, ctx)) ? steps : undefined;
        steps++;
        at = next;
    }
}

/** The chain holds exactly the steps the request asked for. */
function stepsAsRequested(requested: (b: Bubble) => number | undefined): Check {
    return (b, ctx) => {
        const steps = requested(b);
        return steps !== undefined && steps === poolSteps(b, ctx);
    };
}

/** Pools already walked per swap: the first gives the input, the last the output. */
const walked = new WeakMap<JettonSwapDraft, number>();

/**
 * One link of the chain: a pool (then the next link), the output vault's payout command (then the
 * payout), or the payout itself. The root checks proved the chain's shape, so every link is optional.
 */
const link: Straw<JettonSwapDraft> = {
    checks: [anyOf([isPoolStep], [isPayoutCommand], [isPayout])],
    optional: true,
    build: (d, b, ctx) => {
        if (isPoolStep(b, ctx)) {
            const event = swapEventOf(b)!;
            const n = walked.get(d) ?? 0;
            if (n === 0) d.in = event.in;
            d.out = event.out;
            walked.set(d, n + 1);
            d.success &&= tx(b).success;
        } else if (isPayoutCommand(b, ctx)) {
            d.success &&= tx(b).success;
        } else {
            const transfer = actionOf(b, 'JettonTransfer');
            const recipient = transfer ? transfer.recipient : tx(b).account;
            d.success &&= recipient === d.userWallet && (transfer ? transfer.success : tx(b).success);
        }
    },
};
link.singleChild = link;

export const DedustSwapFromNative: Pattern<JettonSwapDraft> = {
    name: 'DedustSwapFromNative',
    create: newSwap('dedust'),
    root: {
        checks: [isTx, hasOp(OP.dedustNativeSwap), hasInterface('dedust_vault'), stepsAsRequested((b) => nativeRequestSteps(tx(b).body))],
        build: (d, b) => {
            const t = tx(b);
            d.userWallet = t.inputFrom!;
            d.router = t.account;
            d.success = t.success;
        },
        singleChild: link,
    },
};

export const DedustSwapFromJetton: Pattern<JettonSwapDraft> = {
    name: 'DedustSwapFromJetton',
    create: newSwap('dedust'),
    root: {
        checks: [
            isAction('JettonTransfer'), transferWithPayload(OP.dedustJettonSwap),
            stepsAsRequested((b) => jettonRequestSteps(actionOf(b, 'JettonTransfer')!.payload)),
        ],
        build: (d, b) => {
            const transfer = actionOf(b, 'JettonTransfer')!;
            d.userWallet = transfer.sender ?? d.userWallet;
            d.router = transfer.recipient ?? d.router;
            d.success = transfer.success;
        },
        singleChild: link,
    },
};
