/**
 * The ingest benches' baseline: the block parser alone over a list of block BOCs, in a thread of
 * its own (a fresh heap each round). Run in the bench's main thread after an ingest round, the same
 * parse took 56–82 s where a fresh process took 53 (docs/BENCHMARKS.md, twenty-first session).
 */
import { parentPort, workerData } from 'node:worker_threads';
import { parseBlockFile } from '../src/ton/block/block-file.ts';

const bocs = (workerData as { bocs: Uint8Array[] }).bocs.map(b => Buffer.from(b.buffer, b.byteOffset, b.byteLength));
// Warmed up first, as the ingest it is compared with runs warm: passes over the blocks for a second.
const WARM_UP_MS = 1000;
let start = performance.now();
warmUp: for (;;) {
    for (const boc of bocs) {
        parseBlockFile(boc);
        if (performance.now() - start > WARM_UP_MS) break warmUp;
    }
}
start = performance.now();
for (const boc of bocs) parseBlockFile(boc);
parentPort!.postMessage(performance.now() - start);
