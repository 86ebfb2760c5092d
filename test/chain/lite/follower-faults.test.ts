import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { DEVNET_EXTRA_CURRENCIES_FILE } from '../../../src/chain/devnet/extra-currency.ts';
import { globalConfigJson, type LiteServerAddress } from '../../../src/chain/lite/global-config.ts';
import type { LiteSource } from '../../../src/chain/lite/lite-source.ts';
import { startDevnetService, waitForSeed, type DevnetService } from '../../helpers/devnet-service.ts';
import { tempDir } from '../../helpers/stores.ts';
import { assertNoWrongBlockNoGap, assertSameIndex, indexedTo, masterHead, pausedHead } from './follower-checks.ts';
import {
    devnetLiteserver, freePort, startGarbageServer, startTcpProxy, startWrongBlockServer, type FaultServer,
} from './lite-fault-servers.ts';

// One live devnet; a follower given a global config of five liteservers in front of it: one down,
// one answering garbage, one whose connections die in the middle of answers, one answering blocks
// that are not the ones asked for, and the devnet's own. The follower must build the devnet's index
// from the good answers only, and say which server lied.

let devnet: DevnetService;
let good: LiteServerAddress;
let configDir: { path: string; remove(): void };
const servers: FaultServer[] = [];
let garbage: Awaited<ReturnType<typeof startGarbageServer>>;
let cutter: Awaited<ReturnType<typeof startTcpProxy>>;
let liar: Awaited<ReturnType<typeof startWrongBlockServer>>;
let downPort: number;

function writeConfig(name: string, list: Array<{ host: string; port: number; publicKey: Buffer }>): string {
    const file = join(configDir.path, name);
    writeFileSync(file, globalConfigJson(list));
    return file;
}

async function startFollower(liteservers: string, log: string[]): Promise<DevnetService> {
    return startDevnetService(
        { source: 'lite', liteservers, fromSeqno: 1, extraCurrencies: DEVNET_EXTRA_CURRENCIES_FILE },
        undefined,
        { log: line => log.push(line) },
    );
}

before(async () => {
    configDir = tempDir('lite-faults-config-');
    devnet = await startDevnetService();
    await waitForSeed(devnet);
    good = await devnetLiteserver(devnet.dataDir);
    garbage = await startGarbageServer();
    // small answers (heads, lookups, account states) may get through; blocks are cut
    cutter = await startTcpProxy(good, { cutAfter: 700 });
    liar = await startWrongBlockServer(good);
    downPort = await freePort();
    servers.push(garbage, cutter, liar);
});

after(async () => {
    for (const server of servers) await server.close();
    await devnet?.dispose();
    configDir?.remove();
});

describe('a follower of five liteservers of which four misbehave', () => {
    let follower: DevnetService | undefined;
    const log: string[] = [];
    after(async () => {
        await follower?.dispose();
    });

    test('builds the devnet\'s own index from the good answers, rejecting the wrong blocks', async () => {
        const down = { host: '127.0.0.1', port: downPort, publicKey: good.publicKey };
        const file = writeConfig('five.json', [down, garbage, cutter, liar, good]);
        follower = await startFollower(file, log);
        const head = await pausedHead(devnet);
        try {
            await indexedTo(follower, head, 60_000);
            await assertSameIndex(devnet.store, follower.store, head);
        } finally {
            devnet.devnet!.resume();
        }

        // every fault was met, so passing says something
        assert.ok(liar.stats.swapped + liar.stats.flipped > 0, 'the lying server was never asked for a block');
        assert.ok(liar.stats.swapped > 0 && liar.stats.flipped > 0, `the lying server gave ${liar.stats.swapped} swapped and ${liar.stats.flipped} flipped blocks`);
        assert.ok(cutter.stats.cuts > 0, 'no answer was cut');
        assert.ok(garbage.stats.randomAnswers + garbage.stats.badFrames > 0, 'the garbage server was never asked');

        await assertNoWrongBlockNoGap(devnet.store, follower.store);

        // the lying server is named in the log, the others in the pool's health report
        const lies = log.filter(line => line.includes(`server ${liar.name} gave `));
        assert.ok(lies.length > 0, `no log line names the lying server ${liar.name}:\n${log.join('\n')}`);
        assert.ok(!log.some(line => line.includes(`server ${good.host}:${good.port} gave `)), 'the good server was blamed');
        const health = new Map((follower.source as LiteSource).servers().map(s => [s.server, s]));
        const downHealth = health.get(`127.0.0.1:${downPort}`)!;
        assert.ok(downHealth.failures > 0 && /ECONNREFUSED|refused/i.test(downHealth.lastError ?? ''), `down server: ${JSON.stringify(downHealth)}`);
        const garbageHealth = health.get(garbage.name)!;
        assert.ok(garbageHealth.failures > 0 && garbageHealth.lastError, `garbage server: ${JSON.stringify(garbageHealth)}`);
        assert.equal(health.get(`${good.host}:${good.port}`)!.failures, 0);
    });

    test('keeps following the chain on the good server, with every new block the devnet\'s', async () => {
        assert.ok(follower, 'no follower');
        const start = masterHead(devnet);
        await indexedTo(follower, start + 20, 30_000);
        const head = await pausedHead(devnet);
        try {
            await indexedTo(follower, head, 30_000);
            const last = await assertNoWrongBlockNoGap(devnet.store, follower.store);
            assert.ok(last >= start + 20);
            await assertSameIndex(devnet.store, follower.store, head);
        } finally {
            devnet.devnet!.resume();
        }
    });
});

describe('a follower whose only liteserver drops every connection once, mid catch-up', () => {
    test('reconnects at once and goes on, without a long backoff', async () => {
        const proxy = await startTcpProxy(good);
        const file = writeConfig('blip.json', [proxy]);
        const follower = await startFollower(file, []);
        try {
            await indexedTo(follower, 15, 30_000);
            const head = masterHead(devnet);
            assert.ok(masterHead(follower) < head - 20, 'caught up before the blip');
            const atBlip = masterHead(follower);
            proxy.dropConnections();
            // one lost connection is one failure, however many queries were in flight on it: the
            // server sits out the first backoff (250 ms), not one doubled per query
            const started = Date.now();
            const seen: unknown[] = [];
            let worst = 0;
            while (Date.now() - started < 200) {
                const status = (follower.source as LiteSource).servers()[0];
                seen.push(status);
                worst = Math.max(worst, status.failures);
                await new Promise(resolve => setTimeout(resolve, 10));
            }
            assert.ok(worst <= 1, `one dropped connection counted as ${worst} failures: ${JSON.stringify(seen.at(-1))}`);
            // a backoff doubled per in-flight query would be tens of seconds; 4 s leaves room for a loaded machine
            await indexedTo(follower, atBlip + 2, 4_000);
            await indexedTo(follower, head, 20_000);
            await assertNoWrongBlockNoGap(devnet.store, follower.store);
        } finally {
            await follower.dispose();
            await proxy.close();
        }
    });
});

describe('a follower whose only liteserver is down at start', () => {
    test('keeps trying, and catches up once a liteserver listens on that port', async () => {
        const port = await freePort();
        const file = writeConfig('down.json', [{ host: '127.0.0.1', port, publicKey: good.publicKey }]);
        const log: string[] = [];
        const follower = await startFollower(file, log);
        let proxy: FaultServer | undefined;
        try {
            await new Promise(resolve => setTimeout(resolve, 3_000));
            assert.equal(follower.indexer?.lastIndexed ?? null, null, 'indexed something with no liteserver up');
            const status = (follower.source as LiteSource).servers()[0];
            assert.ok(status.failures >= 2, `tried ${status.failures} times in 3 s`);
            assert.ok(log.some(line => line.startsWith('lite:') && /refused/i.test(line)), `the retries are not logged:\n${log.join('\n')}`);

            // the devnet's liteserver appears on the port (through a plain TCP proxy: same key, same answers)
            proxy = await startTcpProxy(good, { port });
            const head = await pausedHead(devnet);
            try {
                await indexedTo(follower, head, 60_000);
                await assertSameIndex(devnet.store, follower.store, head);
                await assertNoWrongBlockNoGap(devnet.store, follower.store);
            } finally {
                devnet.devnet!.resume();
            }
        } finally {
            await follower.dispose();
            await proxy?.close();
        }
    });
});
