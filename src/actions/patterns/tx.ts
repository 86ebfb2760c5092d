import { txOf, type Bubble, type BubbleTx } from '../bubble.ts';

/** The transaction of a bubble a pattern's checks already proved to be one. */
export function tx(b: Bubble): BubbleTx {
    const t = txOf(b);
    if (!t) throw new Error('pattern builder reached a non-transaction bubble');
    return t;
}
