import { before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Address, Cell, beginCell, contractAddress, internal } from '@ton/core';
import { createShardAccount } from '@ton/sandbox';
import { runTolkCompiler } from '@ton/tolk-js';
import { buildAccountEvent } from '../../src/actions/account-event.ts';
import { findActions } from '../../src/actions/find-actions.ts';
import {
    JETTON_TON, jettonBurnBody, jettonMintBody, jettonMinterAddress, jettonMinterStateInit, jettonTransferBody, jettonWalletAddress,
} from '../../src/chain/devnet/contracts/jetton.ts';
import { nftCommonContent, nftOffchainSuffix, offchainContent, onchainContent } from '../../src/chain/devnet/contracts/metadata.ts';
import { NFT_TON, nftCollectionAddress, nftCollectionStateInit, nftDeployItemBody, nftItemAddress, nftTransferBody } from '../../src/chain/devnet/contracts/nft.ts';
import { commentPayload } from '../../src/chain/devnet/contracts/payload.ts';
import type { DevnetWallet } from '../../src/chain/devnet/wallets.ts';
import { GRAM, TestNet } from './sandbox-net.ts';
import { assertValidEvent } from './schema.ts';

const D = (n: bigint) => n * 10n ** 9n;

describe('actions on real-TVM traces: jettons, NFTs, wallet extensions, invoices', () => {
    let net: TestNet;
    let admin: DevnetWallet;
    let alice: DevnetWallet;
    let bob: DevnetWallet;
    const token = () => ({ admin: admin.address, content: onchainContent({ name: 'Devnet Gold', symbol: 'DGLD', decimals: 9, image: 'https://example.org/dgld.png' }) });
    let minter: Address;
    let aliceJw: Address;
    let bobJw: Address;
    const raw = (a: Address | DevnetWallet) => (a instanceof Address ? a : a.address).toRawString();
    const eventOf = (root: Parameters<typeof buildAccountEvent>[0], who: Address | DevnetWallet, subjectOnly = true, language: 'en' | 'ru' = 'en') => {
        const event = buildAccountEvent(root, net.facts, { account: raw(who), subjectOnly, language, accounts: net.accounts });
        assertValidEvent(event);
        return event;
    };

    before(async () => {
        net = await TestNet.create();
        admin = await net.wallet('wallet_v4r2', 'admin');
        alice = await net.wallet('wallet_v4r2', 'alice');
        bob = await net.wallet('wallet_v3r2', 'bob');
        minter = jettonMinterAddress(token());
        aliceJw = jettonWalletAddress(alice.address, minter);
        bobJw = jettonWalletAddress(bob.address, minter);
        net.addJetton(minter, { name: 'Devnet Gold', symbol: 'DGLD', decimals: 9, image: 'https://example.org/dgld.png', verification: 'none', score: 0 });
        net.addJettonWallet(aliceJw, minter, alice.address);
        net.addJettonWallet(bobJw, minter, bob.address);
    });

    test('mint (governance mint#642b7d07 → internal_transfer → excesses) is one JettonMint', async () => {
        const root = await net.send(admin, [internal({
            to: minter, value: JETTON_TON.mintTonAmount + JETTON_TON.mintOverhead, bounce: false, init: jettonMinterStateInit(token()),
            body: jettonMintBody({ queryId: 1n, to: alice.address, amount: D(1000n), from: minter, responseAddress: admin.address }),
        })]);
        const { actions, valueFlow } = findActions(root, net.facts);
        const mints = actions.filter((a) => a.draft.type === 'JettonMint');
        assert.equal(mints.length, 1);
        assert.deepEqual(mints[0].draft, {
            type: 'JettonMint', success: true, recipient: raw(alice), recipientsWallet: raw(aliceJw), master: raw(minter), amount: D(1000n),
        });
        assert.equal(mints[0].baseTransactions.length, 3, 'mint, internal_transfer, excesses');
        assert.equal(valueFlow.accounts.get(raw(alice))?.jettons.get(raw(minter)), D(1000n));
        // Deployments of the minter and of alice's jetton wallet are separate actions.
        assert.deepEqual(actions.filter((a) => a.draft.type === 'ContractDeploy').map((a) => (a.draft as { address: string }).address).sort(),
            [raw(minter), raw(aliceJw)].sort());
        assert.equal(actions.length, 3, actions.map((a) => a.draft.type).join());

        const event = eventOf(root, alice);
        assert.deepEqual(event.actions.map((a) => a.type), ['JettonMint']);
        assert.deepEqual(event.actions[0].simple_preview, {
            name: 'Jetton Mint', description: 'Minting 1 000 DGLD', value: '1 000 DGLD', value_image: 'https://example.org/dgld.png',
            accounts: [net.accounts(raw(minter))],
        });
        assert.equal(eventOf(root, alice, true, 'ru').actions[0].simple_preview.description, 'Минтинг 1 000 DGLD');
    });

    test('mint with a notification (JettonMintFromMaster inside the governance mint) is still one JettonMint', async () => {
        const root = await net.send(admin, [internal({
            to: minter, value: JETTON_TON.mintTonAmount + JETTON_TON.mintOverhead + GRAM / 100n, bounce: false,
            body: jettonMintBody({ queryId: 2n, to: bob.address, amount: D(5n), from: minter, responseAddress: admin.address, forwardTonAmount: GRAM / 100n, forwardPayload: commentPayload('hi') }),
        })]);
        const { actions, valueFlow } = findActions(root, net.facts);
        assert.deepEqual(actions.map((a) => a.draft.type), ['JettonMint', 'ContractDeploy']);
        assert.equal(actions[0].draft.type === 'JettonMint' && actions[0].draft.recipient, raw(bob));
        assert.equal(actions[0].baseTransactions.length, 4, 'mint, internal_transfer, notification, excesses');
        assert.equal(valueFlow.accounts.get(raw(bob))?.jettons.get(raw(minter)), D(5n), 'counted once');
    });

    test('transfer with a comment: JettonTransfer with both wallets, the comment and the jetton preview', async () => {
        const root = await net.send(alice, [internal({
            to: aliceJw, value: JETTON_TON.transfer + GRAM / 50n, bounce: true,
            body: jettonTransferBody({ queryId: 7n, amount: D(150n), destination: bob.address, responseDestination: alice.address, forwardTonAmount: GRAM / 50n, forwardPayload: commentPayload('coffee') }),
        })]);
        const { actions, valueFlow } = findActions(root, net.facts);
        assert.deepEqual(actions.map((a) => a.draft.type), ['JettonTransfer']);
        assert.equal(actions[0].baseTransactions.length, 4, 'transfer, internal_transfer, notification, excesses');
        assert.equal(valueFlow.accounts.get(raw(alice))?.jettons.get(raw(minter)), -D(150n));
        assert.equal(valueFlow.accounts.get(raw(bob))?.jettons.get(raw(minter)), D(150n));

        const event = eventOf(root, alice);
        const [action] = event.actions;
        assert.deepEqual(action.JettonTransfer, {
            sender: net.accounts(raw(alice)), recipient: net.accounts(raw(bob)), senders_wallet: raw(aliceJw), recipients_wallet: raw(bobJw),
            amount: D(150n).toString(), comment: 'coffee',
            jetton: { address: raw(minter), name: 'Devnet Gold', symbol: 'DGLD', decimals: 9, image: 'https://example.org/dgld.png', verification: 'none', score: 0 },
        });
        assert.equal(action.simple_preview.description, 'Transferring 150 DGLD');
        assert.deepEqual(action.simple_preview.accounts.map((a) => a.address), [raw(bob), raw(minter)]);
        // Only fees are unexplained: the excesses came back, so extra is small and negative.
        assert.ok(event.extra < 0n && event.extra > -JETTON_TON.transfer, `extra ${event.extra}`);
        assert.equal(eventOf(root, bob).actions[0].type, 'JettonTransfer');
    });

    test('burn: JettonBurn with the burn notification on the master', async () => {
        const root = await net.send(alice, [internal({
            to: aliceJw, value: JETTON_TON.burn, bounce: true, body: jettonBurnBody({ queryId: 9n, amount: D(50n), responseDestination: alice.address }),
        })]);
        const { actions, valueFlow } = findActions(root, net.facts);
        assert.deepEqual(actions.map((a) => a.draft.type), ['JettonBurn', 'NativeTransfer'], 'the excesses from the master are a plain transfer');
        assert.deepEqual(actions[0].draft, { type: 'JettonBurn', success: true, sender: raw(alice), sendersWallet: raw(aliceJw), master: raw(minter), amount: D(50n) });
        assert.equal(actions[0].baseTransactions.length, 2);
        assert.equal(valueFlow.accounts.get(raw(alice))?.jettons.get(raw(minter)), -D(50n));
        const event = eventOf(root, alice);
        assert.equal(event.actions[0].simple_preview.description, 'Burning 50 DGLD');
    });

    test('a wallet passing on less than it was told: FlawedJettonTransfer', async () => {
        const source = readFileSync(join(import.meta.dirname, 'fixtures', 'taxed-jetton-wallet.tolk'), 'utf8');
        const compiled = await runTolkCompiler({ entrypointFileName: 'taxed.tolk', fsReadCallback: () => source });
        assert.equal(compiled.status, 'ok');
        if (compiled.status !== 'ok') return;
        const code = Cell.fromBase64(compiled.codeBoc64);
        net.extraCode.set(code.hash().toString('hex'), ['jetton_wallet']);
        const fakeMaster = new Address(0, Buffer.alloc(32, 0xee));
        const place = async (owner: Address, peer: Address) => {
            const data = beginCell().storeAddress(owner).storeAddress(peer).endCell();
            const address = contractAddress(0, { code, data });
            await net.chain.setShardAccount(address, createShardAccount({ address, code, data, balance: GRAM, workchain: 0 }));
            return address;
        };
        // Addresses depend on data, so bob's wallet is placed first with a dummy peer.
        const bobTaxed = await place(bob.address, alice.address);
        const aliceTaxed = await place(alice.address, bobTaxed);
        net.addJetton(fakeMaster, { name: 'Taxed', symbol: 'TAX', decimals: 0, image: '', verification: 'none', score: 0 });
        net.addJettonWallet(aliceTaxed, fakeMaster, alice.address);
        net.addJettonWallet(bobTaxed, fakeMaster, bob.address);

        const root = await net.send(alice, [internal({
            to: aliceTaxed, value: GRAM / 10n, bounce: true, body: jettonTransferBody({ queryId: 3n, amount: 100n, destination: bob.address, responseDestination: alice.address }),
        })]);
        const { actions, valueFlow } = findActions(root, net.facts);
        assert.deepEqual(actions.map((a) => a.draft.type), ['FlawedJettonTransfer']);
        assert.deepEqual(actions[0].draft, {
            type: 'FlawedJettonTransfer', success: true, sender: raw(alice), recipient: raw(bob), sendersWallet: raw(aliceTaxed), recipientsWallet: raw(bobTaxed),
            master: raw(fakeMaster), sentAmount: 100n, receivedAmount: 90n,
        });
        assert.equal(valueFlow.accounts.get(raw(alice))?.jettons.get(raw(fakeMaster)), -100n);
        assert.equal(valueFlow.accounts.get(raw(bob))?.jettons.get(raw(fakeMaster)), 90n);
        const event = eventOf(root, alice);
        assert.equal(event.actions[0].simple_preview.description, 'Transferred 100 TAX, but received 90 TAX');
        assert.equal((event.actions[0].FlawedJettonTransfer as { received_amount: string }).received_amount, '90');
    });

    test('NFT transfer with a comment, and with a call payload to a wallet (no "Call:" comment)', async () => {
        const collection = { owner: admin.address, collectionContent: offchainContent('http://x/c.json'), commonContent: nftCommonContent('http://x/') };
        const collectionAddress = nftCollectionAddress(collection);
        await net.send(admin, [internal({
            to: collectionAddress, value: NFT_TON.itemDeployAmount + NFT_TON.deployOverhead, bounce: false, init: nftCollectionStateInit(collection),
            body: nftDeployItemBody({ queryId: 1n, index: 0n, owner: alice.address, content: nftOffchainSuffix('0.json') }),
        })]);
        const item = nftItemAddress(0n, collectionAddress);
        net.facts.nftItems.set(raw(item), { address: raw(item), index: 0n, collection: raw(collectionAddress), owner: raw(alice) });

        const forward = GRAM / 100n;
        const root = await net.send(alice, [internal({
            to: item, value: NFT_TON.transfer + forward, bounce: true,
            body: nftTransferBody({ queryId: 4n, newOwner: bob.address, responseDestination: alice.address, forwardAmount: forward, forwardPayload: commentPayload('gift') }),
        })]);
        const { actions } = findActions(root, net.facts);
        assert.deepEqual(actions.map((a) => a.draft.type), ['NftItemTransfer']);
        assert.equal(actions[0].baseTransactions.length, 3, 'transfer, ownership_assigned, excesses');
        const event = eventOf(root, alice);
        assert.deepEqual(event.actions[0].NftItemTransfer, { nft: raw(item), sender: net.accounts(raw(alice)), recipient: net.accounts(raw(bob)), comment: 'gift' });
        assert.deepEqual(event.actions[0].simple_preview, {
            name: 'NFT Transfer', description: 'Transferring 1 NFT', value: '1 NFT', accounts: [net.accounts(raw(bob)), net.accounts(raw(item))],
        });

        const call = beginCell().storeUint(0xdeadbeef, 32).storeUint(1, 64).endCell();
        const back = await net.send(bob, [internal({
            to: item, value: NFT_TON.transfer + forward, bounce: true,
            body: nftTransferBody({ queryId: 5n, newOwner: alice.address, responseDestination: bob.address, forwardAmount: forward, forwardPayload: call }),
        })]);
        const backEvent = eventOf(back, bob);
        assert.deepEqual(backEvent.actions[0].NftItemTransfer, {
            nft: raw(item), sender: net.accounts(raw(bob)), recipient: net.accounts(raw(alice)), payload: call.toBoc().toString('hex'),
        });
    });

    test('wallet v5r1 extended actions: AddExtension, SetSignatureAllowedAction, RemoveExtension', async () => {
        const dave = await net.wallet('wallet_v5r1', 'dave');
        const extension = new Address(0, Buffer.alloc(32, 0x42));
        const added = await net.sendV5Actions(dave, [{ type: 'addExtension', address: extension }]);
        const addEvent = eventOf(added, dave);
        assert.deepEqual(addEvent.actions.map((a) => [a.type, a.status]), [['AddExtension', 'ok']]);
        assert.deepEqual(addEvent.actions[0].AddExtension, { wallet: net.accounts(raw(dave)), extension: raw(extension) });
        assert.deepEqual(addEvent.actions[0].simple_preview, { name: 'AddExtension', description: 'Add extension to wallet', accounts: [] });

        const removed = await net.sendV5Actions(dave, [{ type: 'removeExtension', address: extension }]);
        const removeEvent = eventOf(removed, dave, true, 'ru');
        assert.deepEqual(removeEvent.actions.map((a) => a.type), ['RemoveExtension']);
        assert.equal(removeEvent.actions[0].simple_preview.description, 'Удаление расширения из кошелька');

        const erin = await net.wallet('wallet_v5r1', 'erin');
        const locked = await net.sendV5Actions(erin, [{ type: 'addExtension', address: extension }, { type: 'setIsPublicKeyEnabled', isEnabled: false }]);
        const lockEvent = eventOf(locked, erin);
        assert.deepEqual(lockEvent.actions.map((a) => a.type), ['AddExtension', 'SetSignatureAllowedAction']);
        assert.deepEqual(lockEvent.actions[1].SetSignatureAllowedAction, { wallet: net.accounts(raw(erin)), allowed: false });
        assert.equal(lockEvent.actions[1].simple_preview.description, 'Disable wallet signature');
    });

    test('a payment with an invoice payload is a Purchase', async () => {
        const shop = await net.wallet('wallet_v4r2', 'shop');
        const id = Buffer.from('0123456789abcdef0123456789abcdef', 'hex');
        const body = beginCell().storeUint(0x7aa23eb5, 32).storeBuffer(id).endCell();
        const root = await net.send(alice, [internal({ to: shop.address, value: 2n * GRAM, bounce: true, body })]);
        const event = eventOf(root, alice);
        assert.deepEqual(event.actions.map((a) => [a.type, a.status]), [['Purchase', 'ok']]);
        assert.deepEqual(event.actions[0].Purchase, {
            source: net.accounts(raw(alice)), destination: net.accounts(raw(shop)), invoice_id: '01234567-89ab-cdef-0123-456789abcdef',
            amount: { currency_type: 'native', value: '2000000000', decimals: 9, token_name: 'gram', verification: 'whitelist', image: '' },
        });
        assert.equal(event.actions[0].simple_preview.description, 'Payment for invoice #01234567-89ab-cdef-0123-456789abcdef');
        assert.equal(event.actions[0].simple_preview.value, '2 gram');
        // The purchase explains the 2 gram: extra is the fee only.
        assert.ok(event.extra < 0n && event.extra > -GRAM / 100n, `extra ${event.extra}`);
    });
});
