import { hostname } from 'node:os';

/** Who holds a writer lock, as the holder recorded it. */
export interface LockHolder {
    pid: number;
    host: string;
    command: string;
    since: string;
}

/** Another process writes here: this one must not (it has written nothing). */
export class WriterLockHeldError extends Error {
    override readonly name = 'WriterLockHeldError';

    constructor(readonly target: string, readonly holder: LockHolder | null) {
        super(`${target} is in use by another writer: ${describeHolder(holder)}. Stop that process first, or give this one another --data-dir / --db (an API-only process, --source none, may share it)`);
    }
}

export interface WriterLock {
    /** Lets the next writer in; idempotent. */
    release(): Promise<void>;
}

export function currentHolder(command: string): LockHolder {
    return { pid: process.pid, host: hostname(), command, since: new Date().toISOString() };
}

function describeHolder(holder: LockHolder | null): string {
    if (!holder) return 'a process that did not say who it is';
    return `pid ${holder.pid} on ${holder.host} (${holder.command}, since ${holder.since})`;
}
