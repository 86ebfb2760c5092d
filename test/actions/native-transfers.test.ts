import { before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { beginCell, internal } from '@ton/core';
import { SendMode } from '@ton/ton';
import { buildAccountEvent } from '../../src/actions/account-event.ts';
import { findActions } from '../../src/actions/find-actions.ts';
import { jettonMinterAddress, jettonMinterStateInit } from '../../src/chain/devnet/contracts/jetton.ts';
import { onchainContent } from '../../src/chain/devnet/contracts/metadata.ts';
import type { DevnetWallet } from '../../src/chain/devnet/wallets.ts';
import { GRAM, TestNet, UTIME, flatten } from './sandbox-net.ts';
import { assertValidEvent } from './schema.ts';

describe('actions on real-TVM traces: native transfers, deploys, failed sends', () => {
    let net: TestNet;
    let alice: DevnetWallet;
    let bob: DevnetWallet;

    before(async () => {
        net = await TestNet.create();
        alice = await net.wallet('wallet_v4r2', 'alice');
        bob = await net.wallet('wallet_v3r2', 'bob');
    });

    test('a text comment transfer is one NativeTransfer with the comment', async () => {
        const root = await net.send(alice, [internal({ to: bob.address, value: 3n * GRAM / 2n, bounce: false, body: 'for lunch' })]);
        const { actions, valueFlow } = findActions(root, net.facts);
        assert.equal(actions.length, 1);
        const [transfer] = actions;
        assert.deepEqual(transfer.draft, {
            type: 'NativeTransfer', success: true, sender: alice.address.toRawString(), recipient: bob.address.toRawString(),
            amount: 3n * GRAM / 2n, comment: 'for lunch',
        });
        assert.deepEqual(transfer.baseTransactions, [root.children[0].transaction.hash]);

        const event = buildAccountEvent(root, net.facts, { account: alice.address.toRawString(), subjectOnly: true, language: 'en', accounts: net.accounts });
        assertValidEvent(event);
        assert.equal(event.event_id, root.transaction.hash);
        assert.equal(event.lt, root.transaction.lt);
        assert.equal(event.timestamp, BigInt(UTIME));
        assert.equal(event.ext_msg_hash, root.transaction.inMsg!.hash);
        assert.equal(event.progress, 1);
        assert.equal(event.in_progress, false);
        const action = event.actions[0];
        assert.equal(action.type, 'NativeTransfer');
        assert.equal(action.status, 'ok');
        assert.deepEqual(action.simple_preview, {
            name: 'Gram Transfer', description: 'Transferring 1.5 gram', value: '1.5 gram',
            accounts: [{ address: bob.address.toRawString(), is_scam: false, is_wallet: true }],
        });
        // extra: alice's whole loss minus the 1.5 gram the action explains = the fees she paid.
        const aliceFlow = valueFlow.accounts.get(alice.address.toRawString())!;
        assert.ok(event.extra < 0n);
        assert.equal(event.extra, -aliceFlow.fees);
        assert.equal(aliceFlow.gram, -3n * GRAM / 2n - aliceFlow.fees);

        const ru = buildAccountEvent(root, net.facts, { account: bob.address.toRawString(), subjectOnly: true, language: 'ru', accounts: net.accounts });
        assertValidEvent(ru);
        assert.equal(ru.actions[0].simple_preview.description, 'Перевод 1.5 gram');
        assert.equal(ru.extra, -valueFlow.accounts.get(bob.address.toRawString())!.fees);
    });

    test('an encrypted comment is carried as cipher text', async () => {
        const cipher = Buffer.alloc(48, 7);
        const body = beginCell().storeUint(0x2167da4b, 32).storeBuffer(cipher).endCell();
        const root = await net.send(alice, [internal({ to: bob.address, value: GRAM / 10n, bounce: false, body })]);
        const event = buildAccountEvent(root, net.facts, { account: bob.address.toRawString(), subjectOnly: true, language: 'en', accounts: net.accounts });
        assertValidEvent(event);
        assert.equal(event.actions.length, 1);
        assert.deepEqual(event.actions[0].NativeTransfer, {
            sender: net.accounts(alice.address.toRawString()), recipient: net.accounts(bob.address.toRawString()), amount: GRAM / 10n,
            encrypted_comment: { encryption_type: 'simple', cipher_text: cipher.toString('hex') },
        });
    });

    test('the first send of an uninitialized wallet deploys it: ContractDeploy, then the transfer', async () => {
        const carol = await net.wallet('wallet_v5r1', 'carol', 10n * GRAM, false);
        const root = await net.send(carol, [internal({ to: bob.address, value: GRAM, bounce: false })]);
        assert.equal(root.transaction.tx.oldStatus, 'uninitialized');
        const event = buildAccountEvent(root, net.facts, { account: carol.address.toRawString(), subjectOnly: true, language: 'en', accounts: net.accounts });
        assertValidEvent(event);
        assert.deepEqual(event.actions.map((a) => a.type), ['NativeTransfer', 'ContractDeploy']);
        assert.deepEqual(event.actions[1].ContractDeploy, { address: carol.address.toRawString(), interfaces: ['wallet_v5r1'] });
        assert.equal(event.actions[1].simple_preview.description, 'Deploying a contract with interfaces wallet_v5r1');
        assert.deepEqual(event.actions[1].base_transactions, [root.transaction.hash]);
    });

    test('a send the action phase cannot pay becomes a failed NativeTransfer (intention)', async () => {
        const poor = await net.wallet('wallet_v4r2', 'poor', GRAM / 2n);
        const root = await net.send(poor, [internal({ to: bob.address, value: 5n * GRAM, bounce: false, body: 'too much' })]);
        assert.equal(root.children.length, 0, 'nothing was sent');
        const d = root.transaction.tx.description;
        assert.ok(d.type === 'generic' && d.actionPhase && !d.actionPhase.success);
        const event = buildAccountEvent(root, net.facts, { account: poor.address.toRawString(), subjectOnly: true, language: 'en', accounts: net.accounts });
        assertValidEvent(event);
        assert.equal(event.actions.length, 1);
        assert.equal(event.actions[0].type, 'NativeTransfer');
        assert.equal(event.actions[0].status, 'failed');
        assert.deepEqual(event.actions[0].NativeTransfer, {
            sender: net.accounts(poor.address.toRawString()), recipient: net.accounts(bob.address.toRawString()), amount: 5n * GRAM, comment: 'too much',
        });
        assert.deepEqual(event.actions[0].base_transactions, [root.transaction.hash]);
        // A failed action explains nothing: the whole loss is fees.
        assert.ok(event.extra < 0n && event.extra > -GRAM / 10n);
    });

    test('one of two sends failing: the delivered one is ok, the other failed, in request order', async () => {
        const poor = await net.wallet('wallet_v3r2', 'poor2', 2n * GRAM);
        // Mode 0 messages are processed in order; the second one cannot be paid (ignored errors mode 2 skips it).
        const root = await net.send(poor, [
            internal({ to: bob.address, value: GRAM, bounce: false, body: 'first' }),
            internal({ to: alice.address, value: 5n * GRAM, bounce: false, body: 'second' }),
        ], SendMode.PAY_GAS_SEPARATELY | SendMode.IGNORE_ERRORS);
        assert.equal(root.children.length, 1);
        const { actions } = findActions(root, net.facts);
        assert.deepEqual(actions.map((a) => [a.draft.type, a.draft.success, 'comment' in a.draft ? a.draft.comment : undefined]), [
            ['NativeTransfer', true, 'first'],
            ['NativeTransfer', false, 'second'],
        ]);
    });

    test('a message with an unknown op to a non-wallet contract is a SmartContractExec', async () => {
        // A jetton minter deployed by this very message, called with an op it does not know.
        const config = { admin: alice.address, content: onchainContent({ name: 'X', symbol: 'X', decimals: 9 }) };
        const minter = jettonMinterAddress(config);
        const body = beginCell().storeUint(0x12345678, 32).storeUint(0, 64).endCell();
        const root = await net.send(alice, [internal({ to: minter, value: GRAM / 20n, bounce: true, init: jettonMinterStateInit(config), body })]);
        const txs = flatten(root);
        assert.ok(txs.some((n) => n.transaction.account === minter.toRawString()));
        const event = buildAccountEvent(root, net.facts, { account: alice.address.toRawString(), subjectOnly: false, language: 'en', accounts: net.accounts });
        assertValidEvent(event);
        const exec = event.actions.find((a) => a.type === 'SmartContractExec');
        assert.ok(exec, JSON.stringify(event.actions.map((a) => a.type)));
        assert.equal(exec.status, 'failed', 'the minter rejects an unknown op');
        assert.deepEqual(exec.SmartContractExec, {
            executor: net.accounts(alice.address.toRawString()), contract: net.accounts(minter.toRawString()),
            native_attached: GRAM / 20n, gram_attached: GRAM / 20n, operation: '0x12345678',
        });
        assert.equal(exec.simple_preview.name, 'Smart Contract Execution');
        // The deploy of the minter and the bounce back to alice come with it.
        assert.ok(event.actions.some((a) => a.type === 'ContractDeploy'));
        assert.ok(event.actions.some((a) => a.type === 'NativeTransfer' && a.NativeTransfer && (a.NativeTransfer as { recipient: { address: string } }).recipient.address === alice.address.toRawString()));
    });

    test('an event with nothing about the account is one Unknown action', async () => {
        const root = await net.send(alice, [internal({ to: bob.address, value: GRAM / 100n, bounce: false })]);
        const stranger = `0:${'ab'.repeat(32)}`;
        const event = buildAccountEvent(root, net.facts, { account: stranger, subjectOnly: true, language: 'ru', accounts: net.accounts });
        assertValidEvent(event);
        assert.deepEqual(event.actions, [{
            type: 'Unknown', status: 'ok', base_transactions: [],
            simple_preview: { name: 'Unknown', description: 'Что-то произошло, но мы не понимаем, что именно.', accounts: [net.accounts(stranger)] },
        }]);
        assert.equal(event.extra, 0n);
    });
});
