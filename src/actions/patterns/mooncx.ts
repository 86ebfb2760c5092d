import type { JettonSwapDraft } from '../action.ts';
import { actionOf } from '../bubble.ts';
import { anyOf, hasInterface, hasOp, isAction, isTx } from '../checks.ts';
import { OP } from '../protocol-ops.ts';
import type { Pattern, Straw } from '../straw.ts';
import { finishWithTransfer, newSwap, startFromTransfer, transferTo, transferWithPayload } from './swap-helpers.ts';
import { tx } from './tx.ts';

/**
 * Moon (mooncx) pools: grams with moon_swap#b37a900b, or jettons with a moon_swap payload, and the
 * pool's payout: a jetton transfer, or grams with moon_swap_succeed#cb7f38d6.
 */

const payout: Straw<JettonSwapDraft> = {
    checks: [anyOf([isAction('JettonTransfer')], [isTx, hasOp(OP.moonSwapSucceed)])],
    build: (d, b) => {
        if (actionOf(b, 'JettonTransfer')) {
            finishWithTransfer(d, b);
            return;
        }
        // The pool's gram payout also returns what is left of the attached gas.
        const t = tx(b);
        d.out = { kind: 'native', amount: t.inputAmount };
        d.success &&= t.success && t.account === d.userWallet;
    },
};

export const MooncxSwapFromNative: Pattern<JettonSwapDraft> = {
    name: 'MooncxSwapFromNative',
    create: newSwap('mooncx'),
    root: {
        checks: [isTx, hasOp(OP.moonSwap), hasInterface('moon_pool')],
        build: (d, b) => {
            const t = tx(b);
            d.userWallet = t.inputFrom!;
            d.router = t.account;
            // The value attached: the swap amount plus the pool's gas.
            d.in = { kind: 'native', amount: t.inputAmount };
            d.success = t.success;
        },
        singleChild: { checks: [isAction('JettonTransfer')], build: finishWithTransfer },
    },
};

export const MooncxSwapFromJetton: Pattern<JettonSwapDraft> = {
    name: 'MooncxSwapFromJetton',
    create: newSwap('mooncx'),
    root: {
        checks: [isAction('JettonTransfer'), transferWithPayload(OP.moonSwap), transferTo('moon_pool')],
        build: (d, b) => {
            startFromTransfer(d, b);
            d.router = actionOf(b, 'JettonTransfer')!.recipient ?? d.router;
        },
        singleChild: payout,
    },
};
