import { ApiError } from '../api/errors.ts';
import { MessageRejectedError } from '../chain/message-sink.ts';
import { EmulationFailure, type EmulationFailureKind } from '../emulation/errors.ts';
import { RoundRewardsError, type RoundRewardsErrorKind } from '../rewards/service.ts';
import { InputFormatError } from '../ton/input.ts';

/**
 * Messages between the primary (chain writer) and the API workers, over node:cluster's IPC channel
 * with `serialization: 'advanced'` (BigInt, Buffer and Map arrive as sent). Every message carries
 * `ne` so that cluster's own internal messages on the same channel are told apart.
 */
export type ClusterMessage =
    | { ne: 'request'; id: number; method: string; args: unknown[] }
    | { ne: 'response'; id: number; value?: unknown; error?: SerializedError }
    | { ne: 'listening'; url: string }
    | { ne: 'failed'; error: SerializedError }
    | { ne: 'shutdown' };

/** The port the primary tells its workers to listen on (it picks one when `--port` is 0). */
export const WORKER_PORT_ENV = 'NATIVE_EXPLORER_WORKER_PORT';

export function isClusterMessage(message: unknown): message is ClusterMessage {
    return typeof message === 'object' && message !== null && typeof (message as { ne?: unknown }).ne === 'string';
}

/** What worker requests the primary answers (the writer's parts of `ApiServices`, and the metrics scrape). */
export const WRITER_METHODS = [
    'chain.head', 'chain.rate',
    'messages.send',
    'devnet.manifest', 'devnet.globalConfig', 'devnet.send', 'devnet.faucet',
    'rewards.round',
    'fallback.account', 'fallback.libraries',
    'metrics.cluster',
] as const;
export type WriterMethod = (typeof WRITER_METHODS)[number];

/** An error as it crosses the channel: its class (where the API answers it by class), message and the fields its answer uses. */
export interface SerializedError {
    name: string;
    message: string;
    kind?: string;
    statusCode?: number;
    errorCode?: number;
    details?: Record<string, unknown>;
    code?: string;
}

export function serializeError(error: unknown): SerializedError {
    if (!(error instanceof Error)) return { name: 'Error', message: String(error) };
    const fields = error as Error & { kind?: unknown; statusCode?: unknown; errorCode?: unknown; details?: unknown; code?: unknown };
    return {
        name: error.name,
        message: error.message,
        kind: typeof fields.kind === 'string' ? fields.kind : undefined,
        statusCode: typeof fields.statusCode === 'number' ? fields.statusCode : undefined,
        errorCode: typeof fields.errorCode === 'number' ? fields.errorCode : undefined,
        details: typeof fields.details === 'object' && fields.details !== null ? fields.details as Record<string, unknown> : undefined,
        code: typeof fields.code === 'string' ? fields.code : undefined,
    };
}

/** The error again, of the class the API's error handling and routes recognise, so its answer is the single process's. */
export function deserializeError(error: SerializedError): Error {
    switch (error.name) {
        case 'MessageRejectedError':
            return new MessageRejectedError(error.message);
        case 'InputFormatError':
            return new InputFormatError(error.message);
        case 'EmulationFailure':
            return new EmulationFailure(error.kind as EmulationFailureKind, error.message, error.details);
        case 'RoundRewardsError':
            return new RoundRewardsError(error.kind as RoundRewardsErrorKind, error.message);
        case 'ApiError':
            return new ApiError(error.statusCode ?? 500, error.message, error.errorCode, error.details);
    }
    // Others keep name and code: the store's unavailability (a 503) is recognised by code.
    return Object.assign(new Error(error.message), { name: error.name, ...(error.code ? { code: error.code } : {}) });
}
