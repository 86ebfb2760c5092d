import type { Address, Cell } from '@ton/core';
import { formatRawAddress } from '../../ton/address.ts';
import { interfacesByAddress } from '../../ton/interfaces/mainnet-contracts.ts';
import { peekOp } from '../../ton/bodies/index.ts';
import type { Asset, JettonSwapDraft, JettonTransferDraft } from '../action.ts';
import { actionOf, type Bubble, type EngineContext } from '../bubble.ts';
import { accountImplements } from '../checks.ts';
import { UNKNOWN_ADDRESS, masterOfWallet } from '../facts.ts';
import type { Check } from '../straw.ts';

export function newSwap(dex: string): () => JettonSwapDraft {
    return () => ({
        type: 'JettonSwap', success: false, dex, userWallet: UNKNOWN_ADDRESS, router: UNKNOWN_ADDRESS,
        in: { kind: 'native', amount: 0n }, out: { kind: 'native', amount: 0n },
    });
}

export function payloadOp(payload: Cell | null | undefined): number | undefined {
    return payload ? peekOp(payload) : undefined;
}

/** A jetton transfer bubble whose forward payload starts with `op`. */
export function transferWithPayload(op: number) {
    return (b: Bubble) => payloadOp(actionOf(b, 'JettonTransfer')?.payload) === op;
}

export function jettonAsset(master: string | undefined, amount: bigint): Asset {
    return { kind: 'jetton', master: master ?? UNKNOWN_ADDRESS, amount };
}

/** What a transfer moves: nanograms for a wrapped-native (pTON) one, else the jetton. */
export function transferAsset(transfer: JettonTransferDraft): Asset {
    return transfer.wrappedNative ? { kind: 'native', amount: transfer.amount } : jettonAsset(transfer.master, transfer.amount);
}

export function sameAsset(a: Asset, b: Asset): boolean {
    return a.kind === b.kind && (a.kind === 'native' || (b.kind === 'jetton' && a.master === b.master));
}

/** The user's transfer into the DEX: who swaps what. */
export function startFromTransfer(d: JettonSwapDraft, b: Bubble): void {
    const transfer = actionOf(b, 'JettonTransfer')!;
    d.userWallet = transfer.sender ?? d.userWallet;
    d.in = transferAsset(transfer);
    d.success = transfer.success;
}

/**
 * The DEX's transfer out: what the swap gave, to the user or to the receiver the user named (an
 * aggregator that swaps it on). A refund (the input asset back) is no swap.
 */
export function finishWithTransfer(d: JettonSwapDraft, b: Bubble): void {
    const transfer = actionOf(b, 'JettonTransfer')!;
    d.out = transferAsset(transfer);
    d.success &&= transfer.success && !sameAsset(d.in, d.out);
}

/**
 * The token a swap asks for, named by the DEX router's wallet of it (swap payloads name that
 * wallet), at the least accepted: grams when that wallet is a pTON wallet.
 */
export function askedAsset(routerWallet: Address | null | undefined, minOut: bigint, ctx: EngineContext): Asset | undefined {
    if (!routerWallet) return undefined;
    const master = masterOfWallet(ctx.facts, formatRawAddress(routerWallet));
    if (master !== undefined && interfacesByAddress(master).includes('pton_minter')) return { kind: 'native', amount: minOut };
    return jettonAsset(master, minOut);
}

/** A jetton transfer bubble whose recipient (as the trace's nodes show it) implements the interface. */
export function transferTo(name: string): Check {
    return (b, ctx) => accountImplements(ctx, actionOf(b, 'JettonTransfer')?.recipient, name);
}
