import type { Cell } from '@ton/core';
import { peekOp } from '../../ton/bodies/index.ts';
import type { Asset, JettonSwapDraft } from '../action.ts';
import { actionOf, type Bubble } from '../bubble.ts';
import { UNKNOWN_ADDRESS } from '../facts.ts';

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
