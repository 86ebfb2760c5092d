import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Address, Cell, TupleReader, internal } from '@ton/core';
import { startDevnetService, waitForSeed, type DevnetService } from '../helpers/devnet-service.ts';
import { DevnetWallet, type DevnetWalletKind } from '../../src/chain/devnet/wallets.ts';
import { keyPairFromSeed } from '../../src/chain/devnet/keys.ts';
import { multisigApproveBody, multisigOrderCode } from '../../src/chain/devnet/contracts/multisig-v2.ts';
import { devnetMultisigsV2, idleSigner, SEED_ORDER_TERMS, type DevnetMultisigOrder, type DevnetMultisigsV2 } from '../../src/chain/devnet/multisig-v2-seed.ts';
import { devnetTokens } from '../../src/chain/devnet/token-seed.ts';
import { jettonWalletAddress } from '../../src/chain/devnet/contracts/jetton.ts';
import { Indexer } from '../../src/indexer/indexer.ts';
import { AccountInspector } from '../../src/indexer/inspect-accounts.ts';
import { formatRawAddress } from '../../src/ton/address.ts';
import { librariesDictionary } from '../../src/ton/libraries.ts';
import { GetMethodRunner } from '../../src/ton/interfaces/get-method-runner.ts';
import { loadMultisigOrderActions, loadSigners } from '../../src/ton/interfaces/multisig-order.ts';
import { accountNamed, call, manifestOf, type ManifestAccount } from './api-call.ts';

/**
 * Multisig v2 on the devnet, end to end: the seeded multisigs and orders (library-coded, as on
 * mainnet) are served by GET /v2/multisig/order/{id} as the order contracts themselves report them
 * (get_order_data run on the indexed states), approvals made later are followed, also when they
 * arrive while the indexer is stopped, and the signers' wallets count the multisigs.
 */

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = any;

let service: DevnetService;
let manifest: { accounts: ManifestAccount[] };
let wallets: Map<string, DevnetWallet>;
let seeded: DevnetMultisigsV2;

const raw = (a: Address) => formatRawAddress(a);
const nowSeconds = () => Math.floor(Date.now() / 1000);

function walletOf(account: ManifestAccount): DevnetWallet {
    const keys = keyPairFromSeed(Buffer.from(account.secret_key!.slice(0, 64), 'hex'));
    const wallet = new DevnetWallet(account.kind as DevnetWalletKind, keys, account.workchain_id);
    assert.equal(raw(wallet.address), account.address);
    return wallet;
}

async function order(address: Address | string) {
    const response = await call('getMultisigOrder', `${service.base}/multisig/order/${typeof address === 'string' ? address : raw(address)}`);
    assert.equal(response.status, 200, response.text);
    return response.body as Json;
}

/** What the order contract holds: get_order_data on its indexed state, with the order library the index holds. */
async function contractOrderData(address: Address) {
    const db = service.store.db;
    const state = await db.selectFrom('account_states').selectAll().where('address', '=', raw(address)).executeTakeFirstOrThrow();
    assert.equal(state.status, 'active');
    const libraries = await db.selectFrom('public_libraries').select(['hash', 'boc']).execute();
    const runner = await GetMethodRunner.create({ libs: librariesDictionary(new Map(libraries.map(l => [l.hash, Cell.fromBoc(l.boc)[0]]))) });
    const result = await runner.run({ address, code: Cell.fromBoc(state.code!)[0], data: Cell.fromBoc(state.data!)[0], balance: BigInt(state.balance) }, 'get_order_data');
    assert.ok(result.ok, `get_order_data of ${raw(address)} failed`);
    const r = new TupleReader(result.stack);
    const data = {
        multisig: r.readAddress(), orderSeqno: r.readBigNumber(), threshold: r.readNumber(), sentForExecution: r.readBoolean(),
        signers: [...loadSigners(r.readCell()).values()], approvalsMask: r.readBigNumber(), approvalsNum: r.readNumber(),
        expirationDate: r.readNumber(), order: r.readCell(),
    };
    return data;
}

/** Checks the endpoint's answer against the order contract's own get_order_data. */
async function assertMatchesContract(target: DevnetMultisigOrder) {
    const body = await order(target.address);
    const data = await contractOrderData(target.address);
    assert.equal(body.address, raw(target.address));
    assert.equal(body.multisig_address, raw(data.multisig));
    assert.equal(body.multisig_address, raw(target.multisig.address));
    assert.equal(body.order_seqno, data.orderSeqno.toString());
    assert.equal(body.order_seqno, target.seqno.toString());
    assert.equal(body.threshold, data.threshold);
    assert.equal(body.sent_for_execution, data.sentForExecution);
    assert.deepEqual(body.signers, data.signers.map(raw));
    assert.equal(body.approvals_num, data.approvalsNum);
    assert.equal(body.expiration_date, data.expirationDate);
    const signedBy = data.signers.filter((_, i) => (data.approvalsMask >> BigInt(i)) & 1n).map(raw);
    assert.deepEqual(body.signed_by, signedBy);
    assert.equal(body.signed_by.length, body.approvals_num);
    const actions = loadMultisigOrderActions(data.order);
    let native = 0n;
    for (const action of actions) {
        if (action.type === 'send_message' && action.message.info.type === 'internal') native += action.message.info.value.coins;
    }
    assert.equal(BigInt(body.risk.native), native);
    assert.equal(BigInt(body.risk.gram), native);
    assert.equal(body.risk.transfer_all_remaining_balance, false);
    const update = actions.filter(a => a.type === 'update_multisig_params').at(-1);
    if (update && update.type === 'update_multisig_params') {
        assert.deepEqual(body.changing_parameters, { threshold: update.threshold, signers: update.signers.map(raw), proposers: update.proposers.map(raw) });
    } else {
        assert.equal(body.changing_parameters, undefined);
    }
    assert.ok(body.creation_date > 0 && body.creation_date <= nowSeconds());
    return body;
}

/** Sends a signed transfer of a seeded wallet through the API (answered once its block is indexed). */
async function sendFrom(name: string, messages: Parameters<DevnetWallet['transfer']>[2]) {
    const account = accountNamed(await manifestOf(service.base), name);
    const boc = (await walletOf(account).transfer(account.seqno ?? 0, nowSeconds() + 300, messages)).toBoc().toString('base64');
    const response = await call('sendBlockchainMessage', `${service.base}/blockchain/message`, { method: 'POST', json: { boc } });
    assert.equal(response.status, 200, response.text);
}

const approval = (target: DevnetMultisigOrder, signerIndex: number) => internal({ to: target.address, value: 100_000_000n, bounce: true, body: multisigApproveBody(signerIndex, 90n) });

before(async () => {
    service = await startDevnetService();
    await waitForSeed(service);
    manifest = await manifestOf(service.base);
    wallets = new Map(manifest.accounts.filter(a => a.secret_key).map(a => [a.name, walletOf(a)]));
    seeded = devnetMultisigsV2(wallets);
});

after(async () => {
    await service?.dispose();
});

describe('multisig v2 on the devnet', () => {
    it('the manifest lists both multisigs and every seeded order', () => {
        const listed = (name: string, kind: string, address: Address) => {
            const account = accountNamed(manifest, name);
            assert.equal(account.kind, kind);
            assert.equal(account.address, raw(address));
        };
        listed('devnet-multisig-v2-2of3', 'multisig_v2', seeded.small.address);
        listed('devnet-multisig-v2-3of5', 'multisig_v2', seeded.large.address);
        for (const o of Object.values(seeded.orders)) listed(o.name, 'multisig_order_v2', o.address);
        assert.equal(manifest.accounts.filter(a => a.kind === 'multisig_order_v2').length, 6);
    });

    it('the order code is a public library and the orders run it through a library cell', async () => {
        const db = service.store.db;
        const library = await db.selectFrom('public_libraries').selectAll().where('hash', '=', multisigOrderCode().hash().toString('hex')).executeTakeFirst();
        assert.ok(library, 'the order code is published');
        assert.equal(library.publisher, accountNamed(manifest, 'devnet-librarian').address);
        for (const o of Object.values(seeded.orders)) {
            const state = await db.selectFrom('account_states').select(['code', 'interfaces']).where('address', '=', raw(o.address)).executeTakeFirstOrThrow();
            const code = Cell.fromBoc(state.code!)[0];
            assert.ok(code.isExotic, `${o.name} has a library cell as its code`);
            assert.ok(JSON.parse(state.interfaces).includes('multisig_order_v2'), `${o.name} is detected`);
        }
        for (const ms of [seeded.small, seeded.large]) {
            const state = await db.selectFrom('account_states').select(['interfaces']).where('address', '=', raw(ms.address)).executeTakeFirstOrThrow();
            assert.ok(JSON.parse(state.interfaces).includes('multisig_v2'));
        }
    });

    it('every seeded order is served as its contract holds it, in every state', async () => {
        const w = (name: string) => raw(wallets.get(name)!.address);
        const o = seeded.orders;
        // The expired order's expiration is a few seconds after its block.
        const expiredState = await contractOrderData(o.expired.address);
        while (nowSeconds() <= expiredState.expirationDate) await new Promise(resolve => setTimeout(resolve, 200));

        const executed = await assertMatchesContract(o.executed);
        assert.equal(executed.sent_for_execution, true);
        assert.deepEqual(executed.signed_by, [w('alice-v3r2'), w('bob-v4r2')]);
        assert.equal(executed.threshold, 2);
        assert.deepEqual(executed.signers, [w('alice-v3r2'), w('bob-v4r2'), w('faucet')]);
        assert.equal(BigInt(executed.risk.native), SEED_ORDER_TERMS.executedGrams + SEED_ORDER_TERMS.jettonForwardGrams);
        const dollar = devnetTokens(wallets).dollar.address;
        assert.equal(executed.risk.jettons.length, 1);
        assert.equal(executed.risk.jettons[0].quantity, SEED_ORDER_TERMS.executedJettons.toString());
        assert.equal(executed.risk.jettons[0].wallet_address.address, raw(jettonWalletAddress(seeded.small.address, dollar)));
        assert.equal(executed.risk.jettons[0].jetton.address, raw(dollar));
        assert.equal(executed.risk.jettons[0].jetton.symbol, 'DUSD');
        assert.ok(executed.expiration_date > nowSeconds());

        const pending = await assertMatchesContract(o.pending);
        assert.equal(pending.sent_for_execution, false);
        assert.equal(pending.approvals_num, 1);
        assert.deepEqual(pending.signed_by, [w('faucet')]);
        assert.ok(pending.expiration_date > nowSeconds());

        const text = await assertMatchesContract(o.textApproved);
        assert.equal(text.sent_for_execution, true);
        assert.deepEqual(text.signed_by, [w('alice-v3r2'), w('bob-v4r2')]);

        const expired = await assertMatchesContract(o.expired);
        assert.equal(expired.sent_for_execution, false);
        assert.deepEqual(expired.signed_by, [w('alice-v3r2')]);
        assert.ok(expired.expiration_date < nowSeconds(), 'past its expiration');
        assert.ok(expired.expiration_date - expired.creation_date <= 5);

        const partial = await assertMatchesContract(o.partial);
        assert.equal(partial.threshold, 3);
        assert.deepEqual(partial.signers, [w('faucet'), w('alice-v3r2'), w('bob-v4r2'), raw(idleSigner(1)), raw(idleSigner(2))]);
        assert.equal(partial.approvals_num, 1, 'the proposer (not a signer) does not approve');
        assert.deepEqual(partial.signed_by, [w('alice-v3r2')]);
        assert.equal(partial.sent_for_execution, false);

        const change = await assertMatchesContract(o.changeParams);
        assert.deepEqual(change.signed_by, [w('faucet')]);
        assert.equal(BigInt(change.risk.native), 0n);
        assert.deepEqual(change.changing_parameters, {
            threshold: seeded.newParams.threshold, signers: seeded.newParams.signers.map(raw), proposers: seeded.newParams.proposers.map(raw),
        });
    });

    it('the executed orders reached their destinations: bob got the DUSD from the 2-of-3', async () => {
        const dollar = devnetTokens(wallets).dollar.address;
        const bobJettons = jettonWalletAddress(wallets.get('bob-v5r1')!.address, dollar);
        const row = await service.store.db.selectFrom('jetton_wallets').selectAll().where('address', '=', raw(bobJettons)).executeTakeFirstOrThrow();
        assert.ok(BigInt(row.balance) >= SEED_ORDER_TERMS.executedJettons);
        const own = await service.store.db.selectFrom('jetton_wallets').selectAll().where('address', '=', raw(jettonWalletAddress(seeded.small.address, dollar))).executeTakeFirstOrThrow();
        assert.equal(BigInt(own.balance), SEED_ORDER_TERMS.fundedJettons - SEED_ORDER_TERMS.executedJettons);
    });

    it('the signers\' wallets count the v2 multisigs they take part in', async () => {
        const keys = ['faucet', 'alice-v3r2', 'bob-v4r2'].map(name => accountNamed(manifest, name).public_key!);
        const response = await call('getWalletsByPublicKeyBulk', `${service.base}/pubkeys/wallets/_bulk`, { method: 'POST', json: { public_keys: keys } });
        assert.equal(response.status, 200, response.text);
        const counts = new Map<string, number>();
        for (const group of response.body.items as Json[]) {
            for (const wallet of group.wallets) counts.set(wallet.address, wallet.stats.multisig_count);
        }
        const count = (name: string) => counts.get(raw(wallets.get(name)!.address));
        // v2: the faucet, alice and bob-v4r2 sign both; bob-v5r1 proposes in the 3-of-5.
        // v1 (devnet-multisig): owned by alice's and bob's keys, so it counts for all their wallets.
        assert.equal(count('faucet'), 2);
        assert.equal(count('alice-v3r2'), 3);
        assert.equal(count('bob-v4r2'), 3);
        assert.equal(count('bob-v5r1'), 2);
    });

    it('approvals made later are followed until the order executes', async () => {
        const target = seeded.orders.partial;
        await sendFrom('faucet', [approval(target, 0)]);
        const second = await assertMatchesContract(target);
        assert.equal(second.approvals_num, 2);
        assert.deepEqual(second.signed_by, [raw(wallets.get('faucet')!.address), raw(wallets.get('alice-v3r2')!.address)]);
        assert.equal(second.sent_for_execution, false);

        await sendFrom('bob-v4r2', [approval(target, 2)]);
        const third = await assertMatchesContract(target);
        assert.equal(third.approvals_num, 3);
        assert.deepEqual(third.signed_by, ['faucet', 'alice-v3r2', 'bob-v4r2'].map(name => raw(wallets.get(name)!.address)));
        assert.equal(third.sent_for_execution, true);
        // The multisig ran it: bob-v5r1 received the grams with the order's comment.
        const txs = await call('getBlockchainAccountTransactions', `${service.base}/blockchain/accounts/${raw(wallets.get('bob-v5r1')!.address)}/transactions?limit=20`);
        assert.ok((txs.body.transactions as Json[]).some(tx => tx.in_msg?.source?.address === raw(seeded.large.address) && BigInt(tx.in_msg.value) === SEED_ORDER_TERMS.proposedGrams));
    });

    it('an approval made while the indexer is stopped is served once indexing resumes', async () => {
        const target = seeded.orders.changeParams;
        const devnet = service.devnet!;
        const alice = accountNamed(await manifestOf(service.base), 'alice-v3r2');
        await service.indexer!.stop();
        const sent = await devnet.sendExternalMessage(await walletOf(alice).transfer(alice.seqno ?? 0, nowSeconds() + 300, [approval(target, 1)]));
        // A few more blocks after it, all produced while nothing indexes them.
        const head = await devnet.head();
        while (((await devnet.head())?.seqno ?? 0) < (head?.seqno ?? 0) + 3) await new Promise(resolve => setTimeout(resolve, 25));
        const stale = await order(target.address);
        assert.equal(stale.approvals_num, 1, 'not indexed yet');

        const indexer = new Indexer(service.store, devnet, { inspector: await AccountInspector.create() });
        const indexing = indexer.start();
        try {
            while (Number(indexer.lastIndexed?.cursor ?? 0) < Number(sent.cursor)) await new Promise(resolve => setTimeout(resolve, 25));
            const resumed = await assertMatchesContract(target);
            assert.equal(resumed.approvals_num, 2);
            assert.deepEqual(resumed.signed_by, [raw(wallets.get('faucet')!.address), raw(wallets.get('alice-v3r2')!.address)]);
            assert.equal(resumed.sent_for_execution, false);
            assert.ok(resumed.changing_parameters);
        } finally {
            await indexer.stop();
            await indexing;
        }
    });
});
