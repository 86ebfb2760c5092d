import assert from 'node:assert/strict';
import { createServer, type AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { Address, beginCell, Cell, CellType, external, internal, loadMessage, storeMessage, toNano, type MessageRelaxed } from '@ton/core';
import { WalletContractV2R2, WalletContractV4 } from '@ton/ton';
import { DevnetWallet } from '../../src/chain/devnet/wallets.ts';
import { newKeyPair } from '../../src/chain/devnet/keys.ts';
import { jettonTransferBody, jettonWalletAddress } from '../../src/chain/devnet/contracts/jetton.ts';
import { commentPayload } from '../../src/chain/devnet/contracts/payload.ts';
import { dnsItemIndex, renewDomainBody } from '../../src/chain/devnet/contracts/dns.ts';
import { nftTransferBody } from '../../src/chain/devnet/contracts/nft.ts';
import { accountState } from '../../src/store/read/chain-state.ts';
import { formatRawAddress } from '../../src/ton/address.ts';
import { startDevnetService, waitForSeed, type DevnetService } from '../helpers/devnet-service.ts';
import { accountNamed, assertError, call, manifestOf, type ManifestAccount } from './api-call.ts';

let service: DevnetService;
let manifest: { accounts: ManifestAccount[] };

before(async () => {
    service = await startDevnetService();
    await waitForSeed(service);
    manifest = await manifestOf(service.base);
});

after(async () => {
    await service?.dispose();
});

const walletEmulate = (json: unknown, query = '', headers: Record<string, string> = {}) =>
    call('emulateMessageToWallet', `${service.base}/wallet/emulate${query}`, { method: 'POST', json, headers });
const eventEmulate = (account: string, json: unknown, query = '', headers: Record<string, string> = {}) =>
    call('emulateMessageToAccountEvent', `${service.base}/accounts/${encodeURIComponent(account)}/events/emulate${query}`, { method: 'POST', json, headers });

function wallet(name: string): { wallet: DevnetWallet; address: string } {
    const entry = accountNamed(manifest, name);
    return { wallet: DevnetWallet.fromManifest(entry), address: entry.address };
}

async function indexed(address: string) {
    const row = await accountState(service.store.db, address);
    assert.ok(row, `${address} is indexed`);
    return row;
}

async function seqnoOf(name: string): Promise<number> {
    const { wallet: w, address } = wallet(name);
    return DevnetWallet.seqnoFromData(w.kind, Cell.fromBoc((await indexed(address)).data!)[0]);
}

/** The jetton wallet the master's get_wallet_address gives for the owner, as indexed. */
async function jettonWalletOf(master: string, owner: string): Promise<Address> {
    const row = await service.store.db.selectFrom('jetton_wallets').select('address').where('master', '=', master).where('owner', '=', owner).executeTakeFirst();
    assert.ok(row, `a ${master} wallet of ${owner} is indexed`);
    return Address.parseRaw(row.address);
}

function* walkJsonTrace(node: any): Generator<any> {
    yield node;
    for (const child of node.children ?? []) yield* walkJsonTrace(child);
}

const validUntil = () => Math.floor(Date.now() / 1000) + 300;

/** Two answers for the same message: the same risk (but for its equivalent), the same actions, the same trace shape. */
function assertSameConsequences(actual: any, expected: any): void {
    const { total_equivalent: _, ...risk } = expected.risk;
    assert.deepEqual(actual.risk, risk);
    const actions = (body: any) => body.event.actions.map((a: any) => [a.type, a.status, a.simple_preview.value]);
    assert.deepEqual(actions(actual), actions(expected));
    assert.equal(actual.event.account.address, expected.event.account.address);
    const accounts = (body: any) => [...walkJsonTrace(body.trace)].map(node => [node.transaction.account.address, node.transaction.success, node.emulated]);
    assert.deepEqual(accounts(actual), accounts(expected));
}

/** A loopback port nothing listens on. */
async function closedPort(): Promise<number> {
    const server = createServer();
    await new Promise<void>(resolve => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    await new Promise(resolve => server.close(resolve));
    return port;
}

async function signed(name: string, messages: MessageRelaxed[], options: { seqno?: number; mode?: number } = {}): Promise<string> {
    const { wallet: w } = wallet(name);
    const cell = await w.transfer(options.seqno ?? await seqnoOf(name), validUntil(), messages, options.mode);
    return cell.toBoc().toString('base64');
}

describe('POST /v2/wallet/emulate on the devnet', () => {
    it('emulates a v3r2 transfer with a comment: trace, risk and the wallet\'s event, without touching chain or index', async () => {
        const alice = accountNamed(manifest, 'alice-v3r2').address;
        const bob = accountNamed(manifest, 'bob-v4r2').address;
        const before = await indexed(alice);
        const txCount = async () => Number((await service.store.db.selectFrom('transactions').select(eb => eb.fn.countAll().as('n')).where('account', '=', alice).executeTakeFirst())!.n);
        const txsBefore = await txCount();

        const boc = await signed('alice-v3r2', [internal({ to: Address.parseRaw(bob), value: toNano('1.5'), body: 'lunch money' })]);
        const response = await walletEmulate({ boc });
        assert.equal(response.status, 200, response.text);
        const { trace, risk, event } = response.body;

        assert.equal(trace.emulated, true);
        assert.equal(trace.transaction.account.address, alice);
        assert.equal(trace.children.length, 1);
        assert.equal(trace.children[0].transaction.account.address, bob);
        assert.equal(trace.children[0].transaction.in_msg.decoded_body.text, 'lunch money');
        assert.ok(trace.interfaces.includes('wallet_v3r2'));

        assert.deepEqual(risk, { transfer_all_remaining_balance: false, native: 1_500_000_000, gram: 1_500_000_000, jettons: [], nfts: [] });

        assert.equal(event.account.address, alice);
        assert.equal(event.event_id, trace.transaction.hash);
        assert.equal(event.lt, trace.transaction.lt);
        assert.equal(event.in_progress, false);
        assert.equal(event.progress, 1);
        assert.equal(event.ext_msg_hash, trace.transaction.in_msg.hash);
        assert.equal(event.actions.length, 1);
        const [action] = event.actions;
        assert.equal(action.type, 'NativeTransfer');
        assert.equal(action.status, 'ok');
        assert.equal(action.NativeTransfer.amount, 1_500_000_000);
        assert.equal(action.NativeTransfer.comment, 'lunch money');
        assert.equal(action.NativeTransfer.sender.address, alice);
        assert.equal(action.NativeTransfer.recipient.address, bob);
        assert.equal(action.simple_preview.value, '1.5 gram');
        assert.deepEqual(action.base_transactions, [trace.children[0].transaction.hash]);
        // The wallet pays its own fees: extra is the (negative) fee, nothing else.
        assert.ok(event.extra < 0 && event.extra > -100_000_000, `extra ${event.extra}`);
        assert.equal(BigInt(trace.transaction.end_balance), before.balance - 1_500_000_000n - BigInt(-event.extra));

        const afterRow = await indexed(alice);
        assert.equal(afterRow.balance, before.balance, 'the index is not written');
        assert.equal(afterRow.last_tx_hash, before.last_tx_hash);
        assert.equal(await txCount(), txsBefore);
    });

    it('chooses the preview language from Accept-Language q-values', async () => {
        const bob = accountNamed(manifest, 'bob-v4r2').address;
        const boc = await signed('alice-v3r2', [internal({ to: Address.parseRaw(bob), value: toNano('2'), body: 'x' })]);
        const ru = await walletEmulate({ boc }, '', { 'accept-language': 'de;q=1, ru;q=0.8, en;q=0.5' });
        assert.equal(ru.body.event.actions[0].simple_preview.description, 'Перевод 2 gram');
        const en = await walletEmulate({ boc }, '', { 'accept-language': 'ru;q=0.3, en-GB;q=0.9' });
        assert.equal(en.body.event.actions[0].simple_preview.description, 'Transferring 2 gram');
    });

    it('converts the risk into a currency with the rates table; a currency it has no rate for only leaves the value out', async () => {
        const bob = accountNamed(manifest, 'bob-v4r2').address;
        const boc = await signed('alice-v3r2', [internal({ to: Address.parseRaw(bob), value: toNano('10'), body: 'x' })]);
        const usd = await walletEmulate({ boc }, '?currency=usd');
        assert.equal(usd.status, 200, usd.text);
        // The devnet table prices one gram at 5 USD: 10 gram → 50 USD.
        assert.equal(usd.body.risk.total_equivalent, 50);

        // The currency is for display: the emulation is answered in full, only the equivalent is missing.
        const unknown = await walletEmulate({ boc }, '?currency=XYZ');
        assert.equal(unknown.status, 200, unknown.text);
        assert.equal('total_equivalent' in unknown.body.risk, false, JSON.stringify(unknown.body.risk));
        assertSameConsequences(unknown.body, usd.body);
    });

    it('shows a jetton transfer as a JettonTransfer with the token\'s decimals, and its amount in the risk', async () => {
        const alice = accountNamed(manifest, 'alice-v3r2').address;
        const bob = accountNamed(manifest, 'bob-v4r2').address;
        const dusd = accountNamed(manifest, 'DUSD').address;
        const aliceJettonWallet = jettonWalletAddress(Address.parseRaw(alice), Address.parseRaw(dusd));
        const boc = await signed('alice-v3r2', [internal({
            to: aliceJettonWallet, value: toNano('0.1'), bounce: true,
            body: jettonTransferBody({ queryId: 77n, amount: 2_500_000n, destination: Address.parseRaw(bob), responseDestination: Address.parseRaw(alice), forwardTonAmount: 1n, forwardPayload: commentPayload('rent') }),
        })]);
        const response = await walletEmulate({ boc }, '', { 'accept-language': 'en' });
        assert.equal(response.status, 200, response.text);
        const { risk, event } = response.body;
        assert.equal(risk.jettons.length, 1);
        assert.equal(risk.jettons[0].quantity, '2500000');
        assert.equal(risk.jettons[0].wallet_address.address, `0:${aliceJettonWallet.hash.toString('hex')}`);
        assert.equal(risk.jettons[0].jetton.symbol, 'DUSD');
        assert.equal(risk.jettons[0].jetton.decimals, 6);

        const transfer = event.actions.find((a: any) => a.type === 'JettonTransfer');
        assert.ok(transfer, `actions: ${event.actions.map((a: any) => a.type)}`);
        assert.equal(transfer.status, 'ok');
        assert.equal(transfer.JettonTransfer.amount, '2500000');
        assert.equal(transfer.JettonTransfer.sender.address, alice);
        assert.equal(transfer.JettonTransfer.recipient.address, bob);
        assert.equal(transfer.JettonTransfer.comment, 'rent');
        assert.equal(transfer.JettonTransfer.jetton.address, dusd);
        assert.equal(transfer.simple_preview.value, '2.5 DUSD');
    });

    it('emulates a transfer between jetton wallets whose code is a public library cell, resolving the library from the index', async () => {
        const bobV5 = accountNamed(manifest, 'bob-v5r1').address;
        const alice = accountNamed(manifest, 'alice-v3r2').address;
        const dstb = accountNamed(manifest, 'DSTB').address;
        const bobJettonWallet = formatRawAddress(await jettonWalletOf(dstb, bobV5));
        const library = await service.store.db.selectFrom('public_libraries').select('hash').execute();
        const code = Cell.fromBoc((await indexed(bobJettonWallet)).code!)[0];
        assert.equal(code.type, CellType.Library, 'the wallet\'s code is a library cell');
        assert.ok(library.some(l => l.hash === code.beginParse(true).skip(8).loadBuffer(32).toString('hex')), 'its library is indexed');

        const boc = await signed('bob-v5r1', [internal({
            to: Address.parseRaw(bobJettonWallet), value: toNano('0.1'), bounce: true,
            body: jettonTransferBody({ queryId: 78n, amount: 3_000_000n, destination: Address.parseRaw(alice), responseDestination: Address.parseRaw(bobV5), forwardTonAmount: toNano('0.01'), forwardPayload: commentPayload('library rent') }),
        })]);
        const response = await walletEmulate({ boc }, '', { 'accept-language': 'en' });
        assert.equal(response.status, 200, response.text);
        const { trace, event, risk } = response.body;
        const failed = [...walkJsonTrace(trace)].filter(node => !node.transaction.success);
        assert.deepEqual(failed.map(node => node.transaction.account.address), [], 'every transaction of the cascade ran');
        assert.equal([...walkJsonTrace(trace)].length, 5, 'wallet, both jetton wallets, the notification and the excesses');
        assert.equal(risk.jettons[0]?.jetton.symbol, 'DSTB', JSON.stringify(risk));
        const transfer = event.actions.find((a: any) => a.type === 'JettonTransfer');
        assert.ok(transfer, `actions: ${event.actions.map((a: any) => a.type)}`);
        assert.equal(transfer.status, 'ok');
        assert.deepEqual([transfer.JettonTransfer.amount, transfer.JettonTransfer.recipient.address, transfer.JettonTransfer.comment], ['3000000', alice, 'library rent']);
        assert.equal(transfer.simple_preview.value, '3 DSTB');
    });

    it('names the devnet\'s .ton domain: a renewal is a DomainRenew of alice.ton, a transfer puts the item with its name in the risk', async () => {
        const alice = accountNamed(manifest, 'alice-v3r2').address;
        const bob = accountNamed(manifest, 'bob-v4r2').address;
        const item = accountNamed(manifest, 'alice.ton').address;
        const renew = await signed('alice-v3r2', [internal({ to: Address.parseRaw(item), value: toNano('0.02'), bounce: true, body: renewDomainBody(21n) })]);
        const renewal = await walletEmulate({ boc: renew }, '', { 'accept-language': 'en' });
        assert.equal(renewal.status, 200, renewal.text);
        const action = renewal.body.event.actions.find((a: any) => a.type === 'DomainRenew');
        assert.ok(action, `actions: ${renewal.body.event.actions.map((a: any) => a.type)}`);
        assert.deepEqual([action.status, action.DomainRenew.domain, action.DomainRenew.contract_address, action.DomainRenew.renewer.address], ['ok', 'alice.ton', item, alice]);
        assert.equal(action.simple_preview.description, 'Update alice.ton expiring time');

        const give = await signed('alice-v3r2', [internal({
            to: Address.parseRaw(item), value: toNano('0.05'), bounce: true,
            body: nftTransferBody({ queryId: 22n, newOwner: Address.parseRaw(bob), responseDestination: Address.parseRaw(alice), forwardAmount: 0n }),
        })]);
        const transfer = await walletEmulate({ boc: give });
        assert.equal(transfer.status, 200, transfer.text);
        assert.deepEqual(transfer.body.risk.nfts.map((n: any) => [n.address, n.dns]), [[item, 'alice.ton']]);
        // The item's index is a 256-bit hash; the int64 field carries its low 64 bits, exactly.
        assert.match(transfer.text, new RegExp(`"index":${BigInt.asIntN(64, dnsItemIndex('alice'))}[,}]`));
        const moved = transfer.body.event.actions.find((a: any) => a.type === 'NftItemTransfer');
        assert.equal(moved?.NftItemTransfer.recipient.address, bob);
    });

    it('emulates a message signed with a throwaway key at the real wallet named by address_override', async () => {
        const bob = wallet('bob-v4r2');
        const throwaway = new DevnetWallet('wallet_v4r2', newKeyPair());
        const alice = accountNamed(manifest, 'alice-v3r2').address;
        const seqno = await seqnoOf('bob-v4r2');
        const cell = await throwaway.transfer(seqno, validUntil(), [internal({ to: Address.parseRaw(alice), value: toNano('1'), body: 'from bob' })]);
        // Without the override the throwaway address has no code (seqno > 0: no StateInit either).
        const plain = cell.toBoc().toString('base64');
        if (seqno > 0) assertError(await walletEmulate({ boc: plain }), 400, 'no code');
        const response = await walletEmulate({ boc: plain, address_override: bob.address });
        assert.equal(response.status, 200, response.text);
        assert.equal(response.body.trace.transaction.account.address, bob.address);
        assert.equal(response.body.event.actions[0].type, 'NativeTransfer');
        assert.equal(response.body.event.actions[0].NativeTransfer.recipient.address, alice);
    });

    it('answers 406 with the exit code when the wallet refuses the message (seqno already used)', async () => {
        const bob = accountNamed(manifest, 'bob-v4r2').address;
        const stale = (await seqnoOf('alice-v3r2')) + 3;
        const boc = await signed('alice-v3r2', [internal({ to: Address.parseRaw(bob), value: toNano('1'), body: 'x' })], { seqno: stale });
        const response = await walletEmulate({ boc });
        assertError(response, 406, 'exit code 33', 'seqno');
        assert.equal(response.body.details.exit_code, 33);
    });

    it('answers 409 / 50000 with required and available when the wallet cannot pay, also with a balance override', async () => {
        const alice = accountNamed(manifest, 'alice-v3r2').address;
        const bob = accountNamed(manifest, 'bob-v4r2').address;
        const balance = (await indexed(alice)).balance;
        const boc = await signed('alice-v3r2', [internal({ to: Address.parseRaw(bob), value: balance + toNano('5'), body: 'too much' })], { mode: 3 });
        const response = await walletEmulate({ boc });
        assertError(response, 409, 'nanograms');
        assert.equal(response.body.error_code, 50000);
        assert.equal(BigInt(response.body.details.available), balance);
        const required = BigInt(response.body.details.required);
        assert.ok(required > balance + toNano('5') && required < balance + toNano('5.1'), `required ${required}`);

        const small = await signed('alice-v3r2', [internal({ to: Address.parseRaw(bob), value: toNano('1.5'), body: 'x' })]);
        const poor = await walletEmulate({ boc: small, params: [{ address: alice, balance: 1_000_000_000 }] });
        assertError(poor, 409);
        assert.equal(poor.body.details.available, 1_000_000_000);
        const rich = await walletEmulate({ boc: small, params: [{ address: alice, balance: 2_000_000_000 }] });
        assert.equal(rich.status, 200, rich.text);

        // Sending everything (mode 128) needs only the fees: with 1000 nanograms the wallet cannot pay even those.
        const all = await signed('alice-v3r2', [internal({ to: Address.parseRaw(bob), value: 0n, body: 'everything' })], { mode: 128 });
        const broke = await walletEmulate({ boc: all, params: [{ address: alice, balance: 1000 }] });
        assertError(broke, 409);
        const fees = BigInt(broke.body.details.required);
        assert.ok(fees > 1000n && fees < toNano('0.1'), `required ${fees}`);
        assert.equal(broke.body.details.available, 1000);
        const enough = await walletEmulate({ boc: all, params: [{ address: alice, balance: Number(fees) + 1_000_000 }] });
        assert.equal(enough.status, 200, enough.text);
        assert.equal(enough.body.risk.transfer_all_remaining_balance, true);
    });

    it('rejects what is not a signed external message to a known wallet', async () => {
        const bob = Address.parseRaw(accountNamed(manifest, 'bob-v4r2').address);
        const alice = Address.parseRaw(accountNamed(manifest, 'alice-v3r2').address);
        const internalMsg = beginCell().store(storeMessage({
            info: { type: 'internal', src: alice, dest: bob, value: { coins: 1n }, bounce: false, bounced: false, ihrDisabled: true, ihrFee: 0n, forwardFee: 0n, createdLt: 0n, createdAt: 0 },
            body: beginCell().endCell(),
        })).endCell().toBoc().toString('base64');
        assertError(await walletEmulate({ boc: internalMsg }), 400, 'external');
        assertError(await walletEmulate({ boc: 'not a boc' }), 400, 'boc');
        assertError(await walletEmulate({ boc: beginCell().storeUint(7, 3).endCell().toBoc().toString('hex') }), 400, 'not a message');
        const dusd = Address.parseRaw(accountNamed(manifest, 'DUSD').address);
        const toMaster = beginCell().store(storeMessage(external({ to: dusd, body: beginCell().storeUint(0, 32).endCell() }))).endCell().toBoc().toString('base64');
        assertError(await walletEmulate({ boc: toMaster }), 400, 'not a known wallet');
        // A v2r2 wallet is a wallet, but its message layout is not one risk can read.
        const v2 = WalletContractV2R2.create({ workchain: 0, publicKey: newKeyPair().publicKey });
        const v2Body = v2.createTransfer({ seqno: 0, secretKey: Buffer.alloc(64), messages: [internal({ to: bob, value: 1n })] });
        const v2Message = beginCell().store(storeMessage(external({ to: v2.address, init: v2.init, body: v2Body }))).endCell().toBoc().toString('base64');
        assertError(await walletEmulate({ boc: v2Message }), 400, 'wallet_v2r2');
        const valid = await signed('alice-v3r2', [internal({ to: bob, value: 1n })]);
        assertError(await walletEmulate({ boc: valid, address_override: 'nope' }), 400, 'address_override');
        assertError(await walletEmulate({ boc: valid, params: [{ address: accountNamed(manifest, 'alice-v3r2').address, balance: -1 }] }), 400);
        // Only workchains -1 and 0 exist: a destination or an override elsewhere cannot be emulated.
        assertError(await walletEmulate({ boc: valid, address_override: `5:${'ab'.repeat(32)}` }), 400, 'workchain 5');
        const elsewhere = WalletContractV4.create({ workchain: 5, publicKey: newKeyPair().publicKey });
        const elsewhereMessage = beginCell().store(storeMessage(external({ to: elsewhere.address, init: elsewhere.init, body: beginCell().endCell() }))).endCell().toBoc().toString('base64');
        assertError(await walletEmulate({ boc: elsewhereMessage }), 400, 'workchain 5');
        // A body nested deeper than the network takes is refused before anything runs.
        let deep = beginCell().endCell();
        for (let i = 0; i < 600; i++) deep = beginCell().storeUint(i % 256, 8).storeRef(deep).endCell();
        const deepMessage = beginCell().store(storeMessage(external({ to: bob, body: deep }))).endCell().toBoc().toString('base64');
        assertError(await walletEmulate({ boc: deepMessage }), 400, 'deep');
    });
});

describe('POST /v2/wallet/emulate with a rates source that is down', () => {
    it('answers 200 with the trace, the risk and the event, only without total_equivalent', async () => {
        const down = await startDevnetService({ rates: `http://127.0.0.1:${await closedPort()}/rates.json` });
        try {
            await waitForSeed(down);
            const m = await manifestOf(down.base);
            const alice = accountNamed(m, 'alice-v3r2');
            const bob = accountNamed(m, 'bob-v4r2').address;
            const w = DevnetWallet.fromManifest(alice);
            const seqno = DevnetWallet.seqnoFromData(w.kind, Cell.fromBoc((await accountState(down.store.db, alice.address))!.data!)[0]);
            const boc = (await w.transfer(seqno, validUntil(), [internal({ to: Address.parseRaw(bob), value: toNano('2'), body: 'no rates' })])).toBoc().toString('base64');
            const emulate = (query: string) => call('emulateMessageToWallet', `${down.base}/wallet/emulate${query}`, { method: 'POST', json: { boc } });

            const withCurrency = await emulate('?currency=usd');
            assert.equal(withCurrency.status, 200, withCurrency.text);
            assert.deepEqual(withCurrency.body.risk, { transfer_all_remaining_balance: false, native: 2_000_000_000, gram: 2_000_000_000, jettons: [], nfts: [] });
            assert.equal(withCurrency.body.trace.transaction.account.address, alice.address);
            assert.equal(withCurrency.body.trace.children[0].transaction.account.address, bob);
            assert.equal(withCurrency.body.event.actions[0].type, 'NativeTransfer');
            assert.equal(withCurrency.body.event.actions[0].NativeTransfer.comment, 'no rates');
            // Even the native coin, whose rate is 1, needs the table: without it nothing is valued.
            const gram = await emulate('?currency=gram');
            assert.equal(gram.status, 200, gram.text);
            assertSameConsequences(gram.body, withCurrency.body);
            assert.equal('total_equivalent' in gram.body.risk, false);
            assertSameConsequences((await emulate('')).body, withCurrency.body);
        } finally {
            await down.dispose();
        }
    });
});

describe('POST /v2/accounts/{account_id}/events/emulate on the devnet', () => {
    it('returns every action of the trace seen from the path account', async () => {
        const alice = accountNamed(manifest, 'alice-v3r2').address;
        const bob = accountNamed(manifest, 'bob-v4r2').address;
        const boc = await signed('alice-v3r2', [internal({ to: Address.parseRaw(bob), value: toNano('3'), body: 'hi bob' })]);
        const response = await eventEmulate(bob, { boc });
        assert.equal(response.status, 200, response.text);
        const event = response.body;
        assert.equal(event.account.address, bob);
        assert.equal(event.actions.length, 1);
        assert.equal(event.actions[0].NativeTransfer.sender.address, alice);
        assert.equal(event.actions[0].NativeTransfer.amount, 3_000_000_000);
        // From bob's side: he receives 3 gram and pays the gas of his wallet's receipt.
        assert.ok(event.extra < 0 && event.extra > -10_000_000, `extra ${event.extra}`);
    });

    it('checks signatures unless ignore_signature_check is set', async () => {
        const bob = accountNamed(manifest, 'bob-v4r2').address;
        const alice = accountNamed(manifest, 'alice-v3r2');
        const forger = new DevnetWallet('wallet_v3r2', newKeyPair());
        const cell = await forger.transfer(await seqnoOf('alice-v3r2'), validUntil(), [internal({ to: Address.parseRaw(bob), value: toNano('1') })]);
        const redirected = redirect(cell, Address.parseRaw(alice.address));
        const checked = await eventEmulate(bob, { boc: redirected });
        assertError(checked, 406, 'exit code 35');
        const skipped = await eventEmulate(bob, { boc: redirected }, '?ignore_signature_check=true');
        assert.equal(skipped.status, 200, skipped.text);
        assert.equal(skipped.body.actions[0].type, 'NativeTransfer');
    });

    it('stops at the transaction limit (413) and the time budget (504)', async () => {
        const limited = await startDevnetService({ emulationMaxTransactions: 1, emulationTimeoutMs: 10_000 });
        try {
            await waitForSeed(limited);
            const m = await manifestOf(limited.base);
            const alice = accountNamed(m, 'alice-v3r2');
            const w = DevnetWallet.fromManifest(alice);
            const seqno = DevnetWallet.seqnoFromData(w.kind, Cell.fromBoc((await accountState(limited.store.db, alice.address))!.data!)[0]);
            const boc = (await w.transfer(seqno, validUntil(), [internal({ to: Address.parseRaw(accountNamed(m, 'bob-v4r2').address), value: toNano('1') })])).toBoc().toString('base64');
            const response = await call('emulateMessageToAccountEvent', `${limited.base}/accounts/${alice.address}/events/emulate`, { method: 'POST', json: { boc } });
            assertError(response, 413, '1 transactions');
        } finally {
            await limited.dispose();
        }
        const slow = await startDevnetService({ emulationTimeoutMs: 10 });
        try {
            await waitForSeed(slow);
            const m = await manifestOf(slow.base);
            const v5 = accountNamed(m, 'bob-v5r1');
            const w = DevnetWallet.fromManifest(v5);
            const seqno = DevnetWallet.seqnoFromData(w.kind, Cell.fromBoc((await accountState(slow.store.db, v5.address))!.data!)[0]);
            const targets = Array.from({ length: 200 }, (_, i) => internal({ to: new Address(0, Buffer.alloc(32, i + 1)), value: 1_000_000n, bounce: false }));
            const boc = (await w.transfer(seqno, validUntil(), targets)).toBoc().toString('base64');
            const response = await call('emulateMessageToAccountEvent', `${slow.base}/accounts/${v5.address}/events/emulate`, { method: 'POST', json: { boc } });
            assertError(response, 504, 'budget');
        } finally {
            await slow.dispose();
        }
    });
});

/** The same external message sent to another address. */
function redirect(cell: Cell, to: Address): string {
    const message = loadMessage(cell.beginParse());
    return beginCell().store(storeMessage({ ...message, info: { ...message.info, dest: to } as never })).endCell().toBoc().toString('base64');
}
