import { setFlagsFromString } from 'node:v8';

/**
 * Turns V8's allocation-site pretenuring off in a process that only answers the API (no chain writer
 * in it): there everything a request allocates dies with its answer. With pretenuring on, V8 came to
 * allocate the rows node-postgres builds for a result straight in the old generation: a history page
 * read from PostgreSQL left ~90 KB there, and a full collection of 9–17 ms followed every ~350 pages,
 * the tail of the answers at one connection. Off, a page leaves ~0.1 KB (docs/BENCHMARKS.md,
 * twenty-ninth session). A process that runs the chain writer keeps V8's own choice: its threads'
 * long-lived state (the devnet's accounts, the reading threads' cells) is what pretenuring is for.
 * V8's flags are process-wide and this one is read as objects are allocated, so it takes effect when set.
 */
export function applyPretenuring(runsChainWriter: boolean): void {
    if (!runsChainWriter) setFlagsFromString('--no-allocation-site-pretenuring');
}
