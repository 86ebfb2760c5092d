/**
 * The errors of our liteserver client (adnl/adnl-client.ts, lite-client.ts). Every failure a query
 * can meet is one of these, so a pool can tell "this server is down or broken" (LiteTransportError),
 * "this query took too long" (LiteTimeoutError) and "the server answered liteServer.error"
 * (LiteServerAnswerError, with its code) apart.
 */

export class LiteClientError extends Error {
    override name = 'LiteClientError';
}

/**
 * Why a connection could not be used:
 * - `connect-failed`: TCP connect failed (refused, unreachable, DNS);
 * - `connect-timeout`: no TCP connection or no handshake reply within the connect timeout;
 * - `handshake`: the server's first frame was not the empty "accepted" frame, or its key is unusable;
 * - `protocol`: the server sent bytes we cannot accept (bad frame length, bad checksum, an
 *   undecodable or unexpected ADNL message);
 * - `ping-timeout`: nothing came back for a while, not even a tcp.pong;
 * - `closed`: the connection ended (by the server, the network, or our `close()`);
 * - `not-connected`: no connection and the client is not allowed to open one;
 * - `bad-answer`: an answer arrived for the query but does not decode as its result type
 *   (LiteDecodeError; only that query fails, the connection stays open);
 * - `too-large`: the query does not fit in one ADNL frame (nothing was sent).
 */
export type LiteTransportReason =
    | 'connect-failed'
    | 'connect-timeout'
    | 'handshake'
    | 'protocol'
    | 'ping-timeout'
    | 'closed'
    | 'not-connected'
    | 'bad-answer'
    | 'too-large';

export class LiteTransportError extends LiteClientError {
    override name = 'LiteTransportError';

    constructor(
        readonly reason: LiteTransportReason,
        message: string,
        options?: { cause?: unknown },
    ) {
        super(message, options);
    }
}

/** An answer that is not a well-formed object of the type the function returns (truncated, garbage, trailing bytes). */
export class LiteDecodeError extends LiteTransportError {
    override name = 'LiteDecodeError';

    constructor(message: string, options?: { cause?: unknown }) {
        super('bad-answer', message, options);
    }
}

/** The query got no answer within its timeout. The connection itself may be fine. */
export class LiteTimeoutError extends LiteClientError {
    override name = 'LiteTimeoutError';

    constructor(
        readonly timeoutMs: number,
        message = `lite query timed out after ${timeoutMs} ms`,
    ) {
        super(message);
    }
}

/**
 * The server answered `liteServer.error code:int message:string`. Codes are TON's: 651 not ready,
 * 652 timeout, 621 protoviolation, 602 error, … (see lite-errors.ts).
 */
export class LiteServerAnswerError extends LiteClientError {
    override name = 'LiteServerAnswerError';

    constructor(
        readonly code: number,
        readonly serverMessage: string,
    ) {
        super(`liteServer.error ${code}: ${serverMessage}`);
    }
}
