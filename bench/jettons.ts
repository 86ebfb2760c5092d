import autocannon from 'autocannon';
import { Address, internal } from '@ton/core';
import { randomBytes } from 'node:crypto';
import { startService } from '../src/app.ts';
import { DEFAULT_CONFIG } from '../src/config/config.ts';
import { DevnetWallet } from '../src/chain/devnet/wallets.ts';
import { seqnoOf, sleep, withApiProcesses } from './support.ts';
import { SEED_STEPS } from '../src/chain/devnet/seed.ts';
import { JETTON_TON, jettonMintBody, jettonTransferBody, jettonWalletAddress } from '../src/chain/devnet/contracts/jetton.ts';
import { openStore } from '../src/store/store.ts';
import { toNumber } from '../src/store/schema.ts';
import { tempDir } from '../test/helpers/stores.ts';

const TARGET_OPERATIONS = Number(process.env.BENCH_JETTON_OPS ?? 100_000);
const HOLDERS = 10;

/**
 * Jetton history and wallets-by-key under load, on an index the devnet filled with real jetton
 * transfers: bob-v5r1 sends DUSD to ten holders, 255 transfers per external message.
 */
export async function jettonsBench(): Promise<void> {
    const dir = tempDir('bench-jettons-');
    const service = await startService({ ...DEFAULT_CONFIG, dataDir: dir.path, port: 0, liteserverPort: 0, blockIntervalMs: 10 });
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
    try {
        await apiLoad(dir.path, holders.map(h => `0:${h.hash.toString('hex')}`));
    } finally {
        dir.remove();
    }
}

async function apiLoad(dataDir: string, holders: string[]): Promise<void> {
    const store = await openStore({ dataDir });
    const lts = (await store.db.selectFrom('jetton_operations').select('lt').orderBy('lt').execute()).map(r => r.lt);
    const keys = (await store.db.selectFrom('wallets').select('public_key').execute()).map(r => r.public_key);
    await store.close();
    const historyPath = () => {
        const holder = holders[Math.floor(Math.random() * holders.length)];
        const before = lts[Math.floor(Math.random() * lts.length)];
        return { method: 'GET' as const, path: `/v2/accounts/${holder}/jettons/history?limit=100&before_lt=${before}` };
    };
    const bulkBody = () => JSON.stringify({ public_keys: Array.from({ length: 100 }, (_, i) => (i % 2 === 0 ? keys[i % keys.length] : randomBytes(32).toString('hex'))) });
    await withApiProcesses(dataDir, undefined, async (base, processes) => {
        console.log(`\n## Jetton history and wallets by key under load (${lts.length} jetton operations; ${processes}; autocannon from another process, 10 s per row)\n`);
        console.log('| request | connections | p50 (ms) | p99 (ms) | req/s | non-2xx |');
        console.log('|---|---|---|---|---|---|');
        for (const connections of [1, 10]) {
            await run(`GET …/jettons/history, pages of 100 at random cursors`, connections, base, historyPath);
            await run('POST /v2/pubkeys/wallets/_bulk, 100 keys (half held by wallets)', connections, base, () => ({
                method: 'POST' as const, path: '/v2/pubkeys/wallets/_bulk', body: bulkBody(), headers: { 'content-type': 'application/json' },
            }));
        }
    });
}

async function run(name: string, connections: number, base: string, next: () => { method: 'GET' | 'POST'; path: string; body?: string; headers?: Record<string, string> }): Promise<void> {
    const result = await autocannon({ url: base, connections, duration: 10, requests: [{ setupRequest: req => ({ ...req, ...next() }) }] });
    console.log(`| ${name} | ${connections} | ${result.latency.p50} | ${result.latency.p99} | ${result.requests.average.toFixed(0)} | ${result.non2xx} |`);
}
