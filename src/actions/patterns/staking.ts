import { OP_TONSTAKERS_BILL_BURNED, OP_TONSTAKERS_DISTRIBUTED_ASSET, loadTonstakersBillBurned, tryLoad } from '../../ton/bodies/index.ts';
import { formatRawAddress } from '../../ton/address.ts';
import type { DepositStakeDraft, WithdrawStakeDraft, WithdrawStakeRequestDraft } from '../action.ts';
import { actionOf, type Bubble } from '../bubble.ts';
import { hasInterface, hasOp, isAction, isTx, txWhere } from '../checks.ts';
import { UNKNOWN_ADDRESS } from '../facts.ts';
import { OP } from '../protocol-ops.ts';
import type { Check, Pattern } from '../straw.ts';
import { commentOf } from '../transfer-note.ts';
import { tx } from './tx.ts';

/** Nominator pools: TON Whales-free TF nominator pool (text commands) and Tonstakers (liquid staking). */

const GRAM = 1_000_000_000n;

function textCommand(text: string): Check {
    return txWhere((t) => t.opCode === 0 && commentOf(t.body).comment === text);
}

function newDeposit(): DepositStakeDraft {
    return { type: 'DepositStake', success: false, amount: 0n, staker: UNKNOWN_ADDRESS, pool: UNKNOWN_ADDRESS, implementation: 'tf' };
}

function newRequest(): WithdrawStakeRequestDraft {
    return { type: 'WithdrawStakeRequest', success: false, staker: UNKNOWN_ADDRESS, pool: UNKNOWN_ADDRESS, implementation: 'tf' };
}

function newWithdraw(): WithdrawStakeDraft {
    return { type: 'WithdrawStake', success: false, amount: 0n, staker: UNKNOWN_ADDRESS, pool: UNKNOWN_ADDRESS, implementation: 'tf' };
}

function fromPoolTx(d: { staker: string; pool: string; success: boolean }, b: Bubble): void {
    const t = tx(b);
    d.staker = t.inputFrom ?? UNKNOWN_ADDRESS;
    d.pool = t.account;
    d.success = t.success;
}

/** TF nominator pool: a "d" comment deposits the attached value. */
export const DepositTFStake: Pattern<DepositStakeDraft> = {
    name: 'DepositTFStake',
    create: newDeposit,
    root: {
        checks: [isTx, hasInterface('tv_pool'), textCommand('d')],
        build: (d, b) => {
            fromPoolTx(d, b);
            d.amount = tx(b).inputAmount;
            d.implementation = 'tf';
        },
    },
};

/** TF nominator pool: a "w" comment asks for the stake back; the pool's small answer is part of it. */
export const WithdrawTFStakeRequest: Pattern<WithdrawStakeRequestDraft> = {
    name: 'WithdrawTFStakeRequest',
    create: newRequest,
    root: {
        checks: [isTx, hasInterface('tv_pool'), textCommand('w')],
        build: (d, b) => {
            fromPoolTx(d, b);
            d.implementation = 'tf';
        },
        singleChild: { checks: [isTx, txWhere((t) => t.inputAmount <= GRAM)], optional: true },
    },
};

/** A TF withdrawal request the pool paid at once: the payout is the stake (minus what was attached). */
export const WithdrawStakeImmediately: Pattern<WithdrawStakeDraft> = {
    name: 'WithdrawStakeImmediately',
    create: newWithdraw,
    root: {
        checks: [(b) => actionOf(b, 'WithdrawStakeRequest')?.implementation === 'tf'],
        build: (d, b) => {
            const request = actionOf(b, 'WithdrawStakeRequest')!;
            Object.assign(d, { staker: request.staker, pool: request.pool, implementation: 'tf', success: request.success });
        },
        singleChild: {
            checks: [isTx, txWhere((t) => t.inputAmount >= GRAM)],
            build: (d, b) => {
                d.amount = tx(b).inputAmount;
                d.success &&= tx(b).success;
            },
        },
    },
};

/** Tonstakers: deposit#47d54391 query_id:uint64 on the pool; 1 gram of the value pays the pool's fees. */
export const DepositLiquidStake: Pattern<DepositStakeDraft> = {
    name: 'DepositLiquidStake',
    create: newDeposit,
    root: {
        checks: [isTx, hasOp(OP.tonstakersDeposit), hasInterface('tonstake_pool')],
        build: (d, b) => {
            fromPoolTx(d, b);
            const value = tx(b).inputAmount - GRAM;
            d.amount = value > 0n ? value : 0n;
            d.implementation = 'liquidTF';
        },
    },
};

/**
 * Tonstakers: the pool jetton burned, the burn notified to the pool (withdraw#319b0cdc), which
 * mints a withdrawal NFT (0x1674b0a0) when it cannot pay at once.
 */
export const PendingWithdrawRequestLiquid: Pattern<WithdrawStakeRequestDraft> = {
    name: 'PendingWithdrawRequestLiquid',
    create: newRequest,
    root: {
        checks: [isAction('JettonBurn')],
        build: (d, b) => {
            const burn = actionOf(b, 'JettonBurn')!;
            d.staker = burn.sender;
            d.success = burn.success;
            d.implementation = 'liquidTF';
            if (burn.master !== undefined) d.stakeMeta = { kind: 'jetton', master: burn.master, amount: burn.amount };
        },
        singleChild: {
            checks: [isTx, hasOp(OP.tonstakersWithdraw), hasInterface('tonstake_pool')],
            build: (d, b) => {
                d.pool = tx(b).account;
                d.success &&= tx(b).success;
            },
            singleChild: {
                checks: [isTx, hasOp(OP.tonstakersPayoutMint)],
                optional: true,
                children: [
                    { checks: [isTx, hasOp(OP.nftInit)], optional: true, children: [{ checks: [isTx, hasOp(0x05138d91)], optional: true }] },
                ],
            },
        },
    },
};

/**
 * A Tonstakers withdrawal the pool paid at once: the pool jetton burned, the burn notified to the
 * pool, and the pool's payout (0x0a77535c) to the staker. The payout also returns the value the
 * burn notification brought to the pool (its gas), which is not part of the withdrawal.
 */
export const WithdrawLiquidStake: Pattern<WithdrawStakeDraft, WithdrawStakeDraft & { attached: bigint }> = {
    name: 'WithdrawLiquidStake',
    create: () => ({ ...newWithdraw(), attached: 0n }),
    finish: ({ attached: _, ...action }) => action,
    root: {
        checks: [isAction('JettonBurn')],
        build: (d, b) => {
            const burn = actionOf(b, 'JettonBurn')!;
            d.staker = burn.sender;
            d.success = burn.success;
            d.implementation = 'liquidTF';
        },
        singleChild: {
            checks: [isTx, hasOp(OP.tonstakersWithdraw), hasInterface('tonstake_pool')],
            build: (d, b) => {
                d.pool = tx(b).account;
                d.attached = tx(b).inputAmount;
                d.success &&= tx(b).success;
            },
            singleChild: {
                checks: [isTx, hasOp(OP.tonstakersWithdrawalPayout)],
                build: (d, b) => {
                    const paid = tx(b).inputAmount - d.attached;
                    d.amount = paid > 0n ? paid : 0n;
                    d.success &&= tx(b).success;
                },
            },
        },
    },
};

/**
 * A Tonstakers withdrawal paid when its round ended: the payout collection burns the bill (the
 * withdrawal NFT the pool minted), the bill tells the collection (burn_notification#ed58b0b2, with
 * the bill's owner), and the collection pays the owner its share (distributed_asset#db3b8abd; the
 * grams are the value, with what is left of the notification's gas). The pool is not part of this
 * chain: the payout collection that paid stands for it.
 */
export const WithdrawLiquidStakeByBill: Pattern<WithdrawStakeDraft> = {
    name: 'WithdrawLiquidStakeByBill',
    create: newWithdraw,
    root: {
        checks: [isTx, hasOp(OP_TONSTAKERS_BILL_BURNED)],
        build: (d, b) => {
            const t = tx(b);
            const burned = t.body ? tryLoad(loadTonstakersBillBurned, t.body) : null;
            d.pool = t.account;
            d.staker = burned?.owner ? formatRawAddress(burned.owner) : UNKNOWN_ADDRESS;
            d.success = t.success;
            d.implementation = 'liquidTF';
        },
        singleChild: {
            checks: [isTx, hasOp(OP_TONSTAKERS_DISTRIBUTED_ASSET)],
            build: (d, b) => {
                const t = tx(b);
                if (d.staker === UNKNOWN_ADDRESS) d.staker = t.account;
                d.amount = t.inputAmount;
                d.success &&= t.success;
            },
        },
    },
};
