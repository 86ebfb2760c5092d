import { Address, internal } from '@ton/core';
import { randomBytes } from 'node:crypto';
import { startService } from '../src/app.ts';
import { DEFAULT_CONFIG } from '../src/config/config.ts';
import { DevnetWallet } from '../src/chain/devnet/wallets.ts';
import { seqnoOf, sleep, withApiProcesses, withStaticAnswer } from './support.ts';
import { SEED_STEPS } from '../src/chain/devnet/seed.ts';
import { JETTON_TON, jettonMintBody, jettonTransferBody, jettonWalletAddress } from '../src/chain/devnet/contracts/jetton.ts';
import { openStore } from '../src/store/store.ts';
import { toNumber } from '../src/store/schema.ts';
import { tempDir } from '../test/helpers/stores.ts';
import { analyzePostgres, freshPostgres, indexDevnetBlocks } from './ingest.ts';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { loadCells, loadGenerator, loadRow, type LoadRequest } from './load.ts';

const TARGET_OPERATIONS = Number(process.env.BENCH_JETTON_OPS ?? 100_000);
const HOLDERS = 10;

/**
 * Jetton history and wallets-by-key under load, on an index the devnet filled with real jetton
 * transfers: bob-v5r1 sends DUSD to ten holders, 255 transfers per external message.
 * BENCH_JETTON_DATA_DIR keeps that devnet and its index there (a directory that holds one is measured
 * as it is); BENCH_PG_URL runs the same rows on PostgreSQL, the devnet's blocks indexed into a fresh database.
 */
export async function jettonsBench(): Promise<void> {
    const kept = process.env.BENCH_JETTON_DATA_DIR;
    const dir = kept ? { path: kept, remove: () => {} } : tempDir('bench-jettons-');
    try {
        if (!(kept && existsSync(join(kept, 'devnet.json')))) await makeJettonOperations(dir.path);
        const pgUrl = process.env.BENCH_PG_URL;
        await apiLoad(dir.path);
        if (pgUrl) {
            const { store, url, dispose } = await freshPostgres(pgUrl);
            try {
                const start = performance.now();
                await indexDevnetBlocks(dir.path, store);
                console.log(`\n(the devnet's blocks indexed into PostgreSQL in ${((performance.now() - start) / 1000).toFixed(0)} s; then ANALYZE)`);
                await analyzePostgres(store);
                await apiLoad(dir.path, url);
            } finally {
                await dispose();
            }
        }
    } finally {
        dir.remove();
    }
}

/** The devnet in `dir` makes and indexes TARGET_OPERATIONS jetton transfers to HOLDERS new owners. */
async function makeJettonOperations(dir: string): Promise<void> {
    const service = await startService({ ...DEFAULT_CONFIG, dataDir: dir, port: 0, liteserverPort: 0, blockIntervalMs: 10 });
    const devnet = service.devnet!;
    const holders = Array.from({ length: HOLDERS }, () => new Address(0, randomBytes(32)));
    let started = 0;
    let seconds = 0;
    try {
        while ((service.indexer!.lastIndexed?.block.id.seqno ?? 0) < SEED_STEPS.length + 3) await sleep(50);
        const manifest = devnet.manifest();
        const walletOf = (name: string) => DevnetWallet.fromManifest(manifest.accounts.find(x => x.name === name)!);
        const dusd = Address.parseRaw(manifest.accounts.find(a => a.name === 'DUSD')!.address);
        const alice = walletOf('alice-v3r2');
        const sender = walletOf('bob-v5r1');
        await devnet.sendExternalMessage(await alice.transfer(await seqnoOf(service.store, alice), Math.floor(Date.now() / 1000) + 60, [internal({
            to: dusd, value: JETTON_TON.mintTonAmount + JETTON_TON.mintOverhead, bounce: true,
            body: jettonMintBody({ to: sender.address, amount: 10n ** 15n, from: dusd, responseAddress: alice.address }),
        })]));
        const senderWallet = jettonWalletAddress(sender.address, dusd);
        let seqno = await seqnoOf(service.store, sender);
        const count = async () => toNumber((await service.store.db.selectFrom('jetton_operations').select(eb => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n as bigint);
        started = performance.now();
        let sent = 0;
        while (sent < TARGET_OPERATIONS) {
            const messages = Array.from({ length: 255 }, (_, i) => internal({
                to: senderWallet, value: JETTON_TON.transfer, bounce: true,
                body: jettonTransferBody({ queryId: BigInt(sent + i), amount: 1n + BigInt(i), destination: holders[(sent + i) % HOLDERS], responseDestination: null, forwardTonAmount: 0n }),
            }));
            await devnet.sendExternalMessage(await sender.transfer(seqno, Math.floor(Date.now() / 1000) + 60, messages));
            seqno++;
            sent += 255;
        }
        while (await count() < TARGET_OPERATIONS) await sleep(200);
        seconds = (performance.now() - started) / 1000;
        console.log(`\n## Jetton operations made by the devnet\n\n${await count()} transfers produced and indexed in ${seconds.toFixed(0)} s (${((await count()) / seconds).toFixed(0)} operations/s)`);
    } finally {
        await service.stop();
    }
}

/** The rows, against the data directory's SQLite index or the PostgreSQL one at `databaseUrl`. */
async function apiLoad(dataDir: string, databaseUrl?: string): Promise<void> {
    const store = await openStore({ dataDir, url: databaseUrl });
    // The holders are the owners with the most operations received (the load's ten).
    const holders = (await store.db.selectFrom('jetton_operations').select(['destination', eb => eb.fn.countAll().as('n')])
        .where('destination', 'is not', null).groupBy('destination').orderBy('n', 'desc').limit(HOLDERS).execute()).map(r => r.destination!);
    const lts = (await store.db.selectFrom('jetton_operations').select('lt').orderBy('lt').execute()).map(r => r.lt);
    const keys = (await store.db.selectFrom('wallets').select('public_key').execute()).map(r => r.public_key);
    await store.close();
    const historyPath = () => {
        const holder = holders[Math.floor(Math.random() * holders.length)];
        const before = lts[Math.floor(Math.random() * lts.length)];
        return { method: 'GET' as const, path: `/v2/accounts/${holder}/jettons/history?limit=100&before_lt=${before}` };
    };
    const bulkBody = () => JSON.stringify({ public_keys: Array.from({ length: 100 }, (_, i) => (i % 2 === 0 ? keys[i % keys.length] : randomBytes(32).toString('hex'))) });
    let pageBytes = 0;
    await withApiProcesses(dataDir, databaseUrl, async (base, processes) => {
        console.log(`\n## Jetton history and wallets by key under load (${databaseUrl ? 'PostgreSQL' : 'SQLite'} index of ${lts.length} jetton operations; ${processes}; ${loadGenerator()} from another process, 10 s per row)\n`);
        console.log('| request | connections | p50 (ms) | p99 (ms) | req/s | non-2xx |');
        console.log('|---|---|---|---|---|---|');
        for (const connections of [1, 10]) {
            pageBytes = await run(`GET …/jettons/history, pages of 100 at random cursors`, connections, base, historyPath);
            await run('POST /v2/pubkeys/wallets/_bulk, 100 keys (half held by wallets)', connections, base, () => ({
                method: 'POST' as const, path: '/v2/pubkeys/wallets/_bulk', body: bulkBody(), headers: { 'content-type': 'application/json' },
            }));
        }
    });
    // What any server could do with answers that large on this machine, with this load generator beside it.
    await withStaticAnswer(pageBytes, async base => {
        for (const connections of [1, 10]) await run(`${pageBytes} bytes, a history page's answer`, connections, base, () => ({ method: 'GET' as const, path: '/' }));
    });
}

/** One row; the answers' mean size in bytes (headers included). */
async function run(name: string, connections: number, base: string, next: () => LoadRequest): Promise<number> {
    const result = await loadRow(base, connections, next);
    console.log(`| ${name} | ${connections} | ${loadCells(result)} |`);
    return result.meanBytes;
}
