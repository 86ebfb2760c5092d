import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import Database from 'better-sqlite3';
import { Address, Cell, internal, toNano } from '@ton/core';
import { startService } from '../../src/app.ts';
import { ConfigError, DEFAULT_CONFIG } from '../../src/config/config.ts';
import { DEVNET_EXTRA_CURRENCY_ID } from '../../src/chain/devnet/extra-currency.ts';
import { SEED_EXTRA_CURRENCY_TRANSFER } from '../../src/chain/devnet/seed.ts';
import { DevnetWallet } from '../../src/chain/devnet/wallets.ts';
import { accountState } from '../../src/store/read/chain-state.ts';
import { startDevnetService, waitForSeed, type DevnetService } from '../helpers/devnet-service.ts';
import { tempDir } from '../helpers/stores.ts';
import { accountNamed, assertError, call, manifestOf, type ManifestAccount } from './api-call.ts';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = any;
interface TraceNode { transaction: Json; interfaces: string[]; children?: TraceNode[] }

/** The devnet's currency as its table (src/chain/devnet/extra-currencies.json) describes it. */
const DGEM = { id: 100, symbol: 'DGEM', decimals: 6, image: '' };
/** What alice-v3r2 holds at genesis: a million DGEM. */
const GENESIS_DGEM = 1_000_000_000_000n;
const SEEDED = SEED_EXTRA_CURRENCY_TRANSFER;

let service: DevnetService;
let manifest: { accounts: ManifestAccount[]; extra_currencies?: Json[] };

before(async () => {
    service = await startDevnetService();
    await waitForSeed(service);
    manifest = await manifestOf(service.base);
});

after(async () => {
    await service?.dispose();
});

function nodes(trace: TraceNode): TraceNode[] {
    return [trace, ...(trace.children ?? []).flatMap(nodes)];
}

async function transactionsOf(base: string, address: string): Promise<Json[]> {
    const response = await call('getBlockchainAccountTransactions', `${base}/blockchain/accounts/${address}/transactions?limit=1000`);
    assert.equal(response.status, 200, response.text);
    return response.body.transactions;
}

async function extraBalanceOf(target: DevnetService, address: string): Promise<Json> {
    const row = await accountState(target.store.db, address);
    assert.ok(row, `${address} is indexed`);
    return row.extra_balance === null ? null : JSON.parse(row.extra_balance);
}

/** The seeded extra currency transfer: bob-v5r1's receipt and the trace it is in. */
async function seededTransfer(target: DevnetService, m: { accounts: ManifestAccount[] }) {
    const bob = accountNamed(m, SEEDED.to).address;
    const receipts = (await transactionsOf(target.base, bob)).filter(t => t.in_msg?.value_extra !== undefined);
    assert.equal(receipts.length, 1, 'bob-v5r1 received extra currency once');
    const response = await call('getTrace', `${target.base}/traces/${receipts[0].hash}`);
    assert.equal(response.status, 200, response.text);
    return { receipt: receipts[0], trace: response.body as TraceNode };
}

/** A transfer signed now by a seeded wallet (its seqno as indexed), base64. */
async function signed(target: DevnetService, m: { accounts: ManifestAccount[] }, name: string, messages: Parameters<DevnetWallet['transfer']>[2]): Promise<string> {
    const entry = accountNamed(m, name);
    const wallet = DevnetWallet.fromManifest(entry);
    const row = await accountState(target.store.db, entry.address);
    const seqno = row?.status === 'active' && row.data ? DevnetWallet.seqnoFromData(wallet.kind, Cell.fromBoc(row.data)[0]) : 0;
    const cell = await wallet.transfer(seqno, Math.floor(Date.now() / 1000) + 300, messages);
    return cell.toBoc().toString('base64');
}

function gems(to: string, amount: bigint, grams: bigint, text: string) {
    return internal({ to: Address.parseRaw(to), value: grams, extracurrency: { [DEVNET_EXTRA_CURRENCY_ID]: amount }, bounce: true, body: text });
}

describe('the devnet extra currency', () => {
    it('is minted at genesis for alice-v3r2 and described in the manifest from the devnet table', () => {
        assert.equal(DEVNET_EXTRA_CURRENCY_ID, DGEM.id);
        assert.deepEqual(manifest.extra_currencies, [{ ...DGEM, name: 'Devnet Gem', holders: ['alice-v3r2'] }]);
    });

    it('moves with the seeded transfer: the real TVM debits alice and credits bob-v5r1, and the index keeps both balances', async () => {
        assert.deepEqual(await extraBalanceOf(service, accountNamed(manifest, SEEDED.from).address), { 100: (GENESIS_DGEM - SEEDED.amount).toString() });
        assert.deepEqual(await extraBalanceOf(service, accountNamed(manifest, SEEDED.to).address), { 100: SEEDED.amount.toString() });
        assert.equal(await extraBalanceOf(service, accountNamed(manifest, 'bob-v4r2').address), null, 'accounts without extra currencies hold none');
    });

    it('shows in the trace: value_extra on the message at both ends, with the preview from the table', async () => {
        const { receipt, trace } = await seededTransfer(service, manifest);
        const alice = accountNamed(manifest, SEEDED.from).address;
        const bob = accountNamed(manifest, SEEDED.to).address;
        assert.equal(trace.transaction.account.address, alice, 'the trace starts at alice\'s external');
        assert.equal(trace.transaction.in_msg.msg_type, 'ext_in_msg');
        assert.equal(trace.transaction.in_msg.value_extra, undefined, 'external messages carry no currencies');
        assert.equal(trace.transaction.success, true);
        assert.equal(trace.children?.length, 1);
        const child = trace.children![0].transaction;
        assert.equal(child.hash, receipt.hash);
        assert.equal(child.account.address, bob);
        assert.equal(child.success, true);
        const expected = [{ amount: SEEDED.amount.toString(), preview: DGEM }];
        assert.deepEqual(child.in_msg.value_extra, expected);
        assert.equal(child.in_msg.value, Number(SEEDED.grams));
        assert.deepEqual(child.in_msg.decoded_body, { text: SEEDED.comment });
        assert.deepEqual(trace.transaction.out_msgs, [child.in_msg], 'the sender\'s out_msg is the same message');
        // Only this message of the whole trace carries extra currencies.
        assert.equal(nodes(trace).flatMap(n => [n.transaction.in_msg, ...n.transaction.out_msgs]).filter(m => m?.value_extra).length, 2);

        // The account's transaction list presents the same message.
        const sent = (await transactionsOf(service.base, alice)).find(t => t.hash === trace.transaction.hash);
        assert.deepEqual(sent.out_msgs[0].value_extra, expected);
    });

    it('is the only seeded message with extra currencies', async () => {
        let carrying = 0;
        for (const account of manifest.accounts) {
            for (const tx of await transactionsOf(service.base, account.address)) {
                for (const m of [tx.in_msg, ...tx.out_msgs]) if (m?.value_extra) carrying++;
            }
        }
        // alice's out_msg and bob-v5r1's in_msg
        assert.equal(carrying, 2);
    });
});

describe('emulating an extra currency transfer', () => {
    const amount = 1_234_567n;
    const grams = toNano('0.05');
    const text = 'gems over lunch';

    function assertTransferAction(action: Json, alice: string, bob: string) {
        assert.equal(action.type, 'ExtraCurrencyTransfer');
        assert.equal(action.status, 'ok');
        assert.deepEqual(action.ExtraCurrencyTransfer, {
            sender: { address: alice, is_scam: false, is_wallet: true },
            recipient: { address: bob, is_scam: false, is_wallet: true },
            amount: amount.toString(),
            comment: text,
            currency: DGEM,
        });
        assert.equal(action.simple_preview.name, 'Extra Currency Transfer');
        assert.equal(action.simple_preview.value, '1.23 DGEM');
        assert.equal(action.simple_preview.description, 'Transferring 1.23 DGEM');
    }

    it('POST /v2/accounts/{id}/events/emulate gives an ExtraCurrencyTransfer with the exact amount, parties, comment and currency', async () => {
        const alice = accountNamed(manifest, 'alice-v3r2').address;
        const bob = accountNamed(manifest, 'bob-v4r2').address;
        const boc = await signed(service, manifest, 'alice-v3r2', [gems(bob, amount, grams, text)]);
        for (const viewer of [alice, bob]) {
            const response = await call('emulateMessageToAccountEvent', `${service.base}/accounts/${viewer}/events/emulate`, { method: 'POST', json: { boc } });
            assert.equal(response.status, 200, response.text);
            const event = response.body;
            assert.equal(event.account.address, viewer);
            assert.equal(event.actions.length, 1, JSON.stringify(event.actions));
            assertTransferAction(event.actions[0], alice, bob);
            assert.deepEqual(event.actions[0].simple_preview.accounts.map((a: Json) => a.address), [viewer === alice ? bob : alice]);
        }
        const ru = await call('emulateMessageToAccountEvent', `${service.base}/accounts/${bob}/events/emulate`, { method: 'POST', json: { boc }, headers: { 'accept-language': 'ru' } });
        assert.equal(ru.body.actions[0].simple_preview.description, 'Перевод 1.23 DGEM');
    });

    it('POST /v2/wallet/emulate gives the wallet\'s ExtraCurrencyTransfer and the currency on the emulated message, and writes nothing', async () => {
        const alice = accountNamed(manifest, 'alice-v3r2').address;
        const bob = accountNamed(manifest, 'bob-v4r2').address;
        const boc = await signed(service, manifest, 'alice-v3r2', [gems(bob, amount, grams, text)]);
        const response = await call('emulateMessageToWallet', `${service.base}/wallet/emulate`, { method: 'POST', json: { boc } });
        assert.equal(response.status, 200, response.text);
        const { trace, event } = response.body;
        assert.equal(trace.transaction.account.address, alice);
        assert.equal(trace.children.length, 1);
        const receipt = trace.children[0].transaction;
        assert.equal(receipt.account.address, bob);
        assert.equal(receipt.success, true);
        assert.deepEqual(receipt.in_msg.value_extra, [{ amount: amount.toString(), preview: DGEM }]);
        assert.equal(receipt.in_msg.value, Number(grams));
        assert.equal(event.account.address, alice);
        assert.equal(event.actions.length, 1);
        assertTransferAction(event.actions[0], alice, bob);
        assert.deepEqual(event.actions[0].base_transactions, [receipt.hash]);
        // The grams sent along are not part of the action: they count in extra with the fees.
        assert.ok(event.extra < -Number(grams) && event.extra > -Number(grams) - 100_000_000, `extra ${event.extra}`);
        // Emulation writes nothing: alice still holds what the seed left her.
        assert.deepEqual(await extraBalanceOf(service, alice), { 100: (GENESIS_DGEM - SEEDED.amount).toString() });
        assert.equal(await extraBalanceOf(service, bob), null);
    });

    it('answers 406 for a transfer of more than the wallet holds: the emulator fails on it instead of producing a transaction', async () => {
        const alice = accountNamed(manifest, 'alice-v3r2').address;
        const bob = accountNamed(manifest, 'bob-v4r2').address;
        const boc = await signed(service, manifest, 'alice-v3r2', [gems(bob, GENESIS_DGEM, grams, 'more than I have')]);
        const event = await call('emulateMessageToAccountEvent', `${service.base}/accounts/${alice}/events/emulate`, { method: 'POST', json: { boc } });
        assertError(event, 406, 'emulator', 'extra currency');
        const wallet = await call('emulateMessageToWallet', `${service.base}/wallet/emulate`, { method: 'POST', json: { boc } });
        assertError(wallet, 406, 'emulator', 'extra currency');
        // The emulator is still usable afterwards.
        const fine = await signed(service, manifest, 'alice-v3r2', [gems(bob, amount, grams, text)]);
        const again = await call('emulateMessageToAccountEvent', `${service.base}/accounts/${alice}/events/emulate`, { method: 'POST', json: { boc: fine } });
        assert.equal(again.status, 200, again.text);
        assert.equal(again.body.actions[0].type, 'ExtraCurrencyTransfer');
    });
});

describe('sending an extra currency transfer to the devnet', () => {
    it('executes and indexes it; one the emulator cannot run is refused with 400 and the chain goes on', async () => {
        const alice = accountNamed(manifest, 'alice-v3r2').address;
        const bob = accountNamed(manifest, 'bob-v4r2').address;
        const send = (boc: string) => call('sendBlockchainMessage', `${service.base}/blockchain/message`, { method: 'POST', json: { boc } });
        const held = BigInt((await extraBalanceOf(service, alice))[100]);

        const refused = await send(await signed(service, manifest, 'alice-v3r2', [gems(bob, held + 1n, toNano('0.05'), 'overdraft')]));
        assertError(refused, 400, 'emulator', 'extra currency');
        assert.deepEqual(await extraBalanceOf(service, alice), { 100: held.toString() }, 'nothing was applied');

        const sent = await send(await signed(service, manifest, 'alice-v3r2', [gems(bob, 7_000_000n, toNano('0.05'), 'seven gems')]));
        assert.equal(sent.status, 200, sent.text);
        const trace = (await call('getTrace', `${service.base}/traces/${sent.body.trace_id}`)).body as TraceNode;
        assert.equal(trace.transaction.in_msg.hash, sent.body.message_hash);
        assert.deepEqual(trace.children!.map(c => c.transaction.in_msg.value_extra), [[{ amount: '7000000', preview: DGEM }]]);
        assert.equal(trace.children![0].transaction.account.address, bob);
        assert.deepEqual(await extraBalanceOf(service, alice), { 100: (held - 7_000_000n).toString() });
        assert.deepEqual(await extraBalanceOf(service, bob), { 100: '7000000' });
    });
});

describe('a service with its own extra currency table', () => {
    let custom: DevnetService;
    let customManifest: { accounts: ManifestAccount[] };

    before(async () => {
        const dir = tempDir();
        const table = join(dir.path, 'currencies.json');
        // An operator's table that does not list the devnet's currency.
        writeFileSync(table, JSON.stringify({ extra_currencies: [{ id: 7, symbol: 'SVN', decimals: 2 }] }));
        custom = await startDevnetService({ extraCurrencies: table });
        await waitForSeed(custom);
        customManifest = await manifestOf(custom.base);
        const dispose = custom.dispose.bind(custom);
        custom.dispose = async () => {
            await dispose();
            dir.remove();
        };
    });

    after(async () => {
        await custom?.dispose();
    });

    it('shows a currency its table does not list by id, with 9 decimals and an empty symbol', async () => {
        const { trace } = await seededTransfer(custom, customManifest);
        assert.deepEqual(trace.children![0].transaction.in_msg.value_extra, [
            { amount: SEEDED.amount.toString(), preview: { id: 100, symbol: '', decimals: 9, image: '' } },
        ]);
        const bob = accountNamed(customManifest, 'bob-v4r2').address;
        const boc = await signed(custom, customManifest, 'alice-v3r2', [gems(bob, 25_000_000n, toNano('0.05'), 'unlisted')]);
        const response = await call('emulateMessageToAccountEvent', `${custom.base}/accounts/${bob}/events/emulate`, { method: 'POST', json: { boc } });
        assert.equal(response.status, 200, response.text);
        const [action] = response.body.actions;
        assert.equal(action.type, 'ExtraCurrencyTransfer');
        assert.deepEqual(action.ExtraCurrencyTransfer.currency, { id: 100, symbol: '', decimals: 9, image: '' });
        assert.equal(action.ExtraCurrencyTransfer.amount, '25000000');
        assert.equal(action.simple_preview.value, '0.025 #100');
    });

    it('refuses to start with a table that is not valid, naming the file and the fault', async () => {
        const dir = tempDir();
        try {
            const table = join(dir.path, 'bad.json');
            writeFileSync(table, JSON.stringify({ extra_currencies: [{ id: 7, symbol: 'SVN', decimals: -1 }] }));
            await assert.rejects(startService({ ...DEFAULT_CONFIG, dataDir: dir.path, port: 0, liteserverPort: 0, extraCurrencies: table }), (error: Error) => {
                assert.ok(error instanceof ConfigError, error.message);
                assert.match(error.message, /bad\.json/);
                assert.match(error.message, /decimals/);
                return true;
            });
            await assert.rejects(startService({ ...DEFAULT_CONFIG, dataDir: dir.path, port: 0, liteserverPort: 0, extraCurrencies: join(dir.path, 'missing.json') }), /missing\.json/);
        } finally {
            dir.remove();
        }
    });
});

describe('a devnet data directory of an earlier version', () => {
    it('is refused with what to do, not continued (its blocks were not real TON blocks)', async () => {
        const dir = tempDir();
        try {
            mkdirSync(join(dir.path, 'devnet'), { recursive: true });
            const log = new Database(join(dir.path, 'devnet', 'chain.sqlite'));
            log.exec('CREATE TABLE blocks (seq INTEGER PRIMARY KEY, workchain INTEGER NOT NULL, seqno INTEGER NOT NULL, utime INTEGER NOT NULL, record TEXT NOT NULL)');
            log.close();
            await assert.rejects(startDevnetService({}, dir.path), /earlier version of native-explorer.*new --data-dir/);
        } finally {
            dir.remove();
        }
    });
});
