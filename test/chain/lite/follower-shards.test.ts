import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { once } from 'node:events';
import { LiteClient, LiteSingleEngine } from 'ton-lite-client';
import { DEVNET_EXTRA_CURRENCIES_FILE } from '../../../src/chain/devnet/extra-currency.ts';
import { startDevnetService, waitForSeed, type DevnetService } from '../../helpers/devnet-service.ts';
import { call } from '../../api/api-call.ts';
import { assertNoWrongBlockNoGap, assertSameIndex, indexedTo, pausedHead } from './follower-checks.ts';

// A devnet of 4 basechain shards (it splits into them in its first blocks) followed over its own
// liteserver from masterchain block 1: the follower walks every shard's blocks across the splits and
// builds the very index the devnet built from its chain log.

let devnet: DevnetService;
let follower: DevnetService;

before(async () => {
    devnet = await startDevnetService({ shards: 4 });
    await waitForSeed(devnet);
    await pausedHead(devnet);
    follower = await startDevnetService({ source: 'lite', liteservers: `${devnet.dataDir}/devnet-global.config.json`, fromSeqno: 1, extraCurrencies: DEVNET_EXTRA_CURRENCIES_FILE });
});

after(async () => {
    await follower?.dispose();
    await devnet?.dispose();
});

test('getAllShardsInfo read through ton-lite-client gives the 4 shards the masterchain commits', async () => {
    const config = (await call('getDevnetGlobalConfig', `${devnet.base}/devnet/global-config`)).body;
    const server = config.liteservers[0];
    const ip = server.ip < 0 ? server.ip + 2 ** 32 : server.ip;
    const host = `tcp://${[24, 16, 8, 0].map(shift => (ip >>> shift) & 255).join('.')}:${server.port}`;
    const engine = new LiteSingleEngine({ host, publicKey: Buffer.from(server.id.key, 'base64') });
    await once(engine, 'ready');
    const client = new LiteClient({ engine });
    try {
        const master = (await client.getMasterchainInfo()).last;
        const shards = await client.getAllShardsInfo(master);
        const basechain = Object.keys(shards.shards['0'] ?? {}).map(shard => BigInt.asUintN(64, BigInt(shard)).toString(16).padStart(16, '0')).sort();
        assert.deepEqual(basechain, ['2000000000000000', '6000000000000000', 'a000000000000000', 'e000000000000000']);
    } finally {
        engine.close();
    }
});

test('a follower catches up from masterchain block 1 across the splits with the rows the devnet indexed itself', async () => {
    const head = (await devnet.store.db.selectFrom('blocks').select(eb => eb.fn.max('seqno').as('seqno')).where('workchain', '=', -1).executeTakeFirstOrThrow()).seqno;
    await indexedTo(follower, Number(head));
    await assertSameIndex(devnet.store, follower.store, Number(head));
    await assertNoWrongBlockNoGap(devnet.store, follower.store);
    const shards = await follower.store.db.selectFrom('blocks').select('shard').distinct().where('workchain', '=', 0).execute();
    assert.equal(shards.length, 7, 'the root shard, its halves and their halves');
});

test('a transfer to another shard is one trace, in progress while its message waits in the queue, complete once it lands', async () => {
    devnet.devnet!.resume();
    const manifest = (await call('getDevnetManifest', `${devnet.base}/devnet/manifest`)).body as { accounts: Array<{ name: string; address: string }> };
    const faucet = BigInt(`0x${manifest.accounts.find(a => a.name === 'faucet')!.address.slice(2)}`);
    // An address in the shard beside the faucet's (top two bits flipped in the second).
    const id = Buffer.from(faucet.toString(16).padStart(64, '0'), 'hex');
    id[0] ^= 0x40;
    let seenInProgress = false;
    for (let attempt = 0; attempt < 5 && !seenInProgress; attempt++) {
        id[31] = attempt;
        const sent = await call('devnetFaucet', `${devnet.base}/devnet/faucet`, { method: 'POST', json: { address: `0:${id.toString('hex')}`, amount: 1_000_000_000 } });
        assert.equal(sent.status, 200);
        const first = await fetch(`${devnet.base}/traces/${sent.body.trace_id}`);
        assert.equal(first.status, 200);
        seenInProgress ||= first.headers.get('x-trace-complete') === 'false';
        const deadline = Date.now() + 10_000;
        for (;;) {
            const trace = await call('getTrace', `${devnet.base}/traces/${sent.body.trace_id}`);
            if (trace.headers.get('x-trace-complete') === 'true') {
                assert.equal(trace.body.children.length, 1, 'the faucet\'s transaction and the receiver\'s, one trace');
                const [sender, receiver] = [trace.body.transaction.block, trace.body.children[0].transaction.block];
                assert.notEqual(sender.split(',')[1], receiver.split(',')[1], `${sender} and ${receiver} are blocks of two shards`);
                break;
            }
            assert.ok(Date.now() < deadline, 'the trace did not complete within 10 s');
            await new Promise(resolve => setTimeout(resolve, 50));
        }
    }
    assert.ok(seenInProgress, 'no transfer was seen in progress (its message waiting in the queue) in 5 attempts');
});
