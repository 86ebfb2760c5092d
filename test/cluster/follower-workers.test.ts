/**
 * `serve --source lite --workers 2`: a follower of the devnet's liteserver whose API workers reach
 * the chain through the primary: the head in /v2/status, messages sent to the liteservers, and the
 * accounts emulation needs that the follower (started at the head) has not indexed.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Address, internal, toNano } from '@ton/core';
import { DevnetWallet } from '../../src/chain/devnet/wallets.ts';
import { DEVNET_EXTRA_CURRENCIES_FILE } from '../../src/chain/devnet/extra-currency.ts';
import type { DevnetManifest } from '../../src/chain/devnet/manifest.ts';
import { startDevnetService, waitForSeed, type DevnetService } from '../helpers/devnet-service.ts';
import { sleep } from '../helpers/crash-child.ts';
import { tempDir } from '../helpers/stores.ts';
import { ClusterChild, onEveryWorker, send } from './cluster-child.ts';

let devnet: DevnetService;
let manifest: DevnetManifest;
const dir = tempDir('native-explorer-cluster-follower-');
let follower: ClusterChild;

async function seqnoOf(address: string): Promise<number> {
    const answer = await send(`${devnet.base}/devnet/manifest`);
    return (answer.body.accounts as Array<{ address: string; seqno?: number }>).find(a => a.address === address)!.seqno ?? 0;
}

before(async () => {
    devnet = await startDevnetService();
    await waitForSeed(devnet);
    manifest = devnet.devnet!.manifest();
    follower = new ClusterChild(dir.path, [
        '--workers', '2', '--source', 'lite', '--liteservers', `${devnet.dataDir}/devnet-global.config.json`,
        '--liteserver-port', 'off', '--extra-currencies', DEVNET_EXTRA_CURRENCIES_FILE, '--anon-rps', '1000000',
    ]);
    await follower.start(false);
    const deadline = Date.now() + 60_000;
    for (;;) {
        const status = await send(`${follower.base}/status`);
        if (status.body?.heads?.some((h: { workchain_id: number }) => h.workchain_id === -1)) break;
        assert.ok(Date.now() < deadline, `the follower indexed nothing: ${follower.stderr}`);
        await sleep(100);
    }
});

after(async () => {
    if (follower?.alive) await follower.kill();
    await devnet?.dispose();
    dir.remove();
});

describe('a follower with API workers', () => {
    it('shows the liteservers\' head in /v2/status on every worker', async () => {
        await onEveryWorker(follower, 2, 6, async () => {
            const status = await send(`${follower.base}/status`);
            assert.equal(status.status, 200, status.text);
            assert.equal(status.body.source, 'lite');
            const master = status.body.heads.find((h: { workchain_id: number }) => h.workchain_id === -1);
            assert.ok(master && typeof master.chain_seqno === 'number', `the chain head comes from the primary's liteserver pool: ${status.text}`);
        });
    });

    it('emulates a wallet the follower has not indexed, with the account read from the liteserver through the primary', async () => {
        const entry = manifest.accounts.find(a => a.name === 'bob-v4r2')!;
        const bob = DevnetWallet.fromManifest(entry);
        const alice = manifest.accounts.find(a => a.name === 'alice-v3r2')!.address;
        const message = await bob.transfer(await seqnoOf(entry.address), Math.floor(Date.now() / 1000) + 120, [
            internal({ to: Address.parseRaw(alice), value: toNano('1.5'), body: 'emulated on a worker' }),
        ]);
        const account = await send(`${follower.base}/blockchain/accounts/${entry.address}/transactions?limit=1`);
        assert.deepEqual(account.body?.transactions ?? [], [], 'bob has not transacted since the follower started');
        await onEveryWorker(follower, 2, 4, async () => {
            const emulated = await send(`${follower.base}/wallet/emulate`, { method: 'POST', json: { boc: message.toBoc().toString('base64') } });
            assert.equal(emulated.status, 200, emulated.text);
            assert.equal(emulated.body.trace.transaction.success, true);
        });
    });

    it('sends a message to the liteservers through the primary; the devnet executes it', async () => {
        const entry = manifest.accounts.find(a => a.name === 'alice-v3r2')!;
        const alice = DevnetWallet.fromManifest(entry);
        const bob = manifest.accounts.find(a => a.name === 'bob-v4r2')!.address;
        const message = await alice.transfer(await seqnoOf(entry.address), Math.floor(Date.now() / 1000) + 120, [
            internal({ to: Address.parseRaw(bob), value: toNano('0.5'), body: 'through a worker' }),
        ]);
        const sent = await send(`${follower.base}/blockchain/message`, { method: 'POST', json: { boc: message.toBoc().toString('base64') } });
        assert.equal(sent.status, 200, sent.text);
        assert.equal(sent.body.message_hash, message.hash().toString('hex'));
        const deadline = Date.now() + 30_000;
        let found = false;
        while (!found && Date.now() < deadline) {
            found = (await devnet.store.db.selectFrom('transactions').select('hash').where('in_msg_hash', '=', sent.body.message_hash).executeTakeFirst()) !== undefined;
            if (!found) await sleep(50);
        }
        assert.ok(found, 'the devnet executed the message');
    });

    it('stops on SIGTERM with exit code 0', async () => {
        const code = await follower.terminate(60_000);
        assert.equal(code, 0, follower.stderr);
        assert.match(follower.stdout.trim().split('\n').at(-1)!, /^native-explorer: stopped; index at/);
    });
});
