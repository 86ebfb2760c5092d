import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { Address, beginCell, type Cell } from '@ton/core';
import { buildAccountEvent } from '../../src/actions/account-event.ts';
import { findActions } from '../../src/actions/find-actions.ts';
import type { TraceFacts } from '../../src/actions/trace-input.ts';
import { jettonInternalTransferBody, jettonTransferBody } from '../../src/chain/devnet/contracts/jetton.ts';
import { commentCell } from '../../src/chain/devnet/contracts/payload.ts';
import { addr, constructTrace, type TxSpec } from './constructed-trace.ts';
import { assertValidEvent } from './schema.ts';

const GRAM = 1_000_000_000n;
const A = (raw: string) => Address.parse(raw);
const ALICE = addr(1);
const ALICE_JA = addr(2);
const ROUTER = addr(3);
const ROUTER_JA = addr(4);
const ROUTER_JB = addr(5);
const ALICE_JB = addr(6);
const POOL = addr(7);
const MASTER_A = addr(8);
const MASTER_B = addr(9);
const RELAYER = addr(10);
const ELECTOR = `-1:${'3'.repeat(64)}`;

function facts(): TraceFacts {
    return {
        jettonWallets: new Map([
            [ALICE_JA, { master: MASTER_A, owner: ALICE }], [ROUTER_JA, { master: MASTER_A, owner: ROUTER }],
            [ROUTER_JB, { master: MASTER_B, owner: ROUTER }], [ALICE_JB, { master: MASTER_B, owner: ALICE }],
        ]),
        jettons: new Map([
            [MASTER_A, { address: MASTER_A, name: 'Token A', symbol: 'AAA', decimals: 9, image: '', verification: 'none', score: 0 }],
            [MASTER_B, { address: MASTER_B, name: 'Token B', symbol: 'BBB', decimals: 6, image: '', verification: 'whitelist', score: 10 }],
        ]),
        nftItems: new Map(),
    };
}

const accounts = (raw: string) => ({ address: raw, is_scam: false, is_wallet: raw === ALICE });

const notifyBody = (amount: bigint, sender: string, payload: Cell | null) =>
    beginCell().storeUint(0x7362d09c, 32).storeUint(0, 64).storeCoins(amount).storeAddress(A(sender)).storeMaybeRef(payload).endCell();
const excessBody = () => beginCell().storeUint(0xd53276db, 32).storeUint(0, 64).endCell();

/** owner → its wallet (transfer) → receiver's wallet (internal_transfer) → receiver (notify, with `then`) + excesses. */
function jettonTransfer(p: { owner: string; from: string; to: string; toWallet: string; amount: bigint; payload: Cell | null; then?: TxSpec[] }): TxSpec {
    return {
        account: p.from, interfaces: ['jetton_wallet'], from: p.owner, value: GRAM / 5n,
        body: jettonTransferBody({ amount: p.amount, destination: A(p.to), responseDestination: A(p.owner), forwardTonAmount: GRAM / 10n, forwardPayload: p.payload }),
        children: [{
            account: p.toWallet, interfaces: ['jetton_wallet'],
            body: jettonInternalTransferBody({ amount: p.amount, from: A(p.owner), responseAddress: A(p.owner), forwardTonAmount: GRAM / 10n, forwardPayload: p.payload }),
            children: [
                { account: p.to, interfaces: p.to === ALICE ? ['wallet_v4r2'] : [], body: notifyBody(p.amount, p.owner, p.payload), value: GRAM / 10n, children: p.then },
                { account: p.owner, interfaces: p.owner === ALICE ? ['wallet_v4r2'] : [], body: excessBody(), value: GRAM / 50n },
            ],
        }],
    };
}

function event(root: ReturnType<typeof constructTrace>, f: TraceFacts, account = ALICE, language: 'en' | 'ru' = 'en') {
    const e = buildAccountEvent(root, f, { account, subjectOnly: true, language, accounts });
    assertValidEvent(e);
    return e;
}

describe('protocol actions on constructed traces', () => {
    test('constructed: STON.fi v1 swap AAA → BBB is one JettonSwap', () => {
        const swapPayload = beginCell().storeUint(0x25938561, 32).storeAddress(A(ROUTER_JB)).storeCoins(1n).storeAddress(A(ALICE)).storeBit(0).endCell();
        const payTo = (exit: number) => beginCell().storeUint(0xf93bb43f, 32).storeUint(0, 64).storeAddress(A(ALICE)).storeUint(exit, 32).endCell();
        const build = (exit: number, outWallet: string) => constructTrace(jettonTransfer({
            owner: ALICE, from: ALICE_JA, to: ROUTER, toWallet: ROUTER_JA, amount: 100n * GRAM, payload: swapPayload,
            then: [{
                account: POOL, interfaces: ['stonfi_pool'], body: beginCell().storeUint(0x25938561, 32).storeUint(0, 64).endCell(),
                children: [{
                    account: ROUTER, body: payTo(exit),
                    children: [jettonTransfer({ owner: ROUTER, from: outWallet, to: ALICE, toWallet: outWallet === ROUTER_JB ? ALICE_JB : ALICE_JA, amount: outWallet === ROUTER_JB ? 250_000_000n : 100n * GRAM, payload: null })],
                }],
            }],
        }));
        const root = build(0xc64370e5, ROUTER_JB);
        const { actions } = findActions(root, facts());
        assert.deepEqual(actions.map((a) => a.draft.type), ['JettonSwap']);
        assert.equal(actions[0].baseTransactions.length, 10, "4 + pool + router + 4");
        const e = event(root, facts());
        assert.deepEqual(e.actions[0].JettonSwap, {
            dex: 'stonfi', amount_in: (100n * GRAM).toString(), amount_out: '250000000', user_wallet: accounts(ALICE), router: accounts(ROUTER),
            jetton_master_in: facts().jettons.get(MASTER_A), jetton_master_out: facts().jettons.get(MASTER_B),
        });
        assert.equal(e.actions[0].status, 'ok');
        assert.equal(e.actions[0].simple_preview.description, 'Swapping 100 AAA for 250 BBB');
        assert.equal(event(root, facts(), ALICE, 'ru').actions[0].simple_preview.description, 'Обмен 100 AAA на 250 BBB');

        // A refund (exit code of pay_to not swap_ok, input jetton sent back) is a failed swap.
        const refund = event(build(0x5ffe1295, ROUTER_JA), facts());
        assert.deepEqual(refund.actions.map((a) => [a.type, a.status]), [['JettonSwap', 'failed']]);
    });

    test('constructed: STON.fi v1 swap with a referral: the referral pay_to (swap_ok_ref) is not the swap output', () => {
        const REFERRER = addr(11);
        const REFERRER_JB = addr(12);
        const swapPayload = beginCell().storeUint(0x25938561, 32).storeAddress(A(ROUTER_JB)).storeCoins(1n).storeAddress(A(ALICE))
            .storeBit(1).storeAddress(A(REFERRER)).endCell();
        const payTo = (owner: string, exit: number) => beginCell().storeUint(0xf93bb43f, 32).storeUint(0, 64).storeAddress(A(owner)).storeUint(exit, 32).endCell();
        const root = constructTrace(jettonTransfer({
            owner: ALICE, from: ALICE_JA, to: ROUTER, toWallet: ROUTER_JA, amount: 100n * GRAM, payload: swapPayload,
            then: [{
                account: POOL, interfaces: ['stonfi_pool'], body: beginCell().storeUint(0x25938561, 32).storeUint(0, 64).endCell(),
                // The pool pays the referral first: a pay_to of its own, with the referral's exit code.
                children: [
                    {
                        account: ROUTER, body: payTo(REFERRER, 0x45078540),
                        children: [jettonTransfer({ owner: ROUTER, from: ROUTER_JB, to: REFERRER, toWallet: REFERRER_JB, amount: 250_000n, payload: null })],
                    },
                    {
                        account: ROUTER, body: payTo(ALICE, 0xc64370e5),
                        children: [jettonTransfer({ owner: ROUTER, from: ROUTER_JB, to: ALICE, toWallet: ALICE_JB, amount: 250_000_000n, payload: null })],
                    },
                ],
            }],
        }));
        const { actions } = findActions(root, facts());
        const swaps = actions.filter((a) => a.draft.type === 'JettonSwap').map((a) => a.draft);
        assert.equal(swaps.length, 1);
        assert.deepEqual(swaps[0], {
            type: 'JettonSwap', success: true, dex: 'stonfi', userWallet: ALICE, router: ROUTER,
            in: { kind: 'jetton', master: MASTER_A, amount: 100n * GRAM }, out: { kind: 'jetton', master: MASTER_B, amount: 250_000_000n },
        });
        // the referral's share stays a transfer of its own
        assert.deepEqual(actions.filter((a) => a.draft.type === 'JettonTransfer').map((a) => [a.draft.type === 'JettonTransfer' && a.draft.recipient, a.draft.type === 'JettonTransfer' && a.draft.amount]), [[REFERRER, 250_000n]]);
    });

    test('constructed: STON.fi v1 payload naming someone else is not a swap of the sender', () => {
        const spoof = beginCell().storeUint(0x25938561, 32).storeAddress(A(ROUTER_JB)).storeCoins(1n).storeAddress(A(POOL)).storeBit(0).endCell();
        const root = constructTrace(jettonTransfer({ owner: ALICE, from: ALICE_JA, to: ROUTER, toWallet: ROUTER_JA, amount: 5n, payload: spoof }));
        assert.deepEqual(findActions(root, facts()).actions.map((a) => a.draft.type), ['JettonTransfer']);
    });

    test('constructed: STON.fi v2 swap through pool v2 and pay_to#657b54f5', () => {
        const payload = beginCell().storeUint(0x6664de2a, 32).storeAddress(A(ROUTER_JB)).storeAddress(A(ALICE)).storeAddress(A(ALICE)).storeUint(UTIME_DEADLINE, 64).endCell();
        // pay_to#657b54f5 query_id to excesses original_caller exit_code custom_payload ^[fwd_ton_amount amount0_out token0 amount1_out token1]
        const payTo = beginCell().storeUint(0x657b54f5, 32).storeUint(0, 64).storeAddress(A(ALICE)).storeAddress(A(ALICE)).storeAddress(A(ALICE)).storeUint(0xc64370e5, 32)
            .storeMaybeRef(null).storeRef(beginCell().storeCoins(0n).storeCoins(3_500_000n).storeAddress(A(ROUTER_JB)).storeCoins(0n).storeAddress(A(ROUTER_JA))).endCell();
        const root = constructTrace(jettonTransfer({
            owner: ALICE, from: ALICE_JA, to: ROUTER, toWallet: ROUTER_JA, amount: 2n * GRAM, payload,
            then: [{
                account: POOL, interfaces: ['stonfi_pool_v2_const_product'], body: beginCell().storeUint(0x6664de2a, 32).storeUint(0, 64).endCell(),
                children: [{ account: ROUTER, body: payTo, children: [jettonTransfer({ owner: ROUTER, from: ROUTER_JB, to: ALICE, toWallet: ALICE_JB, amount: 3_500_000n, payload: null })] }],
            }],
        }));
        const e = event(root, facts());
        assert.deepEqual(e.actions.map((a) => [a.type, a.status]), [['JettonSwap', 'ok']]);
        assert.equal(e.actions[0].simple_preview.description, 'Swapping 2 AAA for 3.5 BBB');
    });

    test('constructed: DeDust swap of grams for a jetton (native vault, pool event, payout)', () => {
        const NATIVE_VAULT = addr(20);
        const JETTON_VAULT = addr(21);
        // swap#9c610de3 asset_in asset_out amount_in amount_out ^[sender referral reserve0 reserve1]
        const swapEvent = beginCell().storeUint(0x9c610de3, 32).storeUint(0, 4).storeUint(1, 4).storeInt(0, 8).storeUint(BigInt('0x' + MASTER_B.slice(2)), 256)
            .storeCoins(5n * GRAM).storeCoins(12_345_678n)
            .storeRef(beginCell().storeAddress(A(ALICE)).storeAddress(null).storeCoins(1000n * GRAM).storeCoins(1000n * GRAM)).endCell();
        const root = constructTrace({
            account: ALICE, interfaces: ['wallet_v4r2'], external: true,
            children: [{
                account: NATIVE_VAULT, interfaces: ['dedust_vault'], value: 5n * GRAM + GRAM / 5n,
                // swap#ea06185d query_id amount step:(pool_addr kind_out limit next:none) swap_params:^(deadline recipient referral fulfill reject)
                body: beginCell().storeUint(0xea06185d, 32).storeUint(0, 64).storeCoins(5n * GRAM)
                    .storeAddress(A(POOL)).storeBit(0).storeCoins(1n).storeBit(0)
                    .storeRef(beginCell().storeUint(0, 32).storeAddress(A(ALICE)).storeAddress(null).storeBit(0).storeBit(0))
                    .endCell(),
                children: [{
                    account: POOL, interfaces: ['dedust_pool'], body: beginCell().storeUint(0x61ee542d, 32).storeUint(0, 64).endCell(), externalOut: [swapEvent],
                    children: [{
                        account: JETTON_VAULT, interfaces: ['dedust_vault'], body: beginCell().storeUint(0xad4eb6f5, 32).storeUint(0, 64).endCell(),
                        children: [jettonTransfer({ owner: JETTON_VAULT, from: ROUTER_JB, to: ALICE, toWallet: ALICE_JB, amount: 12_345_678n, payload: null })],
                    }],
                }],
            }],
        });
        const f = facts();
        (f.jettonWallets as Map<string, { master: string; owner: string }>).set(ROUTER_JB, { master: MASTER_B, owner: JETTON_VAULT });
        const e = event(root, f);
        assert.deepEqual(e.actions.map((a) => [a.type, a.status]), [['JettonSwap', 'ok']]);
        assert.deepEqual(e.actions[0].JettonSwap, {
            dex: 'dedust', amount_in: '', amount_out: '12345678', native_in: 5n * GRAM, gram_in: 5n * GRAM,
            user_wallet: accounts(ALICE), router: accounts(NATIVE_VAULT), jetton_master_out: f.jettons.get(MASTER_B),
        });
        assert.equal(e.actions[0].simple_preview.description, 'Swapping 5 gram for 12.3 BBB');
    });

    test('constructed: elector new_stake + confirmation, recover_stake + response', () => {
        const stake = constructTrace({
            account: ELECTOR, from: ALICE, value: 10_000n * GRAM, body: beginCell().storeUint(0x4e73744b, 32).storeUint(1, 64).endCell(),
            children: [{ account: ALICE, body: beginCell().storeUint(0xf374484c, 32).storeUint(1, 64).endCell(), value: GRAM }],
        });
        const e = event(stake, { ...facts() });
        assert.deepEqual(e.actions.map((a) => a.type), ['ElectionsDepositStake']);
        assert.deepEqual(e.actions[0].ElectionsDepositStake, { amount: 10_000n * GRAM, staker: accounts(ALICE) });
        assert.equal(e.actions[0].simple_preview.value, '-10 000 gram');
        assert.equal(e.actions[0].simple_preview.description, 'Depositing 10 000 gram for stake');

        const recover = constructTrace({
            account: ELECTOR, from: ALICE, value: GRAM, body: beginCell().storeUint(0x47657424, 32).storeUint(2, 64).endCell(),
            children: [{ account: ALICE, body: beginCell().storeUint(0xf96f7324, 32).storeUint(2, 64).endCell(), value: 10_050n * GRAM }],
        });
        const r = event(recover, facts());
        assert.deepEqual(r.actions.map((a) => a.type), ['ElectionsRecoverStake']);
        assert.equal((r.actions[0].ElectionsRecoverStake as { amount: bigint }).amount, 10_050n * GRAM);
        assert.equal(r.actions[0].simple_preview.value, '+10 050 gram');
    });

    test('constructed: TF nominator pool deposit "d", withdraw request "w", immediate withdrawal', () => {
        const deposit = constructTrace({ account: POOL, interfaces: ['tv_pool'], from: ALICE, value: 1000n * GRAM, body: commentCell('d') });
        const d = event(deposit, facts());
        assert.deepEqual(d.actions[0].DepositStake, { amount: 1000n * GRAM, staker: accounts(ALICE), pool: accounts(POOL), implementation: 'tf' });
        assert.equal(d.actions[0].simple_preview.description, 'Deposit 1 000 gram to staking pool');

        const request = constructTrace({ account: POOL, interfaces: ['tv_pool'], from: ALICE, value: GRAM, body: commentCell('w'), children: [{ account: ALICE, value: GRAM / 2n }] });
        const w = event(request, facts());
        assert.deepEqual(w.actions.map((a) => a.type), ['WithdrawStakeRequest']);
        assert.equal(w.actions[0].simple_preview.description, 'Request to withdraw all from staking pool.');
        assert.equal(event(request, facts(), ALICE, 'ru').actions[0].simple_preview.description, 'Запрос на вывод всех средств из пула стейкинга.');

        const immediate = constructTrace({ account: POOL, interfaces: ['tv_pool'], from: ALICE, value: GRAM, body: commentCell('w'), children: [{ account: ALICE, value: 1001n * GRAM }] });
        const i = event(immediate, facts());
        assert.deepEqual(i.actions.map((a) => a.type), ['WithdrawStake']);
        assert.equal((i.actions[0].WithdrawStake as { amount: bigint }).amount, 1001n * GRAM);
    });

    test('constructed: Tonstakers deposit#47d54391 keeps 1 gram for the pool', () => {
        const root = constructTrace({ account: POOL, interfaces: ['tonstake_pool'], from: ALICE, value: 11n * GRAM, body: beginCell().storeUint(0x47d54391, 32).storeUint(0, 64).endCell() });
        const e = event(root, facts());
        assert.deepEqual(e.actions[0].DepositStake, { amount: 10n * GRAM, staker: accounts(ALICE), pool: accounts(POOL), implementation: 'liquidTF' });
    });

    test('constructed: Tonstakers burn → withdraw#319b0cdc → payout NFT is a WithdrawStakeRequest for the burned jettons', () => {
        const burn = beginCell().storeUint(0x595f07bc, 32).storeUint(0, 64).storeCoins(7n * GRAM).storeAddress(A(ALICE)).storeBit(0).endCell();
        const root = constructTrace({
            account: ALICE_JA, interfaces: ['jetton_wallet'], from: ALICE, body: burn,
            children: [{
                account: MASTER_A, interfaces: ['jetton_master'], body: beginCell().storeUint(0x7bdd97de, 32).storeUint(0, 64).storeCoins(7n * GRAM).storeAddress(A(ALICE)).storeAddress(A(ALICE)).endCell(),
                children: [{
                    account: POOL, interfaces: ['tonstake_pool'], body: beginCell().storeUint(0x319b0cdc, 32).storeUint(0, 64).endCell(),
                    children: [{ account: addr(30), body: beginCell().storeUint(0x1674b0a0, 32).storeUint(0, 64).endCell() }],
                }],
            }],
        });
        const e = event(root, facts());
        assert.deepEqual(e.actions.map((a) => a.type), ['WithdrawStakeRequest']);
        const detail = e.actions[0].WithdrawStakeRequest as Record<string, unknown>;
        assert.deepEqual(detail.stake_meta, { currency_type: 'jetton', value: (7n * GRAM).toString(), decimals: 9, token_name: 'AAA', verification: 'none', image: '', jetton: MASTER_A });
        assert.equal(e.actions[0].simple_preview.description, 'Request to withdraw 7 AAA from staking pool.');
    });

    test('constructed: Tonstakers bills burned at the round\'s end (burn_notification → distributed_asset) are withdrawals paid to their owners', () => {
        const COLLECTION = addr(31);
        const billBurned = (owner: string, index: number) => beginCell().storeUint(0xed58b0b2, 32).storeUint(7, 64).storeCoins(5n * GRAM)
            .storeAddress(A(owner)).storeUint(index, 64).endCell();
        const distributed = beginCell().storeUint(0xdb3b8abd, 32).storeUint(7, 64).endCell();
        // the collection burns bill 1, which burns bill 0; each tells the collection, which pays its owner
        const root = constructTrace({
            account: addr(33), from: COLLECTION, body: beginCell().storeUint(0xf127fe4e, 32).storeUint(7, 64).endCell(),
            children: [
                { account: addr(34), body: beginCell().storeUint(0xf127fe4e, 32).storeUint(7, 64).endCell(),
                    children: [{ account: COLLECTION, body: billBurned(ROUTER, 0), children: [{ account: ROUTER, value: 5_300_000_000n, body: distributed }] }] },
                { account: COLLECTION, body: billBurned(ALICE, 1), children: [{ account: ALICE, value: 5_200_000_000n, body: distributed }] },
            ],
        });
        const withdrawals = findActions(root, facts()).actions.map((a) => a.draft).filter((d) => d.type === 'WithdrawStake');
        assert.deepEqual(withdrawals.map((d) => d.type === 'WithdrawStake' && [d.staker, d.amount, d.pool, d.implementation, d.success]).sort(), [
            [ALICE, 5_200_000_000n, COLLECTION, 'liquidTF', true],
            [ROUTER, 5_300_000_000n, COLLECTION, 'liquidTF', true],
        ].sort());
    });

    test('constructed: a relayer delivering a v5r1 signed internal request is a GasRelay, the wallet\'s send stays a transfer', () => {
        const WALLET = addr(40);
        const root = constructTrace({
            account: RELAYER, interfaces: ['wallet_highload_v3'], external: true,
            children: [{
                account: WALLET, interfaces: ['wallet_v5r1'], value: GRAM / 10n, body: beginCell().storeUint(0x73696e74, 32).storeUint(0, 32).endCell(),
                children: [{ account: ALICE, value: 3n * GRAM, body: commentCell('paid without gas') }],
            }],
        });
        const e = buildAccountEvent(root, facts(), { account: WALLET, subjectOnly: true, language: 'en', accounts });
        assertValidEvent(e);
        assert.deepEqual(e.actions.map((a) => a.type), ['GasRelay', 'NativeTransfer']);
        assert.deepEqual(e.actions[0].GasRelay, { amount: GRAM / 10n, relayer: accounts(RELAYER), target: accounts(WALLET) });
        assert.equal(e.actions[0].simple_preview.description, 'Relay for gas');
        // A relayer list that does not name the sender: a plain call.
        const other = findActions(root, { ...facts(), gasRelayers: new Set([addr(99)]) });
        assert.ok(!other.actions.some((a) => a.draft.type === 'GasRelay'));
    });

    test('constructed: buying from an NFT sale contract is an NftPurchase', () => {
        const SALE = addr(50);
        const ITEM = addr(51);
        const SELLER = addr(52);
        const f: TraceFacts = { ...facts(), nftItems: new Map([[ITEM, { address: ITEM, index: 3n, collection: null, owner: SELLER }]]), nftSales: new Map([[SALE, { nft: ITEM, owner: SELLER, price: 25n * GRAM }]]) };
        const transfer = beginCell().storeUint(0x5fcc3d14, 32).storeUint(0, 64).storeAddress(A(ALICE)).storeAddress(A(ALICE)).storeBit(0).storeCoins(1n).storeBit(0).endCell();
        const root = constructTrace({
            account: SALE, interfaces: ['nft_sale_getgems_v3'], from: ALICE, value: 26n * GRAM,
            children: [
                { account: ITEM, interfaces: ['nft_item'], body: transfer, children: [{ account: ALICE, body: beginCell().storeUint(0x05138d91, 32).storeUint(0, 64).storeAddress(A(SELLER)).storeBit(0).endCell() }] },
                { account: SELLER, value: 24n * GRAM },
            ],
        });
        const e = event(root, f);
        assert.deepEqual(e.actions.map((a) => [a.type, a.status]), [['NftPurchase', 'ok']]);
        const detail = e.actions[0].NftPurchase as Record<string, unknown>;
        assert.equal(detail.auction_type, 'getgems');
        assert.deepEqual(detail.nft, { address: ITEM, index: 3n, verified: false, metadata: {}, approved_by: [], trust: 'none', owner: accounts(SELLER) });
        assert.equal(e.actions[0].simple_preview.value, '25 gram');
        // The purchase explains 25 of the 26 gram; the rest came back? No: extra = flow − (−25 gram).
        assert.equal(e.extra, findActions(root, f).valueFlow.gramOf(ALICE) + 25n * GRAM);
    });

    test('constructed: subscription plugin installed by a v4 wallet, then removed by it', () => {
        const SUB = addr(60);
        const BENEFICIARY = addr(61);
        const f: TraceFacts = { ...facts(), subscriptions: new Map([[SUB, { wallet: ALICE, beneficiary: BENEFICIARY, amount: GRAM }]]) };
        const v4 = (op: number) => beginCell().storeBuffer(Buffer.alloc(64)).storeUint(698983191, 32).storeUint(UTIME_DEADLINE, 32).storeUint(5, 32).storeUint(op, 8)
            .storeInt(0, 8).storeBuffer(Buffer.from(SUB.slice(2), 'hex')).storeCoins(GRAM / 10n).storeUint(0, 64).endCell();
        const install = constructTrace({
            account: ALICE, interfaces: ['wallet_v4r2'], external: true, body: v4(2),
            children: [{ account: SUB, interfaces: ['subscription_v1'], deploys: true, body: beginCell().storeUint(0xf71783cb, 32).endCell() }],
        });
        const s = event(install, f);
        assert.deepEqual(s.actions.map((a) => a.type), ['Subscribe']);
        assert.deepEqual(s.actions[0].Subscribe, {
            subscriber: accounts(ALICE), subscription: SUB, beneficiary: accounts(BENEFICIARY), admin: accounts(BENEFICIARY), amount: 0n,
            price: { currency_type: 'native', value: '0', decimals: 9, token_name: 'gram', verification: 'whitelist', image: '' }, initial: true,
        });
        assert.equal(s.actions[0].simple_preview.name, 'Subscribed');

        const remove = constructTrace({
            account: ALICE, interfaces: ['wallet_v4r2'], external: true, body: v4(3),
            children: [{ account: SUB, interfaces: ['subscription_v1'], body: beginCell().storeUint(0x64737472, 32).storeUint(0, 64).endCell(), children: [{ account: ALICE, interfaces: ['wallet_v4r2'], value: GRAM / 20n }] }],
        });
        const u = event(remove, f);
        // The plugin's refund of its balance is part of the unsubscription.
        assert.deepEqual(u.actions.map((a) => [a.type, a.status]), [['UnSubscribe', 'ok']]);
        assert.equal(u.actions[0].base_transactions.length, 3);

        // Removing another plugin than the one that destructs: a failed unsubscription.
        const OTHER = addr(62);
        const wrong = constructTrace({
            account: ALICE, interfaces: ['wallet_v4r2'], external: true,
            body: beginCell().storeBuffer(Buffer.alloc(64)).storeUint(698983191, 32).storeUint(UTIME_DEADLINE, 32).storeUint(6, 32).storeUint(3, 8)
                .storeInt(0, 8).storeBuffer(Buffer.from(OTHER.slice(2), 'hex')).storeCoins(GRAM / 10n).storeUint(0, 64).endCell(),
            children: [{ account: SUB, interfaces: ['subscription_v1'], body: beginCell().storeUint(0x64737472, 32).storeUint(0, 64).endCell() }],
        });
        assert.deepEqual(event(wrong, f).actions.map((a) => [a.type, a.status]), [['UnSubscribe', 'failed']]);
        assert.equal(u.actions[0].simple_preview.description, 'Subscription deactivated');
    });
});

const UTIME_DEADLINE = 1_751_462_000;
