import type { Cell } from '@ton/core';
import {
    OP_COFFEE_CREATE_LIQUIDITY_DEPOSITORY_REQUEST, OP_COFFEE_DEPLOY, OP_COFFEE_DEPOSIT_LIQUIDITY_INTERNAL, OP_COFFEE_DEPOSIT_LIQUIDITY_JETTON,
    OP_COFFEE_DEPOSIT_LIQUIDITY_NATIVE, OP_COFFEE_DEPOSIT_LIQUIDITY_SUCCESSFUL_EVENT, OP_COFFEE_NOTIFICATION, OP_COFFEE_PAYOUT,
    OP_COFFEE_PAYOUT_INTERNAL, OP_COFFEE_SWAP_FAILED_EVENT, OP_COFFEE_SWAP_INTERNAL, OP_COFFEE_SWAP_JETTON, OP_COFFEE_SWAP_NATIVE,
    loadCoffeeJettonSwap, loadCoffeeNativeIn, loadCoffeePayoutInternal, loadCoffeeSwapEvent, peekOp, sameCoffeeAsset, tryLoad,
    type CoffeeAsset,
} from '../../ton/bodies/index.ts';
import type { Asset, JettonSwapDraft, LiquidityDepositDraft } from '../action.ts';
import { actionOf, txOf, type Bubble } from '../bubble.ts';
import { anyOf, hasInterface, hasOp, isAction, isTx } from '../checks.ts';
import { UNKNOWN_ADDRESS } from '../facts.ts';
import type { Check, Pattern, Straw } from '../straw.ts';
import { PROTOCOLS, newDeposit, step } from './liquidity.ts';
import { jettonAsset, newSwap, transferWithPayload } from './swap-helpers.ts';
import { tx } from './tx.ts';

/**
 * Coffee DEX (swap.coffee). A swap: grams to the native vault (swap_native#c0ffee00) or jettons to
 * the token's vault with a swap#c0ffee10 payload; the vault sends swap_internal#c0ffee20 to the
 * pool, which logs swap_successful_event#c0ffee30 (or swap_failed_event#c0ffee31) and passes the
 * output to the next pool (c0ffee20 again) or to the output vault (payout_internal#c0ffee21), which
 * pays the recipient: grams (payout#c0ffee32, or notification#c0ffee36) or a jetton transfer.
 *
 * A liquidity deposit: each side to its vault (deposit_liquidity_native#c0ffee04, or jettons with
 * a deposit#c0ffee12 payload); the vault asks the factory (c0ffee27), which deploys or tops up the
 * depositor's liquidity depository (deploy#c0ffee22); the side that completes it makes the
 * depository send both to the pool (c0ffee29), which logs its deposit event and mints LP jettons.
 * Each side is a deposit of its own: the first only reaches the depository, the completing one the pool.
 */

type SwapInProgress = JettonSwapDraft & { lastInput: CoffeeAsset | null; minOut: bigint };

function coffeeAsset(a: CoffeeAsset, amount: bigint): Asset | undefined {
    if (a.kind === 'native') return { kind: 'native', amount };
    if (a.kind === 'jetton') return { kind: 'jetton', master: a.master, amount };
    return undefined;
}

function eventOf(b: Bubble) {
    for (const body of txOf(b)?.externalOut ?? []) {
        const event = tryLoad(loadCoffeeSwapEvent, body);
        if (event) return event;
    }
    return null;
}

const failedEvent = (b: Bubble) => (txOf(b)?.externalOut ?? []).some((body) => peekOp(body) === OP_COFFEE_SWAP_FAILED_EVENT);
const loggedSwap: Check = (b) => eventOf(b) !== null || failedEvent(b);

/** The least output a jetton swap asked for (its payload). */
function minOutOf(payload: Cell | null | undefined): bigint {
    return (payload ? tryLoad(loadCoffeeJettonSwap, payload)?.minOut : undefined) ?? 0n;
}

const poolCheck: Check[] = [isTx, hasOp(OP_COFFEE_SWAP_INTERNAL), loggedSwap];
const payoutCheck: Check[] = [isTx, hasOp(OP_COFFEE_PAYOUT_INTERNAL)];
const paidCheck: Check = anyOf([isTx, hasOp(OP_COFFEE_PAYOUT)], [isTx, hasOp(OP_COFFEE_NOTIFICATION)], [isAction('JettonTransfer')]);

/** A pool, the next pool, the output vault and its payout: each link optional once the chain's first pool matched. */
const link: Straw<SwapInProgress> = {
    checks: [anyOf(poolCheck, payoutCheck, [paidCheck])],
    optional: true,
    build: (d, b, ctx) => {
        if (poolCheck.every((c) => c(b, ctx))) {
            const t = tx(b);
            const event = eventOf(b);
            if (event) {
                d.lastInput = event.input;
                d.out = { kind: 'native', amount: event.outputAmount };
            } else {
                d.success = false;
            }
            d.success &&= t.success;
        } else if (payoutCheck.every((c) => c(b, ctx))) {
            const t = tx(b);
            const payout = t.body ? tryLoad(loadCoffeePayoutInternal, t.body) : null;
            const other = payout?.poolAssets?.find((a) => d.lastInput === null || !sameCoffeeAsset(a, d.lastInput));
            // A failed swap refunds its input: its output stays the pool's other asset at the minimum asked.
            const amount = d.success ? payout?.amount ?? d.out.amount : d.minOut;
            d.out = (other && coffeeAsset(other, amount)) ?? d.out;
            d.success &&= t.success;
        } else {
            const transfer = actionOf(b, 'JettonTransfer');
            d.success &&= transfer ? transfer.success : tx(b).success;
        }
    },
};
link.singleChild = link;

const firstPool: Straw<SwapInProgress> = { ...link, checks: poolCheck, optional: false };

function swapPattern(name: string, root: Straw<SwapInProgress>): Pattern<JettonSwapDraft, SwapInProgress> {
    return {
        name,
        create: () => ({ ...newSwap('coffee')(), lastInput: null, minOut: 0n }),
        finish: ({ lastInput: _, minOut: __, ...action }) => action,
        root: { ...root, singleChild: firstPool },
    };
}

export const CoffeeSwapFromJetton = swapPattern('CoffeeSwapFromJetton', {
    checks: [isAction('JettonTransfer'), transferWithPayload(OP_COFFEE_SWAP_JETTON)],
    build: (d, b) => {
        const transfer = actionOf(b, 'JettonTransfer')!;
        d.userWallet = transfer.sender ?? d.userWallet;
        d.router = transfer.recipient ?? d.router;
        d.in = jettonAsset(transfer.master, transfer.amount);
        d.minOut = minOutOf(transfer.payload);
        d.success = transfer.success;
    },
});

export const CoffeeSwapFromNative = swapPattern('CoffeeSwapFromNative', {
    checks: [isTx, hasOp(OP_COFFEE_SWAP_NATIVE), hasInterface('coffee_vault')],
    build: (d, b) => {
        const t = tx(b);
        d.userWallet = t.inputFrom ?? d.userWallet;
        d.router = t.account;
        d.in = { kind: 'native', amount: (t.body ? tryLoad(loadCoffeeNativeIn, t.body)?.amount : undefined) ?? 0n };
        d.success = t.success;
    },
});

// ---- liquidity ----

const protocol = PROTOCOLS.coffee;

const depositedAtPool = (b: Bubble) =>
    (txOf(b)?.externalOut ?? []).some((body) => peekOp(body) === OP_COFFEE_DEPOSIT_LIQUIDITY_SUCCESSFUL_EVENT);

/** The depository sends both sides to the pool, which logs the deposit and mints LP jettons. */
const poolDeposit: Straw<LiquidityDepositDraft> = {
    checks: [isTx, hasOp(OP_COFFEE_DEPOSIT_LIQUIDITY_INTERNAL)],
    build: (d, b) => {
        step(d, b);
        d.success &&= depositedAtPool(b);
        // This side completed the deposit: the pool took it.
        for (const token of d.tokens) token.vault = tx(b).account;
    },
    children: [{ checks: [isAction('JettonMint')], build: step, optional: true }],
};

/** vault → factory → the depository (deployed or topped up), and the pool when this side completes it. */
const depositoryChain: Straw<LiquidityDepositDraft> = {
    checks: [isTx, hasOp(OP_COFFEE_CREATE_LIQUIDITY_DEPOSITORY_REQUEST), hasInterface('coffee_factory')],
    build: step,
    singleChild: {
        checks: [isTx, hasOp(OP_COFFEE_DEPLOY)],
        build: (d, b) => {
            step(d, b);
            for (const token of d.tokens) token.vault = tx(b).account;
        },
        singleChild: { ...poolDeposit, optional: true },
    },
};

export const CoffeeLiquidityDepositNative: Pattern<LiquidityDepositDraft> = {
    name: 'CoffeeLiquidityDepositNative',
    create: newDeposit(protocol),
    root: {
        checks: [isTx, hasOp(OP_COFFEE_DEPOSIT_LIQUIDITY_NATIVE), hasInterface('coffee_vault')],
        build: (d, b) => {
            const t = tx(b);
            d.from = t.inputFrom ?? UNKNOWN_ADDRESS;
            d.tokens.push({ asset: { kind: 'native', amount: (t.body ? tryLoad(loadCoffeeNativeIn, t.body)?.amount : undefined) ?? 0n }, vault: t.account });
            d.success = t.success;
        },
        singleChild: depositoryChain,
    },
};

export const CoffeeLiquidityDepositJetton: Pattern<LiquidityDepositDraft> = {
    name: 'CoffeeLiquidityDepositJetton',
    create: newDeposit(protocol),
    root: {
        checks: [isAction('JettonTransfer'), transferWithPayload(OP_COFFEE_DEPOSIT_LIQUIDITY_JETTON)],
        build: (d, b) => {
            const transfer = actionOf(b, 'JettonTransfer')!;
            d.from = transfer.sender ?? UNKNOWN_ADDRESS;
            d.tokens.push({ asset: jettonAsset(transfer.master, transfer.amount), vault: transfer.recipient ?? transfer.recipientsWallet });
            d.success = transfer.success;
        },
        singleChild: depositoryChain,
    },
};
