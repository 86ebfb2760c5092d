import { setFlagsFromString } from 'node:v8';

/**
 * V8 lets a heap grow past its live objects by a factor it picks from the collector's speed, up to
 * 4×: the devnet's producer, which promotes much short-lived state (regions of accounts loaded back,
 * each step's cells), settled at 850–970 MB of heap for 220–440 MB live at 100k transactions.
 * Growth of 1.25× held it at 430–500 MB for ~3 % of the loaded tx/s (docs/BENCHMARKS.md).
 */
export const DEFAULT_HEAP_GROWTH_PERCENT = 25;

/**
 * The heap growth a process runs with: the configured one when set; else the cap above where the
 * process runs the chain writer (the devnet's producer, the reading threads and the indexer), and
 * V8's own (0) in a process that only answers the API. A capped API heap of ~50 MB is collected in
 * full several times a second, and those pauses were the tail of its answers (docs/BENCHMARKS.md).
 */
export function heapGrowthPercent(configured: number | null, runsChainWriter: boolean): number {
    return configured ?? (runsChainWriter ? DEFAULT_HEAP_GROWTH_PERCENT : 0);
}

/**
 * The V8 flags a process sets at its start (before any thread starts, whose heaps follow them too;
 * V8's flags are process-wide).
 *
 * Heap growth: V8 reads it at each full collection; 0 leaves V8's own.
 *
 * Pretenuring is turned off in a process that only answers the API (no chain writer in it): there
 * everything a request allocates dies with its answer. With pretenuring on, V8 came to allocate the
 * rows node-postgres builds for a result straight in the old generation: a history page read from
 * PostgreSQL left ~90 KB there, and a full collection of 9–17 ms followed every ~350 pages, the tail
 * of the answers at one connection. Off, a page leaves ~0.1 KB, and the history pages' p99 on
 * PostgreSQL at one connection fell from 7 to 3–5 ms. A process that runs the chain writer keeps
 * V8's own choice: its threads' long-lived state (the devnet's accounts, the reading threads' cells)
 * is what pretenuring is for.
 */
export function heapFlags(configuredGrowth: number | null, runsChainWriter: boolean): string[] {
    const flags = [`--heap-growing-percent=${heapGrowthPercent(configuredGrowth, runsChainWriter)}`];
    if (!runsChainWriter) flags.push('--no-allocation-site-pretenuring');
    return flags;
}

/** Applies `heapFlags` to this process. */
export function applyHeapSettings(configuredGrowth: number | null, runsChainWriter: boolean): void {
    for (const flag of heapFlags(configuredGrowth, runsChainWriter)) setFlagsFromString(flag);
}
