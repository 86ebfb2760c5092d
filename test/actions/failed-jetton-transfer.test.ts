import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { Address, internal, type ShardAccount } from '@ton/core';
import { buildAccountEvent } from '../../src/actions/account-event.ts';
import type { ActionTraceNode } from '../../src/actions/trace-input.ts';
import { inspectEmulatedTrace } from '../../src/emulation/inspect-trace.ts';
import type { EmulatedTrace, EmulatedTransaction } from '../../src/emulation/trace-emulator.ts';
import {
    JETTON_EXIT, JETTON_TON, jettonMintBody, jettonMinterAddress, jettonMinterStateInit, jettonTransferBody, jettonWalletAddress,
} from '../../src/chain/devnet/contracts/jetton.ts';
import { onchainContent } from '../../src/chain/devnet/contracts/metadata.ts';
import type { DevnetWallet } from '../../src/chain/devnet/wallets.ts';
import { storeBackends } from '../helpers/stores.ts';
import { GRAM, TestNet, UTIME, flatten } from './sandbox-net.ts';
import { assertValidEvent } from './schema.ts';

const D = (n: bigint) => n * 10n ** 9n;

/**
 * A jetton transfer that fails on the sender's wallet (more than its balance), run on the real TVM
 * and inspected as emulation inspects a trace: the failed JettonTransfer still names the jetton
 * (the sender's wallet's confirmed master) and the recipient's wallet (as the master names it),
 * though the recipient's wallet was never reached, nor even deployed.
 */
describe('failed jetton transfer on a real-TVM trace, with the facts emulation gathers', () => {
    let net: TestNet;
    let alice: DevnetWallet;
    let bob: DevnetWallet;
    let minter: Address;
    let store: Awaited<ReturnType<ReturnType<typeof storeBackends>[number]['open']>>;
    const raw = (a: Address | DevnetWallet) => (a instanceof Address ? a : a.address).toRawString();

    before(async () => {
        net = await TestNet.create();
        const admin = await net.wallet('wallet_v4r2', 'failed-transfer admin');
        alice = await net.wallet('wallet_v4r2', 'failed-transfer alice');
        bob = await net.wallet('wallet_v3r2', 'failed-transfer bob');
        const token = { admin: admin.address, content: onchainContent({ name: 'Devnet Gold', symbol: 'DGLD', decimals: 9, image: 'https://example.org/dgld.png' }) };
        minter = jettonMinterAddress(token);
        await net.send(admin, [internal({
            to: minter, value: JETTON_TON.mintTonAmount + JETTON_TON.mintOverhead, bounce: false, init: jettonMinterStateInit(token),
            body: jettonMintBody({ queryId: 1n, to: alice.address, amount: D(100n), from: minter, responseAddress: admin.address }),
        })]);
        // The minter as the index holds it: emulation reads masters the trace does not touch from there.
        store = await storeBackends()[0].open();
        const state = (await net.chain.getContract(minter)).accountState;
        assert.equal(state?.type, 'active');
        if (state?.type !== 'active') return;
        const { code, data } = state.state;
        await store.db.insertInto('account_states').values({
            address: raw(minter), status: 'active', balance: GRAM, code_hash: code!.hash().toString('hex'), data_hash: data!.hash().toString('hex'),
            code: code!.toBoc(), data: data!.toBoc(), last_tx_lt: 1n, last_tx_hash: '00'.repeat(32), last_utime: UTIME, interfaces: '["jetton_master"]',
        }).execute();
    });

    after(async () => {
        await store?.dispose();
    });

    /** The trace as the emulator hands it to inspection: its transactions and the states they left. */
    async function emulated(root: ActionTraceNode): Promise<EmulatedTrace> {
        const toEmulated = (n: ActionTraceNode): EmulatedTransaction => ({
            parsed: n.transaction, boc: n.transaction.cell.toBoc(), endBalance: 0n, children: n.children.map(toEmulated),
        });
        const states = new Map<string, ShardAccount>();
        for (const n of flatten(root)) {
            const account = n.transaction.account;
            if (!states.has(account)) states.set(account, (await net.chain.getContract(Address.parseRaw(account))).account);
        }
        return { root: toEmulated(root), transactionCount: flatten(root).length, now: UTIME, after: states, libraries: new Map() };
    }

    test('more than the balance: the failed JettonTransfer carries jetton and recipients_wallet', async () => {
        const aliceJw = jettonWalletAddress(alice.address, minter);
        const bobJw = jettonWalletAddress(bob.address, minter);
        const root = await net.send(alice, [internal({
            to: aliceJw, value: JETTON_TON.transfer, bounce: true,
            body: jettonTransferBody({ queryId: 5n, amount: D(250n), destination: bob.address, responseDestination: alice.address }),
        })]);
        const senderTx = flatten(root).find((n) => n.transaction.account === raw(aliceJw))!;
        assert.equal(senderTx.transaction.success, false, 'the sender\'s jetton wallet refused');
        assert.equal(senderTx.transaction.tx.description.type === 'generic' && senderTx.transaction.tx.description.computePhase.type === 'vm'
            ? senderTx.transaction.tx.description.computePhase.exitCode : undefined, JETTON_EXIT.balanceTooLow);
        assert.ok(!flatten(root).some((n) => n.transaction.account === raw(bobJw)), 'bob\'s wallet was never reached');
        assert.equal((await net.chain.getContract(bobJw)).accountState?.type ?? 'uninit', 'uninit', 'nor deployed');

        const mentioned = new Set(flatten(root).flatMap((n) => [n.transaction.account, n.transaction.inMsg?.source ?? n.transaction.account]));
        const { facts } = await inspectEmulatedTrace(store.db, await emulated(root), mentioned);
        assert.deepEqual(facts.jettonWallets.get(raw(aliceJw)), { master: raw(minter), owner: raw(alice) }, 'the sender\'s wallet, confirmed by its master');
        assert.deepEqual(facts.jettonWallets.get(raw(bobJw)), { master: raw(minter), owner: raw(bob) }, 'the recipient\'s wallet, as the master names it');

        const event = buildAccountEvent(root, facts, { account: raw(alice), subjectOnly: true, language: 'en', accounts: net.accounts });
        assertValidEvent(event);
        const transfer = event.actions.find((a) => a.type === 'JettonTransfer');
        assert.ok(transfer, event.actions.map((a) => a.type).join());
        assert.equal(transfer.status, 'failed');
        const detail = transfer.JettonTransfer as { senders_wallet: string; recipients_wallet?: string; amount: string; jetton?: { address: string } };
        assert.equal(detail.senders_wallet, raw(aliceJw));
        assert.equal(detail.amount, D(250n).toString());
        assert.equal(detail.recipients_wallet, raw(bobJw));
        assert.equal(detail.jetton?.address, raw(minter));
    });
});
