import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { JettonMetadataFetcher } from '../../src/indexer/jetton-metadata.ts';
import { indexGeneration } from '../../src/store/read/index-generation.ts';
import { bumpGeneration } from '../../src/indexer/index-generation.ts';
import { storeBackends } from '../helpers/stores.ts';
import type { Store } from '../../src/store/store.ts';

/** Metadata servers as they exist in the wild: a good one, one that hangs, one that answers junk. */
let server: Server;
let base: string;
const hanging = new Set<import('node:http').ServerResponse>();
let requests = 0;

before(async () => {
    server = createServer((request, response) => {
        requests++;
        switch (request.url) {
            case '/good.json':
                response.setHeader('content-type', 'application/json');
                response.end(JSON.stringify({ name: 'Off Chain Coin', symbol: 'OFF', decimals: '6', image: 'https://example.invalid/off.png', description: 'from the server', extra: { nested: true } }));
                return;
            case '/junk.json':
                response.end('{"name": "unterminated');
                return;
            case '/array.json':
                response.end('[1,2,3]');
                return;
            case '/huge.json':
                response.end(JSON.stringify({ name: 'x'.repeat(300_000) }));
                return;
            case '/missing.json':
                response.statusCode = 404;
                response.end('not here');
                return;
            default:
                hanging.add(response); // never answers
        }
    });
    await new Promise<void>(resolve => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

after(async () => {
    for (const response of hanging) response.destroy();
    await new Promise(resolve => server.close(resolve));
});

/** Jetton masters as the indexer leaves them for the fetcher: on-chain attributes, a document URI, pending. */
async function insertPendingMasters(store: Store, masters: Array<{ address: string; uri: string; onchain: object }>): Promise<void> {
    await store.db.insertInto('jetton_masters').values(masters.map(m => ({
        address: m.address, total_supply: '1000', mintable: 1, admin: null, content: Buffer.alloc(1), wallet_code_hash: null,
        metadata: JSON.stringify(m.onchain), metadata_uri: m.uri, metadata_status: 'pending' as const, last_tx_lt: 1n,
    }))).execute();
}

for (const backend of storeBackends()) {
    describe(`off-chain jetton metadata (${backend.name})`, () => {
        it('merges good documents under the on-chain attributes and marks the rest failed, within the timeout', async () => {
            const store = await backend.open();
            try {
                const master = (n: number) => `0:${n.toString(16).padStart(64, '0')}`;
                const rows = [
                    { n: 1, uri: `${base}/good.json`, onchain: { symbol: 'ONC' } },
                    { n: 2, uri: `${base}/hang.json`, onchain: {} },
                    { n: 3, uri: `${base}/junk.json`, onchain: {} },
                    { n: 4, uri: `${base}/array.json`, onchain: {} },
                    { n: 5, uri: `${base}/huge.json`, onchain: {} },
                    { n: 6, uri: `${base}/missing.json`, onchain: {} },
                    { n: 7, uri: 'ipfs://bafy-not-reachable-offline', onchain: { name: 'Kept' } },
                ];
                await insertPendingMasters(store, rows.map(r => ({ address: master(r.n), uri: r.uri, onchain: r.onchain })));

                const fetcher = new JettonMetadataFetcher(store, { timeoutMs: 400, maxBytes: 64 * 1024, allowPrivate: true });
                const generation = await indexGeneration(store.db);
                const started = Date.now();
                assert.equal(await fetcher.fetchPending(), rows.length);
                // API processes keep metadata while the generation stays: it moves once for the one document merged.
                assert.equal(await indexGeneration(store.db), generation + 1n);
                assert.ok(Date.now() - started < 3000, 'a hanging server costs one timeout, not more');

                const byAddress = new Map((await store.db.selectFrom('jetton_masters').selectAll().execute()).map(r => [r.address, r]));
                const good = byAddress.get(master(1))!;
                assert.equal(good.metadata_status, 'ok');
                assert.deepEqual(JSON.parse(good.metadata), {
                    name: 'Off Chain Coin', symbol: 'ONC', decimals: '6', image: 'https://example.invalid/off.png', description: 'from the server',
                });
                for (const n of [2, 3, 4, 5, 6, 7]) assert.equal(byAddress.get(master(n))!.metadata_status, 'failed', `master ${n}`);
                assert.deepEqual(JSON.parse(byAddress.get(master(7))!.metadata), { name: 'Kept' }, 'on-chain attributes stay when the document cannot be had');
                assert.equal(await fetcher.fetchPending(), 0, 'nothing is fetched twice');
                assert.equal(await indexGeneration(store.db), generation + 1n);
            } finally {
                await store.dispose();
            }
        });

        it("merges a document while a block's transaction that moved the generation writes the same master, without a deadlock", async () => {
            const store = await backend.open();
            try {
                const address = `0:${'7'.repeat(64)}`;
                await insertPendingMasters(store, [{ address, uri: `${base}/good.json`, onchain: { symbol: 'ONC' } }]);
                const generation = await indexGeneration(store.db);
                const fetcher = new JettonMetadataFetcher(store, { timeoutMs: 2000, allowPrivate: true });
                let fetching!: Promise<number>;
                // As indexBlock does: the generation first, then (here, once the fetcher is waiting on it) the master's row.
                await store.db.transaction().execute(async trx => {
                    await bumpGeneration(trx);
                    fetching = fetcher.fetchPending();
                    await new Promise(resolve => setTimeout(resolve, 300));
                    await trx.updateTable('jetton_masters').set({ last_tx_lt: 2n }).where('address', '=', address).execute();
                });
                assert.equal(await fetching, 1);
                const row = await store.db.selectFrom('jetton_masters').selectAll().where('address', '=', address).executeTakeFirstOrThrow();
                assert.equal(row.metadata_status, 'ok');
                assert.equal(row.last_tx_lt, 2n);
                assert.equal(await indexGeneration(store.db), generation + 2n);
            } finally {
                await store.dispose();
            }
        });

        it('does not fetch a document from a loopback, link-local or private address unless allowed', async () => {
            const store = await backend.open();
            try {
                const master = (n: number) => `0:${n.toString(16).padStart(64, '0')}`;
                const port = new URL(base).port;
                const uris = [
                    `${base}/good.json`,
                    'http://169.254.169.254/latest/meta-data/iam/security-credentials/',
                    `http://[::ffff:127.0.0.1]:${port}/good.json`,
                    `http://localhost:${port}/good.json`,
                    'http://10.0.0.1/metadata.json',
                ];
                await insertPendingMasters(store, uris.map((uri, i) => ({ address: master(i + 1), uri, onchain: { symbol: 'ONC' } })));

                requests = 0;
                const lines: string[] = [];
                const fetcher = new JettonMetadataFetcher(store, { timeoutMs: 2000, log: line => lines.push(line) });
                assert.equal(await fetcher.fetchPending(), uris.length);
                assert.equal(requests, 0, 'the loopback server sees no request');
                const rows = await store.db.selectFrom('jetton_masters').selectAll().orderBy('address').execute();
                for (const row of rows) {
                    assert.equal(row.metadata_status, 'failed', row.metadata_uri!);
                    assert.deepEqual(JSON.parse(row.metadata), { symbol: 'ONC' }, 'the on-chain attributes stay');
                }
                assert.match(fetcher.failures.get(uris[0])!, /127\.0\.0\.1 is a loopback address \(--allow-private-fetch allows it\)/);
                assert.match(fetcher.failures.get(uris[1])!, /169\.254\.169\.254 is a link-local address/);
                assert.match(fetcher.failures.get(uris[2])!, /is a loopback address/);
                assert.match(fetcher.failures.get(uris[3])!, /localhost resolves to .*, which is a loopback address/);
                assert.match(fetcher.failures.get(uris[4])!, /10\.0\.0\.1 is a private address/);
                assert.equal(lines.length, uris.length, 'one log line per refused URI');
            } finally {
                await store.dispose();
            }
        });
    });
}
