import { hostname } from 'node:os';
import type { LogLevel, LogSink } from '../observability/logging.ts';

const LEVEL_NUMBERS = { trace: 10, debug: 20, info: 30, warn: 40, error: 50, fatal: 60 } as const;
type WrittenLevel = keyof typeof LEVEL_NUMBERS;

export type PrimaryLogger = Record<WrittenLevel, (fields: Record<string, unknown> | string, message?: string) => void>;

/**
 * The primary's JSON log lines (it runs no Fastify, whose logger the workers use), in the same
 * shape as theirs: `level` as a number, `time` in ms, `pid`, `hostname`, `msg`, and any fields.
 */
export function primaryLogger(level: LogLevel, sink: LogSink | undefined): PrimaryLogger {
    const threshold = level === 'silent' ? Infinity : LEVEL_NUMBERS[level];
    const host = hostname();
    const writer = (name: WrittenLevel) => (fields: Record<string, unknown> | string, message?: string) => {
        const number = LEVEL_NUMBERS[name];
        if (!sink || number < threshold) return;
        const extra = typeof fields === 'string' ? {} : fields;
        const msg = typeof fields === 'string' ? fields : message;
        sink.write(`${JSON.stringify({ level: number, time: Date.now(), pid: process.pid, hostname: host, ...extra, msg })}\n`);
    };
    return { trace: writer('trace'), debug: writer('debug'), info: writer('info'), warn: writer('warn'), error: writer('error'), fatal: writer('fatal') };
}
