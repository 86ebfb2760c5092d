import {
    type DedustAsset, type DedustSwapStep, dedustSwapSteps, loadDedustJettonSwap, loadDedustNativeSwap, loadDedustSwapEvent, tryLoad,
} from '../../ton/bodies/index.ts';
import type { Address } from '@ton/core';
import { formatRawAddress } from '../../ton/address.ts';
import type { Asset, JettonSwapDraft } from '../action.ts';
import { actionOf, type Bubble, type EngineContext } from '../bubble.ts';
import { anyOf, hasInterface, hasOp, isAction, isTx } from '../checks.ts';
import { OP } from '../protocol-ops.ts';
import type { Check, Pattern, Straw } from '../straw.ts';
import { newSwap, transferWithPayload } from './swap-helpers.ts';
import { tx } from './tx.ts';

/**
 * DeDust swaps: a vault takes the input, one pool per step of the request swaps (and logs it with
 * an ext-out swap event), the output vault pays out, to the account that started the swap.
 */

const raw = (a: Address | null) => (a ? formatRawAddress(a) : undefined);

/** A swap event's asset as the engine counts it (extra currencies are not swapped assets here). */
function asset(a: DedustAsset, amount: bigint): Asset | undefined {
    if (a.kind === 'native') return { kind: 'native', amount };
    if (a.kind === 'jetton') return { kind: 'jetton', master: a.master, amount };
    return undefined;
}

/** What a pool swapped, by the swap#9c610de3 event it logged. */
function swapEventOf(b: Bubble): { in: Asset; out: Asset } | null {
    for (const body of tx(b).externalOut) {
        const event = tryLoad(loadDedustSwapEvent, body);
        if (!event) continue;
        const assetIn = asset(event.assetIn, event.amountIn);
        const assetOut = asset(event.assetOut, event.amountOut);
        if (assetIn && assetOut) return { in: assetIn, out: assetOut };
    }
    return null;
}

/**
 * A pool's step: a DeDust pool (by its code), or the account a vault or pool passed the swap to
 * (swap_external#61ee542d, swap_peer#72aca8aa) that logged a swap event; the event's layout is checked.
 */
const isPoolStep: Check = (b, ctx) =>
    isTx(b, ctx) && (hasInterface('dedust_pool')(b, ctx) || hasOp(OP.dedustSwapExternal, OP.dedustSwapPeer)(b, ctx)) && swapEventOf(b) !== null;
/** The output vault's payout#ad4eb6f5, from the chain's last pool. */
const isPayoutCommand: Check = (b, ctx) => isTx(b, ctx) && hasOp(OP.dedustPayoutFromPool)(b, ctx);
const isPayout: Check = anyOf([isAction('JettonTransfer')], [isTx, hasOp(OP.dedustPayout)]);

/** Who a payout paid: a jetton transfer's recipient, or the account the vault sent grams to. */
function payoutRecipient(b: Bubble): string | undefined {
    const transfer = actionOf(b, 'JettonTransfer');
    return transfer ? transfer.recipient : tx(b).account;
}

/**
 * The chain a swap went through, as the patterns below walk it: pool after pool (each logging
 * its swap), then the output vault's payout command and its payout. Undefined when the chain does
 * not end in a payout.
 */
function swapChain(start: Bubble, ctx: EngineContext): { pools: number; paidTo: string | undefined } | undefined {
    let pools = 0;
    let at = start;
    for (;;) {
        const next = at.children.find((c) => isPoolStep(c, ctx) || isPayoutCommand(c, ctx));
        if (!next) return undefined;
        if (isPayoutCommand(next, ctx)) {
            const payout = next.children.find((c) => isPayout(c, ctx));
            return pools > 0 && payout ? { pools, paidTo: payoutRecipient(payout) } : undefined;
        }
        pools++;
        at = next;
    }
}

/** A swap request: who asks for it, who is to get the output, and the steps it asks for. */
interface Request {
    swapper: string | undefined;
    recipient: string | undefined;
    steps: DedustSwapStep[];
}

/**
 * The chain holds exactly the steps the request asked for, and pays the swapper or the recipient the
 * request names (an aggregator swapping on); a payout to anyone else is not the sender's swap.
 */
function requestServed(request: (b: Bubble) => Request | undefined): Check {
    return (b, ctx) => {
        const r = request(b);
        const chain = r ? swapChain(b, ctx) : undefined;
        return r !== undefined && r.swapper !== undefined && chain !== undefined && chain.pools === r.steps.length
            && chain.paidTo !== undefined && (chain.paidTo === r.swapper || chain.paidTo === r.recipient);
    };
}

/*
 * The links after the first pool: the next pool (then its own links), or the output vault's payout
 * command and then the payout, which ends the chain (what the recipient does with the output is
 * not part of the swap). The root's checks proved the chain's shape and its recipient, so every
 * link is optional.
 */
const payoutLink: Straw<JettonSwapDraft> = {
    checks: [isPayout],
    optional: true,
    build: (d, b) => {
        const transfer = actionOf(b, 'JettonTransfer');
        d.success &&= transfer ? transfer.success : tx(b).success;
    },
};

const commandLink: Straw<JettonSwapDraft> = {
    checks: [isPayoutCommand],
    optional: true,
    build: (d, b) => {
        d.success &&= tx(b).success;
    },
    singleChild: payoutLink,
};

const poolLink: Straw<JettonSwapDraft> = {
    checks: [isPoolStep],
    optional: true,
    build: (d, b) => {
        d.out = swapEventOf(b)!.out;
        d.success &&= tx(b).success;
    },
};
poolLink.children = [poolLink, commandLink];

/** The first pool: what went in; its output stands until a later pool swaps it on. */
const firstPool: Straw<JettonSwapDraft> = {
    checks: [isPoolStep],
    build: (d, b) => {
        const event = swapEventOf(b)!;
        d.in = event.in;
        d.out = event.out;
        d.success &&= tx(b).success;
    },
    children: [poolLink, commandLink],
};

function nativeRequest(b: Bubble): Request | undefined {
    const t = tx(b);
    const body = t.body ? tryLoad(loadDedustNativeSwap, t.body) : null;
    return body ? { swapper: t.inputFrom ?? undefined, recipient: raw(body.params.recipient), steps: dedustSwapSteps(body.step) } : undefined;
}

function jettonRequest(b: Bubble): Request | undefined {
    const transfer = actionOf(b, 'JettonTransfer');
    const payload = transfer?.payload ? tryLoad(loadDedustJettonSwap, transfer.payload) : null;
    return payload ? { swapper: transfer!.sender, recipient: raw(payload.params.recipient), steps: dedustSwapSteps(payload.step) } : undefined;
}

export const DedustSwapFromNative: Pattern<JettonSwapDraft> = {
    name: 'DedustSwapFromNative',
    create: newSwap('dedust'),
    root: {
        checks: [isTx, hasOp(OP.dedustNativeSwap), hasInterface('dedust_vault'), requestServed(nativeRequest)],
        build: (d, b) => {
            const t = tx(b);
            d.userWallet = t.inputFrom!;
            d.router = t.account;
            d.success = t.success;
        },
        singleChild: firstPool,
    },
};

export const DedustSwapFromJetton: Pattern<JettonSwapDraft> = {
    name: 'DedustSwapFromJetton',
    create: newSwap('dedust'),
    root: {
        checks: [isAction('JettonTransfer'), transferWithPayload(OP.dedustJettonSwap), requestServed(jettonRequest)],
        build: (d, b) => {
            const transfer = actionOf(b, 'JettonTransfer')!;
            d.userWallet = transfer.sender ?? d.userWallet;
            d.router = transfer.recipient ?? d.router;
            d.success = transfer.success;
        },
        singleChild: firstPool,
    },
};
