/**
 * Why an emulation did not produce a result. The API maps each kind to its status code; the
 * emulation layer itself knows nothing of HTTP.
 */
export type EmulationFailureKind =
    /** The request is malformed or names something that cannot be emulated (400). */
    | 'invalid_input'
    /** The destination did not accept the message in the first transaction (406). */
    | 'rejected'
    /** The signing wallet cannot pay for what it sends (409, error_code 50000). */
    | 'insufficient_funds'
    /** More transactions than the limit (413). */
    | 'too_many_transactions'
    /** The wall-clock budget ran out (504). */
    | 'timeout'
    /** The chain state emulation needs is not indexed yet (503). */
    | 'unavailable';

export class EmulationFailure extends Error {
    override readonly name = 'EmulationFailure';

    constructor(
        readonly kind: EmulationFailureKind,
        message: string,
        readonly details?: Record<string, unknown>,
        /** For a rejection: which transaction of the trace (1 = the root message's) could not be made. */
        readonly transaction?: number,
    ) {
        super(message);
    }
}
