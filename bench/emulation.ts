import { Address, Cell, internal, loadMessage, toNano, type MessageRelaxed } from '@ton/core';
import { Executor } from '@ton/sandbox';
import http from 'node:http';
import type { ChildProcess } from 'node:child_process';
import { startService } from '../src/app.ts';
import { openStore, type Store } from '../src/store/store.ts';
import { DEFAULT_CONFIG } from '../src/config/config.ts';
import { SEED_STEPS } from '../src/chain/devnet/seed.ts';
import { DevnetWallet } from '../src/chain/devnet/wallets.ts';
import type { DevnetManifest } from '../src/chain/devnet/manifest.ts';
import { jettonTransferBody, jettonWalletAddress } from '../src/chain/devnet/contracts/jetton.ts';
import { commentPayload } from '../src/chain/devnet/contracts/payload.ts';
import { serializeShardAccount, shardAccountOf } from '../src/emulation/account-state.ts';
import { StoreChainState } from '../src/emulation/store-chain-state.ts';
import { formatRawAddress } from '../src/ton/address.ts';
import { parseTransactionCell } from '../src/ton/transaction.ts';
import { tempDir } from '../test/helpers/stores.ts';
import { seqnoOf, sleep, startApiProcess, stopServer } from './support.ts';

const ROUNDS = Number(process.env.BENCH_EMULATION_ROUNDS ?? 200);
/**
 * Untimed runs of each kind of every row first: a server process keeps getting faster over its first
 * ~2,000 emulations (presumably the JIT and the emulator's WebAssembly tiering up). With 100 per kind the first
 * row (v4r2) measured 2.6–2.8× against 2.0–2.1× when timed last or after 400 per kind.
 */
const WARMUP = Number(process.env.BENCH_EMULATION_WARMUP ?? 300);
/** Runs of one kind in a row before the next kind's: long enough for each to run warm, short enough that all see the same machine. */
const BLOCK = 25;

/**
 * wallet/emulate and events/emulate latency on devnet state, against the bare emulator running the
 * same transactions with the account states already serialized: the endpoint's overhead is HTTP,
 * reading state, inspecting the accounts, the action engine, risk and JSON. The API runs as users
 * run it over an index (`serve --source none`, its own process); requests go one at a time over a
 * keep-alive loopback connection from this process, so the client's CPU is not the server's.
 * BENCH_EMULATION_PROFILE=dir writes the server's CPU profile there (node --cpu-prof).
 */
export async function emulationBench(): Promise<void> {
    const dir = tempDir('bench-emulation-');
    const service = await startService({ ...DEFAULT_CONFIG, dataDir: dir.path, port: 0, liteserverPort: 0, blockIntervalMs: 200 });
    try {
        while ((service.indexer!.lastIndexed?.block.id.seqno ?? 0) < SEED_STEPS.length + 3) await sleep(50);
        const cases = await emulationCases(service.store, service.devnet!.manifest());
        // The devnet stops producing blocks: the API serves the index it left in its own process.
        await service.stop();
        await measureEmulation(dir.path, cases, 'devnet state (the seeded devnet)');
    } finally {
        await service.stop();
        dir.remove();
    }
}

/**
 * The table's three messages, signed by the devnet's seeded wallets (named in `manifest`) at their
 * seqnos in `store`: a v4r2 and a v5r1 transfer with a comment, and a v3r2 jetton transfer of DUSD.
 */
export async function emulationCases(store: Store, manifest: DevnetManifest): Promise<EmulationCase[]> {
    const walletOf = (name: string) => DevnetWallet.fromManifest(manifest.accounts.find(x => x.name === name)!);
    const dusd = Address.parseRaw(manifest.accounts.find(x => x.name === 'DUSD')!.address);
    const bob4 = walletOf('bob-v4r2');
    const bob5 = walletOf('bob-v5r1');
    const alice = walletOf('alice-v3r2');
    const validUntil = Math.floor(Date.now() / 1000) + 3600;
    const signed = async (w: DevnetWallet, messages: MessageRelaxed[]) => (await w.transfer(await seqnoOf(store, w), validUntil, messages)).toBoc().toString('base64');
    return [
        { name: 'v4r2 transfer with a comment', wallet: bob4, boc: await signed(bob4, [internal({ to: alice.address, value: toNano('1'), body: 'bench' })]) },
        { name: 'v5r1 transfer with a comment', wallet: bob5, boc: await signed(bob5, [internal({ to: alice.address, value: toNano('1'), body: 'bench' })]) },
        {
            name: 'v3r2 jetton transfer (DUSD)', wallet: alice, boc: await signed(alice, [internal({
                to: jettonWalletAddress(alice.address, dusd), value: toNano('0.1'), bounce: true,
                body: jettonTransferBody({ queryId: 1n, amount: 1_000_000n, destination: bob4.address, responseDestination: alice.address, forwardTonAmount: 1n, forwardPayload: commentPayload('bench') }),
            })]),
        },
    ];
}

export interface EmulationCase {
    name: string;
    /** The wallet that signed `boc` (events/emulate is asked from its side). */
    wallet: { address: Address };
    /** Base64 BOC of the signed external message. */
    boc: string;
}

/**
 * The table's rows, from an API process serving `dataDir` (an index the devnet left; `databaseUrl`:
 * that devnet's blocks indexed into PostgreSQL) and the bare emulator here, on the same state.
 * `state` says what the index holds, for the heading.
 */
export async function measureEmulation(dataDir: string, cases: EmulationCase[], state: string, databaseUrl?: string): Promise<void> {
    const profileDir = process.env.BENCH_EMULATION_PROFILE;
    const store = await openStore({ dataDir, url: databaseUrl });
    let server: ChildProcess | undefined;
    // One keep-alive connection for all requests: the client does as little per request as node:http allows.
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    try {
        const started = await startApiProcess(dataDir, ['--max-semi-space-size=16', ...(profileDir ? ['--cpu-prof', '--cpu-prof-dir', profileDir] : [])], databaseUrl);
        server = started.server;
        const base = `${started.base}/v2`;
        const rows = [];
        for (const c of cases) {
            const wallet = formatRawAddress(c.wallet.address);
            const bare = await bareExecutor(store.db, c.boc);
            rows.push({ c, bare, kinds: [
                bare.run,
                () => post(agent, `${base}/wallet/emulate`, { boc: c.boc }),
                () => post(agent, `${base}/accounts/${wallet}/events/emulate`, { boc: c.boc }),
            ] });
        }
        // Every row warms up before the first is timed, so the first row is not the one that runs the server cold.
        for (const { kinds } of rows) for (const run of kinds) for (let i = 0; i < WARMUP; i++) await run();
        console.log(`\n## Emulation on ${state} (server in its own process, client here; ${ROUNDS} requests per row, one at a time, after ${WARMUP} warm-up requests of each kind of every row; bare, wallet and events runs alternate in blocks of ${BLOCK})\n`);
        console.log('| message | transactions | bare executor p50 / p99 | wallet/emulate p50 / p99 | events/emulate p50 / p99 | wallet/emulate p50 ÷ bare p50 | events/emulate p50 ÷ bare p50 |');
        console.log('|---|---|---|---|---|---|---|');
        for (const { c, bare, kinds } of rows) {
            const [bareTimes, walletTimes, eventTimes] = await timeInterleaved(kinds);
            const ratio = (times: number[]) => `${(percentile(times, 50) / percentile(bareTimes, 50)).toFixed(1)}×`;
            console.log(`| ${c.name} | ${bare.transactions} | ${ms(bareTimes)} | ${ms(walletTimes)} | ${ms(eventTimes)} | ${ratio(walletTimes)} | ${ratio(eventTimes)} |`);
        }
    } finally {
        await store.close();
        if (server) await stopServer(server);
        agent.destroy();
    }
}

function post(agent: http.Agent, url: string, json: unknown): Promise<void> {
    const body = JSON.stringify(json);
    return new Promise((resolve, reject) => {
        const request = http.request(url, { method: 'POST', agent, headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) } }, response => {
            const chunks: Buffer[] = [];
            response.on('data', chunk => chunks.push(chunk));
            response.on('end', () => {
                if (response.statusCode !== 200) reject(new Error(`${url}: ${response.statusCode} ${Buffer.concat(chunks).toString()}`));
                else resolve();
            });
            response.on('error', reject);
        });
        request.on('error', reject);
        request.end(body);
    });
}

/**
 * Durations in ms of ROUNDS runs of each kind (warmed up already), the kinds taking turns in
 * blocks of BLOCK runs: on a shared machine whose speed drifts by tens of percent over a run, the
 * series compared in one row are then measured over the same minutes.
 */
async function timeInterleaved(kinds: Array<() => Promise<void>>): Promise<number[][]> {
    const times = kinds.map(() => [] as number[]);
    for (let done = 0; done < ROUNDS; done += BLOCK) {
        for (const [k, run] of kinds.entries()) {
            for (let i = done; i < Math.min(ROUNDS, done + BLOCK); i++) {
                const start = performance.now();
                await run();
                times[k].push(performance.now() - start);
            }
        }
    }
    return times;
}

/**
 * The same cascade on the bare emulator: states read and serialized beforehand, so a timed run is
 * only the `runTransaction` calls (signature checks off for the wallet, as wallet/emulate does).
 */
async function bareExecutor(db: ConstructorParameters<typeof StoreChainState>[0], boc: string): Promise<{ run: () => Promise<void>; transactions: number }> {
    const executor = await Executor.create();
    const chain = new StoreChainState(db);
    const config = await chain.config();
    const now = await chain.now();
    const root = Cell.fromBase64(boc);
    const initial = new Map<string, string>();
    const stateOf = async (address: string) => {
        if (!initial.has(address)) initial.set(address, serializeShardAccount(shardAccountOf(Address.parseRaw(address), await chain.account(address))));
        return initial.get(address)!;
    };
    // Learn the cascade and the states it needs once, then time runs of it.
    const plan: Array<{ destination: string; message: Cell }> = [];
    const discover = async () => {
        const current = new Map<string, string>();
        const queue = [{ message: root, destination: destinationOf(root) }];
        while (queue.length > 0) {
            const next = queue.shift()!;
            plan.push(next);
            const state = current.get(next.destination) ?? await stateOf(next.destination);
            const { result } = await executor.runTransaction({ config, libs: null, verbosity: 'short', shardAccount: state, message: next.message, now, lt: 10n ** 12n + BigInt(plan.length), randomSeed: Buffer.alloc(32), ignoreChksig: plan.length === 1, debugEnabled: false });
            if (!result.success) throw new Error(result.error);
            current.set(next.destination, result.shardAccount);
            const tx = parseTransactionCell(Cell.fromBase64(result.transaction), 0);
            for (const out of tx.outMsgs) if (out.msgType === 'int_msg' && out.destination) queue.push({ message: out.cell, destination: out.destination });
        }
    };
    await discover();
    const run = async () => {
        const current = new Map<string, string>();
        let i = 0;
        for (const step of plan) {
            const state = current.get(step.destination) ?? initial.get(step.destination)!;
            const { result } = await executor.runTransaction({ config, libs: null, verbosity: 'short', shardAccount: state, message: step.message, now, lt: 10n ** 12n + BigInt(++i), randomSeed: Buffer.alloc(32), ignoreChksig: i === 1, debugEnabled: false });
            if (!result.success) throw new Error(result.error);
            current.set(step.destination, result.shardAccount);
        }
    };
    return { run, transactions: plan.length };
}

function destinationOf(message: Cell): string {
    const info = loadMessage(message.beginParse()).info;
    if (info.type === 'external-out') throw new Error('no destination');
    return formatRawAddress(info.dest);
}

function percentile(values: number[], p: number): number {
    const sorted = [...values].sort((a, b) => a - b);
    return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

function ms(values: number[]): string {
    return `${percentile(values, 50).toFixed(1)} / ${percentile(values, 99).toFixed(1)} ms`;
}
