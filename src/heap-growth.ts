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
 * Sets the heap growth for every isolate of this process, the worker threads started before included
 * (V8's flags are process-wide, and it reads this one at each full collection); 0 leaves V8's own.
 */
export function applyHeapGrowth(percent: number): void {
    setFlagsFromString(`--heap-growing-percent=${percent}`);
}
