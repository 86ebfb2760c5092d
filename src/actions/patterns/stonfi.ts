import type { Cell } from '@ton/core';
import { formatRawAddress } from '../../ton/address.ts';
import { OP_EXCESS, loadMsgAddress, tryLoad } from '../../ton/bodies/index.ts';
import type { JettonSwapDraft } from '../action.ts';
import { actionOf } from '../bubble.ts';
import { hasInterface, hasOp, isAction, isTx } from '../checks.ts';
import { OP } from '../protocol-ops.ts';
import type { Check, Pattern, Straw } from '../straw.ts';
import { finishWithTransfer, newSwap, startFromTransfer, transferWithPayload } from './swap-helpers.ts';
import { tx } from './tx.ts';

/** STON.fi DEX swaps, v1 and v2: jettons to the router, the pool, pay_to from the pool to the router, jettons out. */

/** swap#25938561 token_wallet:MsgAddress min_out:Coins to_address:MsgAddress … (v1 forward payload) */
function v1SwapRecipient(payload: Cell | null | undefined): string | undefined {
    if (!payload) return undefined;
    return tryLoad((s) => {
        s.skip(32);
        loadMsgAddress(s);
        s.loadCoins();
        const to = loadMsgAddress(s);
        return to ? formatRawAddress(to) : undefined;
    }, payload) ?? undefined;
}

/** pay_to (v1 #f93bb43f, v2 #657b54f5) … exit_code:uint32: the swap's outcome. */
function payToExitCode(body: Cell | null, addressesBefore: number): number | undefined {
    if (!body) return undefined;
    return tryLoad((s) => {
        s.skip(32 + 64);
        for (let i = 0; i < addressesBefore; i++) loadMsgAddress(s);
        return s.loadUint(32);
    }, body) ?? undefined;
}

const v1ToSender: Check = (b) => {
    const transfer = actionOf(b, 'JettonTransfer');
    return transfer !== undefined && transfer.sender !== undefined && v1SwapRecipient(transfer.payload) === transfer.sender;
};

export const StonfiSwapV1: Pattern<JettonSwapDraft> = {
    name: 'StonfiSwap',
    create: newSwap('stonfi'),
    root: {
        checks: [isAction('JettonTransfer'), transferWithPayload(OP.stonfiSwap), v1ToSender],
        build: startFromTransfer,
        singleChild: {
            checks: [isTx, hasOp(OP.stonfiSwap), hasInterface('stonfi_pool')],
            build: (d, b) => {
                d.success &&= tx(b).success;
            },
            singleChild: {
                checks: [isTx, hasOp(OP.stonfiPaymentRequest)],
                build: (d, b) => {
                    const t = tx(b);
                    d.router = t.account;
                    d.success &&= t.success && payToExitCode(t.body, 1) === OP.stonfiSwapOk;
                },
                singleChild: { checks: [isAction('JettonTransfer')], build: finishWithTransfer },
            },
        },
    },
};

/** The referral branch of a v2 swap: pay_vault#63381632 to the router → deposit_ref_fee#0490f09b on the vault → excess. */
const referralFee: Straw<JettonSwapDraft> = {
    checks: [isTx, hasOp(OP.stonfiPayVaultV2)],
    optional: true,
    singleChild: {
        checks: [isTx, hasOp(OP.stonfiDepositRefFeeV2)],
        optional: true,
        children: [{ checks: [isTx, hasOp(OP_EXCESS)], optional: true }],
    },
};

export const StonfiSwapV2: Pattern<JettonSwapDraft> = {
    name: 'StonfiSwapV2',
    create: newSwap('stonfi'),
    root: {
        checks: [isAction('JettonTransfer'), transferWithPayload(OP.stonfiSwapV2)],
        build: startFromTransfer,
        singleChild: {
            checks: [isTx, hasOp(OP.stonfiSwapV2), hasInterface('stonfi_pool_v2')],
            build: (d, b) => {
                d.success &&= tx(b).success;
            },
            children: [
                {
                    checks: [isTx, hasOp(OP.stonfiPayToV2)],
                    build: (d, b) => {
                        const t = tx(b);
                        d.router = t.account;
                        d.success &&= t.success && payToExitCode(t.body, 3) === OP.stonfiSwapOk;
                    },
                    children: [
                        { checks: [isAction('JettonTransfer')], build: finishWithTransfer },
                        { checks: [isTx, hasOp(OP_EXCESS)], optional: true },
                    ],
                },
                referralFee,
            ],
        },
    },
};
