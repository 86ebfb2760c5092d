import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { startService } from '../src/app.ts';
import { DEFAULT_CONFIG } from '../src/config/config.ts';
import { countIndexed, sleep, transferLoad, transferWallets } from './support.ts';

/** Transfers of the load (each of its messages makes a new account); the heap snapshots grow with it (~20 KB an account). */
const TRANSACTIONS = Number(process.env.BENCH_MEMORY_TRANSACTIONS ?? 20_000);

/**
 * What the devnet's producer thread holds per account in memory: its live heap (a heap snapshot's
 * objects, garbage excluded) on a new chain and again after the transfer load made new accounts,
 * all of them kept.
 */
export async function devnetMemoryBench(): Promise<void> {
    const dataDir = mkdtempSync(join(tmpdir(), 'bench-memory-'));
    // Every account the load makes stays kept (the default keeps 20k), so the per-account figure is what one costs in memory.
    const service = await startService({ ...DEFAULT_CONFIG, dataDir, port: 0, liteserverPort: 0, blockIntervalMs: 10, devnetRecentAccounts: TRANSACTIONS + 10_000 });
    try {
        const counts = countIndexed(service);
        await service.ready;
        await sleep(1000);
        const devnet = service.devnet!;
        const before = await liveHeapBytes(() => devnet.producerHeapSnapshot());
        const txBefore = counts.tx;
        const run = await transferLoad(service, await transferWallets(service), counts, 255, TRANSACTIONS, 4);
        await sleep(2000);
        const rss = process.memoryUsage().rss;
        const after = await liveHeapBytes(() => devnet.producerHeapSnapshot());
        // Every transaction but the two wallets' own of each round is a new account's first.
        const accounts = counts.tx - txBefore - 2 * run.rounds;
        const mb = (bytes: number) => (bytes / 2 ** 20).toFixed(1);
        console.log(`\n## Devnet producer memory (${counts.tx - txBefore} transactions of the transfer load, ${accounts} new accounts, all kept)\n`);
        console.log('| measure | figure |');
        console.log('|---|---|');
        console.log(`| producer live heap, new chain | ${mb(before)} MB |`);
        console.log(`| producer live heap after the load | ${mb(after)} MB |`);
        console.log(`| per new account | ${((after - before) / accounts / 1024).toFixed(2)} KB |`);
        console.log(`| process RSS after the load (API, indexer, devnet) | ${mb(rss)} MB |`);
        console.log(`| the load's rate (new chain, 255-message transfers) | ${(run.tx / run.seconds).toFixed(0)} tx/s |`);
    } finally {
        await service.stop();
        rmSync(dataDir, { recursive: true, force: true });
    }
}

/** The sum of the objects in a heap snapshot (V8 collects garbage before it takes one). */
async function liveHeapBytes(take: () => Promise<Readable>): Promise<number> {
    const chunks: Buffer[] = [];
    for await (const chunk of await take()) chunks.push(Buffer.from(chunk as Uint8Array));
    const snapshot = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { snapshot: { meta: { node_fields: string[] } }; nodes: number[] };
    const fields = snapshot.snapshot.meta.node_fields;
    const size = fields.indexOf('self_size');
    let total = 0;
    for (let i = size; i < snapshot.nodes.length; i += fields.length) total += snapshot.nodes[i];
    return total;
}
