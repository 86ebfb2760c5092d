import type { Cell } from '@ton/core';

/** Accepts external messages for the chain (the devnet executes them; a liteserver follower would relay them). */
export interface MessageSink {
    /**
     * Resolves once the chain has accepted the message; rejects with a `MessageRejectedError` otherwise.
     * `traceId` is given where the transaction it started is known by then (the devnet answers once it
     * is indexed; a liteserver only accepts the message for a later block).
     */
    sendExternalMessage(message: Cell): Promise<{ messageHash: string; traceId?: string }>;
}

/** The chain refused a message (e.g. the wallet threw on a bad signature or seqno). */
export class MessageRejectedError extends Error {
    override readonly name = 'MessageRejectedError';
}
