import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { startDevnetService, waitForSeed, type DevnetService } from '../helpers/devnet-service.ts';
import { accountNamed, assertError, call, manifestOf, type ManifestAccount } from './api-call.ts';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = any;

const GENESIS_FAUCET_BALANCE = 10n ** 18n;
const MAX_SAFE = BigInt(Number.MAX_SAFE_INTEGER);
/** 2^53 + 1: the smallest positive integer a JS number cannot hold. */
const UNSAFE_AMOUNT = 9007199254740993n;
const FAUCET_CAP = 2n ** 60n;

let service: DevnetService;
let faucet: ManifestAccount;

/** Every `"name":<integer>` in raw JSON text, in document order, as exact bigints. */
function integersNamed(text: string, name: string): bigint[] {
    return [...text.matchAll(new RegExp(`"${name}":(-?[0-9]+)[,}\\]]`, 'g'))].map(m => BigInt(m[1]));
}

/** Index rows read with exact 64-bit integers, independently of the API. */
function indexedEndBalances(account: string): Map<string, bigint> {
    const db = new Database(join(service.dataDir, 'index.sqlite'), { readonly: true, fileMustExist: true });
    try {
        db.defaultSafeIntegers(true);
        const rows = db.prepare('SELECT hash, end_balance FROM transactions WHERE account = ?').all(account) as Array<{ hash: string; end_balance: bigint | null }>;
        return new Map(rows.map(r => [r.hash, r.end_balance!]));
    } finally {
        db.close();
    }
}

/**
 * The faucet's balance after each of its transactions, newest first, computed from genesis with
 * bigint arithmetic on the small (safe) amounts the chain reports: what came in, minus fees,
 * minus what went out with its forwarding fee.
 */
function balancesFromGenesis(newestFirst: Json[]): bigint[] {
    let balance = GENESIS_FAUCET_BALANCE;
    const out: bigint[] = [];
    for (const tx of [...newestFirst].reverse()) {
        for (const small of [tx.total_fees, tx.in_msg?.value ?? 0, ...tx.out_msgs.flatMap((m: Json) => [m.value, m.fwd_fee])]) {
            assert.ok(Number.isSafeInteger(small), 'fees and transfer values are exact JS numbers');
        }
        balance += BigInt(tx.in_msg?.value ?? 0);
        balance -= BigInt(tx.total_fees);
        for (const m of tx.out_msgs) balance -= BigInt(m.value) + BigInt(m.fwd_fee);
        out.push(balance);
    }
    return out.reverse();
}

/** The check the test makes on a response text: end_balance digits exactly as expected. */
function assertExactEndBalances(text: string, expected: bigint[]): void {
    assert.deepEqual(integersNamed(text, 'end_balance'), expected);
}

before(async () => {
    service = await startDevnetService({ faucetCap: FAUCET_CAP });
    await waitForSeed(service);
    faucet = accountNamed(await manifestOf(service.base), 'faucet');
});

after(async () => {
    await service?.dispose();
});

describe('int64 values above 2^53', () => {
    it('writes the faucet wallet’s balance (> 2^53) exactly as a JSON integer', async () => {
        const list = () => call('getBlockchainAccountTransactions', `${service.base}/blockchain/accounts/${faucet.address}/transactions`);
        let response = await list();
        assert.equal(response.status, 200);
        assert.ok(response.body.transactions.length >= 2, 'the faucet sent the welcome transfer and received split 3/3');
        // A balance whose digits a double cannot reproduce (e.g. one ending in 999, not 400) makes a
        // lossy serializer visible; fees vary with time, so add faucet activity until there is one.
        for (let attempt = 0; attempt < 20 && !integersNamed(response.text, 'end_balance').some(b => String(Number(b)) !== String(b)); attempt++) {
            const sent = await call('devnetFaucet', `${service.base}/devnet/faucet`, { method: 'POST', json: { address: `0:${randomBytes(32).toString('hex')}`, amount: 1 + attempt } });
            assert.equal(sent.status, 200, sent.text);
            response = await list();
        }
        const txs = response.body.transactions as Json[];

        const fromGenesis = balancesFromGenesis(txs);
        const indexed = indexedEndBalances(faucet.address);
        assert.deepEqual(txs.map(t => indexed.get(t.hash)), fromGenesis, 'the index agrees with the balance computed from genesis');
        for (const balance of fromGenesis) assert.ok(balance > MAX_SAFE && balance < GENESIS_FAUCET_BALANCE);

        // The response text carries exactly these digits, as numbers (not strings).
        assertExactEndBalances(response.text, fromGenesis);
        for (const balance of fromGenesis) assert.ok(response.text.includes(`"end_balance":${balance}`));
        assert.ok(!response.text.includes('"end_balance":"'), 'integers, not strings');

        // JSON.parse rounds them: the raw text is the only exact source …
        const rounded = txs.map(t => BigInt(t.end_balance));
        assert.ok(rounded.some((r, i) => r !== fromGenesis[i]), 'at least one balance is not representable as a double');
        assert.ok(fromGenesis.some(b => String(Number(b)) !== String(b)), 'at least one balance is spelled differently by a double');
        // … so a lossy serializer (double round trip) would fail the check above.
        const lossy = JSON.stringify(JSON.parse(response.text));
        assert.throws(() => assertExactEndBalances(lossy, fromGenesis), assert.AssertionError);
    });

    it('keeps the balance exact in traces too', async () => {
        const list = await call('getBlockchainAccountTransactions', `${service.base}/blockchain/accounts/${faucet.address}/transactions`);
        const indexed = indexedEndBalances(faucet.address);
        for (const tx of list.body.transactions as Json[]) {
            const trace = await call('getTrace', `${service.base}/traces/${tx.hash}`);
            assert.equal(trace.status, 200);
            assert.ok(trace.text.includes(`"hash":"${tx.hash}","lt":${tx.lt},`), 'the transaction is in its trace');
            assert.ok(trace.text.includes(`"end_balance":${indexed.get(tx.hash)}`), `exact end_balance of ${tx.hash} in its trace`);
        }
    });

    it('receives a request body integer above 2^53 exactly (faucet amount 2^53 + 1)', async () => {
        const to = `0:${randomBytes(32).toString('hex')}`;
        // Written by hand: JSON.stringify of a number would already have rounded it.
        const body = `{"address":"${to}","amount":${UNSAFE_AMOUNT}}`;
        assert.notEqual(BigInt(JSON.parse(body).amount), UNSAFE_AMOUNT, 'a double cannot carry this amount');

        const response = await call('devnetFaucet', `${service.base}/devnet/faucet`, { method: 'POST', json: body });
        assert.equal(response.status, 200, response.text);
        assert.deepEqual(integersNamed(response.text, 'amount'), [UNSAFE_AMOUNT]);

        const received = await call('getBlockchainAccountTransactions', `${service.base}/blockchain/accounts/${to}/transactions`);
        assert.equal(received.status, 200);
        assert.equal(received.body.transactions.length, 1);
        // The in_msg value is the only "value" of the recipient's transaction (it sent nothing).
        assert.deepEqual(integersNamed(received.text, 'value'), [UNSAFE_AMOUNT]);
        assert.deepEqual(integersNamed(received.text, 'end_balance'), [UNSAFE_AMOUNT]);
        assert.equal(indexedEndBalances(to).get(received.body.transactions[0].hash), UNSAFE_AMOUNT);

        // The faucet's own outgoing message carries it too.
        const trace = await call('getTrace', `${service.base}/traces/${response.body.trace_id}`);
        assert.equal(trace.status, 200);
        assert.ok(integersNamed(trace.text, 'value').filter(v => v === UNSAFE_AMOUNT).length >= 2, 'out_msg of the faucet and in_msg of the recipient');
    });

    it('echoes body integers exactly in errors and rejects those beyond int64', async () => {
        const to = `0:${randomBytes(32).toString('hex')}`;
        const maxInt64 = 2n ** 63n - 1n;
        const overCap = await call('devnetFaucet', `${service.base}/devnet/faucet`, { method: 'POST', json: `{"address":"${to}","amount":${maxInt64}}` });
        assertError(overCap, 400, `amount ${maxInt64} exceeds`, String(FAUCET_CAP));
        const beyond = await call('devnetFaucet', `${service.base}/devnet/faucet`, { method: 'POST', json: `{"address":"${to}","amount":${maxInt64 + 1n}}` });
        assertError(beyond, 400, 'amount', '64-bit');
        const justOverCap = await call('devnetFaucet', `${service.base}/devnet/faucet`, { method: 'POST', json: `{"address":"${to}","amount":${FAUCET_CAP + 1n}}` });
        assertError(justOverCap, 400, `amount ${FAUCET_CAP + 1n} exceeds`);
    });
});
