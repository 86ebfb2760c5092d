/**
 * The envelope of a lite query (TON validator/manager.cpp run_ext_query): `liteServer.query
 * {data:bytes}`, or a bare `liteServer.queryPrefix` followed by the call; inside, an optional
 * `liteServer.waitMasterchainSeqno` prefix, then the boxed function call.
 */
import { constructorId, TlDecodeError, TlReader } from './tl/tl-reader.ts';

const LITE_QUERY = constructorId('798c06df');
const LITE_QUERY_PREFIX = constructorId('72d3e686');
const WAIT_MASTERCHAIN_SEQNO = constructorId('baeab892');

export interface LiteCall {
    readonly waitMasterchainSeqno?: { readonly seqno: number; readonly timeoutMs: number };
    readonly functionId: number;
    /** The call's arguments: what follows its constructor id. */
    readonly args: Buffer;
}

/** Throws TlDecodeError when the bytes are not a lite query. */
export function parseLiteQuery(query: Buffer): LiteCall {
    const outer = new TlReader(query);
    const envelopeId = outer.int32();
    let call: TlReader;
    if (envelopeId === LITE_QUERY) {
        call = new TlReader(outer.bytes());
        outer.expectEnd();
    } else if (envelopeId === LITE_QUERY_PREFIX) {
        call = outer;
    } else {
        throw new TlDecodeError('not a liteServer.query');
    }
    let waitMasterchainSeqno: LiteCall['waitMasterchainSeqno'];
    if (call.peekInt32() === WAIT_MASTERCHAIN_SEQNO) {
        call.int32();
        waitMasterchainSeqno = { seqno: call.int32(), timeoutMs: call.int32() };
    }
    const functionId = call.int32();
    return { waitMasterchainSeqno, functionId, args: call.rest() };
}

