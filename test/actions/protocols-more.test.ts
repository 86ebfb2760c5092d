import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { Address, beginCell, type Cell } from '@ton/core';
import { buildAccountEvent } from '../../src/actions/account-event.ts';
import { findActions } from '../../src/actions/find-actions.ts';
import type { TraceFacts } from '../../src/actions/trace-input.ts';
import { jettonInternalTransferBody, jettonTransferBody } from '../../src/chain/devnet/contracts/jetton.ts';
import { addr, constructTrace, type TxSpec } from './constructed-trace.ts';
import { assertValidEvent } from './schema.ts';

/** Constructed traces of the DEX, staking, DNS, Fragment, WTON and XTR patterns (documented message layouts). */

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
const PTON_MASTER = addr(10);
const ROUTER_PTON = addr(11);
const RANGE = addr(12);
const EXCHANGE = addr(13);
const EXCHANGE_JA = addr(14);
const EXCHANGE_JB = addr(15);
const ROUTER_JB2 = addr(16);

function facts(): TraceFacts {
    return {
        jettonWallets: new Map([
            [ALICE_JA, { master: MASTER_A, owner: ALICE }], [ROUTER_JA, { master: MASTER_A, owner: ROUTER }],
            [ROUTER_JB, { master: MASTER_B, owner: ROUTER }], [ALICE_JB, { master: MASTER_B, owner: ALICE }],
            [ROUTER_PTON, { master: PTON_MASTER, owner: ROUTER }],
            [EXCHANGE_JA, { master: MASTER_A, owner: EXCHANGE }], [EXCHANGE_JB, { master: MASTER_B, owner: EXCHANGE }],
            [ROUTER_JB2, { master: MASTER_B, owner: ROUTER }],
        ]),
        jettons: new Map([
            [MASTER_A, { address: MASTER_A, name: 'Token A', symbol: 'AAA', decimals: 9, image: '', verification: 'none', score: 0 }],
            [MASTER_B, { address: MASTER_B, name: 'Token B', symbol: 'BBB', decimals: 6, image: '', verification: 'whitelist', score: 10 }],
            [PTON_MASTER, { address: PTON_MASTER, name: 'Proxy TON', symbol: 'pTON', decimals: 9, image: '', verification: 'whitelist', score: 0 }],
        ]),
        nftItems: new Map(),
    };
}

const accounts = (raw: string) => ({ address: raw, is_scam: false, is_wallet: raw === ALICE });
const op = (code: number, tail?: (b: ReturnType<typeof beginCell>) => void) => {
    const b = beginCell().storeUint(code, 32).storeUint(0, 64);
    tail?.(b);
    return b.endCell();
};
const notifyBody = (amount: bigint, sender: string, payload: Cell | null) =>
    beginCell().storeUint(0x7362d09c, 32).storeUint(0, 64).storeCoins(amount).storeAddress(A(sender)).storeMaybeRef(payload).endCell();

/** owner → its wallet (transfer) → receiver's wallet (internal_transfer) → receiver (notify, with `then`) + excesses. */
function jettonTransfer(p: { owner: string; from: string; to: string; toWallet: string; amount: bigint; payload: Cell | null; then?: TxSpec[]; toInterfaces?: string[] }): TxSpec {
    return {
        account: p.from, interfaces: ['jetton_wallet'], from: p.owner, value: GRAM / 5n,
        body: jettonTransferBody({ amount: p.amount, destination: A(p.to), responseDestination: A(p.owner), forwardTonAmount: GRAM / 10n, forwardPayload: p.payload }),
        children: [{
            account: p.toWallet, interfaces: ['jetton_wallet'],
            body: jettonInternalTransferBody({ amount: p.amount, from: A(p.owner), responseAddress: A(p.owner), forwardTonAmount: GRAM / 10n, forwardPayload: p.payload }),
            children: [
                { account: p.to, interfaces: p.toInterfaces ?? (p.to === ALICE ? ['wallet_v4r2'] : []), body: notifyBody(p.amount, p.owner, p.payload), value: GRAM / 10n, children: p.then },
                { account: p.owner, interfaces: p.owner === ALICE ? ['wallet_v4r2'] : [], body: op(0xd53276db), value: GRAM / 50n },
            ],
        }],
    };
}

/** The router's grams out through its pTON wallet: jetton transfer → ton_transfer#01f3835d to the user. */
function ptonOut(amount: bigint, to: string): TxSpec {
    return {
        account: ROUTER_PTON, interfaces: ['jetton_wallet'], from: ROUTER,
        body: jettonTransferBody({ amount, destination: A(to), responseDestination: A(to), forwardTonAmount: 0n, forwardPayload: null }),
        children: [{ account: to, interfaces: ['wallet_v4r2'], value: amount + GRAM / 100n, body: op(0x01f3835d, (b) => b.storeCoins(amount).storeAddress(null).storeBit(0)) }],
    };
}

function event(root: ReturnType<typeof constructTrace>, f: TraceFacts = facts(), account = ALICE) {
    const e = buildAccountEvent(root, f, { account, subjectOnly: true, language: 'en', accounts });
    assertValidEvent(e);
    return e;
}

function allActions(root: ReturnType<typeof constructTrace>, f: TraceFacts = facts(), account = ALICE) {
    const e = buildAccountEvent(root, f, { account, subjectOnly: false, language: 'en', accounts });
    assertValidEvent(e);
    return e;
}

const swapOf = (e: ReturnType<typeof event>) => e.actions[0].JettonSwap as Record<string, unknown>;

describe('more protocol actions on constructed traces', () => {
    test('constructed: STON.fi v2 swap of grams through pTON (ton_transfer#01f3835d → notify to the router)', () => {
        const payload = beginCell().storeUint(0x6664de2a, 32).storeAddress(A(ROUTER_JB)).storeAddress(A(ALICE)).storeAddress(A(ALICE)).storeUint(1_751_462_000, 64).endCell();
        // pay_to#657b54f5 query_id to excesses original_caller exit_code custom_payload ^[fwd_ton_amount amount0_out token0 amount1_out token1]
        const payTo = beginCell().storeUint(0x657b54f5, 32).storeUint(0, 64).storeAddress(A(ALICE)).storeAddress(A(ALICE)).storeAddress(A(ALICE)).storeUint(0xc64370e5, 32)
            .storeMaybeRef(null).storeRef(beginCell().storeCoins(0n).storeCoins(0n).storeAddress(A(ROUTER_PTON)).storeCoins(7_000_000n).storeAddress(A(ROUTER_JB))).endCell();
        const root = constructTrace({
            account: ALICE, interfaces: ['wallet_v4r2'], external: true,
            children: [{
                account: ROUTER_PTON, interfaces: ['jetton_wallet'], value: 3n * GRAM + GRAM / 2n,
                body: op(0x01f3835d, (b) => b.storeCoins(3n * GRAM).storeAddress(A(ALICE)).storeBit(1).storeRef(payload)),
                children: [{
                    account: ROUTER, body: notifyBody(3n * GRAM, ALICE, payload),
                    children: [{
                        account: POOL, interfaces: ['stonfi_pool_v2_const_product'], body: op(0x6664de2a),
                        children: [
                            { account: ROUTER, body: payTo, children: [jettonTransfer({ owner: ROUTER, from: ROUTER_JB, to: ALICE, toWallet: ALICE_JB, amount: 7_000_000n, payload: null })] },
                            // referral branch: pay_vault → deposit_ref_fee → excess
                            { account: ROUTER, body: op(0x63381632), children: [{ account: addr(30), body: op(0x0490f09b), children: [{ account: ALICE, body: op(0xd53276db), value: GRAM / 100n }] }] },
                        ],
                    }],
                }],
            }],
        });
        const e = event(root);
        assert.deepEqual(e.actions.map((a) => [a.type, a.status]), [['JettonSwap', 'ok']]);
        const swap = swapOf(e);
        assert.equal(swap.native_in, 3n * GRAM);
        assert.equal(swap.amount_out, '7000000');
        assert.equal(swap.dex, 'stonfi');
        assert.equal(e.actions[0].simple_preview.description, 'Swapping 3 gram for 7 BBB');
        // The referral branch is part of the swap: every transaction of the trace but the wallet's own is in it.
        assert.equal(e.actions[0].base_transactions.length, 11);
    });

    test('constructed: STON.fi v1 swap of a jetton for grams paid out through the router\'s pTON wallet', () => {
        const swapPayload = beginCell().storeUint(0x25938561, 32).storeAddress(A(ROUTER_PTON)).storeCoins(1n).storeAddress(A(ALICE)).storeBit(0).endCell();
        const payTo = beginCell().storeUint(0xf93bb43f, 32).storeUint(0, 64).storeAddress(A(ALICE)).storeUint(0xc64370e5, 32).endCell();
        const root = constructTrace(jettonTransfer({
            owner: ALICE, from: ALICE_JA, to: ROUTER, toWallet: ROUTER_JA, amount: 50n * GRAM, payload: swapPayload,
            then: [{ account: POOL, interfaces: ['stonfi_pool'], body: op(0x25938561), children: [{ account: ROUTER, body: payTo, children: [ptonOut(2n * GRAM, ALICE)] }] }],
        }));
        const e = event(root);
        assert.deepEqual(e.actions.map((a) => [a.type, a.status]), [['JettonSwap', 'ok']]);
        assert.equal(swapOf(e).native_out, 2n * GRAM);
        assert.equal(swapOf(e).amount_in, (50n * GRAM).toString());
        assert.equal(e.actions[0].simple_preview.description, 'Swapping 50 AAA for 2 gram');
    });

    test('constructed: a pTON transfer alone is a wrapped-native JettonTransfer whose grams count for extra', () => {
        const root = constructTrace({ ...ptonOut(2n * GRAM, ALICE), from: ROUTER });
        const { actions } = findActions(root, facts());
        assert.deepEqual(actions.map((a) => a.draft.type), ['JettonTransfer']);
        const e = event(root);
        // ALICE got 2.01 gram and paid 0.001 in fees; the transfer explains 2 of them.
        assert.equal(e.extra, GRAM / 100n - 1_000_000n);
    });

    const toncoTrace = (exit: number) => {
        const payload = op(0xa7fb58f8);
        const payTo = beginCell().storeUint(0xa1daa96d, 32).storeUint(0, 64).storeAddress(A(ALICE)).storeAddress(null).storeUint(exit, 32).storeUint(0, 64).storeBit(0).storeBit(0).endCell();
        const out = exit === 200
            ? jettonTransfer({ owner: ROUTER, from: ROUTER_JB, to: ALICE, toWallet: ALICE_JB, amount: 9_000_000n, payload: null })
            : jettonTransfer({ owner: ROUTER, from: ROUTER_JA, to: ALICE, toWallet: ALICE_JA, amount: 4n * GRAM, payload: null });
        return constructTrace(jettonTransfer({
            owner: ALICE, from: ALICE_JA, to: ROUTER, toWallet: ROUTER_JA, amount: 4n * GRAM, payload,
            then: [{ account: POOL, interfaces: ['tonco_pool'], body: op(0xa7fb58f8), children: [{ account: ROUTER, body: payTo, children: [out] }] }],
        }));
    };

    test('constructed: TONCO swap: POOLV3_SWAP#a7fb58f8 → ROUTERV3_PAY_TO#a1daa96d (200 ok, 230 refund)', () => {
        const ok = event(toncoTrace(200));
        assert.deepEqual(ok.actions.map((a) => [a.type, a.status]), [['JettonSwap', 'ok']]);
        assert.deepEqual(swapOf(ok), {
            dex: 'tonco', amount_in: (4n * GRAM).toString(), amount_out: '9000000', user_wallet: accounts(ALICE), router: accounts(ROUTER),
            jetton_master_in: facts().jettons.get(MASTER_A), jetton_master_out: facts().jettons.get(MASTER_B),
        });
        const refund = event(toncoTrace(230));
        assert.deepEqual(refund.actions.map((a) => [a.type, a.status]), [['JettonSwap', 'failed']]);
    });

    const rangeAndSuccess = (out: TxSpec, outAmount: bigint, isX: boolean): TxSpec => ({
        account: RANGE, interfaces: ['bidask_range'], body: op(0x66210c65),
        children: [{
            account: POOL, interfaces: ['bidask_pool'],
            body: op(0x520e4831, (b) => b.storeUint(5, 32).storeUint(0n, 256).storeBit(0).storeCoins(isX ? 0n : outAmount).storeCoins(isX ? outAmount : 0n).storeBit(isX).storeAddress(A(ALICE)).storeBit(0)),
            children: [out],
        }],
    });

    test('constructed: Bidask swap of grams for a jetton (swap#f2ef6c1b → range → swap_success)', () => {
        const build = (to: string) => constructTrace({
            account: POOL, interfaces: ['bidask_pool'], from: ALICE, value: 6n * GRAM,
            body: op(0xf2ef6c1b, (b) => b.storeCoins(5n * GRAM).storeAddress(A(to)).storeBit(0)),
            children: [rangeAndSuccess(jettonTransfer({ owner: POOL, from: ROUTER_JB, to: ALICE, toWallet: ALICE_JB, amount: 11_000_000n, payload: null }), 11_000_000n, true)],
        });
        const e = event(build(ALICE));
        assert.deepEqual(e.actions.map((a) => [a.type, a.status]), [['JettonSwap', 'ok']]);
        assert.equal(swapOf(e).native_in, 5n * GRAM);
        assert.equal(swapOf(e).amount_out, '11000000');
        assert.deepEqual(swapOf(e).router, accounts(POOL));
        // A swap whose recipient is someone else is not ALICE's swap.
        assert.ok(!findActions(build(addr(99)), facts()).actions.some((a) => a.draft.type === 'JettonSwap'));
    });

    test('constructed: Bidask swap of a jetton for grams (native_transfer_notification#6edd65f0)', () => {
        const root = constructTrace(jettonTransfer({
            owner: ALICE, from: ALICE_JA, to: POOL, toWallet: ROUTER_JA, amount: 8n * GRAM, payload: op(0xf2ef6c1b), toInterfaces: ['bidask_pool'],
            then: [rangeAndSuccess({ account: ALICE, interfaces: ['wallet_v4r2'], value: 1_300_000_000n, body: op(0x6edd65f0) }, 1_250_000_000n, false)],
        }));
        const e = event(root);
        assert.deepEqual(e.actions.map((a) => [a.type, a.status]), [['JettonSwap', 'ok']]);
        assert.equal(swapOf(e).native_out, 1_250_000_000n);
        assert.equal(swapOf(e).amount_in, (8n * GRAM).toString());
        assert.equal(e.actions[0].simple_preview.description, 'Swapping 8 AAA for 1.25 gram');
    });

    test('constructed: Moon swaps: grams in with moon_swap#b37a900b, jettons in with grams out (moon_swap_succeed#cb7f38d6)', () => {
        const nativeIn = constructTrace({
            account: POOL, interfaces: ['moon_pool'], from: ALICE, value: 2n * GRAM, body: op(0xb37a900b),
            children: [jettonTransfer({ owner: POOL, from: ROUTER_JB, to: ALICE, toWallet: ALICE_JB, amount: 4_000_000n, payload: op(0xcb7f38d6) })],
        });
        const n = event(nativeIn);
        assert.deepEqual(n.actions.map((a) => [a.type, a.status]), [['JettonSwap', 'ok']]);
        assert.equal(swapOf(n).dex, 'mooncx');
        assert.equal(swapOf(n).native_in, 2n * GRAM);

        const jettonIn = constructTrace(jettonTransfer({
            owner: ALICE, from: ALICE_JA, to: POOL, toWallet: ROUTER_JA, amount: 3n * GRAM, payload: op(0xb37a900b), toInterfaces: ['moon_pool'],
            then: [{ account: ALICE, interfaces: ['wallet_v4r2'], value: 700_000_000n, body: op(0xcb7f38d6) }],
        }));
        const j = event(jettonIn);
        assert.deepEqual(j.actions.map((a) => [a.type, a.status]), [['JettonSwap', 'ok']]);
        assert.equal(swapOf(j).native_out, 700_000_000n);
    });

    test('constructed: Megaton.fi swap: user → router → exchange → router → user', () => {
        const root = constructTrace(jettonTransfer({
            owner: ALICE, from: ALICE_JA, to: ROUTER, toWallet: ROUTER_JA, amount: 10n * GRAM, payload: null, toInterfaces: ['megatonfi_router'],
            then: [jettonTransfer({
                owner: ROUTER, from: ROUTER_JA, to: EXCHANGE, toWallet: EXCHANGE_JA, amount: 10n * GRAM, payload: null, toInterfaces: ['megatonfi_exchange'],
                then: [jettonTransfer({
                    owner: EXCHANGE, from: EXCHANGE_JB, to: ROUTER, toWallet: ROUTER_JB, amount: 20_000_000n, payload: null, toInterfaces: ['megatonfi_router'],
                    then: [jettonTransfer({ owner: ROUTER, from: ROUTER_JB2, to: ALICE, toWallet: ALICE_JB, amount: 20_000_000n, payload: null })],
                })],
            })],
        }));
        const e = event(root);
        assert.deepEqual(e.actions.map((a) => [a.type, a.status]), [['JettonSwap', 'ok']]);
        assert.equal(swapOf(e).dex, 'megatonfi');
        assert.equal(e.actions[0].simple_preview.description, 'Swapping 10 AAA for 20 BBB');
    });

    test('constructed: TON Whales pool: stake_deposit, stake_withdraw delayed (request) and paid at once', () => {
        const deposit = constructTrace({
            account: POOL, interfaces: ['whales_nominators'], from: ALICE, value: 50n * GRAM, body: op(0x7bcd1fef, (b) => b.storeCoins(GRAM / 10n)),
            children: [{ account: ALICE, interfaces: ['wallet_v4r2'], body: op(0xc641e932), value: GRAM / 20n }],
        });
        const d = event(deposit);
        assert.deepEqual(d.actions.map((a) => a.type), ['DepositStake']);
        assert.deepEqual(d.actions[0].DepositStake, { amount: 50n * GRAM, staker: accounts(ALICE), pool: accounts(POOL), implementation: 'whales' });

        const withdraw = (answer: number, value: bigint, stake: bigint) => constructTrace({
            account: POOL, interfaces: ['whales_nominators'], from: ALICE, value: GRAM / 5n, body: op(0xda803efd, (b) => b.storeCoins(GRAM / 10n).storeCoins(stake)),
            children: [{ account: ALICE, interfaces: ['wallet_v4r2'], body: op(answer), value }],
        });
        const request = event(withdraw(0x74bb3427, GRAM / 10n, 30n * GRAM));
        assert.deepEqual(request.actions.map((a) => a.type), ['WithdrawStakeRequest']);
        assert.equal(request.actions[0].simple_preview.description, 'Request to withdraw 30 gram from staking pool.');
        const all = event(withdraw(0x74bb3427, GRAM / 10n, 0n));
        assert.equal(all.actions[0].simple_preview.description, 'Request to withdraw all from staking pool.');

        const paid = event(withdraw(0x23d421e1, 51n * GRAM, 0n));
        assert.deepEqual(paid.actions.map((a) => a.type), ['WithdrawStake']);
        assert.deepEqual(paid.actions[0].WithdrawStake, { amount: 51n * GRAM, staker: accounts(ALICE), pool: accounts(POOL), implementation: 'whales' });
    });

    test('constructed: DNS renew: change_dns_record#4eb1f0f9 with a zero key and no value', () => {
        const ITEM = addr(40);
        const renew = constructTrace({ account: ITEM, interfaces: ['nft_item'], from: ALICE, value: GRAM / 20n, body: op(0x4eb1f0f9, (b) => b.storeUint(0n, 256)) });
        const e = event(renew);
        assert.deepEqual(e.actions.map((a) => a.type), ['DomainRenew']);
        assert.deepEqual(e.actions[0].DomainRenew, { domain: '', contract_address: ITEM, renewer: accounts(ALICE) });
        assert.equal(e.actions[0].simple_preview.description, 'Update unknown expiring time');
        // With the item's name read from its get-methods (get_domain), the domain is named.
        const named = { ...facts(), nftItems: new Map([[ITEM, { address: ITEM, index: 7n, collection: addr(41), owner: ALICE, dns: 'alice.ton' }]]) };
        const known = event(renew, named);
        assert.equal((known.actions[0].DomainRenew as Record<string, unknown>).domain, 'alice.ton');
        assert.equal(known.actions[0].simple_preview.description, 'Update alice.ton expiring time');
        assert.equal(known.actions[0].simple_preview.value, 'alice.ton');
        // Setting a record (a value attached) is no renewal.
        const set = constructTrace({ account: ITEM, interfaces: ['nft_item'], from: ALICE, value: GRAM / 20n, body: op(0x4eb1f0f9, (b) => b.storeUint(0n, 256).storeRef(op(1))) });
        assert.ok(!findActions(set, facts()).actions.some((a) => a.draft.type === 'DomainRenew'));
    });

    test('constructed: Fragment bids: grams to a teleitem, and the first bid deploying the item (telemint #4637289a → #299a3e15)', () => {
        const ITEM = addr(50);
        const bid = event(constructTrace({ account: ITEM, interfaces: ['teleitem'], from: ALICE, value: 12n * GRAM }));
        assert.deepEqual(bid.actions.map((a) => [a.type, a.status]), [['AuctionBid', 'ok']]);
        const detail = bid.actions[0].AuctionBid as Record<string, unknown>;
        assert.equal(detail.auction_type, 'DNS.tg');
        assert.deepEqual(detail.auction, accounts(ITEM));

        const COLLECTION = addr(51);
        const first = event(constructTrace({
            account: COLLECTION, interfaces: ['telemint_collection'], from: ALICE, value: 20n * GRAM, body: op(0x4637289a),
            children: [{ account: ITEM, interfaces: ['teleitem'], deploys: true, value: 20n * GRAM, body: op(0x299a3e15) }],
        }));
        assert.deepEqual(first.actions.map((a) => a.type).filter((t) => t !== 'ContractDeploy'), ['AuctionBid']);
        assert.equal(first.actions[0].simple_preview.value, '20 gram');
    });

    test('constructed: WTON mint#77a33521 → internal_transfer → notify is a JettonMint', () => {
        const WTON = addr(60);
        const ALICE_WTON = addr(61);
        const f = facts();
        (f.jettonWallets as Map<string, { master: string; owner: string }>).set(ALICE_WTON, { master: WTON, owner: ALICE });
        const root = constructTrace({
            account: WTON, from: ALICE, value: 3n * GRAM, body: op(0x77a33521, (b) => b.storeCoins(3n * GRAM)),
            children: [{
                account: ALICE_WTON, interfaces: ['jetton_wallet'],
                body: jettonInternalTransferBody({ amount: 3n * GRAM, from: A(WTON), responseAddress: A(ALICE), forwardTonAmount: 1n, forwardPayload: null }),
                children: [{ account: ALICE, interfaces: ['wallet_v4r2'], body: notifyBody(3n * GRAM, WTON, null), value: 1n }],
            }],
        });
        const e = event(root, f);
        assert.deepEqual(e.actions.map((a) => [a.type, a.status]), [['JettonMint', 'ok']]);
        assert.equal((e.actions[0].JettonMint as { amount: string }).amount, (3n * GRAM).toString());
    });

    test('constructed: XTR withdrawal: burn → burn_notification on the XTR master', () => {
        const XTR = addr(70);
        const ALICE_XTR = addr(71);
        const burn = beginCell().storeUint(0x595f07bc, 32).storeUint(0, 64).storeCoins(150n).storeAddress(A(ALICE)).storeBit(0).endCell();
        const root = constructTrace({
            account: ALICE_XTR, interfaces: ['jetton_wallet'], from: ALICE, body: burn,
            children: [{ account: XTR, interfaces: ['xtr_master', 'jetton_master'], body: op(0x7bdd97de, (b) => b.storeCoins(150n).storeAddress(A(ALICE)).storeAddress(A(ALICE))) }],
        });
        const e = allActions(root);
        assert.deepEqual(e.actions.map((a) => [a.type, a.status]), [['WithdrawXTR', 'ok']]);
        assert.deepEqual(e.actions[0].WithdrawXTR, { user: accounts(ALICE), amount: '150' });
    });
});
