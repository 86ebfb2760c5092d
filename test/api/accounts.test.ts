import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Address } from '@ton/core';
import { startDevnetService, waitForSeed, type DevnetService } from '../helpers/devnet-service.ts';
import { accountNamed, assertError, call, manifestOf, type ManifestAccount } from './api-call.ts';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = any;

let service: DevnetService;
let manifest: { accounts: ManifestAccount[] };
/** bob-v4r2 takes part in most seeded traces: the account with the most transactions. */
let bob: ManifestAccount;
let bobAll: Json[];

async function transactions(account: string, query = '') {
    return call('getBlockchainAccountTransactions', `${service.base}/blockchain/accounts/${encodeURIComponent(account)}/transactions${query}`);
}

before(async () => {
    service = await startDevnetService();
    await waitForSeed(service);
    manifest = await manifestOf(service.base);
    bob = accountNamed(manifest, 'bob-v4r2');
    const response = await transactions(bob.address, '?limit=1000');
    assert.equal(response.status, 200);
    bobAll = response.body.transactions;
});

after(async () => {
    await service?.dispose();
});

describe('GET /v2/blockchain/accounts/{account_id}/transactions', () => {
    it('lists the account’s transactions, newest first', () => {
        // deploy external, the transfer to nowhere and its bounce, receipts from alice (x2), bob-v5r1 (x1) …
        assert.ok(bobAll.length >= 6, `bob-v4r2 has ${bobAll.length} transactions`);
        for (const tx of bobAll) assert.equal(tx.account.address, bob.address);
        for (let i = 1; i < bobAll.length; i++) {
            assert.ok(BigInt(bobAll[i - 1].lt) > BigInt(bobAll[i].lt), 'strictly descending lt');
            // Each transaction names its predecessor on the account chain.
            assert.equal(bobAll[i - 1].prev_trans_hash, bobAll[i].hash);
            assert.equal(String(bobAll[i - 1].prev_trans_lt), String(bobAll[i].lt));
        }
        assert.equal(bobAll[bobAll.length - 1].prev_trans_lt, 0, 'the oldest transaction is the first of the account');
    });

    it('uses 100 as the default limit and honours smaller ones', async () => {
        const all = await transactions(bob.address);
        assert.deepEqual(all.body.transactions.map((t: Json) => t.hash), bobAll.map(t => t.hash));
        for (const limit of [1, 2, 3]) {
            const page = await transactions(bob.address, `?limit=${limit}`);
            assert.equal(page.status, 200);
            assert.deepEqual(page.body.transactions.map((t: Json) => t.hash), bobAll.slice(0, limit).map(t => t.hash));
        }
    });

    it('pages with before_lt (exclusive), returning every transaction exactly once', async () => {
        for (const limit of [1, 2, 4]) {
            const seen: string[] = [];
            let beforeLt: string | undefined;
            for (let guard = 0; guard < 100; guard++) {
                const page = await transactions(bob.address, `?limit=${limit}${beforeLt !== undefined ? `&before_lt=${beforeLt}` : ''}`);
                assert.equal(page.status, 200);
                const txs = page.body.transactions as Json[];
                assert.ok(txs.length <= limit);
                if (beforeLt !== undefined) for (const tx of txs) assert.ok(BigInt(tx.lt) < BigInt(beforeLt), 'before_lt is an upper bound');
                seen.push(...txs.map(t => t.hash));
                if (txs.length < limit) break;
                beforeLt = String(txs[txs.length - 1].lt);
            }
            assert.deepEqual(seen, bobAll.map(t => t.hash), `paging with limit ${limit}`);
        }
    });

    it('excludes the transaction whose lt equals before_lt and includes the one just below', async () => {
        const [newest, second] = bobAll;
        const page = await transactions(bob.address, `?before_lt=${newest.lt}&limit=1`);
        assert.deepEqual(page.body.transactions.map((t: Json) => t.hash), [second.hash]);
        const justAbove = await transactions(bob.address, `?before_lt=${BigInt(newest.lt) + 1n}&limit=1`);
        assert.deepEqual(justAbove.body.transactions.map((t: Json) => t.hash), [newest.hash]);
        const oldest = bobAll[bobAll.length - 1];
        const none = await transactions(bob.address, `?before_lt=${oldest.lt}`);
        assert.deepEqual(none.body, { transactions: [] });
    });

    it('accepts limits 1 and 1000 and rejects 0, 1001 and non-integers', async () => {
        assert.equal((await transactions(bob.address, '?limit=1')).body.transactions.length, 1);
        assert.equal((await transactions(bob.address, '?limit=1000')).body.transactions.length, bobAll.length);
        assertError(await transactions(bob.address, '?limit=0'), 400, 'limit');
        assertError(await transactions(bob.address, '?limit=1001'), 400, 'limit');
        assertError(await transactions(bob.address, '?limit=-1'), 400, 'limit');
        assertError(await transactions(bob.address, '?limit=ten'), 400, 'limit');
        assertError(await transactions(bob.address, '?limit=2.5'), 400, 'limit');
    });

    it('rejects a before_lt that is not a signed 64-bit integer', async () => {
        assertError(await transactions(bob.address, '?before_lt=abc'), 400, 'before_lt');
        assertError(await transactions(bob.address, '?before_lt=1.5'), 400, 'before_lt');
        assertError(await transactions(bob.address, '?before_lt=9223372036854775808'), 400, 'before_lt');
        assertError(await transactions(bob.address, '?before_lt=99999999999999999999'), 400, 'before_lt');
        const max = await transactions(bob.address, '?before_lt=9223372036854775807');
        assert.deepEqual(max.body.transactions.map((t: Json) => t.hash), bobAll.map(t => t.hash));
    });

    it('gives the same result for every spelling of the address', async () => {
        const reference = (await transactions(bob.address, '?limit=1000')).text;
        const address = Address.parseRaw(bob.address);
        const hex = bob.address.split(':')[1];
        const spellings = new Set<string>([
            `0:${hex.toUpperCase()}`,
            `0:${hex.slice(0, 10).toUpperCase()}${hex.slice(10)}`,
            bob.friendly_address,
        ]);
        for (const bounceable of [true, false]) {
            for (const testOnly of [true, false]) {
                for (const urlSafe of [true, false]) spellings.add(address.toString({ bounceable, testOnly, urlSafe }));
            }
        }
        // Four url-safe friendly forms (flags differ) and upper-case raw at least; standard base64 adds more when it has + or /.
        assert.ok(spellings.size >= 5, `${spellings.size} spellings`);
        for (const spelling of spellings) {
            const response = await transactions(spelling, '?limit=1000');
            assert.equal(response.status, 200, `${spelling}: ${response.text}`);
            assert.equal(response.text, reference, `address spelled ${spelling}`);
        }
    });

    it('rejects a friendly address with a bad checksum, naming it', async () => {
        const friendly = Address.parseRaw(bob.address).toString({ bounceable: true, urlSafe: true });
        const last = friendly[friendly.length - 1];
        const broken = friendly.slice(0, -1) + (last === 'A' ? 'B' : 'A');
        assertError(await transactions(broken), 400, broken);
        for (const garbage of ['not-an-address', '0:xyz', `0:${'a'.repeat(65)}`, 'EQ']) {
            assertError(await transactions(garbage), 400, garbage);
        }
    });

    it('answers an account without transactions with 200 and an empty list', async () => {
        for (const account of [`0:${'0'.repeat(64)}`, `-1:${'7'.repeat(64)}`, '0:1']) {
            const response = await transactions(account);
            assert.equal(response.status, 200);
            assert.deepEqual(response.body, { transactions: [] });
        }
    });

    it('left-pads a short raw address', async () => {
        // bob's address with its leading zero digits stripped (when it has any) means the same account.
        const hex = bob.address.split(':')[1];
        const stripped = hex.replace(/^0+/, '');
        const response = await transactions(`0:${stripped}`, '?limit=1');
        assert.equal(response.body.transactions[0].hash, bobAll[0].hash);
        const other = await transactions(`0:${hex.slice(1)}`, '?limit=1');
        if (!hex.startsWith('0')) assert.deepEqual(other.body.transactions, [], 'a different (shifted) address has no transactions');
    });
});
