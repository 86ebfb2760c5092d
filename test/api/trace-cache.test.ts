import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startDevnetService, waitForSeed, type DevnetService } from '../helpers/devnet-service.ts';
import { accountNamed, call, manifestOf } from './api-call.ts';

let service: DevnetService;

before(async () => {
    service = await startDevnetService();
    await waitForSeed(service);
});

after(async () => {
    await service?.dispose();
});

describe('GET /v2/traces/{trace_id} answers from its cache exactly as without it', () => {
    it('serves the same text twice, and a new one once what the index knows about an account changes', async () => {
        const manifest = await manifestOf(service.base);
        const alice = accountNamed(manifest, 'alice-v3r2');
        const txs = await call('getBlockchainAccountTransactions', `${service.base}/blockchain/accounts/${alice.address}/transactions?limit=100`);
        const root = txs.body.transactions.find((t: { in_msg?: { msg_type: string } }) => t.in_msg?.msg_type === 'ext_in_msg');
        assert.ok(root, 'alice sent at least one external transfer');

        const first = await call('getTrace', `${service.base}/traces/${root.hash}`);
        const second = await call('getTrace', `${service.base}/traces/${root.hash}`);
        assert.equal(first.headers.get('x-trace-complete'), 'true');
        assert.equal(second.text, first.text);
        assert.equal(second.headers.get('content-type'), 'application/json; charset=utf-8');
        assert.equal(first.body.transaction.account.is_wallet, true);

        // The index learns something new about alice's account (as when code is re-detected):
        // the cached answer must not be served any more.
        await service.store.db.updateTable('account_states').set({ interfaces: JSON.stringify([]) }).where('address', '=', alice.address).execute();
        const third = await call('getTrace', `${service.base}/traces/${root.hash}`);
        assert.notEqual(third.text, first.text);
        assert.equal(third.body.transaction.account.is_wallet, false);
        assert.deepEqual(third.body.interfaces, []);
    });
});
