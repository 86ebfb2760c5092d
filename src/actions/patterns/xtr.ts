import { OP_JETTON_BURN, OP_JETTON_BURN_NOTIFICATION } from '../../ton/bodies/index.ts';
import type { WithdrawXTRDraft } from '../action.ts';
import { hasInterface, hasOp, isTx } from '../checks.ts';
import { UNKNOWN_ADDRESS } from '../facts.ts';
import type { Pattern } from '../straw.ts';
import { tx } from './tx.ts';

/** Telegram Stars (XTR) on chain: burning the XTR jetton (burn → burn_notification on the XTR master) withdraws them. */
export const XtrWithdraw: Pattern<WithdrawXTRDraft> = {
    name: 'XtrWithdraw',
    create: () => ({ type: 'WithdrawXTR', success: false, user: UNKNOWN_ADDRESS, amount: 0n }),
    root: {
        checks: [isTx, hasOp(OP_JETTON_BURN)],
        build: (d, b) => {
            const t = tx(b);
            d.user = t.inputFrom ?? UNKNOWN_ADDRESS;
            d.success = t.success;
            if (t.parsed?.name === 'jetton_burn') d.amount = t.parsed.value.amount;
        },
        singleChild: {
            checks: [isTx, hasOp(OP_JETTON_BURN_NOTIFICATION), hasInterface('xtr_master')],
            build: (d, b) => {
                d.success &&= tx(b).success;
            },
        },
    },
};
