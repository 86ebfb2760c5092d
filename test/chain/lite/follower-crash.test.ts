import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { after, before, test } from 'node:test';
import { Address, Cell, internal } from '@ton/core';
import { DevnetWallet } from '../../../src/chain/devnet/wallets.ts';
import { DEVNET_EXTRA_CURRENCIES_FILE } from '../../../src/chain/devnet/extra-currency.ts';
import { openStore } from '../../../src/store/store.ts';
import { startDevnetService, waitForSeed, type DevnetService } from '../../helpers/devnet-service.ts';
import { childEnv, REPO_ROOT, sleep, withTimeout } from '../../helpers/crash-child.ts';
import { tempDir } from '../../helpers/stores.ts';
import { builtCommand } from '../../helpers/built-command.ts';
import { mulberry32 } from '../../helpers/ingest-checks.ts';
import { assertNoWrongBlockNoGap, assertSameIndex, indexedTo, pausedHead } from './follower-checks.ts';

// A follower process (`serve --source lite`) is SIGKILLed again and again while it catches up with a
// devnet that has a few thousand transactions, and restarted each time on the same data directory.
// Once it has caught up, its index must be the devnet's: no masterchain gap, no block twice, no
// transaction lost or doubled.

const KILLS = 4;

let devnet: DevnetService;
const followerDir = tempDir('lite-crash-follower-');
let child: FollowerChild | undefined;

/** `serve --source lite` on the follower's data directory, as a user runs it. */
class FollowerChild {
    readonly proc: ChildProcess;
    output = '';
    readonly exited: Promise<unknown>;
    private running = true;

    constructor(liteservers: string) {
        this.proc = spawn(...builtCommand([
            'serve', '--source', 'lite', '--liteservers', liteservers, '--from-seqno', '1',
            '--data-dir', followerDir.path, '--host', '127.0.0.1', '--port', '0', '--liteserver-port', 'off',
            '--extra-currencies', DEVNET_EXTRA_CURRENCIES_FILE, '--anon-rps', '1000000',
            // One process: the kills are aimed at the writer mid-catch-up, and API workers starting on
            // every restart would give the catch-up a head start the test's load does not cover.
            '--workers', '1',
        ]), { cwd: REPO_ROOT, env: childEnv(), stdio: ['ignore', 'pipe', 'pipe'] });
        for (const stream of [this.proc.stdout!, this.proc.stderr!]) stream.setEncoding('utf8').on('data', (chunk: string) => { this.output += chunk; });
        this.exited = new Promise(resolve => this.proc.once('exit', (code, signal) => {
            this.running = false;
            resolve({ code, signal });
        }));
    }

    async base(timeoutMs = 30_000): Promise<string> {
        const deadline = Date.now() + timeoutMs;
        while (Date.now() < deadline) {
            const match = /serving (http:\/\/\S+?)\/v2 /.exec(this.output);
            if (match) return `${match[1]}/v2`;
            if (!this.running) throw new Error(`the follower exited before it served: ${this.output}`);
            await sleep(20);
        }
        throw new Error(`the follower did not serve within ${timeoutMs} ms: ${this.output}`);
    }

    /** The masterchain seqno its index has reached, from its /v2/status (0 before the first block). */
    async indexed(base: string): Promise<number> {
        const response = await fetch(`${base}/status`);
        const body = await response.json() as { heads: Array<{ workchain_id: number; seqno: number }> };
        return body.heads.find(h => h.workchain_id === -1)?.seqno ?? 0;
    }

    async kill(): Promise<void> {
        if (this.running) this.proc.kill('SIGKILL');
        await withTimeout(this.exited, 10_000, 'the killed follower to exit');
    }

    async terminate(): Promise<void> {
        if (this.running) this.proc.kill('SIGTERM');
        await withTimeout(this.exited, 20_000, 'the follower to stop after SIGTERM');
    }
}

/** Transfer rounds from two wallets, each a v5r1 transfer of 200 messages and a v4r2 one of 4, all indexed by the devnet. */
async function produceLoad(rounds: number): Promise<void> {
    const manifest = devnet.devnet!.manifest();
    const walletOf = (name: string) => DevnetWallet.fromManifest(manifest.accounts.find(a => a.name === name)!);
    const seqnoOf = async (wallet: DevnetWallet) => {
        const row = await devnet.store.db.selectFrom('account_states').select(['data']).where('address', '=', wallet.address.toRawString()).executeTakeFirstOrThrow();
        return DevnetWallet.seqnoFromData(wallet.kind, Cell.fromBoc(Buffer.from(row.data!))[0]);
    };
    const bulk = walletOf('bob-v5r1');
    const small = walletOf('faucet');
    const seqnos = { bulk: await seqnoOf(bulk), small: await seqnoOf(small) };
    const sent: Array<Promise<unknown>> = [];
    for (let i = 0; i < rounds; i++) {
        const validUntil = Math.floor(Date.now() / 1000) + 120;
        const to = () => new Address(0, randomBytes(32));
        sent.push(devnet.devnet!.sendExternalMessage(await bulk.transfer(seqnos.bulk++, validUntil, Array.from({ length: 200 }, () => internal({ to: to(), value: 10_000_000n, bounce: false })))));
        sent.push(devnet.devnet!.sendExternalMessage(await small.transfer(seqnos.small++, validUntil, Array.from({ length: 4 }, () => internal({ to: to(), value: 20_000_000n, bounce: false })))));
        // one round every few blocks: catch-up then has many blocks to walk
        await sleep(300);
    }
    await Promise.all(sent);
    const deadline = Date.now() + 60_000;
    while (await seqnoOf(bulk) < seqnos.bulk || await seqnoOf(small) < seqnos.small) {
        if (Date.now() > deadline) throw new Error('the load was not indexed by the devnet within 60 s');
        await sleep(100);
    }
}

before(async () => {
    devnet = await startDevnetService();
    await waitForSeed(devnet);
    await produceLoad(48);
});

after(async () => {
    await child?.kill().catch(() => undefined);
    await devnet?.dispose();
    followerDir.remove();
});

test('a follower killed again and again during catch-up ends with the devnet\'s index, without gap or duplicate', async t => {
    const liteservers = `${devnet.dataDir}/devnet-global.config.json`;
    const head = await pausedHead(devnet);
    const transactions = (await devnet.store.db.selectFrom('transactions').select(eb => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n;
    assert.ok(Number(transactions) > 2_000, `only ${transactions} transactions of load`);

    // the kills are spread over the first half of the catch-up (kill i once the index has passed i/(2·KILLS)
    // of the way): a restarted follower catches up 10-20 blocks while it starts, before its first status
    // answer, so later kills could land after the catch-up
    const random = mulberry32(1207);
    const killedAt: number[] = [];
    for (let kill = 0; kill < KILLS; kill++) {
        const target = Math.max((killedAt.at(-1) ?? 0) + 1, Math.floor((head * (kill + 1)) / (2 * KILLS)));
        child = new FollowerChild(liteservers);
        const base = await child.base();
        const deadline = Date.now() + 30_000;
        let reached = await child.indexed(base);
        while (reached < target) {
            assert.ok(Date.now() < deadline, `the follower made no progress after restart ${kill} (at ${reached}, waiting for ${target}):\n${child.output}`);
            await sleep(5);
            reached = await child.indexed(base);
        }
        // sometimes at once, sometimes a moment later: mid-round, mid-write, between rounds
        if (kill % 2 === 1) await sleep(Math.floor(random() * 40));
        await child.kill();
        killedAt.push(reached);
        // The last restart may finish the catch-up before its first status answer; the others must not.
        if (kill === KILLS - 1 && reached >= head) t.diagnostic(`kill ${kill + 1} came after catch-up (at ${reached} of ${head})`);
        else assert.ok(reached < head, `kill ${kill + 1} came after catch-up (at ${reached} of ${head}); the test needs more load`);
    }

    child = new FollowerChild(liteservers);
    const base = await child.base();
    const deadline = Date.now() + 60_000;
    while (await child.indexed(base) < head) {
        assert.ok(Date.now() < deadline, `the follower did not catch up to ${head} after ${KILLS} kills (killed at ${killedAt.join(', ')}):\n${child.output}`);
        await sleep(100);
    }
    await child.terminate();
    child = undefined;
    t.diagnostic(`${transactions} transactions up to masterchain block ${head}; killed at ${killedAt.join(', ')}`);

    const follower = await openStore({ dataDir: followerDir.path });
    try {
        await indexedTo(devnet, head);
        await assertSameIndex(devnet.store, follower, head);
        const last = await assertNoWrongBlockNoGap(devnet.store, follower);
        assert.ok(last >= head);
    } finally {
        await follower.close();
    }
});
