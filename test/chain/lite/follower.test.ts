import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { Address, internal, toNano } from '@ton/core';
import { DevnetWallet } from '../../../src/chain/devnet/wallets.ts';
import { DEVNET_EXTRA_CURRENCIES_FILE } from '../../../src/chain/devnet/extra-currency.ts';
import type { DevnetManifest } from '../../../src/chain/devnet/manifest.ts';
import { startDevnetService, waitForSeed, type DevnetService } from '../../helpers/devnet-service.ts';
import { call } from '../../api/api-call.ts';
import { assertNoWrongBlockNoGap, assertSameIndex, indexedTo, masterHead, pausedHead } from './follower-checks.ts';

// A second service follows the devnet's own liteserver over loopback ADNL from masterchain block 1,
// through ton-lite-client's protocol and our block reader, and must build the very index the devnet
// built from its chain log, and answer the API the same way.

let devnet: DevnetService;
let follower: DevnetService;
let manifest: DevnetManifest;

async function seqnoOf(service: DevnetService, wallet: DevnetWallet): Promise<number> {
    const response = await call('getDevnetManifest', `${service.base}/devnet/manifest`);
    return (response.body.accounts as Array<{ address: string; seqno?: number }>).find(a => a.address === wallet.address.toRawString())!.seqno ?? 0;
}

before(async () => {
    devnet = await startDevnetService();
    await waitForSeed(devnet);
    // the elector and config contract act on every masterchain block: compare at a paused head
    await pausedHead(devnet);
    manifest = (await call('getDevnetManifest', `${devnet.base}/devnet/manifest`)).body;
    const config = (await call('getDevnetGlobalConfig', `${devnet.base}/devnet/global-config`)).body;
    assert.equal(config.liteservers.length, 1);
    // The devnet's extra currency table is configuration a follower is given, as the devnet takes it by default.
    follower = await startDevnetService({ source: 'lite', liteservers: `${devnet.dataDir}/devnet-global.config.json`, fromSeqno: 1, extraCurrencies: DEVNET_EXTRA_CURRENCIES_FILE });
});

after(async () => {
    await follower?.dispose();
    await devnet?.dispose();
});

describe('a follower of the devnet\'s liteserver', () => {
    test('catches up from masterchain block 1 with the rows the devnet indexed itself', async () => {
        const head = masterHead(devnet);
        await indexedTo(follower, head);
        // The devnet is paused (before), so both indexes end at the same head.
        await assertSameIndex(devnet.store, follower.store, head);
        await assertNoWrongBlockNoGap(devnet.store, follower.store);
        const transactions = Number((await follower.store.db.selectFrom('transactions').select(eb => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);
        assert.ok(transactions >= 40, `only ${transactions} transactions followed`);
    });

    test('answers the API as the devnet\'s own index does', async () => {
        const head = masterHead(devnet);
        await indexedTo(follower, head);
        const alice = manifest.accounts.find(a => a.name === 'alice-v3r2')!.address;
        const traces = (await devnet.store.db.selectFrom('traces').select('trace_id').orderBy('start_lt').limit(12).execute()).map(r => r.trace_id);
        const orders = (await devnet.store.db.selectFrom('multisig_orders').select('address').execute()).map(r => r.address);
        const block = await devnet.store.db.selectFrom('blocks').selectAll().where('workchain', '=', 0).where('tx_count', '>', 0).orderBy('seqno').executeTakeFirstOrThrow();
        const first = await devnet.store.db.selectFrom('blocks').select(['utime']).where('workchain', '=', -1).where('seqno', '=', 1n).executeTakeFirstOrThrow();
        // up to the second before the head's: later blocks of the head's second may not be followed yet
        const last = await devnet.store.db.selectFrom('blocks').select(['utime']).where('workchain', '=', -1).where('seqno', '=', BigInt(head)).executeTakeFirstOrThrow();
        const publicKeys = manifest.accounts.filter(a => a.public_key).map(a => a.public_key!);
        const gets: Array<[string, string]> = [
            ['getBlockchainAccountTransactions', `/blockchain/accounts/${alice}/transactions?limit=100`],
            ['getBlockchainBlockTransactions', `/blockchain/blocks/(${block.workchain},${block.shard},${block.seqno})/transactions`],
            ['getReducedBlockchainBlocks', `/blockchain/reduced/blocks?from=${first.utime}&to=${BigInt(last.utime) - 1n}`],
            ...manifest.accounts.map(a => ['getAccountJettonsHistory', `/accounts/${a.address}/jettons/history?limit=100`] as [string, string]),
            ...traces.map(id => ['getTrace', `/traces/${id}`] as [string, string]),
            ...orders.map(address => ['getMultisigOrder', `/multisig/order/${address}`] as [string, string]),
        ];
        assert.ok(orders.length > 0 && traces.length > 0);
        for (const [operation, path] of gets) {
            const own = await call(operation, `${devnet.base}${path}`);
            const followed = await call(operation, `${follower.base}${path}`);
            assert.equal(followed.status, own.status, `${path}: ${followed.text}`);
            if (followed.text !== own.text) {
                let i = 0;
                while (followed.text[i] === own.text[i]) i++;
                assert.fail(`${path} differs at ${i}: devnet …${own.text.slice(Math.max(0, i - 150), i + 80)}… follower …${followed.text.slice(Math.max(0, i - 150), i + 80)}…`);
            }
        }
        const wallets = (base: string) => call('getWalletsByPublicKeyBulk', `${base}/pubkeys/wallets/_bulk`, { method: 'POST', json: { public_keys: publicKeys } });
        assert.equal((await wallets(follower.base)).text, (await wallets(devnet.base)).text);
    });

    test('started at the head: the last key block first, then emulation of accounts it has not seen from the liteserver', async () => {
        const late = await startDevnetService({ source: 'lite', liteservers: `${devnet.dataDir}/devnet-global.config.json`, extraCurrencies: DEVNET_EXTRA_CURRENCIES_FILE });
        try {
            const start = masterHead(devnet);
            await indexedTo(late, start);
            const masters = (await late.store.db.selectFrom('blocks').select(['seqno', 'is_key_block']).where('workchain', '=', -1).orderBy('seqno').execute()).map(r => [Number(r.seqno), Number(r.is_key_block)]);
            assert.deepEqual(masters[0], [1, 1], 'the last key block (the devnet\'s first masterchain block) comes first');
            assert.ok(masters[1][0] > 2, `then the head: ${JSON.stringify(masters.slice(0, 3))}`);
            assert.ok((await late.store.db.selectFrom('chain_config').selectAll().executeTakeFirst()) !== undefined, 'the config is indexed');

            const entry = manifest.accounts.find(a => a.name === 'bob-v4r2')!;
            const bob = DevnetWallet.fromManifest(entry);
            assert.equal(await late.store.db.selectFrom('account_states').select('address').where('address', '=', entry.address).executeTakeFirst(), undefined, 'bob is not in the late index');
            const alice = manifest.accounts.find(a => a.name === 'alice-v3r2')!.address;
            const message = await bob.transfer(await seqnoOf(devnet, bob), Math.floor(Date.now() / 1000) + 60, [internal({ to: Address.parseRaw(alice), value: toNano('1.5'), body: 'emulated on a follower' })]);
            const emulate = (base: string) => call('emulateMessageToWallet', `${base}/wallet/emulate`, { method: 'POST', json: { boc: message.toBoc().toString('base64') } });
            const own = await emulate(devnet.base);
            const followed = await emulate(late.base);
            assert.equal(followed.status, 200, followed.text);
            assert.equal(own.status, 200, own.text);
            assert.deepEqual(followed.body.risk, own.body.risk);
            // the emulated transactions' hashes depend on the second each emulation ran in
            const actions = (body: { event: { actions: Array<Record<string, unknown>> } }) => body.event.actions.map(({ base_transactions: _, ...action }) => action);
            assert.deepEqual(actions(followed.body), actions(own.body));
            assert.equal(followed.body.trace.transaction.success, true);
        } finally {
            await late.dispose();
        }
    });

    test('at the head: a transfer sent through the follower\'s API reaches the devnet and is indexed by both', async () => {
        devnet.devnet!.resume();
        const entry = manifest.accounts.find(a => a.name === 'alice-v3r2')!;
        const alice = DevnetWallet.fromManifest(entry);
        const bob = manifest.accounts.find(a => a.name === 'bob-v4r2')!.address;
        const seqno = await seqnoOf(devnet, alice);
        const message = await alice.transfer(seqno, Math.floor(Date.now() / 1000) + 60, [internal({ to: Address.parseRaw(bob), value: toNano('0.5'), body: 'through the follower' })]);
        const sent = await call('sendBlockchainMessage', `${follower.base}/blockchain/message`, { method: 'POST', json: { boc: message.toBoc().toString('base64') } });
        assert.equal(sent.status, 200, sent.text);
        assert.equal(sent.body.message_hash, message.hash().toString('hex'));
        for (const service of [devnet, follower]) {
            const deadline = Date.now() + 30_000;
            let found = false;
            while (!found && Date.now() < deadline) {
                found = (await service.store.db.selectFrom('transactions').select('hash').where('in_msg_hash', '=', sent.body.message_hash).executeTakeFirst()) !== undefined;
                if (!found) await new Promise(resolve => setTimeout(resolve, 50));
            }
            assert.ok(found, `the transfer is not in ${service === devnet ? 'the devnet\'s' : 'the follower\'s'} index`);
        }
        const status = await call('getStatus', `${follower.base}/status`);
        assert.equal(status.body.source, 'lite');
        assert.ok(status.body.heads[0].chain_seqno >= status.body.heads[0].seqno);
        assert.ok(status.body.transactions_per_second > 0);
    });
});
