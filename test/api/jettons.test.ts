import assert from 'node:assert/strict';
import { once } from 'node:events';
import { after, before, describe, it } from 'node:test';
import { fillHistoryTexts } from '../../src/indexer/history-texts.ts';
import { isCurrentOperationText } from '../../src/present/stored/jetton-operation-text.ts';
import { startDevnetService, waitForSeed, type DevnetService } from '../helpers/devnet-service.ts';
import { accountNamed, assertError, call, manifestOf, type ManifestAccount } from './api-call.ts';

let service: DevnetService;
let manifest: { accounts: ManifestAccount[] };

const history = (account: string, query: string) =>
    call('getAccountJettonsHistory', `${service.base}/accounts/${encodeURIComponent(account)}/jettons/history?${query}`);

before(async () => {
    service = await startDevnetService();
    await waitForSeed(service);
    manifest = await manifestOf(service.base);
});

after(async () => {
    await service?.dispose();
});

/** A stored text's holes as another version of the presenter would have led them. */
const otherVersion = (holes: string) => holes.replace(/^\[\d+,/, '[1,');

describe('GET /v2/accounts/{account_id}/jettons/history on the seeded devnet', () => {
    it("shows alice's mint and her DUSD transfers (to bob with a comment, to the 2-of-3 multisig v2), bob's DPTS transfer to her, and DSTB from bob's v5r1", async () => {
        const alice = accountNamed(manifest, 'alice-v3r2').address;
        const bob = accountNamed(manifest, 'bob-v4r2').address;
        const bobV5 = accountNamed(manifest, 'bob-v5r1').address;
        const dusd = accountNamed(manifest, 'DUSD').address;
        const dpts = accountNamed(manifest, 'DPTS').address;
        const dstb = accountNamed(manifest, 'DSTB').address;
        const response = await history(alice, 'limit=100');
        assert.equal(response.status, 200);
        const ops = response.body.operations;
        assert.deepEqual(ops.map((o: any) => [o.operation, o.jetton.address, o.amount]), [
            ['transfer', dusd, '500000000'],
            ['transfer', dstb, '25000000'],
            ['transfer', dpts, '20000000000'],
            ['transfer', dusd, '1500000000'],
            ['mint', dusd, '1000000000000'],
        ]);
        const [toMultisig, fromLibraryWallet, received, sent, mint] = ops;
        assert.equal(toMultisig.destination.address, accountNamed(manifest, 'devnet-multisig-v2-2of3').address);
        assert.deepEqual(toMultisig.payload, { text: 'for the multisig' });
        // DSTB's wallets run the jetton wallet code published as a public library by the devnet's librarian.
        assert.equal(fromLibraryWallet.source.address, bobV5);
        assert.deepEqual(fromLibraryWallet.payload, { text: 'paid from a wallet running library code' });
        assert.deepEqual([fromLibraryWallet.jetton.symbol, fromLibraryWallet.jetton.decimals], ['DSTB', 6]);
        assert.equal(received.source.address, bob);
        assert.equal(received.destination.address, alice);
        assert.equal(received.query_id, '4');
        assert.equal(typeof received.payload, 'string', 'a payload that is not a comment is its hex BOC');
        assert.match(received.payload, /^b5ee9c72/);
        assert.equal(sent.source.address, alice);
        assert.equal(sent.destination.address, bob);
        assert.deepEqual(sent.payload, { text: 'for the coffee' });
        assert.equal(sent.jetton.symbol, 'DUSD');
        assert.equal(sent.jetton.decimals, 6);
        assert.equal(sent.jetton.name, 'Devnet Dollar');
        assert.equal(mint.source, undefined);
        assert.equal(mint.destination.address, alice);
        assert.equal(mint.destination.is_wallet, true);
        for (const op of ops) {
            assert.ok(BigInt(op.lt) > 0n);
            const trace = await call('getTrace', `${service.base}/traces/${op.transaction_hash}`);
            assert.equal(trace.body.transaction.hash, op.trace_id, 'trace_id is the root of the operation\'s trace');
        }
        assert.equal(response.body.next_from, undefined, 'the whole history fits');
    });

    it("shows bob's burn and the mint he got, and not the forged internal_transfer his wallet rejected", async () => {
        const bob = accountNamed(manifest, 'bob-v4r2').address;
        const ops = (await history(bob, 'limit=1000')).body.operations;
        assert.deepEqual(ops.map((o: any) => [o.operation, o.amount, o.query_id]), [
            ['burn', '5000000000', '5'],
            ['transfer', '20000000000', '4'],
            ['transfer', '1500000000', '3'],
            ['mint', '500000000000', '2'],
        ]);
        assert.equal(ops[0].destination, undefined);
        assert.ok(!ops.some((o: any) => o.query_id === '6'), 'the rejected internal_transfer is no operation');
    });

    it('pages newest first with an exclusive before_lt, every operation exactly once', async () => {
        const bob = accountNamed(manifest, 'bob-v4r2').address;
        const all = (await history(bob, 'limit=1000')).body.operations.map((o: any) => o.transaction_hash);
        const seen: string[] = [];
        let cursor: string | undefined;
        for (let page = 0; page < 10; page++) {
            const response = await history(bob, `limit=1${cursor ? `&before_lt=${cursor}` : ''}`);
            assert.equal(response.status, 200);
            seen.push(...response.body.operations.map((o: any) => o.transaction_hash));
            if (response.body.next_from === undefined) break;
            cursor = String(response.body.next_from);
        }
        assert.deepEqual(seen, all);
    });

    it('shows an operation from the text stored at indexing exactly as from its columns (operations indexed before texts, or by another version)', async () => {
        const db = service.store.db;
        const operations = await db.selectFrom('jetton_operations').select(['transaction_hash', 'source', 'destination']).execute();
        const rows = await db.selectFrom('jetton_history').select(['account', 'transaction_hash', 'text', 'text_holes']).orderBy('transaction_hash').orderBy('account').execute();
        assert.ok(operations.length >= 8, 'the seed makes mints, transfers and a burn');
        const parties = operations.flatMap(op => [...new Set([op.source, op.destination].filter(Boolean))].map(account => `${account} ${op.transaction_hash}`));
        assert.deepEqual(rows.map(row => `${row.account} ${row.transaction_hash}`).sort(), parties.sort(), 'a history row for each operation and party');
        assert.ok(rows.every(row => row.text !== null && isCurrentOperationText(row.text_holes!)), 'the indexer stores each operation\'s text');
        const pages = async () => Promise.all(manifest.accounts.map(async account => (await history(account.address, 'limit=1000')).text));
        const fromTexts = await pages();
        assert.ok(fromTexts.some(text => text.includes('"is_wallet":true')) && fromTexts.some(text => text.includes('"is_wallet":false')));
        const setText = (row: (typeof rows)[number], text: Buffer | null, holes: string | null) => db.updateTable('jetton_history').set({ text, text_holes: holes })
            .where('account', '=', row.account).where('transaction_hash', '=', row.transaction_hash).execute();
        try {
            // Every other row without a text, and every fourth with a text of another version.
            for (const [i, row] of rows.entries()) {
                if (i % 2 === 0) await setText(row, null, null);
                else if (i % 4 === 1) await setText(row, row.text, otherVersion(row.text_holes!));
            }
            assert.deepEqual(await pages(), fromTexts);
            await db.updateTable('jetton_history').set({ text: null, text_holes: null }).execute();
            assert.deepEqual(await pages(), fromTexts);
        } finally {
            for (const row of rows) await setText(row, row.text, row.text_holes);
        }
    });

    it('gives operations indexed without history texts theirs when the indexer starts, in batches, leaving texts of other versions alone', async () => {
        const db = service.store.db;
        const rows = await db.selectFrom('jetton_history').select(['account', 'transaction_hash', 'text', 'text_holes']).orderBy('transaction_hash').orderBy('account').execute();
        const pages = async () => Promise.all(manifest.accounts.map(async account => (await history(account.address, 'limit=1000')).text));
        const before = await pages();
        const setText = (row: (typeof rows)[number], text: Buffer | null, holes: string | null) => db.updateTable('jetton_history').set({ text, text_holes: holes })
            .where('account', '=', row.account).where('transaction_hash', '=', row.transaction_hash).execute();
        try {
            const blanked = new Set<string>();
            for (const [i, row] of rows.entries()) {
                if (i % 3 === 1) await setText(row, row.text, otherVersion(row.text_holes!));
                else {
                    await setText(row, null, null);
                    blanked.add(row.transaction_hash);
                }
            }
            // In batches of two operations: the cursor must carry from batch to batch.
            assert.equal(await fillHistoryTexts(db, new AbortController().signal, 2), blanked.size);
            const filled = await db.selectFrom('jetton_history').select(['account', 'transaction_hash', 'text', 'text_holes']).orderBy('transaction_hash').orderBy('account').execute();
            assert.deepEqual(filled, rows.map((row, i) => i % 3 === 1 ? { ...row, text_holes: otherVersion(row.text_holes!) } : row));
            assert.deepEqual(await pages(), before);

            // The running indexer does it itself when it starts.
            await db.updateTable('jetton_history').set({ text: null, text_holes: null }).execute();
            const indexer = service.indexer!;
            const done = once(indexer, 'textsFilled');
            await indexer.stop();
            void indexer.start();
            const [operations] = await done;
            assert.equal(operations, new Set(rows.map(row => row.transaction_hash)).size);
            assert.deepEqual(await db.selectFrom('jetton_history').select(['account', 'transaction_hash', 'text', 'text_holes']).orderBy('transaction_hash').orderBy('account').execute(), rows);
            assert.deepEqual(await pages(), before);
        } finally {
            for (const row of rows) await setText(row, row.text, row.text_holes);
        }
    });

    it("shows a party's interfaces as the index has them once it moves on (they are kept for a generation)", async () => {
        const db = service.store.db;
        const alice = accountNamed(manifest, 'alice-v3r2').address;
        const aliceAsParty = (body: { operations: Array<{ source?: { address: string; is_wallet: boolean }; destination?: { address: string; is_wallet: boolean } }> }) =>
            [...new Set(body.operations.flatMap(op => [op.source, op.destination]).filter(party => party?.address === alice).map(party => party!.is_wallet))];
        const movedOn = async () => {
            const at = await service.store.generation();
            while (await service.store.generation() === at) await new Promise(resolve => setTimeout(resolve, 20));
        };
        assert.deepEqual(aliceAsParty((await history(alice, 'limit=100')).body), [true]);
        const { interfaces } = await db.selectFrom('account_states').select('interfaces').where('address', '=', alice).executeTakeFirstOrThrow();
        try {
            await db.updateTable('account_states').set({ interfaces: '[]' }).where('address', '=', alice).execute();
            await movedOn();
            assert.deepEqual(aliceAsParty((await history(alice, 'limit=100')).body), [false]);
        } finally {
            await db.updateTable('account_states').set({ interfaces }).where('address', '=', alice).execute();
        }
        await movedOn();
        assert.deepEqual(aliceAsParty((await history(alice, 'limit=100')).body), [true]);
    });

    it('answers an unknown account with an empty list, and bad input with 400', async () => {
        const empty = await history(`0:${'ab'.repeat(32)}`, 'limit=10');
        assert.equal(empty.status, 200);
        assert.deepEqual(empty.body.operations, []);
        const alice = accountNamed(manifest, 'alice-v3r2').address;
        assertError(await history(alice, ''), 400, 'limit');
        assertError(await history(alice, 'limit=0'), 400, 'limit');
        assertError(await history(alice, 'limit=1001'), 400, 'limit');
        assertError(await history(alice, 'limit=5&before_lt=x'), 400, 'before_lt');
        assertError(await history('not-an-address', 'limit=5'), 400, 'not-an-address');
    });
});

describe('POST /v2/pubkeys/wallets/_bulk on the seeded devnet', () => {
    const bulk = (body: unknown) => call('getWalletsByPublicKeyBulk', `${service.base}/pubkeys/wallets/_bulk`, { method: 'POST', json: body });

    it("returns both of bob's wallets (v4r2 and v5r1 share his key), one item per key in request order", async () => {
        const bobV4 = accountNamed(manifest, 'bob-v4r2');
        const bobV5 = accountNamed(manifest, 'bob-v5r1');
        const alice = accountNamed(manifest, 'alice-v3r2');
        const unknown = 'ab'.repeat(32);
        const response = await bulk({ public_keys: [bobV4.public_key!.toUpperCase(), unknown, alice.public_key, bobV4.public_key] });
        assert.equal(response.status, 200);
        const items = response.body.items;
        assert.deepEqual(items.map((i: any) => i.public_key), [bobV4.public_key, unknown, alice.public_key, bobV4.public_key]);
        assert.deepEqual(items[0].wallets.map((w: any) => w.address).sort(), [bobV4.address, bobV5.address].sort());
        assert.deepEqual(items[1].wallets, []);
        assert.deepEqual(items[3], items[0]);
        const v4 = items[0].wallets.find((w: any) => w.address === bobV4.address);
        const v5 = items[0].wallets.find((w: any) => w.address === bobV5.address);
        assert.deepEqual(v4.interfaces, ['wallet_v4r2']);
        assert.deepEqual(v5.interfaces, ['wallet_v5r1']);
        assert.equal(v5.signature_disabled, false);
        assert.deepEqual(v4.get_methods, ['get_plugin_list', 'get_public_key', 'get_subwallet_id', 'is_plugin_installed', 'seqno']);
        assert.deepEqual(v5.get_methods, ['get_extensions', 'get_public_key', 'get_subwallet_id', 'is_signature_allowed', 'seqno']);
        assert.deepEqual(v4.plugins, []);
        assert.equal(v4.status, 'active');
        assert.equal(v4.stats.jettons_count, 2, 'bob holds DUSD and DPTS');
        assert.equal(v4.stats.nfts_count, 1, 'alice gave bob item 0');
        assert.equal(v5.stats.nfts_count, 1, 'bob-v5r1 kept item 1');
        assert.equal(v5.stats.jettons_count, 2, 'bob-v5r1 holds DSTB, whose wallet runs library code, and the DUSD the 2-of-3 multisig v2 sent him');
        const [aliceWallet] = items[2].wallets;
        assert.equal(aliceWallet.address, alice.address);
        assert.equal(aliceWallet.stats.jettons_count, 3, 'DUSD, DPTS and DSTB');
        assert.ok(BigInt(aliceWallet.balance) > 0n);
    });

    it("counts the seeded multisig v1 (owners: bob's key and alice's) for their wallets, and the multisigs v2 for their signers and proposers", async () => {
        const bobV4 = accountNamed(manifest, 'bob-v4r2');
        const bobV5 = accountNamed(manifest, 'bob-v5r1');
        const alice = accountNamed(manifest, 'alice-v3r2');
        const faucet = accountNamed(manifest, 'faucet');
        assert.equal(accountNamed(manifest, 'devnet-multisig').kind, 'multisig_v1');
        const response = await bulk({ public_keys: [bobV4.public_key, alice.public_key, faucet.public_key] });
        assert.equal(response.status, 200);
        const countOf = Object.fromEntries(response.body.items.flatMap((item: any) => item.wallets.map((w: any) => [w.address, w.stats.multisig_count])));
        // v2: the faucet, alice and bob-v4r2 sign the 2-of-3 and the 3-of-5; bob-v5r1 proposes in the 3-of-5.
        assert.deepEqual(countOf, { [bobV4.address]: 3, [bobV5.address]: 2, [alice.address]: 3, [faucet.address]: 2 });
    });

    it('rejects an empty list, bad keys and more than 100 keys with 400', async () => {
        assertError(await bulk({ public_keys: [] }), 400, 'public_keys');
        assertError(await bulk({ public_keys: ['zz'] }), 400, 'public_keys');
        assertError(await bulk({ public_keys: ['ab'.repeat(31)] }), 400, 'public_keys');
        assertError(await bulk({ public_keys: Array.from({ length: 101 }, () => 'ab'.repeat(32)) }), 400, 'public_keys');
        assertError(await bulk({}), 400, 'public_keys');
    });
});
