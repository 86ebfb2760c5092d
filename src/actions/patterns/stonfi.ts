import type { Address, Cell } from '@ton/core';
import { formatRawAddress } from '../../ton/address.ts';
import {
    OP_EXCESS, type StonfiSwapV2 as SwapRequest, loadStonfiPayToV1, loadStonfiPayToV2, loadStonfiPoolSwapV2, loadStonfiSwapV1, loadStonfiSwapV2,
    tryLoad,
} from '../../ton/bodies/index.ts';
import type { Asset, JettonSwapDraft } from '../action.ts';
import { actionOf, txOf, type BubbleTx, type EngineContext } from '../bubble.ts';
import { detectedOrFrom, hasOp, isAction, isTx, txWhere } from '../checks.ts';
import { masterOfWallet } from '../facts.ts';
import { OP } from '../protocol-ops.ts';
import type { Check, Pattern, Straw } from '../straw.ts';
import { askedAsset, finishWithTransfer, jettonAsset, newSwap, sameAsset, startFromTransfer, transferAsset, transferWithPayload } from './swap-helpers.ts';
import { tx } from './tx.ts';

/** STON.fi DEX swaps, v1 and v2: jettons to the router, the pool, pay_to from the pool to the router, jettons out. */

const raw = (a: Address | null | undefined) => (a ? formatRawAddress(a) : undefined);

/** Who a v1 swap payload names to get the output. */
function v1SwapRecipient(payload: Cell | null | undefined): string | undefined {
    return raw(payload ? tryLoad(loadStonfiSwapV1, payload)?.toAddress : undefined);
}

const v1ToSender: Check = (b) => {
    const transfer = actionOf(b, 'JettonTransfer');
    return transfer !== undefined && transfer.sender !== undefined && v1SwapRecipient(transfer.payload) === transfer.sender;
};

/** The pool's pay_to for the swapper; the one paying a referral its share (swap_ok_ref) is not the swap's output. */
function payToV1(t: BubbleTx) {
    return t.body ? tryLoad(loadStonfiPayToV1, t.body) : null;
}

/** The token a v1 payload asks for, at its minimum. */
function wantedV1(payload: Cell | null | undefined, ctx: EngineContext): Asset | undefined {
    const swap = payload ? tryLoad(loadStonfiSwapV1, payload) : null;
    return swap ? askedAsset(swap.tokenWallet, swap.minOut, ctx) : undefined;
}

export const StonfiSwapV1: Pattern<JettonSwapDraft> = {
    name: 'StonfiSwap',
    create: newSwap('stonfi'),
    root: {
        checks: [isAction('JettonTransfer'), transferWithPayload(OP.stonfiSwap), v1ToSender],
        build: (d, b, ctx) => {
            startFromTransfer(d, b);
            d.out = wantedV1(actionOf(b, 'JettonTransfer')!.payload, ctx) ?? d.out;
        },
        singleChild: {
            checks: [isTx, hasOp(OP.stonfiSwap), detectedOrFrom('stonfi_pool', 'stonfi_router')],
            build: (d, b) => {
                d.success &&= tx(b).success;
            },
            children: [
                {
                    checks: [isTx, hasOp(OP.stonfiPaymentRequest), txWhere((t) => payToV1(t)?.exitCode !== OP.stonfiSwapOkRef)],
                    build: (d, b) => {
                        const t = tx(b);
                        d.router = t.account;
                        d.success &&= t.success && payToV1(t)?.exitCode === OP.stonfiSwapOk;
                    },
                    singleChild: {
                        checks: [isAction('JettonTransfer')],
                        build: (d, b) => {
                            // A refund (the input back) leaves what the swap asked for as its output.
                            if (sameAsset(transferAsset(actionOf(b, 'JettonTransfer')!), d.in)) d.success = false;
                            else finishWithTransfer(d, b);
                        },
                    },
                },
                // The referral's share: a pay_to of its own and the transfer it makes.
                { checks: [isTx, hasOp(OP.stonfiPaymentRequest), txWhere((t) => payToV1(t)?.exitCode === OP.stonfiSwapOkRef)], optional: true, notMerge: true },
            ],
        },
    },
};

/**
 * The referral branch of a v2 swap: pay_vault#63381632 to the router → deposit_ref_fee#0490f09b on
 * the vault → excess. It is folded into the swap, not an action of its own: the fee is part of what
 * the user's swap cost, and the referrer collects it later from the vault, so nothing reaches anyone
 * here that the user would need to see apart (other indexers report it as a separate contract call).
 */
const referralFee: Straw<JettonSwapDraft> = {
    checks: [isTx, hasOp(OP.stonfiPayVaultV2)],
    optional: true,
    singleChild: {
        checks: [isTx, hasOp(OP.stonfiDepositRefFeeV2)],
        optional: true,
        children: [{ checks: [isTx, hasOp(OP_EXCESS)], optional: true }],
    },
};

/** The v2 swap a user's transfer asks for (its forward payload). */
function payloadSwapRequest(payload: Cell | null | undefined): SwapRequest | null {
    return payload ? tryLoad(loadStonfiSwapV2, payload) : null;
}

/** The v2 swap a router passes to a pool (the user's request inside). */
function poolSwapRequest(body: Cell | null): SwapRequest | null {
    return body ? (tryLoad(loadStonfiPoolSwapV2, body)?.request ?? null) : null;
}

function payToOf(t: BubbleTx) {
    return t.body ? tryLoad(loadStonfiPayToV2, t.body) : null;
}

/** What a v2 pay_to pays out, by the router's jetton wallet: the side with a non-zero amount. */
function paidOut(t: BubbleTx): { wallet: string; amount: bigint } | null {
    const payTo = payToOf(t);
    if (!payTo) return null;
    const [amount, wallet] = payTo.amount0Out !== 0n ? [payTo.amount0Out, payTo.token0Address] : [payTo.amount1Out, payTo.token1Address];
    return wallet ? { wallet: formatRawAddress(wallet), amount } : null;
}

const payToOk = (t: BubbleTx) => t.success && payToOf(t)?.exitCode === OP.stonfiSwapOk;
const payToFailed = (t: BubbleTx) => {
    const payTo = payToOf(t);
    return !t.success || (payTo !== null && payTo.exitCode !== OP.stonfiSwapOk);
};

/** The token a swap asked for, at its minimum: what a failed swap would have given. */
function wanted(d: JettonSwapDraft, request: SwapRequest | null, ctx: EngineContext): void {
    if (request) d.out = askedAsset(request.tokenWallet1, request.minOut, ctx) ?? d.out;
}

/*
 * v2 swaps may take several hops: the router's pay_to of one pool sends the swap on to the next
 * pool of the same router, or a jetton transfer with a swap payload to another router. Hops are
 * matched in two passes: first every hop whose pay_to failed (slippage, …) becomes a failed swap of
 * its own (the refund goes back to the user); then each user's transfer with the chain of hops
 * that succeeded becomes one swap, from the first token in to the last token out.
 */

/** A hop that failed: pool → pay_to with a refund exit code → the refund transfer. */
function failedHop(refund: 'optional' | 'required'): Straw<JettonSwapDraft> {
    return {
        checks: [isTx, hasOp(OP.stonfiSwapV2), detectedOrFrom('stonfi_pool_v2', 'stonfi_router_v2')],
        build: (d) => {
            d.success = false;
        },
        children: [
            {
                checks: [isTx, hasOp(OP.stonfiPayToV2), txWhere(payToFailed)],
                build: (d, b) => {
                    const t = tx(b);
                    d.router = t.account;
                    d.userWallet = raw(payToOf(t)?.toAddress) ?? d.userWallet;
                },
                children: [
                    {
                        checks: [isAction('JettonTransfer')],
                        optional: refund === 'optional',
                        build: (d, b) => {
                            const transfer = actionOf(b, 'JettonTransfer')!;
                            d.userWallet = transfer.recipient ?? d.userWallet;
                            if (refund === 'required') d.in = transferAsset(transfer);
                        },
                    },
                    { checks: [isTx, hasOp(OP_EXCESS)], optional: true },
                ],
            },
            referralFee,
        ],
    };
}

/** A failed hop started by a transfer (the user's, or one router's to the next). */
export const StonfiSwapV2FailedHop: Pattern<JettonSwapDraft> = {
    name: 'StonfiSwapV2FailedHop',
    create: newSwap('stonfi'),
    root: {
        checks: [isAction('JettonTransfer'), transferWithPayload(OP.stonfiSwapV2)],
        build: (d, b, ctx) => {
            const transfer = actionOf(b, 'JettonTransfer')!;
            d.userWallet = transfer.sender ?? d.userWallet;
            d.router = transfer.recipient ?? d.router;
            d.in = transferAsset(transfer);
            wanted(d, payloadSwapRequest(transfer.payload), ctx);
        },
        singleChild: failedHop('optional'),
    },
};

/** A failed later hop on the same router: its pool got the swap from the router's previous pay_to. */
export const StonfiSwapV2FailedPoolHop: Pattern<JettonSwapDraft> = {
    name: 'StonfiSwapV2FailedPoolHop',
    create: newSwap('stonfi'),
    root: {
        ...failedHop('required'),
        build: (d, b, ctx) => {
            d.success = false;
            wanted(d, poolSwapRequest(tx(b).body), ctx);
        },
    },
};

const hopChecks: Check[] = [isTx, hasOp(OP.stonfiSwapV2), detectedOrFrom('stonfi_pool_v2', 'stonfi_router_v2')];

const payTo: Straw<JettonSwapDraft> = {
    checks: [isTx, hasOp(OP.stonfiPayToV2)],
    build: (d, b, ctx) => {
        const t = tx(b);
        d.router = t.account;
        d.success &&= payToOk(t);
        // What this hop paid: the output, unless a later hop or the final transfer says more.
        const paid = paidOut(t);
        if (paid) d.out = jettonAsset(masterOfWallet(ctx.facts, paid.wallet), paid.amount);
    },
};

/** A pool swap of the chain. */
const hop: Straw<JettonSwapDraft> = {
    checks: hopChecks,
    build: (d, b) => {
        d.success &&= tx(b).success;
    },
    children: [payTo, referralFee],
};

/** The next pool on the same router, when its hop went through (a failed one is a swap of its own by now). */
const nextPool: Straw<JettonSwapDraft> = {
    ...hop,
    checks: [...hopChecks, (b) => b.children.some((c) => txOf(c)?.opCode === OP.stonfiPayToV2 && payToOk(txOf(c)!))],
    optional: true,
};

/** The output sent to another router with a swap payload: the chain goes on there. */
const nextRouter: Straw<JettonSwapDraft> = {
    checks: [isAction('JettonTransfer'), transferWithPayload(OP.stonfiSwapV2)],
    optional: true,
    singleChild: hop,
};

/** The output reaching the user. */
const finalOut: Straw<JettonSwapDraft> = {
    checks: [isAction('JettonTransfer'), (b) => !transferWithPayload(OP.stonfiSwapV2)(b)],
    optional: true,
    build: finishWithTransfer,
};

payTo.children = [nextPool, nextRouter, finalOut, { checks: [isTx, hasOp(OP_EXCESS)], optional: true }];

/** A user's transfer with a swap payload and the hops that went through. */
export const StonfiSwapV2: Pattern<JettonSwapDraft> = {
    name: 'StonfiSwapV2',
    create: newSwap('stonfi'),
    root: {
        checks: [isAction('JettonTransfer'), transferWithPayload(OP.stonfiSwapV2)],
        build: startFromTransfer,
        singleChild: hop,
    },
};
