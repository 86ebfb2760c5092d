import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { randomBytes } from 'node:crypto';
import { Address, beginCell, Cell, comment, external, internal, loadMessage, storeMessage } from '@ton/core';
import { startDevnetService, waitForSeed, type DevnetService } from '../helpers/devnet-service.ts';
import { DevnetWallet, type DevnetWalletKind } from '../../src/chain/devnet/wallets.ts';
import { keyPairFromSeed, newKeyPair } from '../../src/chain/devnet/keys.ts';
import { accountNamed, assertError, call, manifestOf, type ManifestAccount } from './api-call.ts';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = any;

const GRAM = 1_000_000_000n;
const DEFAULT_CAP = 1000n * GRAM;

let service: DevnetService;
let manifest: { accounts: ManifestAccount[]; genesis_utime: number; global_id: number };

function freshAddress(workchain = 0): Address {
    return new Address(workchain, randomBytes(32));
}

function raw(address: Address): string {
    return `${address.workChain}:${address.hash.toString('hex')}`;
}

async function faucet(body: unknown) {
    return call('devnetFaucet', `${service.base}/devnet/faucet`, { method: 'POST', json: body });
}

async function send(boc: string) {
    return call('sendBlockchainMessage', `${service.base}/blockchain/message`, { method: 'POST', json: { boc } });
}

async function accountTransactions(address: string) {
    const response = await call('getBlockchainAccountTransactions', `${service.base}/blockchain/accounts/${address}/transactions?limit=1000`);
    assert.equal(response.status, 200);
    return response.body.transactions as Json[];
}

async function trace(id: string) {
    const response = await call('getTrace', `${service.base}/traces/${id}`);
    assert.equal(response.status, 200, response.text);
    return response;
}

/** The wallet of a manifest account, rebuilt from the keys the manifest publishes. */
function walletOf(account: ManifestAccount): DevnetWallet {
    assert.ok(account.secret_key, `${account.name} has a secret key`);
    const keys = keyPairFromSeed(Buffer.from(account.secret_key.slice(0, 64), 'hex'));
    assert.equal(keys.publicKey.toString('hex'), account.public_key, 'the secret key holds the public key');
    const wallet = new DevnetWallet(account.kind as DevnetWalletKind, keys, account.workchain_id);
    assert.equal(raw(wallet.address), account.address, `the keys of ${account.name} derive its address`);
    return wallet;
}

/** Next seqno of a wallet: one past the seqno of its latest external the chain accepted. */
async function nextSeqno(address: string): Promise<number> {
    const externals = (await accountTransactions(address)).filter(t => t.in_msg?.msg_type === 'ext_in_msg' && t.success);
    assert.ok(externals.length > 0);
    const seqno = externals[0].in_msg.decoded_body?.seqno;
    assert.equal(typeof seqno, 'number', 'wallet externals carry their seqno');
    return seqno + 1;
}

const validUntil = () => Math.floor(Date.now() / 1000) + 300;

before(async () => {
    service = await startDevnetService();
    await waitForSeed(service);
    manifest = await manifestOf(service.base);
});

after(async () => {
    await service?.dispose();
});

describe('GET /v2/devnet/manifest', () => {
    it('lists the prepared wallets with their keys', () => {
        assert.equal(manifest.global_id, -239);
        assert.ok(manifest.genesis_utime > 1_600_000_000);
        const kinds = Object.fromEntries(manifest.accounts.map(a => [a.name, a.kind]));
        assert.deepEqual(kinds, {
            'faucet': 'wallet_v4r2', 'alice-v3r2': 'wallet_v3r2', 'bob-v4r2': 'wallet_v4r2', 'bob-v5r1': 'wallet_v5r1',
            'DUSD': 'jetton_master', 'DPTS': 'jetton_master', 'devnet-nft': 'nft_collection', 'devnet-multisig': 'multisig_v1',
            'devnet-librarian': 'librarian', 'DSTB': 'jetton_master', 'devnet-dns': 'nft_collection', 'alice.ton': 'nft_item',
            'devnet-multisig-v2-2of3': 'multisig_v2', 'devnet-multisig-v2-3of5': 'multisig_v2',
            'multisig-v2-2of3-order-0-executed': 'multisig_order_v2', 'multisig-v2-2of3-order-1-pending': 'multisig_order_v2',
            'multisig-v2-2of3-order-2-text-approved': 'multisig_order_v2', 'multisig-v2-2of3-order-3-expired': 'multisig_order_v2',
            'multisig-v2-3of5-order-0-partial': 'multisig_order_v2', 'multisig-v2-3of5-order-1-change-params': 'multisig_order_v2',
            // the validator economy: validators' wallets (masterchain), nominators, the pools, elector and config contract
            'validator-pool': 'wallet_v4r2', 'validator-single': 'wallet_v4r2', 'validator-direct': 'wallet_v4r2',
            'nominator-1': 'wallet_v4r2', 'nominator-2': 'wallet_v4r2', 'nominator-3': 'wallet_v4r2', 'single-owner': 'wallet_v4r2',
            'elector': 'elector', 'config': 'config', 'devnet-nominator-pool': 'nominator_pool', 'devnet-single-nominator': 'single_nominator_pool',
        });
        assert.equal(accountNamed(manifest, 'devnet-librarian').workchain_id, -1, 'libraries are published from the masterchain');
        for (const account of manifest.accounts.filter(a => a.kind.startsWith('wallet_'))) {
            assert.match(account.public_key ?? '', /^[0-9a-f]{64}$/);
            assert.match(account.secret_key ?? '', /^[0-9a-f]{128}$/);
            assert.equal(account.secret_key!.slice(64), account.public_key, 'secret key = seed ‖ public key');
            assert.equal(account.workchain_id, account.name.startsWith('validator-') ? -1 : 0);
            assert.equal(raw(Address.parseFriendly(account.friendly_address).address), account.address);
            walletOf(account);
        }
        // bob's two wallets share one key, as a wallet app shows several versions of one key.
        assert.equal(accountNamed(manifest, 'bob-v4r2').public_key, accountNamed(manifest, 'bob-v5r1').public_key);
        assert.notEqual(accountNamed(manifest, 'bob-v4r2').address, accountNamed(manifest, 'bob-v5r1').address);
        // v5r1 signs a wallet id that packs the network id (-239, mainnet's, which the devnet config keeps) with
        // workchain 0, version 0 and subwallet 0: -239 xor (1 << 31 as the client context flag) = 2147483409.
        assert.equal(accountNamed(manifest, 'bob-v5r1').wallet_id, 2147483409);
        assert.equal(accountNamed(manifest, 'bob-v4r2').wallet_id, 698983191);
    });
});

describe('POST /v2/devnet/faucet', () => {
    it('delivers exactly the amount to a fresh address and returns a resolvable trace id', async () => {
        const to = freshAddress();
        const amount = 1_234_567_891n;
        const response = await faucet({ address: to.toString({ bounceable: false, testOnly: true }), amount: Number(amount) });
        assert.equal(response.status, 200, response.text);
        assert.equal(response.body.address, raw(to));
        assert.equal(response.body.amount, Number(amount));

        const received = await accountTransactions(raw(to));
        assert.equal(received.length, 1, 'the recipient was indexed before the faucet answered');
        const tx = received[0];
        assert.equal(tx.in_msg.msg_type, 'int_msg');
        assert.equal(tx.in_msg.value, Number(amount));
        assert.equal(tx.in_msg.bounce, false);
        assert.equal(tx.in_msg.source.address, accountNamed(manifest, 'faucet').address);
        assert.equal(tx.end_balance, Number(amount), 'nothing was taken from the amount');

        const tree = (await trace(response.body.trace_id)).body;
        assert.equal(tree.transaction.hash, response.body.trace_id);
        assert.equal(tree.transaction.account.address, accountNamed(manifest, 'faucet').address);
        assert.equal(tree.transaction.in_msg.hash, response.body.message_hash);
        assert.equal(tree.transaction.in_msg.decoded_op_name, 'wallet_signed_v4');
        assert.deepEqual(tree.children.map((c: Json) => c.transaction.hash), [tx.hash]);
        // The recipient's transaction and the message hash lead to the same trace.
        assert.equal((await trace(tx.hash)).text, (await trace(response.body.message_hash)).text);
    });

    it('serves concurrent requests, each delivered once', async () => {
        const targets = [freshAddress(), freshAddress(), freshAddress()];
        const responses = await Promise.all(targets.map((to, i) => faucet({ address: raw(to), amount: 1000 + i })));
        for (const [i, response] of responses.entries()) {
            assert.equal(response.status, 200, response.text);
            const received = await accountTransactions(raw(targets[i]));
            assert.equal(received.length, 1);
            assert.equal(received[0].in_msg.value, 1000 + i);
        }
        assert.equal(new Set(responses.map(r => r.body.trace_id)).size, 3);
    });

    it('sends to the masterchain too', async () => {
        const to = freshAddress(-1);
        const response = await faucet({ address: raw(to), amount: 5 * Number(GRAM) });
        assert.equal(response.status, 200, response.text);
        const received = await accountTransactions(raw(to));
        assert.equal(received.length, 1);
        assert.equal(received[0].in_msg.value, 5 * Number(GRAM));
        assert.match(received[0].block, /^\(-1,8000000000000000,\d+\)$/);
    });

    it('accepts exactly the cap and rejects one nanogram more', async () => {
        const over = await faucet({ address: raw(freshAddress()), amount: Number(DEFAULT_CAP + 1n) });
        assertError(over, 400, String(DEFAULT_CAP + 1n), String(DEFAULT_CAP));
        const to = freshAddress();
        const atCap = await faucet({ address: raw(to), amount: Number(DEFAULT_CAP) });
        assert.equal(atCap.status, 200, atCap.text);
        assert.equal((await accountTransactions(raw(to)))[0].in_msg.value, Number(DEFAULT_CAP));
    });

    it('rejects non-positive and non-integer amounts', async () => {
        const address = raw(freshAddress());
        for (const amount of [0, -5, 1.5, '100', null]) {
            assertError(await faucet({ address, amount }), 400, 'amount');
        }
        assertError(await faucet({ address }), 400, 'amount');
    });

    it('rejects bad addresses, naming them, and addresses outside the devnet workchains', async () => {
        for (const address of ['nope', '0:xyz', 'EQBgl-aYxTJN3pXYofuwuEJHOAtSZmlpBUYzBeiDllLcfaEF']) {
            assertError(await faucet({ address, amount: 5 }), 400, address);
        }
        assertError(await faucet({ address: '', amount: 5 }), 400, 'address');
        assertError(await faucet({ amount: 5 }), 400, 'address');
        const elsewhere = `5:${'22'.repeat(32)}`;
        assertError(await faucet({ address: elsewhere, amount: 5 }), 400, elsewhere);
        assert.deepEqual(await accountTransactions(elsewhere), []);
    });
});

describe('POST /v2/blockchain/message', () => {
    it('accepts a transfer signed with the manifest key; its trace is retrievable; a replay is rejected with the exit code', async () => {
        const alice = accountNamed(manifest, 'alice-v3r2');
        const wallet = walletOf(alice);
        const to = freshAddress();
        const seqno = await nextSeqno(alice.address);
        const message = await wallet.transfer(seqno, validUntil(), [
            internal({ to, value: GRAM / 2n, bounce: false, body: comment('signed by the test') }),
        ]);
        const boc = message.toBoc().toString('base64');

        const response = await send(boc);
        assert.equal(response.status, 200, response.text);
        assert.equal(response.body.message_hash, message.hash().toString('hex'));
        const tree = (await trace(response.body.trace_id)).body;
        assert.equal(tree.transaction.hash, response.body.trace_id);
        assert.equal(tree.transaction.account.address, alice.address);
        assert.equal(tree.transaction.in_msg.hash, response.body.message_hash);
        assert.equal(tree.transaction.in_msg.decoded_body.seqno, seqno);
        assert.equal(tree.children.length, 1);
        const delivered = tree.children[0].transaction;
        assert.equal(delivered.account.address, raw(to));
        assert.equal(delivered.in_msg.value, Number(GRAM / 2n));
        assert.deepEqual(delivered.in_msg.decoded_body, { text: 'signed by the test' });
        assert.equal(await nextSeqno(alice.address), seqno + 1);

        const replay = await send(boc);
        assertError(replay, 400, 'exit code 33', 'seqno mismatch');
        // 33 is the wallet's own error (bad seqno), not the action-phase result code of the same number.
        assert.doesNotMatch(replay.body.error, /Action list/);
        assert.equal((await accountTransactions(raw(to))).length, 1, 'the replay delivered nothing');
    });

    it('accepts a message in hex from a v5r1 wallet', async () => {
        const bob = accountNamed(manifest, 'bob-v5r1');
        const wallet = walletOf(bob);
        const to = freshAddress();
        const seqno = await nextSeqno(bob.address);
        const message = await wallet.transfer(seqno, validUntil(), [internal({ to, value: GRAM / 10n, bounce: false })]);
        const response = await send(message.toBoc().toString('hex'));
        assert.equal(response.status, 200, response.text);
        const received = await accountTransactions(raw(to));
        assert.equal(received.length, 1);
        assert.equal(received[0].in_msg.value, Number(GRAM / 10n));
        assert.equal((await trace(response.body.trace_id)).body.transaction.in_msg.decoded_op_name, 'wallet_signed_external_v5_r1');
    });

    it('rejects a message signed with a wrong key', async () => {
        const bob = accountNamed(manifest, 'bob-v4r2');
        const seqno = await nextSeqno(bob.address);
        const impostor = new DevnetWallet('wallet_v4r2', newKeyPair());
        const to = freshAddress();
        const signed = await impostor.transfer(seqno, validUntil(), [internal({ to, value: GRAM, bounce: false })]);
        // The impostor's body, addressed to bob's wallet.
        const body = loadMessage(signed.beginParse()).body;
        const forged = beginCell().store(storeMessage(external({ to: Address.parseRaw(bob.address), body }))).endCell();
        const response = await send(forged.toBoc().toString('base64'));
        assertError(response, 400, 'exit code 35', 'invalid signature');
        assert.deepEqual(await accountTransactions(raw(to)), []);
        assert.equal(await nextSeqno(bob.address), seqno, 'bob’s seqno did not move');
    });

    it('rejects non-external messages and garbage', async () => {
        const alice = Address.parseRaw(accountNamed(manifest, 'alice-v3r2').address);
        const internalMessage = beginCell().store(storeMessage({
            info: {
                type: 'internal', ihrDisabled: true, bounce: false, bounced: false, src: alice, dest: freshAddress(),
                value: { coins: GRAM }, ihrFee: 0n, forwardFee: 0n, createdLt: 0n, createdAt: 0,
            },
            body: Cell.EMPTY,
        })).endCell();
        assertError(await send(internalMessage.toBoc().toString('base64')), 400, 'external');
        assertError(await send('not a boc'), 400, 'boc');
        assertError(await send('b5ee9c72'), 400, 'boc');
        assertError(await send(beginCell().storeUint(1, 8).endCell().toBoc().toString('base64')), 400, 'boc');
        assertError(await send(''), 400, 'boc');
        const missing = await call('sendBlockchainMessage', `${service.base}/blockchain/message`, { method: 'POST', json: {} });
        assertError(missing, 400, 'boc');
        const wrongType = await call('sendBlockchainMessage', `${service.base}/blockchain/message`, { method: 'POST', json: { boc: 42 } });
        assertError(wrongType, 400, 'boc');
    });
});
