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

/** What the indexer does when it learns an account's interfaces anew: the row, and the index generation moved. */
async function setInterfaces(address: string, interfaces: string): Promise<void> {
    await service.store.db.transaction().execute(async trx => {
        await trx.updateTable('account_states').set({ interfaces }).where('address', '=', address).execute();
        await trx.updateTable('index_generation').set(eb => ({ generation: eb('generation', '+', 1) })).where('id', '=', 1).execute();
    });
}

describe('transaction lists are put together from kept texts exactly as without them', () => {
    it("serves an account's page and a block's list with the same transaction texts, and new ones once an account's interfaces change", async () => {
        const manifest = await manifestOf(service.base);
        const alice = accountNamed(manifest, 'alice-v3r2');
        const page = () => call('getBlockchainAccountTransactions', `${service.base}/blockchain/accounts/${alice.address}/transactions?limit=100`);
        const first = await page();
        const second = await page();
        assert.ok(first.body.transactions.length >= 2);
        assert.equal(second.text, first.text);
        assert.ok(first.body.transactions.every((t: { account: { is_wallet: boolean } }) => t.account.is_wallet));

        // A block's list holds the same text for the same transaction as the account's page.
        const tx = first.body.transactions[0];
        const block = await call('getBlockchainBlockTransactions', `${service.base}/blockchain/blocks/${tx.block}/transactions`);
        const inBlock = block.body.transactions.find((t: { hash: string }) => t.hash === tx.hash);
        assert.deepEqual(inBlock, tx);

        const row = await service.store.db.selectFrom('account_states').select('interfaces').where('address', '=', alice.address).executeTakeFirstOrThrow();
        try {
            await setInterfaces(alice.address, JSON.stringify([]));
            const third = await page();
            assert.equal(third.body.transactions.length, first.body.transactions.length);
            assert.ok(third.body.transactions.every((t: { account: { is_wallet: boolean } }) => !t.account.is_wallet));
            const blockAgain = await call('getBlockchainBlockTransactions', `${service.base}/blockchain/blocks/${tx.block}/transactions`);
            assert.equal(blockAgain.body.transactions.find((t: { hash: string }) => t.hash === tx.hash).account.is_wallet, false);
        } finally {
            await setInterfaces(alice.address, row.interfaces);
        }
        assert.equal((await page()).text, first.text);
    });
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
        await setInterfaces(alice.address, JSON.stringify([]));
        const third = await call('getTrace', `${service.base}/traces/${root.hash}`);
        assert.notEqual(third.text, first.text);
        assert.equal(third.body.transaction.account.is_wallet, false);
        assert.deepEqual(third.body.interfaces, []);
    });
});

describe('GET /v2/traces/{trace_id} by any hash of a complete trace', () => {
    it('gives the same answer by the root transaction, its message and a later transaction, asked again after the first answers', async () => {
        const manifest = await manifestOf(service.base);
        const alice = accountNamed(manifest, 'alice-v3r2');
        const txs = await call('getBlockchainAccountTransactions', `${service.base}/blockchain/accounts/${alice.address}/transactions?limit=100`);
        const roots = txs.body.transactions.filter((t: { in_msg?: { msg_type: string } }) => t.in_msg?.msg_type === 'ext_in_msg');
        assert.ok(roots.length >= 1);
        for (const root of roots) {
            const first = await call('getTrace', `${service.base}/traces/${root.hash}`);
            assert.equal(first.headers.get('x-trace-complete'), 'true');
            const child = first.body.children?.[0]?.transaction?.hash as string | undefined;
            const keys = [root.hash, root.in_msg.hash, ...(child ? [child] : [])];
            for (let round = 0; round < 2; round++) {
                for (const key of keys) {
                    const again = await call('getTrace', `${service.base}/traces/${key}`);
                    assert.equal(again.text, first.text, `trace asked by ${key}, round ${round}`);
                    assert.equal(again.headers.get('x-trace-complete'), 'true');
                    assert.equal(again.headers.get('x-trace-pending'), '0');
                }
            }
        }
        // Another trace's hash still gives that trace, not one remembered before.
        if (roots.length >= 2) {
            const [a, b] = await Promise.all(roots.slice(0, 2).map((r: { hash: string }) => call('getTrace', `${service.base}/traces/${r.hash}`)));
            assert.notEqual(a.text, b.text);
        }
    });
});
