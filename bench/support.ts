import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { availableParallelism } from 'node:os';
import { Address, Cell, internal } from '@ton/core';
import type { RunningService } from '../src/app.ts';
import type { Store } from '../src/store/store.ts';
import { DevnetWallet } from '../src/chain/devnet/wallets.ts';

/** A seeded wallet's current seqno, from its data as indexed. */
export async function seqnoOf(store: Store, wallet: DevnetWallet): Promise<number> {
    const row = await store.db.selectFrom('account_states').select(['data']).where('address', '=', `0:${wallet.address.hash.toString('hex')}`).executeTakeFirstOrThrow();
    return DevnetWallet.seqnoFromData(wallet.kind, Cell.fromBoc(row.data!)[0]);
}

/** The API processes' node flags: BENCH_API_NODE_FLAGS (space-separated), else the young generation `npm start` gives. */
function apiNodeFlags(): string[] {
    return process.env.BENCH_API_NODE_FLAGS?.split(' ').filter(Boolean) ?? ['--max-semi-space-size=16'];
}

/**
 * `serve --source none` over a data directory in its own process, as users run the API over an index:
 * the compiled service (`dist/main.js`, what `npm start` and the bin run), built from the sources
 * first. Run from the sources through tsx it is not the same program: the OpenAPI document is parsed
 * from its YAML there, and strings cut from it are held two bytes a character (one-byte ones gave 19–39 % more
 * history pages a second there; the compiled service parses the document's JSON and never had them).
 * `nodeFlags` go before the script (by default the young generation users get from `npm start` and the bin); `workers` > 1 runs that many API processes
 * sharing the port (`--workers`, whose default is one a core).
 */
export async function startApiProcess(dataDir: string, nodeFlags: string[] = apiNodeFlags(), databaseUrl?: string, workers = 1): Promise<{ base: string; server: ChildProcess }> {
    buildCompiledService();
    const db = databaseUrl ? ['--db', databaseUrl] : [];
    return spawnServing('API server', [...nodeFlags, 'dist/main.js', 'serve', '--source', 'none', '--data-dir', dataDir, ...db, '--workers', String(workers), '--port', '0', '--anon-rps', '1000000']);
}

let built = false;

/** `npm run build`, once a bench run, so that `dist/` (what the API processes and the start-up rows run) is the sources as they are now. */
export function buildCompiledService(): void {
    if (built) return;
    const result = spawnSync('npm', ['run', 'build'], { stdio: ['ignore', 'ignore', 'inherit'] });
    if (result.status !== 0) throw new Error(`npm run build failed (${result.status ?? result.signal}): the API processes run the compiled service`);
    built = true;
}

/** A node process that prints `serving http://host:port…` once it listens; its base URL (no path). */
async function spawnServing(name: string, args: string[]): Promise<{ base: string; server: ChildProcess }> {
    const server = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'inherit'] });
    const base = await new Promise<string>((resolve, reject) => {
        let out = '';
        server.stdout!.on('data', chunk => {
            out += chunk;
            const match = /serving (http:\/\/[^\s/]+)/.exec(out);
            if (match) resolve(match[1]);
        });
        server.on('exit', code => reject(new Error(`${name} exited with ${code}`)));
    });
    return { base, server };
}

/** SIGTERM, then the process's exit (which is when --cpu-prof writes its profile). */
export async function stopServer(server: ChildProcess): Promise<void> {
    if (server.exitCode !== null) return;
    const exited = new Promise(resolve => server.once('exit', resolve));
    server.kill('SIGTERM');
    await exited;
}

/**
 * The floor of a load table whose answers are `bytes` long: `measure` against bench/static-answer.ts
 * answering that many bytes from its own process, under a heading of its own.
 */
export async function withStaticAnswer(bytes: number, measure: (base: string) => Promise<void>): Promise<void> {
    const { base, server } = await spawnServing('static answer server', ['--import', 'tsx', 'bench/static-answer.ts', String(bytes)]);
    try {
        console.log('\n| the floor: the same bytes from a bare node:http server in another process (no store, no framework) | connections | p50 (ms) | p99 (ms) | req/s | non-2xx |');
        console.log('|---|---|---|---|---|---|');
        await measure(base);
    } finally {
        await stopServer(server);
    }
}

/**
 * `measure` against `serve --source none` over `dataDir` with one API process, then with one a core
 * (`--workers`); `processes` says which, for the table's heading.
 */
export async function withApiProcesses(dataDir: string, databaseUrl: string | undefined, measure: (base: string, processes: string) => Promise<void>): Promise<void> {
    for (const workers of [...new Set([1, availableParallelism()])]) {
        const { base, server } = await startApiProcess(dataDir, undefined, databaseUrl, workers);
        try {
            await measure(base, workers === 1 ? 'one API process' : `${workers} API processes (--workers ${workers})`);
        } finally {
            await stopServer(server);
        }
    }
}

export function sleep(ms: number): Promise<void> {
    return new Promise(resolve => setTimeout(resolve, ms));
}

/** Transactions and masterchain blocks a service's indexer has indexed since `countIndexed`. */
export interface IndexedCounts {
    tx: number;
    masterBlocks: number;
}

export function countIndexed(service: RunningService): IndexedCounts {
    const counts = { tx: 0, masterBlocks: 0 };
    service.indexer!.on('block', (item, transactions) => {
        counts.tx += transactions;
        if (item.block.id.workchain === -1) counts.masterBlocks++;
    });
    return counts;
}

/** The seeded wallets the transfer load signs with, and their next seqnos. */
export interface TransferWallets {
    bulk: DevnetWallet;
    small: DevnetWallet;
    seqnos: { bulk: number; small: number };
}

export async function transferWallets(service: RunningService): Promise<TransferWallets> {
    const manifest = service.devnet!.manifest();
    const walletOf = (name: string) => DevnetWallet.fromManifest(manifest.accounts.find(x => x.name === name)!);
    const bulk = walletOf('bob-v5r1');
    const small = walletOf('faucet');
    return { bulk, small, seqnos: { bulk: await seqnoOf(service.store, bulk), small: await seqnoOf(service.store, small) } };
}

/**
 * The devnet's transfer load: rounds of a v5r1 transfer of `bulkSize` messages and a v4r2 transfer
 * of 4, until `target` more transactions are indexed. Rounds are signed ahead (the next seqnos are
 * known), `inFlight` rounds submitted and not yet in a block, so the producer always has work while
 * the index catches up. Resolves once every round sent is in a block.
 */
export async function transferLoad(service: RunningService, wallets: TransferWallets, counts: IndexedCounts, bulkSize: number, target: number, inFlight: number): Promise<{ tx: number; seconds: number; masterBlocks: number; rounds: number }> {
    const devnet = service.devnet!;
    const { bulk, small, seqnos } = wallets;
    const perRound = bulkSize + 6;
    const firstSeqno = seqnos.bulk;
    const start = performance.now();
    const txStart = counts.tx;
    const blocksStart = counts.masterBlocks;
    const waiting: Array<Promise<unknown>> = [];
    while (counts.tx - txStart < target) {
        const bulkMessages = Array.from({ length: bulkSize }, () => internal({ to: new Address(0, randomBytes(32)), value: 10_000_000n, bounce: false }));
        const smallMessages = Array.from({ length: 4 }, () => internal({ to: new Address(0, randomBytes(32)), value: 20_000_000n, bounce: false }));
        const validUntil = Math.floor(Date.now() / 1000) + 60;
        waiting.push(Promise.all([
            devnet.sendExternalMessage(await bulk.transfer(seqnos.bulk++, validUntil, bulkMessages)),
            devnet.sendExternalMessage(await small.transfer(seqnos.small++, validUntil, smallMessages)),
        ]));
        if (waiting.length >= inFlight) await waiting.shift();
        while (counts.tx - txStart < target && (seqnos.bulk - firstSeqno) * perRound - (counts.tx - txStart) > inFlight * perRound * 2) await sleep(5);
    }
    await Promise.all(waiting);
    const seconds = (performance.now() - start) / 1000;
    return { tx: counts.tx - txStart, seconds, masterBlocks: counts.masterBlocks - blocksStart, rounds: seqnos.bulk - firstSeqno };
}
