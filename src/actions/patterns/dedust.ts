import type { Cell, Slice } from '@ton/core';
import { tryLoad } from '../../ton/bodies/index.ts';
import type { Asset, JettonSwapDraft } from '../action.ts';
import { actionOf, type Bubble } from '../bubble.ts';
import { anyOf, hasInterface, hasOp, isAction, isTx, txWhere } from '../checks.ts';
import { OP } from '../protocol-ops.ts';
import type { Pattern, Straw } from '../straw.ts';
import { newSwap, transferWithPayload } from './swap-helpers.ts';
import { tx } from './tx.ts';

/** DeDust swaps: a vault takes the input, a pool swaps (and logs it), the output vault pays out. */

/** native$0000 | jetton$0001 workchain_id:int8 address:uint256 | extra_currency$0010 currency_id:int32 */
function loadAsset(s: Slice): Asset | undefined {
    const tag = s.loadUint(4);
    if (tag === 0) return { kind: 'native', amount: 0n };
    if (tag === 1) {
        const workchain = s.loadInt(8);
        const hash = s.loadUintBig(256).toString(16).padStart(64, '0');
        return { kind: 'jetton', master: `${workchain}:${hash}`, amount: 0n };
    }
    return undefined;
}

/** swap#9c610de3 asset_in:Asset asset_out:Asset amount_in:Coins amount_out:Coins … (a pool's ext-out event) */
export function loadSwapEvent(body: Cell): { in: Asset; out: Asset } | null {
    return tryLoad((s) => {
        if (s.loadUint(32) !== OP.dedustSwapEvent) return null;
        const assetIn = loadAsset(s);
        const assetOut = loadAsset(s);
        if (!assetIn || !assetOut) return null;
        const amountIn = s.loadCoins();
        const amountOut = s.loadCoins();
        return { in: { ...assetIn, amount: amountIn }, out: { ...assetOut, amount: amountOut } };
    }, body);
}

function swapEventOf(b: Bubble) {
    for (const body of tx(b).externalOut) {
        const event = loadSwapEvent(body);
        if (event) return event;
    }
    return null;
}

const payout: Straw<JettonSwapDraft> = {
    checks: [isTx, hasOp(OP.dedustPayoutFromPool), hasInterface('dedust_vault')],
    build: (d, b) => {
        d.success &&= tx(b).success;
    },
    singleChild: {
        checks: [anyOf([isAction('JettonTransfer')], [isTx, hasOp(OP.dedustPayout)])],
        build: (d, b) => {
            const transfer = actionOf(b, 'JettonTransfer');
            const recipient = transfer ? transfer.recipient : tx(b).account;
            d.success &&= recipient === d.userWallet && (transfer ? transfer.success : tx(b).success);
        },
    },
};

const pool: Straw<JettonSwapDraft> = {
    checks: [isTx, hasInterface('dedust_pool'), txWhere((_, b) => swapEventOf(b) !== null)],
    build: (d, b) => {
        const event = swapEventOf(b)!;
        d.in = event.in;
        d.out = event.out;
        d.success &&= tx(b).success;
    },
    singleChild: payout,
};

export const DedustSwapFromNative: Pattern<JettonSwapDraft> = {
    name: 'DedustSwapFromNative',
    create: newSwap('dedust'),
    root: {
        checks: [isTx, hasOp(OP.dedustNativeSwap), hasInterface('dedust_vault')],
        build: (d, b) => {
            const t = tx(b);
            d.userWallet = t.inputFrom!;
            d.router = t.account;
            d.success = t.success;
        },
        singleChild: pool,
    },
};

export const DedustSwapFromJetton: Pattern<JettonSwapDraft> = {
    name: 'DedustSwapFromJetton',
    create: newSwap('dedust'),
    root: {
        checks: [isAction('JettonTransfer'), transferWithPayload(OP.dedustJettonSwap)],
        build: (d, b) => {
            const transfer = actionOf(b, 'JettonTransfer')!;
            d.userWallet = transfer.sender ?? d.userWallet;
            d.router = transfer.recipient ?? d.router;
            d.success = transfer.success;
        },
        singleChild: pool,
    },
};
