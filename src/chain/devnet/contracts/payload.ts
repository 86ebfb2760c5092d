import { Builder, Cell } from '@ton/core';
import { snakeCell } from './metadata.ts';

/**
 * A forward payload for jetton and NFT transfers (`forward_payload:(Either Cell ^Cell)`):
 * the payload cell and whether to put it inline (`left$0`, its bits and refs right after the flag)
 * or, by default, in a reference (`right$1`). `null` stores an empty inline payload.
 */
export interface ForwardPayload {
    cell: Cell;
    inline?: boolean;
}

/** A text comment: op 0x00000000 then the UTF-8 text as snake data. */
export function commentCell(text: string): Cell {
    return snakeCell(text, Buffer.from([0, 0, 0, 0]));
}

export function commentPayload(text: string, inline = false): ForwardPayload {
    return { cell: commentCell(text), inline };
}

/** Stores `forward_payload:(Either Cell ^Cell)` as the last field of a body. */
export function storeForwardPayload(b: Builder, payload: ForwardPayload | Cell | null | undefined): Builder {
    if (!payload) return b.storeBit(0);
    const { cell, inline } = payload instanceof Cell ? { cell: payload, inline: false } : payload;
    if (inline) {
        if (b.availableBits < 1 + cell.bits.length || b.availableRefs < cell.refs.length) {
            throw new Error('forward payload does not fit inline; store it as a reference');
        }
        return b.storeBit(0).storeSlice(cell.beginParse());
    }
    if (b.availableRefs < 1) throw new Error('no room left for the forward payload reference');
    return b.storeBit(1).storeRef(cell);
}

export function storeQueryId(b: Builder, queryId: bigint | number | undefined): Builder {
    return b.storeUint(queryId ?? 0, 64);
}
