import { loadWhalesStakeWithdraw, tryLoad } from '../../ton/bodies/index.ts';
import type { DepositStakeDraft, WithdrawStakeDraft, WithdrawStakeRequestDraft } from '../action.ts';
import { actionOf } from '../bubble.ts';
import { hasInterface, hasOp, isTx } from '../checks.ts';
import { UNKNOWN_ADDRESS } from '../facts.ts';
import { OP } from '../protocol-ops.ts';
import type { Pattern } from '../straw.ts';
import { tx } from './tx.ts';

/**
 * TON Whales nominator pools (interface whales_nominators). The ops are crc32 of the contract's
 * names: op::stake_deposit, op::stake_withdraw and their ::response / ::delayed answers.
 */

/** stake_deposit#7bcd1fef query_id:uint64 gas_limit:Coins, the stake attached; the pool answers ::response. */
export const DepositWhalesStake: Pattern<DepositStakeDraft> = {
    name: 'DepositWhalesStake',
    create: () => ({ type: 'DepositStake', success: false, amount: 0n, staker: UNKNOWN_ADDRESS, pool: UNKNOWN_ADDRESS, implementation: 'whales' }),
    root: {
        checks: [isTx, hasOp(OP.whalesDeposit), hasInterface('whales_nominators')],
        build: (d, b) => {
            const t = tx(b);
            Object.assign(d, { staker: t.inputFrom ?? UNKNOWN_ADDRESS, pool: t.account, amount: t.inputAmount, success: t.success });
        },
        singleChild: { checks: [isTx, hasOp(OP.whalesDepositResponse)], optional: true },
    },
};

/** stake_withdraw#da803efd: a request, answered ::delayed when the pool cannot pay at once. */
export const WithdrawWhalesStakeRequest: Pattern<WithdrawStakeRequestDraft> = {
    name: 'WithdrawWhalesStakeRequest',
    create: () => ({ type: 'WithdrawStakeRequest', success: false, staker: UNKNOWN_ADDRESS, pool: UNKNOWN_ADDRESS, implementation: 'whales' }),
    root: {
        checks: [isTx, hasOp(OP.whalesWithdraw), hasInterface('whales_nominators')],
        build: (d, b) => {
            const t = tx(b);
            Object.assign(d, { staker: t.inputFrom ?? UNKNOWN_ADDRESS, pool: t.account, success: t.success });
            // A stake of 0 asks for everything: the amount is not known yet.
            const stake = t.body ? tryLoad(loadWhalesStakeWithdraw, t.body)?.stake : undefined;
            if (stake !== undefined && stake > 0n) d.amount = stake;
        },
        singleChild: { checks: [isTx, hasOp(OP.whalesWithdrawDelayed)], optional: true },
    },
};

/** A Whales withdrawal request the pool paid at once (::response with the stake). */
export const WithdrawWhalesStake: Pattern<WithdrawStakeDraft> = {
    name: 'WithdrawWhalesStake',
    create: () => ({ type: 'WithdrawStake', success: false, amount: 0n, staker: UNKNOWN_ADDRESS, pool: UNKNOWN_ADDRESS, implementation: 'whales' }),
    root: {
        checks: [(b) => actionOf(b, 'WithdrawStakeRequest')?.implementation === 'whales'],
        build: (d, b) => {
            const request = actionOf(b, 'WithdrawStakeRequest')!;
            Object.assign(d, { staker: request.staker, pool: request.pool, success: request.success });
        },
        singleChild: {
            checks: [isTx, hasOp(OP.whalesWithdrawResponse)],
            build: (d, b) => {
                d.amount = tx(b).inputAmount;
                d.success &&= tx(b).success;
            },
        },
    },
};
