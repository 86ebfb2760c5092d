import type { Cell, Slice } from '@ton/core';
import { formatRawAddress } from '../../ton/address.ts';
import { OP_EXCESS, loadMsgAddress, tryLoad } from '../../ton/bodies/index.ts';
import type { JettonSwapDraft } from '../action.ts';
import { actionOf, txOf, type BubbleTx, type EngineContext } from '../bubble.ts';
import { hasInterface, hasOp, isAction, isTx, txWhere } from '../checks.ts';
import { masterOfWallet } from '../facts.ts';
import { OP } from '../protocol-ops.ts';
import type { Check, Pattern, Straw } from '../straw.ts';
import { finishWithTransfer, jettonAsset, newSwap, startFromTransfer, transferAsset, transferWithPayload } from './swap-helpers.ts';
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

/** What a v2 swap message asks for: the router's wallet of the wanted token and the least acceptable amount. */
interface SwapRequest {
    tokenWallet: string | undefined;
    minOut: bigint;
}

/** …token_wallet1:MsgAddress refund_address:MsgAddress excesses_address:MsgAddress tx_deadline:uint64 ^[min_out:Coins …] */
function loadSwapRequest(s: Slice): SwapRequest {
    const wallet = loadMsgAddress(s);
    loadMsgAddress(s);
    loadMsgAddress(s);
    s.skip(64);
    const minOut = s.loadRef().beginParse().loadCoins();
    return { tokenWallet: wallet ? formatRawAddress(wallet) : undefined, minOut };
}

/** swap#6664de2a (jetton payload) token_wallet1 … cross_swap_body:^[min_out …] */
function payloadSwapRequest(payload: Cell | null | undefined): SwapRequest | null {
    if (!payload) return null;
    return tryLoad((s) => {
        s.skip(32);
        return loadSwapRequest(s);
    }, payload);
}

/** swap#6664de2a query_id from_user:MsgAddress left_amount:Coins right_amount:Coins dex_payload:^[transferred_op:uint32 token_wallet1 … swap_body:^[min_out …]] (router → pool) */
function poolSwapRequest(body: Cell | null): SwapRequest | null {
    if (!body) return null;
    return tryLoad((s) => {
        s.skip(32 + 64);
        loadMsgAddress(s);
        s.loadCoins();
        s.loadCoins();
        const dex = s.loadRef().beginParse();
        dex.skip(32);
        return loadSwapRequest(dex);
    }, body);
}

/** pay_to#657b54f5 query_id to_address:MsgAddress excesses_address original_caller exit_code:uint32 … */
function loadPayTo(body: Cell | null): { to: string | undefined; exitCode: number } | null {
    if (!body) return null;
    return tryLoad((s) => {
        s.skip(32 + 64);
        const to = loadMsgAddress(s);
        loadMsgAddress(s);
        loadMsgAddress(s);
        return { to: to ? formatRawAddress(to) : undefined, exitCode: s.loadUint(32) };
    }, body);
}

/**
 * pay_to … exit_code custom_payload:(Maybe ^Cell) additional_info:^[fwd_ton_amount:Coins amount0_out:Coins
 * token0_address:MsgAddress amount1_out:Coins token1_address:MsgAddress]: what the pool paid out, by the router's jetton wallet.
 */
function loadPaidOut(body: Cell | null): { wallet: string; amount: bigint } | null {
    if (!body) return null;
    return tryLoad((s) => {
        s.skip(32 + 64);
        for (let i = 0; i < 3; i++) loadMsgAddress(s);
        s.skip(32);
        s.loadMaybeRef();
        const info = s.loadRef().beginParse();
        info.loadCoins();
        const amount0 = info.loadCoins();
        const token0 = loadMsgAddress(info);
        const amount1 = info.loadCoins();
        const token1 = loadMsgAddress(info);
        const [amount, wallet] = amount0 !== 0n ? [amount0, token0] : [amount1, token1];
        return wallet ? { wallet: formatRawAddress(wallet), amount } : null;
    }, body);
}

const payToOk = (t: BubbleTx) => t.success && loadPayTo(t.body)?.exitCode === OP.stonfiSwapOk;
const payToFailed = (t: BubbleTx) => {
    const payTo = loadPayTo(t.body);
    return !t.success || (payTo !== null && payTo.exitCode !== OP.stonfiSwapOk);
};

/** The token a swap asked for, at its minimum: what a failed swap would have given. */
function wanted(d: JettonSwapDraft, request: SwapRequest | null, ctx: EngineContext): void {
    if (request) d.out = jettonAsset(masterOfWallet(ctx.facts, request.tokenWallet), request.minOut);
}

/*
 * v2 swaps may take several hops: the router's pay_to of one pool sends the swap on to the next
 * pool of the same router, or a jetton transfer with a swap payload to another router. Hops are
 * matched in two passes: first every hop whose pay_to failed (slippage, …) becomes a failed swap of
 * its own (the refund goes back to the user); then each user's transfer with the chain of hops
 * that succeeded becomes one swap, from the first token in to the last token out.
 */

/** A hop that failed: pool → pay_to with a refund exit code → the refund transfer. */
function failedHop(refund: 'optional' | 'required'): Straw<JettonSwapDraft> {
    return {
        checks: [isTx, hasOp(OP.stonfiSwapV2), hasInterface('stonfi_pool_v2')],
        build: (d) => {
            d.success = false;
        },
        children: [
            {
                checks: [isTx, hasOp(OP.stonfiPayToV2), txWhere(payToFailed)],
                build: (d, b) => {
                    const t = tx(b);
                    d.router = t.account;
                    d.userWallet = loadPayTo(t.body)?.to ?? d.userWallet;
                },
                children: [
                    {
                        checks: [isAction('JettonTransfer')],
                        optional: refund === 'optional',
                        build: (d, b) => {
                            const transfer = actionOf(b, 'JettonTransfer')!;
                            d.userWallet = transfer.recipient ?? d.userWallet;
                            if (refund === 'required') d.in = transferAsset(transfer);
                        },
                    },
                    { checks: [isTx, hasOp(OP_EXCESS)], optional: true },
                ],
            },
            referralFee,
        ],
    };
}

/** A failed hop started by a transfer (the user's, or one router's to the next). */
export const StonfiSwapV2FailedHop: Pattern<JettonSwapDraft> = {
    name: 'StonfiSwapV2FailedHop',
    create: newSwap('stonfi'),
    root: {
        checks: [isAction('JettonTransfer'), transferWithPayload(OP.stonfiSwapV2)],
        build: (d, b, ctx) => {
            const transfer = actionOf(b, 'JettonTransfer')!;
            d.userWallet = transfer.sender ?? d.userWallet;
            d.router = transfer.recipient ?? d.router;
            d.in = transferAsset(transfer);
            wanted(d, payloadSwapRequest(transfer.payload), ctx);
        },
        singleChild: failedHop('optional'),
    },
};

/** A failed later hop on the same router: its pool got the swap from the router's previous pay_to. */
export const StonfiSwapV2FailedPoolHop: Pattern<JettonSwapDraft> = {
    name: 'StonfiSwapV2FailedPoolHop',
    create: newSwap('stonfi'),
    root: {
        ...failedHop('required'),
        build: (d, b, ctx) => {
            d.success = false;
            wanted(d, poolSwapRequest(tx(b).body), ctx);
        },
    },
};

const hopChecks: Check[] = [isTx, hasOp(OP.stonfiSwapV2), hasInterface('stonfi_pool_v2')];

const payTo: Straw<JettonSwapDraft> = {
    checks: [isTx, hasOp(OP.stonfiPayToV2)],
    build: (d, b, ctx) => {
        const t = tx(b);
        d.router = t.account;
        d.success &&= payToOk(t);
        // What this hop paid: the output, unless a later hop or the final transfer says more.
        const paid = loadPaidOut(t.body);
        if (paid) d.out = jettonAsset(masterOfWallet(ctx.facts, paid.wallet), paid.amount);
    },
};

/** A pool swap of the chain. */
const hop: Straw<JettonSwapDraft> = {
    checks: hopChecks,
    build: (d, b) => {
        d.success &&= tx(b).success;
    },
    children: [payTo, referralFee],
};

/** The next pool on the same router, when its hop went through (a failed one is a swap of its own by now). */
const nextPool: Straw<JettonSwapDraft> = {
    ...hop,
    checks: [...hopChecks, (b) => b.children.some((c) => txOf(c)?.opCode === OP.stonfiPayToV2 && payToOk(txOf(c)!))],
    optional: true,
};

/** The output sent to another router with a swap payload: the chain goes on there. */
const nextRouter: Straw<JettonSwapDraft> = {
    checks: [isAction('JettonTransfer'), transferWithPayload(OP.stonfiSwapV2)],
    optional: true,
    singleChild: hop,
};

/** The output reaching the user. */
const finalOut: Straw<JettonSwapDraft> = {
    checks: [isAction('JettonTransfer'), (b) => !transferWithPayload(OP.stonfiSwapV2)(b)],
    optional: true,
    build: finishWithTransfer,
};

payTo.children = [nextPool, nextRouter, finalOut, { checks: [isTx, hasOp(OP_EXCESS)], optional: true }];

/** A user's transfer with a swap payload and the hops that went through. */
export const StonfiSwapV2: Pattern<JettonSwapDraft> = {
    name: 'StonfiSwapV2',
    create: newSwap('stonfi'),
    root: {
        checks: [isAction('JettonTransfer'), transferWithPayload(OP.stonfiSwapV2)],
        build: startFromTransfer,
        singleChild: hop,
    },
};
