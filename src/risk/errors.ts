/**
 * Failures of the risk estimate, each with the status an HTTP caller answers it with. The API's
 * error hook answers the wallet ones; the currency ones never fail an emulation there, whose
 * currency is for display only (the answer then has no `total_equivalent`).
 */

/** The signing wallet's version has no body layout we can read messages from. */
export class UnsupportedWalletError extends Error {
    override readonly name = 'UnsupportedWalletError';
    readonly statusCode = 400;

    constructor(readonly version: string) {
        super(`risk estimate is not supported for wallet version ${version}; supported: wallet_v3r1, wallet_v3r2, wallet_v4r1, wallet_v4r2, wallet_v5r1, wallet_highload_v3`);
    }
}

/** The signed body does not follow the layout of the wallet version it was sent to. */
export class InvalidWalletBodyError extends Error {
    override readonly name = 'InvalidWalletBodyError';
    readonly statusCode = 400;

    constructor(readonly version: string, reason: string) {
        super(`the message body is not a valid ${version} request: ${reason}`);
    }
}

/** A `currency` the rates source has no rate for. */
export class UnknownCurrencyError extends Error {
    override readonly name = 'UnknownCurrencyError';
    readonly statusCode = 400;

    constructor(readonly currency: string, readonly supported: readonly string[]) {
        super(`unknown currency ${JSON.stringify(currency)}; supported: ${supported.join(', ')}`);
    }
}

/** The rates source is misconfigured, unreachable, too slow or serves a malformed table. */
export class RatesError extends Error {
    override readonly name = 'RatesError';
    readonly statusCode = 503;

    constructor(message: string, options?: { cause?: unknown }) {
        super(message, options);
    }
}
