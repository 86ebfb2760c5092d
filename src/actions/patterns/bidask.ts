import { formatRawAddress } from '../../ton/address.ts';
import { loadBidaskNativeSwap, loadBidaskSwapSuccess, tryLoad } from '../../ton/bodies/index.ts';
import type { JettonSwapDraft } from '../action.ts';
import { actionOf, type BubbleTx } from '../bubble.ts';
import { anyOf, hasInterface, hasOp, isAction, isTx, txWhere } from '../checks.ts';
import { OP } from '../protocol-ops.ts';
import type { Pattern, Straw } from '../straw.ts';
import { finishWithTransfer, newSwap, startFromTransfer, transferWithPayload } from './swap-helpers.ts';
import { tx } from './tx.ts';

/**
 * Bidask (CLMM bins): the pool takes grams (swap#f2ef6c1b) or jettons (a transfer with a
 * swap#f2ef6c1b payload), a range swaps (#66210c65), the pool confirms (swap_success #520e4831 or
 * v2 #d3a25890) and pays the output: a jetton transfer, or grams with
 * native_transfer_notification#6edd65f0.
 */

/** The grams a native swap#f2ef6c1b puts in, and who it names to get the output. */
function nativeSwapOf(t: BubbleTx): { amount: bigint; to: string | undefined } | null {
    const swap = t.body ? tryLoad(loadBidaskNativeSwap, t.body) : null;
    return swap ? { amount: swap.tonAmount, to: swap.toAddress ? formatRawAddress(swap.toAddress) : undefined } : null;
}

/** What swap_success reports paid out: amount_y when the input was x, else amount_x. */
function swapSuccessOut(t: BubbleTx): bigint | undefined {
    const success = t.body ? tryLoad(loadBidaskSwapSuccess, t.body) : null;
    return success ? (success.isX ? success.amountY : success.amountX) : undefined;
}

const nativeOut: Straw<JettonSwapDraft> = {
    checks: [isTx, hasOp(OP.bidaskNativeTransferNotification)],
    build: (d, b) => {
        const t = tx(b);
        if (d.out.kind !== 'native' || d.out.amount === 0n) d.out = { kind: 'native', amount: t.inputAmount };
        d.success &&= t.success && t.account === d.userWallet;
    },
};

const success: Straw<JettonSwapDraft> = {
    checks: [isTx, hasOp(OP.bidaskSwapSuccess, OP.bidaskSwapSuccessV2), hasInterface('bidask_pool')],
    build: (d, b) => {
        const t = tx(b);
        d.success &&= t.success;
        const out = swapSuccessOut(t);
        // Provisional: a jetton output is replaced by what the transfer carried.
        if (out !== undefined) d.out = { kind: 'native', amount: out };
    },
    singleChild: {
        checks: [anyOf([isAction('JettonTransfer')], [isTx, hasOp(OP.bidaskNativeTransferNotification)])],
        build: (d, b, ctx) => (actionOf(b, 'JettonTransfer') ? finishWithTransfer(d, b) : nativeOut.build!(d, b, ctx)),
    },
};

const rangeSwap: Straw<JettonSwapDraft> = {
    checks: [isTx, hasOp(OP.bidaskRangeSwap)],
    build: (d, b) => {
        d.success &&= tx(b).success;
    },
    singleChild: success,
};

/** Grams in: the swap message names its sender as the recipient (someone else's swap is not the sender's). */
export const BidaskSwapFromNative: Pattern<JettonSwapDraft> = {
    name: 'BidaskSwapFromNative',
    create: newSwap('bidask'),
    root: {
        checks: [
            isTx, hasOp(OP.bidaskSwap), hasInterface('bidask_pool'),
            txWhere((t) => { const s = nativeSwapOf(t); return s !== null && s.to === t.inputFrom; }),
        ],
        build: (d, b) => {
            const t = tx(b);
            d.userWallet = t.inputFrom!;
            d.router = t.account;
            d.in = { kind: 'native', amount: nativeSwapOf(t)!.amount };
            d.success = t.success;
        },
        singleChild: rangeSwap,
    },
};

/** Jettons in, grams or jettons out. */
export const BidaskSwapFromJetton: Pattern<JettonSwapDraft> = {
    name: 'BidaskSwapFromJetton',
    create: newSwap('bidask'),
    root: {
        checks: [isAction('JettonTransfer'), transferWithPayload(OP.bidaskSwap)],
        build: (d, b) => {
            startFromTransfer(d, b);
            d.router = actionOf(b, 'JettonTransfer')!.recipient ?? d.router;
        },
        singleChild: rangeSwap,
    },
};
