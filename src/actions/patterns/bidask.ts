import type { Cell } from '@ton/core';
import { formatRawAddress } from '../../ton/address.ts';
import { loadMsgAddress, tryLoad } from '../../ton/bodies/index.ts';
import type { JettonSwapDraft } from '../action.ts';
import { actionOf } from '../bubble.ts';
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

/** swap#f2ef6c1b query_id:uint64 ton_amount:Coins to_address:MsgAddress … (native input) */
function loadNativeSwap(body: Cell | null) {
    if (!body) return null;
    return tryLoad((s) => {
        s.skip(32 + 64);
        const amount = s.loadCoins();
        const to = loadMsgAddress(s);
        return { amount, to: to ? formatRawAddress(to) : undefined };
    }, body);
}

/**
 * swap_success#520e4831 (v2 #d3a25890) query_id:uint64 new_current_bin:uint32 new_sqrt_p:uint256
 * from_account:Bool amount_x:Coins amount_y:Coins is_x:Bool …: the output is amount_y when is_x.
 */
function swapSuccessOut(body: Cell | null): bigint | undefined {
    if (!body) return undefined;
    return tryLoad((s) => {
        s.skip(32 + 64 + 32 + 256 + 1);
        const x = s.loadCoins();
        const y = s.loadCoins();
        return s.loadBit() ? y : x;
    }, body) ?? undefined;
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
        const out = swapSuccessOut(t.body);
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
            txWhere((t) => { const s = loadNativeSwap(t.body); return s !== null && s.to === t.inputFrom; }),
        ],
        build: (d, b) => {
            const t = tx(b);
            d.userWallet = t.inputFrom!;
            d.router = t.account;
            d.in = { kind: 'native', amount: loadNativeSwap(t.body)!.amount };
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
