import { Address, internal } from '@ton/core';
import { randomBytes } from 'node:crypto';
import { startService } from '../src/app.ts';
import { DEFAULT_CONFIG } from '../src/config/config.ts';
import { DevnetWallet } from '../src/chain/devnet/wallets.ts';
import { SEED_STEPS } from '../src/chain/devnet/seed.ts';
import { multisigAddress, multisigNewOrderBody, multisigStateInit, type MultisigConfig } from '../src/chain/devnet/contracts/multisig-v2.ts';
import { openStore } from '../src/store/store.ts';
import { toNumber } from '../src/store/schema.ts';
import { tempDir } from '../test/helpers/stores.ts';
import { seqnoOf, sleep, startApiProcess, stopServer } from './support.ts';
import { loadCells, loadGenerator, loadRow } from './load.ts';

const TARGET_ORDERS = Number(process.env.BENCH_MULTISIG_ORDERS ?? 2_000);
const GRAM = 1_000_000_000n;

/**
 * GET /v2/multisig/order/{id} under load, on an index the devnet filled with real orders: a 2-of-2
 * multisig v2 of bob-v5r1 and alice-v3r2, to which bob-v5r1 proposes 255 orders per external
 * message, each sending a gram somewhere (so every answer computes a risk).
 */
export async function multisigBench(): Promise<void> {
    const dir = tempDir('bench-multisig-');
    const service = await startService({ ...DEFAULT_CONFIG, dataDir: dir.path, port: 0, liteserverPort: 0, blockIntervalMs: 10 });
    const devnet = service.devnet!;
    try {
        while ((service.indexer!.lastIndexed?.block.id.seqno ?? 0) < SEED_STEPS.length + 3) await sleep(50);
        const manifest = devnet.manifest();
        const walletOf = (name: string) => DevnetWallet.fromManifest(manifest.accounts.find(x => x.name === name)!);
        const bob = walletOf('bob-v5r1');
        const alice = walletOf('alice-v3r2');
        const config: MultisigConfig = { threshold: 2, signers: [bob.address, alice.address], proposers: [], allowArbitrarySeqno: false };
        const multisig = multisigAddress(config);
        await devnet.faucet(bob.address, 1000n * GRAM);
        let seqno = await seqnoOf(service.store, bob);
        await devnet.sendExternalMessage(await bob.transfer(seqno, Math.floor(Date.now() / 1000) + 60, [internal({ to: multisig, value: GRAM, bounce: false, init: multisigStateInit(config) })]));
        seqno++;
        const count = async () => toNumber((await service.store.db.selectFrom('multisig_orders').select(eb => eb.fn.countAll().as('n')).where('multisig', '=', multisig.toRawString()).executeTakeFirstOrThrow()).n as bigint);
        const started = performance.now();
        for (let sent = 0; sent < TARGET_ORDERS; sent += 255) {
            await devnet.sendExternalMessage(await bob.transfer(seqno, Math.floor(Date.now() / 1000) + 60, Array.from({ length: 255 }, () => internal({
                to: multisig, value: 50_000_000n, bounce: true,
                body: multisigNewOrderBody({
                    isSigner: true, index: 0, expirationDate: Math.floor(Date.now() / 1000) + 30 * 24 * 3600,
                    order: [{ type: 'send_message', mode: 3, message: internal({ to: new Address(0, randomBytes(32)), value: GRAM, bounce: false }) }],
                }),
            }))));
            seqno++;
        }
        while (await count() < TARGET_ORDERS) await sleep(200);
        const seconds = (performance.now() - started) / 1000;
        console.log(`\n## Multisig v2 orders made by the devnet\n\n${await count()} orders proposed and indexed in ${seconds.toFixed(0)} s`);
    } finally {
        await service.stop();
    }
    try {
        await apiLoad(dir.path);
    } finally {
        dir.remove();
    }
}

async function apiLoad(dataDir: string): Promise<void> {
    const store = await openStore({ dataDir });
    const orders = (await store.db.selectFrom('multisig_orders').select('address').execute()).map(r => r.address);
    await store.close();
    const { base, server } = await startApiProcess(dataDir);
    console.log(`\n## Multisig order lookup under load (${orders.length} orders in the index; one server process; ${loadGenerator()} from another process, 10 s per row)\n`);
    console.log('| request | connections | p50 (ms) | p99 (ms) | req/s | non-2xx |');
    console.log('|---|---|---|---|---|---|');
    for (const connections of [1, 10]) {
        const result = await loadRow(base, connections, () => ({ method: 'GET', path: `/v2/multisig/order/${orders[Math.floor(Math.random() * orders.length)]}` }));
        console.log(`| GET /v2/multisig/order/{id}, random orders | ${connections} | ${loadCells(result)} |`);
    }
    await stopServer(server);
}
