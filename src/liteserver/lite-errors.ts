/**
 * `liteServer.error code:int message:string`, the answer to any query that fails. Codes are TON's
 * (common/errorcode.h); ton-lite-client only shows the message, as `new Error(message)`.
 */
import { Codecs } from 'ton-lite-client/dist/schema.js';
import { FastTlWriteBuffer } from './tl/fast-write-buffer.ts';

export const LiteErrorCode = {
    failure: 601,
    error: 602,
    warning: 603,
    protoviolation: 621,
    notReady: 651,
    timeout: 652,
    cancelled: 653,
} as const;

/** Throw this from a lite method to answer with a specific code; any other Error answers 602 with its message. */
export class LiteServerError extends Error {
    constructor(
        readonly code: number,
        message: string,
    ) {
        super(message);
        this.name = 'LiteServerError';
    }
}

export function encodeLiteError(code: number, message: string): Buffer {
    const writer = new FastTlWriteBuffer();
    Codecs.liteServer_Error.encode({ kind: 'liteServer.error', code, message }, writer);
    return writer.build();
}
