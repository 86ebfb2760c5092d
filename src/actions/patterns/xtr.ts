import type { Cell } from '@ton/core';
import {
    OP_EXCESS, OP_JETTON_BURN, OP_JETTON_BURN_NOTIFICATION, loadXtrCommit, loadXtrUpdateContractAndProcess, tryLoad,
} from '../../ton/bodies/index.ts';
import type { DepositXTRDraft, WithdrawXTRDraft } from '../action.ts';
import { hasInterface, hasOp, isTx, txWhere } from '../checks.ts';
import { UNKNOWN_ADDRESS } from '../facts.ts';
import { OP } from '../protocol-ops.ts';
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

/** The stars an update_contract_and_process_message commits: its payload is commit_xtr. */
function committedAmount(body: Cell | null): bigint | null {
    const message = body ? tryLoad(loadXtrUpdateContractAndProcess, body) : null;
    return message ? (tryLoad(loadXtrCommit, message.payload)?.amount ?? null) : null;
}

/**
 * Stars credited on chain: update_payment#2a999df4 on the XTR master → update_contract_and_process_message
 * to the payment contract → its update_user#59ff81d6 back to the master → update_contract_and_process_message
 * carrying commit_xtr to the user's XTR contract (the recipient) → excesses.
 */
export const XtrDeposit: Pattern<DepositXTRDraft> = {
    name: 'XtrDeposit',
    create: () => ({ type: 'DepositXTR', success: false, recipient: UNKNOWN_ADDRESS, amount: 0n }),
    root: {
        checks: [isTx, hasOp(OP.xtrUpdatePayment)],
        build: (d, b) => {
            d.success = tx(b).success;
        },
        singleChild: {
            checks: [isTx, hasOp(OP.xtrUpdateContractAndProcess)],
            build: (d, b) => {
                d.success &&= tx(b).success;
            },
            singleChild: {
                checks: [isTx, hasOp(OP.xtrUpdateUser)],
                build: (d, b) => {
                    d.success &&= tx(b).success;
                },
                singleChild: {
                    checks: [isTx, txWhere((t) => committedAmount(t.body) !== null)],
                    build: (d, b) => {
                        const t = tx(b);
                        d.recipient = t.account;
                        d.amount = committedAmount(t.body)!;
                        d.success &&= t.success;
                    },
                    singleChild: { checks: [isTx, hasOp(OP_EXCESS)], optional: true },
                },
            },
        },
    },
};
