/**
 * Hand-built lite query bytes, for tests that send what ton-lite-client never would.
 */
import { Codecs, type liteServer_error } from 'ton-lite-client/dist/schema.js';
import { TLReadBuffer, type TLFunction, TLWriteBuffer } from 'ton-tl';
import { tlBytes } from '../../src/liteserver/tl/tl-reader.ts';

const hex = (h: string) => Buffer.from(h, 'hex');
export const LITE_QUERY = hex('df068c79');
export const LITE_QUERY_PREFIX = hex('86e6d372');
const WAIT_MASTERCHAIN_SEQNO = hex('92b8eaba');
const ADNL_MESSAGE_QUERY = hex('7af98bb4');
const ADNL_MESSAGE_ANSWER = hex('1684ac0f');

export function encodeCall<Req>(fn: TLFunction<Req, unknown>, req: Req): Buffer {
    const writer = new TLWriteBuffer();
    fn.encodeRequest(req, writer);
    return writer.build();
}

export function waitPrefix(seqno: number, timeoutMs: number): Buffer {
    const out = Buffer.alloc(12);
    WAIT_MASTERCHAIN_SEQNO.copy(out, 0);
    out.writeInt32LE(seqno, 4);
    out.writeInt32LE(timeoutMs, 8);
    return out;
}

export function liteQuery(data: Buffer): Buffer {
    return Buffer.concat([LITE_QUERY, tlBytes(data)]);
}

export function adnlQuery(queryId: Buffer, query: Buffer): Buffer {
    return Buffer.concat([ADNL_MESSAGE_QUERY, queryId, tlBytes(query)]);
}

export function parseAdnlAnswer(payload: Buffer): { queryId: Buffer; answer: Buffer } {
    if (!payload.subarray(0, 4).equals(ADNL_MESSAGE_ANSWER)) throw new Error('not an adnl.message.answer');
    const reader = new TLReadBuffer(payload.subarray(36));
    return { queryId: payload.subarray(4, 36), answer: reader.readBuffer() };
}

/** The liteServer.error in `answer`, or undefined when it is not one. */
export function liteError(answer: Buffer): liteServer_error | undefined {
    if (answer.readInt32LE(0) !== -1146494648) return undefined;
    return Codecs.liteServer_Error.decode(new TLReadBuffer(Buffer.from(answer)));
}
