import type { Cell } from '@ton/core';
import { TONCO_PAY_TO_SWAP_OK, loadToncoRouterPayTo, loadToncoSwapPayload, tryLoad } from '../../ton/bodies/index.ts';
import type { Asset, JettonSwapDraft } from '../action.ts';
import { actionOf, type Bubble, type EngineContext } from '../bubble.ts';
import { detectedOrFrom, hasOp, isAction, isTx } from '../checks.ts';
import { OP } from '../protocol-ops.ts';
import type { Pattern, Straw } from '../straw.ts';
import { askedAsset, finishWithTransfer, newSwap, sameAsset, startFromTransfer, transferAsset, transferWithPayload } from './swap-helpers.ts';
import { tx } from './tx.ts';

/**
 * TONCO (concentrated-liquidity v3 pools): jettons (or pTON) to the router with a POOLV3_SWAP
 * payload, the router's POOLV3_SWAP#a7fb58f8 to the pool, the pool's ROUTERV3_PAY_TO#a1daa96d
 * back to the router, and the router's transfer of the output: to the user, or, for a multi-hop
 * swap, to itself again with the next hop's POOLV3_SWAP payload (through pTON when the middle
 * token is TON), which starts the next pool's swap.
 */

/** The token a payload asks for, at its minimum. */
function wanted(payload: Cell | null | undefined, ctx: EngineContext): Asset | undefined {
    const swap = payload ? tryLoad(loadToncoSwapPayload, payload) : null;
    return swap ? askedAsset(swap.targetJettonWallet, swap.minOut, ctx) : undefined;
}

/** The pool's answer: the swap went through only with the OK exit code. */
const payTo: Straw<JettonSwapDraft> = {
    checks: [isTx, hasOp(OP.toncoRouterPayTo)],
    build: (d, b) => {
        const t = tx(b);
        d.router = t.account;
        const answer = t.body ? tryLoad(loadToncoRouterPayTo, t.body) : null;
        d.success &&= t.success && answer?.exitCode === TONCO_PAY_TO_SWAP_OK;
    },
};

const pool: Straw<JettonSwapDraft> = {
    checks: [isTx, hasOp(OP.toncoPoolSwap), detectedOrFrom('tonco_pool', 'tonco_router')],
    build: (d, b) => {
        d.success &&= tx(b).success;
    },
    singleChild: payTo,
};

/** The output sent on to the router with the next hop's payload: the swap goes on in another pool. */
const nextHop: Straw<JettonSwapDraft> = {
    checks: [isAction('JettonTransfer'), transferWithPayload(OP.toncoPoolSwap)],
    optional: true,
    build: (d, b, ctx) => {
        const transfer = actionOf(b, 'JettonTransfer')!;
        d.out = wanted(transfer.payload, ctx) ?? d.out;
        d.success &&= transfer.success;
    },
    singleChild: pool,
};

/**
 * The output reaching the user. A refund (the input asset back) means the swap failed: what it
 * asked for stays its output, as a failed swap shows.
 */
const finalOut: Straw<JettonSwapDraft> = {
    checks: [isAction('JettonTransfer'), (b: Bubble) => !transferWithPayload(OP.toncoPoolSwap)(b)],
    optional: true,
    build: (d, b) => {
        const transfer = actionOf(b, 'JettonTransfer')!;
        if (sameAsset(transferAsset(transfer), d.in)) {
            d.success = false;
            return;
        }
        finishWithTransfer(d, b);
    },
};

payTo.children = [nextHop, finalOut];

export const ToncoSwap: Pattern<JettonSwapDraft> = {
    name: 'ToncoSwap',
    create: newSwap('tonco'),
    root: {
        checks: [isAction('JettonTransfer'), transferWithPayload(OP.toncoPoolSwap)],
        build: (d, b, ctx) => {
            startFromTransfer(d, b);
            d.out = wanted(actionOf(b, 'JettonTransfer')!.payload, ctx) ?? d.out;
        },
        singleChild: pool,
    },
};
