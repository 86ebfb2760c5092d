/**
 * Turns the bytes of one lite query into the bytes of its answer: unwraps the envelope, honours a
 * waitMasterchainSeqno prefix, finds the function by constructor id, runs the method from the
 * table and encodes its result. Every failure becomes a `liteServer.error` answer; the returned
 * promise never rejects.
 */
import { ANSWER_OVERHEAD } from './adnl/adnl-messages.ts';
import type { AdnlQueryHandler } from './adnl/adnl-server.ts';
import { MAX_FRAME_PAYLOAD } from './adnl/frames.ts';
import { encodeLiteError, LiteErrorCode, LiteServerError } from './lite-errors.ts';
import { liteFunctionById, type LiteFunction, type LiteMethodTable } from './lite-functions.ts';
import { parseLiteQuery, type LiteCall } from './lite-query.ts';

/** TON's liteserver waits at most this long for a prefixed masterchain seqno, whatever the client asks. */
export const MAX_WAIT_MASTERCHAIN_SEQNO_MS = 10_000;
const MAX_ANSWER_LENGTH = MAX_FRAME_PAYLOAD - ANSWER_OVERHEAD;

/** Lite functions that exist in lite_api.tl but that this server cannot decode, for a clearer error. */
const UNSUPPORTED_FUNCTIONS = new Map<number, string>([
    [0x9c045ff8 | 0, 'lookupBlockWithProof'],
    [0xd97693bd | 0, 'getLibrariesWithProof'],
    [0x7bc19c36 | 0, 'getOutMsgQueueSizes'],
    [0x8f6c7779 | 0, 'getBlockOutMsgQueueSize'],
    [0xa59915e3 | 0, 'nonfinal.getValidatorGroups'],
    [0x300794de | 0, 'nonfinal.getCandidate'],
]);

export interface LiteDispatcherOptions {
    methods: LiteMethodTable;
    /**
     * Resolves true once the masterchain block `seqno` is known, false when `timeoutMs` (already
     * capped at 10 s) runs out first. May throw LiteServerError (e.g. 651 for a seqno too far ahead).
     */
    waitForMasterchainSeqno: (seqno: number, timeoutMs: number) => Promise<boolean>;
    /** Told about failures that are the server's fault (a method throwing a non-LiteServerError, a malformed result). */
    onError?: (err: unknown, method: string) => void;
}

export function createLiteDispatcher(options: LiteDispatcherOptions): AdnlQueryHandler {
    const reportError = options.onError ?? (() => {});
    return async (query) => {
        let call: LiteCall;
        try {
            call = parseLiteQuery(query);
        } catch {
            return encodeLiteError(LiteErrorCode.protoviolation, 'cannot parse lite query');
        }
        const fn = liteFunctionById(call.functionId);
        if (!fn) {
            const known = UNSUPPORTED_FUNCTIONS.get(call.functionId);
            return encodeLiteError(LiteErrorCode.protoviolation, known ? `not served: liteServer.${known}` : 'unknown query');
        }
        try {
            return await runCall(fn, call, options);
        } catch (err) {
            return errorAnswer(err, fn.name, reportError);
        }
    };
}

async function runCall(fn: LiteFunction, call: LiteCall, options: LiteDispatcherOptions): Promise<Buffer> {
    // Correlating a function with its table entry needs this one erasure; LITE_FUNCTIONS is keyed so that they match.
    const method = options.methods[fn.name] as ((args: unknown) => Promise<unknown>) | undefined;
    if (!method) throw new LiteServerError(LiteErrorCode.protoviolation, `not served: liteServer.${fn.name}`);
    let args: unknown;
    try {
        args = fn.decodeArgs(call.args);
    } catch (err) {
        throw new LiteServerError(LiteErrorCode.protoviolation, `cannot parse liteServer.${fn.name}: ${(err as Error).message}`);
    }
    if (call.waitMasterchainSeqno) await waitForSeqno(call.waitMasterchainSeqno, options.waitForMasterchainSeqno);
    const result = await method(args);
    let answer: Buffer;
    try {
        answer = fn.encodeResult(result as never);
    } catch (err) {
        throw new MalformedResultError(`liteServer.${fn.name} returned a malformed result: ${(err as Error).message}`);
    }
    if (answer.length > MAX_ANSWER_LENGTH) {
        throw new LiteServerError(LiteErrorCode.error, `answer too large (${answer.length} bytes)`);
    }
    return answer;
}

async function waitForSeqno(
    wait: { seqno: number; timeoutMs: number },
    waitForMasterchainSeqno: LiteDispatcherOptions['waitForMasterchainSeqno'],
): Promise<void> {
    const timeoutMs = Math.min(Math.max(wait.timeoutMs, 0), MAX_WAIT_MASTERCHAIN_SEQNO_MS);
    let timer: NodeJS.Timeout | undefined;
    const timedOut = new Promise<boolean>((resolve) => {
        timer = setTimeout(() => resolve(false), timeoutMs);
    });
    try {
        const reached = await Promise.race([waitForMasterchainSeqno(wait.seqno, timeoutMs), timedOut]);
        if (!reached) throw new LiteServerError(LiteErrorCode.timeout, 'timeout');
    } finally {
        clearTimeout(timer);
    }
}

class MalformedResultError extends Error {}

function errorAnswer(err: unknown, method: string, reportError: (err: unknown, method: string) => void): Buffer {
    if (err instanceof LiteServerError) return encodeLiteError(err.code, err.message);
    reportError(err, method);
    if (err instanceof MalformedResultError) return encodeLiteError(LiteErrorCode.failure, 'internal error');
    if (err instanceof Error) return encodeLiteError(LiteErrorCode.error, err.message || 'error');
    return encodeLiteError(LiteErrorCode.failure, 'failure');
}
