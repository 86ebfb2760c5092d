import type { ElectionsDepositStakeDraft, ElectionsRecoverStakeDraft } from '../action.ts';
import { accountIs, hasOp, isTx } from '../checks.ts';
import { UNKNOWN_ADDRESS } from '../facts.ts';
import { OP } from '../protocol-ops.ts';
import type { Pattern } from '../straw.ts';
import { tx } from './tx.ts';

/** The elector of the masterchain (config param 1 of every TON network). */
export const ELECTOR = `-1:${'3'.repeat(64)}`;

/** new_stake#4e73744b on the elector, confirmed by new_stake_confirmation#f374484c. */
export const ElectionsDepositStake: Pattern<ElectionsDepositStakeDraft> = {
    name: 'ElectionsDepositStake',
    create: () => ({ type: 'ElectionsDepositStake', success: false, amount: 0n, staker: UNKNOWN_ADDRESS, elector: ELECTOR }),
    root: {
        checks: [isTx, accountIs(ELECTOR), hasOp(OP.electorNewStake)],
        build: (d, b) => {
            const t = tx(b);
            d.amount = t.inputAmount;
            d.staker = t.inputFrom ?? UNKNOWN_ADDRESS;
            d.success = t.success;
        },
        singleChild: { checks: [isTx, hasOp(OP.electorNewStakeConfirmation)] },
    },
};

/** recover_stake#47657424 on the elector, answered with the stake by recover_stake_ok#f96f7324. */
export const ElectionsRecoverStake: Pattern<ElectionsRecoverStakeDraft> = {
    name: 'ElectionsRecoverStake',
    create: () => ({ type: 'ElectionsRecoverStake', success: false, amount: 0n, staker: UNKNOWN_ADDRESS, elector: ELECTOR }),
    root: {
        checks: [isTx, accountIs(ELECTOR), hasOp(OP.electorRecoverStake)],
        build: (d, b) => {
            const t = tx(b);
            d.staker = t.inputFrom ?? UNKNOWN_ADDRESS;
            d.success = t.success;
        },
        singleChild: {
            checks: [isTx, hasOp(OP.electorRecoverStakeResponse)],
            build: (d, b) => {
                d.amount = tx(b).inputAmount;
            },
        },
    },
};
