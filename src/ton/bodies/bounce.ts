import { Cell, Slice } from '@ton/core';
import { expectOp } from './common.ts';

/**
 * Bounced message body: 0xffffffff followed by (at most) the first 256 bits of the original body.
 * (TonAPI/tongo name: `bounce`, with the rest as `payload`.)
 */
export const OP_BOUNCE = 0xffffffff;

export interface Bounce {
    /** everything after the 0xffffffff prefix, as a cell */
    payload: Cell;
    /** op of the bounced original body, when at least 32 bits of it are there */
    originalOpCode?: number;
    /** query_id of the bounced original body (the 64 bits after its op), when present */
    originalQueryId?: bigint;
}

export function loadBounce(s: Slice): Bounce {
    expectOp(s, OP_BOUNCE);
    const payload = s.asCell();
    const out: Bounce = { payload };
    if (s.remainingBits >= 32) {
        out.originalOpCode = s.preloadUint(32);
        if (s.remainingBits >= 96) out.originalQueryId = s.clone().skip(32).loadUintBig(64);
    }
    return out;
}
