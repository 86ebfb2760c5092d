import { randomUUID } from 'node:crypto';

export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

/** Levels a background line (indexer, devnet, liteserver, rates) is logged at. */
export type BackgroundLevel = 'error' | 'warn' | 'info';

/** Where structured log lines go: one JSON object per `write`. */
export interface LogSink {
    write(line: string): unknown;
}

export const REQUEST_ID_HEADER = 'x-request-id';

/** A caller's request id is kept when it is short and plain (it ends up in logs and a response header). */
const SANE_REQUEST_ID = /^[A-Za-z0-9._:+/=-]{1,128}$/;

/** The id of a request: the caller's `x-request-id` when sane, else a new random one. */
export function requestIdFrom(header: string | string[] | undefined): string {
    const given = Array.isArray(header) ? header[0] : header;
    return given !== undefined && SANE_REQUEST_ID.test(given) ? given : randomUUID();
}
