/**
 * The TL messages carried in ADNL TCP frames between a liteserver and its clients.
 */
import { constructorId, int32LE, tlBytes, TlDecodeError, TlReader } from '../tl/tl-reader.ts';

const TCP_PING = constructorId('4d082b9a');
const TCP_PONG = constructorId('dc69fb03');
const ADNL_MESSAGE_QUERY = constructorId('b48bf97a');
const ADNL_MESSAGE_ANSWER = constructorId('0fac8416');

export type InboundMessage =
    | { kind: 'keepalive' }
    | { kind: 'ping'; randomId: Buffer }
    | { kind: 'query'; queryId: Buffer; query: Buffer };

/** Throws TlDecodeError for anything that is not one of the messages a client may send. */
export function parseInboundMessage(payload: Buffer): InboundMessage {
    if (payload.length === 0) return { kind: 'keepalive' };
    const reader = new TlReader(payload);
    const id = reader.int32();
    if (id === TCP_PING && payload.length === 12) return { kind: 'ping', randomId: reader.rest() };
    if (id === ADNL_MESSAGE_QUERY) {
        const queryId = reader.int256();
        const query = reader.bytes();
        reader.expectEnd();
        return { kind: 'query', queryId, query };
    }
    throw new TlDecodeError(`unexpected ADNL message 0x${(id >>> 0).toString(16).padStart(8, '0')}`);
}

export function encodePong(randomId: Buffer): Buffer {
    return Buffer.concat([int32LE(TCP_PONG), randomId]);
}

export function encodeAnswer(queryId: Buffer, answer: Buffer): Buffer {
    return Buffer.concat([int32LE(ADNL_MESSAGE_ANSWER), queryId, tlBytes(answer)]);
}

/** Bytes an answer adds around the handler's result: constructor id, query id, the longest bytes header and padding. */
export const ANSWER_OVERHEAD = 4 + 32 + 4 + 3;

/** What a server may send a client: keepalives, pongs and answers. */
export type ServerMessage =
    | { kind: 'keepalive' }
    | { kind: 'pong'; randomId: Buffer }
    | { kind: 'answer'; queryId: Buffer; answer: Buffer };

/** The client side's parser. Throws TlDecodeError for anything else, or for trailing bytes. */
export function parseServerMessage(payload: Buffer): ServerMessage {
    if (payload.length === 0) return { kind: 'keepalive' };
    const reader = new TlReader(payload);
    const id = reader.int32();
    if (id === TCP_PONG) {
        if (payload.length !== 12) throw new TlDecodeError(`tcp.pong of ${payload.length} bytes`);
        return { kind: 'pong', randomId: reader.rest() };
    }
    if (id === ADNL_MESSAGE_ANSWER) {
        const queryId = reader.int256();
        const answer = reader.bytes();
        reader.expectEnd();
        return { kind: 'answer', queryId, answer };
    }
    throw new TlDecodeError(`unexpected ADNL message 0x${(id >>> 0).toString(16).padStart(8, '0')}`);
}

/** `tcp.ping random_id:long`; `randomId` is 8 bytes. */
export function encodePing(randomId: Buffer): Buffer {
    return Buffer.concat([int32LE(TCP_PING), randomId]);
}

export function encodeQuery(queryId: Buffer, query: Buffer): Buffer {
    return Buffer.concat([int32LE(ADNL_MESSAGE_QUERY), queryId, tlBytes(query)]);
}

/** Bytes a query adds around the lite query: constructor id, query id, the longest bytes header and padding. */
export const QUERY_OVERHEAD = 4 + 32 + 4 + 3;
