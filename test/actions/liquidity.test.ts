import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { Address, beginCell, type Builder, type Cell } from '@ton/core';
import { buildAccountEvent } from '../../src/actions/account-event.ts';
import { findActions } from '../../src/actions/find-actions.ts';
import type { TraceFacts } from '../../src/actions/trace-input.ts';
import { jettonInternalTransferBody, jettonTransferBody } from '../../src/chain/devnet/contracts/jetton.ts';
import { addr, constructTrace, type TxSpec } from './constructed-trace.ts';
import { assertValidEvent } from './schema.ts';

/**
 * Liquidity deposits (Bidask, STON.fi v2, Moon, TONCO) and multi-hop swaps (STON.fi v2, DeDust) on
 * traces built from the protocols' documented message layouts.
 */

const GRAM = 1_000_000_000n;
const A = (raw: string) => Address.parse(raw);

const ALICE = addr(1);
const MASTER_A = addr(2);
const MASTER_B = addr(3);
const MASTER_C = addr(4);
const PTON_MASTER = addr(5);
const ALICE_JA = addr(10);
const ALICE_JB = addr(11);
const ALICE_JC = addr(12);
const ROUTER = addr(20);
const ROUTER_JA = addr(21);
const ROUTER_JB = addr(22);
const ROUTER_JC = addr(23);
const ROUTER_PTON = addr(24);
const ROUTER2 = addr(30);
const ROUTER2_JB = addr(31);
const ROUTER2_JC = addr(32);
const POOL = addr(40);
const POOL2 = addr(41);
const POOL_JA = addr(42);
const POOL_JB = addr(43);
const RANGE = addr(44);
const MULTITOKEN = addr(45);
const LIQ_VAULT = addr(46);
const LP_ACCOUNT = addr(47);
const ALICE_LP = addr(48);
const RECORD = addr(49);
const POSITION = addr(50);
const VAULT_A = addr(60);
const VAULT_A_JA = addr(61);
const VAULT_C = addr(62);
const VAULT_C_JC = addr(63);
const NATIVE_VAULT = addr(64);

const SWAP_OK = 0xc64370e5;
const SWAP_REFUND_SLIPPAGE = 0x39603190;

function facts(): TraceFacts {
    const wallets: Array<[string, string, string]> = [
        [ALICE_JA, MASTER_A, ALICE], [ALICE_JB, MASTER_B, ALICE], [ALICE_JC, MASTER_C, ALICE],
        [ROUTER_JA, MASTER_A, ROUTER], [ROUTER_JB, MASTER_B, ROUTER], [ROUTER_JC, MASTER_C, ROUTER], [ROUTER_PTON, PTON_MASTER, ROUTER],
        [ROUTER2_JB, MASTER_B, ROUTER2], [ROUTER2_JC, MASTER_C, ROUTER2],
        [POOL_JA, MASTER_A, POOL], [POOL_JB, MASTER_B, POOL],
        [VAULT_A_JA, MASTER_A, VAULT_A], [VAULT_C_JC, MASTER_C, VAULT_C],
    ];
    return {
        jettonWallets: new Map(wallets.map(([wallet, master, owner]) => [wallet, { master, owner }])),
        jettons: new Map([
            [MASTER_A, { address: MASTER_A, name: 'Token A', symbol: 'AAA', decimals: 9, image: '', verification: 'none', score: 0 }],
            [MASTER_B, { address: MASTER_B, name: 'Token B', symbol: 'BBB', decimals: 6, image: '', verification: 'whitelist', score: 10 }],
            [MASTER_C, { address: MASTER_C, name: 'Token C', symbol: 'CCC', decimals: 6, image: 'https://c.example/c.png', verification: 'none', score: 0 }],
            [PTON_MASTER, { address: PTON_MASTER, name: 'Proxy TON', symbol: 'pTON', decimals: 9, image: '', verification: 'whitelist', score: 0 }],
        ]),
        nftItems: new Map(),
    };
}

const accounts = (raw: string) => ({ address: raw, is_scam: false, is_wallet: raw === ALICE });
const WALLET = ['wallet_v4r2'];

/** op + query_id, then the rest of the body. */
const msg = (code: number, tail?: (b: Builder) => void): Cell => {
    const b = beginCell().storeUint(code, 32).storeUint(0, 64);
    tail?.(b);
    return b.endCell();
};
const notifyBody = (amount: bigint, sender: string, payload: Cell | null) =>
    beginCell().storeUint(0x7362d09c, 32).storeUint(0, 64).storeCoins(amount).storeAddress(A(sender)).storeMaybeRef(payload).endCell();
const excess = (to: string, value = GRAM / 50n): TxSpec => ({ account: to, interfaces: to === ALICE ? WALLET : [], body: msg(0xd53276db), value });

/** owner → its wallet (transfer) → receiver's wallet (internal_transfer) → receiver (notify, with `then`) + excess to the owner. */
function jettonTransfer(p: { owner: string; from: string; to: string; toWallet: string; amount: bigint; payload: Cell | null; then?: TxSpec[]; toInterfaces?: string[] }): TxSpec {
    return {
        account: p.from, interfaces: ['jetton_wallet'], from: p.owner, value: GRAM / 5n,
        body: jettonTransferBody({ amount: p.amount, destination: A(p.to), responseDestination: A(p.owner), forwardTonAmount: GRAM / 10n, forwardPayload: p.payload }),
        children: [{
            account: p.toWallet, interfaces: ['jetton_wallet'],
            body: jettonInternalTransferBody({ amount: p.amount, from: A(p.owner), responseAddress: A(p.owner), forwardTonAmount: GRAM / 10n, forwardPayload: p.payload }),
            children: [
                { account: p.to, interfaces: p.toInterfaces ?? (p.to === ALICE ? WALLET : []), body: notifyBody(p.amount, p.owner, p.payload), value: GRAM / 10n, children: p.then },
                excess(p.owner),
            ],
        }],
    };
}

/** Grams to the router's pTON wallet (ton_transfer#01f3835d with a forward payload) → notify to the router. */
function ptonIn(amount: bigint, payload: Cell, then: TxSpec[]): TxSpec {
    return {
        account: ROUTER_PTON, interfaces: ['jetton_wallet'], value: amount + GRAM / 2n,
        body: msg(0x01f3835d, (b) => b.storeCoins(amount).storeAddress(A(ALICE)).storeBit(1).storeRef(payload)),
        children: [{ account: ROUTER, body: notifyBody(amount, ALICE, payload), children: then }],
    };
}

/** The user's wallet sending everything of the trace (an external message). */
const wallet = (children: TxSpec[]): TxSpec => ({ account: ALICE, interfaces: WALLET, external: true, children });

function event(root: ReturnType<typeof constructTrace>, account = ALICE, language: 'en' | 'ru' = 'en', f: TraceFacts = facts()) {
    const e = buildAccountEvent(root, f, { account, subjectOnly: true, language, accounts });
    assertValidEvent(e);
    return e;
}

const detail = <T = Record<string, unknown>>(e: ReturnType<typeof event>, i = 0) => {
    const a = e.actions[i];
    return a[a.type] as T;
};
const types = (e: ReturnType<typeof event>) => e.actions.map((a) => [a.type, a.status]);

const nativePrice = (amount: bigint) => ({ currency_type: 'native', value: amount.toString(), decimals: 9, token_name: 'gram', verification: 'whitelist', image: '' });
const jettonPrice = (master: string, amount: bigint) => {
    const j = facts().jettons.get(master)!;
    return { currency_type: 'jetton', value: amount.toString(), decimals: j.decimals, token_name: j.symbol, verification: j.verification, image: j.image, jetton: master };
};

// ---------------------------------------------------------------- STON.fi v2 multi-hop swaps

/** swap#6664de2a token_wallet1 refund excesses tx_deadline ^[min_out receiver fwd_gas custom_payload refund_fwd_gas refund_payload ref_fee ref_address] */
function stonfiSwapPayload(tokenWallet: string, minOut: bigint, next: Cell | null = null): Cell {
    const cross = beginCell().storeCoins(minOut).storeAddress(A(ALICE)).storeCoins(GRAM / 10n).storeMaybeRef(next)
        .storeCoins(0n).storeMaybeRef(null).storeUint(0, 16).storeAddress(null).endCell();
    return beginCell().storeUint(0x6664de2a, 32).storeAddress(A(tokenWallet)).storeAddress(A(ALICE)).storeAddress(A(ALICE))
        .storeUint(1_751_462_000, 64).storeRef(cross).endCell();
}

/** swap#6664de2a query_id from_user left_amount right_amount ^[transferred_op token_wallet1 refund excesses deadline ^[min_out receiver …]] (router → pool) */
function stonfiPoolSwap(amount: bigint, tokenWallet: string, minOut: bigint): Cell {
    const swapBody = beginCell().storeCoins(minOut).storeAddress(A(ALICE)).storeCoins(0n).storeMaybeRef(null)
        .storeCoins(0n).storeMaybeRef(null).storeUint(0, 16).storeAddress(null).endCell();
    const dex = beginCell().storeUint(0x0f8a7ea5, 32).storeAddress(A(tokenWallet)).storeAddress(A(ALICE)).storeAddress(A(ALICE))
        .storeUint(1_751_462_000, 64).storeRef(swapBody).endCell();
    return msg(0x6664de2a, (b) => b.storeAddress(A(ALICE)).storeCoins(amount).storeCoins(0n).storeRef(dex));
}

/** pay_to#657b54f5 query_id to excesses original_caller exit_code custom_payload ^[fwd_ton_amount amount0_out token0 amount1_out token1] */
function stonfiPayTo(exit: number, paid: { amount: bigint; wallet: string }, other: string): Cell {
    const info = beginCell().storeCoins(0n).storeCoins(paid.amount).storeAddress(A(paid.wallet)).storeCoins(0n).storeAddress(A(other)).endCell();
    return msg(0x657b54f5, (b) => b.storeAddress(A(ALICE)).storeAddress(A(ALICE)).storeAddress(A(ALICE)).storeUint(exit, 32).storeMaybeRef(null).storeRef(info));
}

const POOL_V2 = ['stonfi_pool_v2_const_product'];
const ROUTER_V2 = ['stonfi_router_v2_1'];

/** 10 AAA → (pool, router) → 20 BBB → (pool 2, same router) → 7 CCC, the second hop ok or refunded. */
function stonfiSameRouter(secondOk: boolean) {
    const payload = stonfiSwapPayload(ROUTER_JB, 1n, stonfiSwapPayload(ROUTER_JC, 6_000_000n));
    const secondHop: TxSpec = {
        account: POOL2, interfaces: POOL_V2, body: stonfiPoolSwap(20_000_000n, ROUTER_JC, 6_000_000n),
        children: [{
            account: ROUTER, interfaces: ROUTER_V2,
            body: secondOk ? stonfiPayTo(SWAP_OK, { amount: 7_000_000n, wallet: ROUTER_JC }, ROUTER_JB) : stonfiPayTo(SWAP_REFUND_SLIPPAGE, { amount: 20_000_000n, wallet: ROUTER_JB }, ROUTER_JC),
            children: [secondOk
                ? jettonTransfer({ owner: ROUTER, from: ROUTER_JC, to: ALICE, toWallet: ALICE_JC, amount: 7_000_000n, payload: null })
                : jettonTransfer({ owner: ROUTER, from: ROUTER_JB, to: ALICE, toWallet: ALICE_JB, amount: 20_000_000n, payload: null })],
        }],
    };
    return constructTrace(jettonTransfer({
        owner: ALICE, from: ALICE_JA, to: ROUTER, toWallet: ROUTER_JA, amount: 10n * GRAM, payload, toInterfaces: ROUTER_V2,
        then: [{
            account: POOL, interfaces: POOL_V2, body: stonfiPoolSwap(10n * GRAM, ROUTER_JB, 1n),
            children: [{ account: ROUTER, interfaces: ROUTER_V2, body: stonfiPayTo(SWAP_OK, { amount: 20_000_000n, wallet: ROUTER_JB }, ROUTER_JA), children: [secondHop] }],
        }],
    }));
}

/** 10 AAA → router 1 → 20 BBB sent on to router 2 with a swap payload → 7 CCC (or refunded by router 2). */
function stonfiTwoRouters(secondOk: boolean) {
    const second = stonfiSwapPayload(ROUTER2_JC, 6_000_000n);
    const payload = stonfiSwapPayload(ROUTER_JB, 1n, second);
    const hop2: TxSpec = {
        account: POOL2, interfaces: POOL_V2, body: stonfiPoolSwap(20_000_000n, ROUTER2_JC, 6_000_000n),
        children: [{
            account: ROUTER2, interfaces: ROUTER_V2,
            body: secondOk ? stonfiPayTo(SWAP_OK, { amount: 7_000_000n, wallet: ROUTER2_JC }, ROUTER2_JB) : stonfiPayTo(SWAP_REFUND_SLIPPAGE, { amount: 20_000_000n, wallet: ROUTER2_JB }, ROUTER2_JC),
            children: [secondOk
                ? jettonTransfer({ owner: ROUTER2, from: ROUTER2_JC, to: ALICE, toWallet: ALICE_JC, amount: 7_000_000n, payload: null })
                : jettonTransfer({ owner: ROUTER2, from: ROUTER2_JB, to: ALICE, toWallet: ALICE_JB, amount: 20_000_000n, payload: null })],
        }],
    };
    return constructTrace(jettonTransfer({
        owner: ALICE, from: ALICE_JA, to: ROUTER, toWallet: ROUTER_JA, amount: 10n * GRAM, payload, toInterfaces: ROUTER_V2,
        then: [{
            account: POOL, interfaces: POOL_V2, body: stonfiPoolSwap(10n * GRAM, ROUTER_JB, 1n),
            children: [{
                account: ROUTER, interfaces: ROUTER_V2, body: stonfiPayTo(SWAP_OK, { amount: 20_000_000n, wallet: ROUTER_JB }, ROUTER_JA),
                children: [jettonTransfer({ owner: ROUTER, from: ROUTER_JB, to: ROUTER2, toWallet: ROUTER2_JB, amount: 20_000_000n, payload: second, toInterfaces: ROUTER_V2, then: [hop2] })],
            }],
        }],
    }));
}

// ---------------------------------------------------------------- DeDust multi-hop swaps

const dedustAsset = (b: Builder, master: string | null) => (master === null ? b.storeUint(0, 4) : b.storeUint(1, 4).storeInt(0, 8).storeUint(BigInt('0x' + master.slice(2)), 256));

/** step#_ pool_addr params:(kind_out:Bool limit:Coins next:(Maybe ^Step)) for each pool, in order */
function dedustSteps(b: Builder, pools: string[]): Builder {
    const [first, ...rest] = pools;
    b.storeAddress(A(first)).storeBit(0).storeCoins(1n);
    return rest.length === 0 ? b.storeBit(0) : b.storeBit(1).storeRef(dedustSteps(beginCell(), rest).endCell());
}

const dedustParams = () => beginCell().storeUint(1_751_462_000, 32).storeAddress(A(ALICE)).storeAddress(null).storeBit(0).storeBit(0).endCell();

/** swap#9c610de3 asset_in asset_out amount_in amount_out ^[sender referral reserve0 reserve1] (a pool's ext-out event) */
function dedustEvent(from: string | null, to: string | null, amountIn: bigint, amountOut: bigint): Cell {
    const b = beginCell().storeUint(0x9c610de3, 32);
    dedustAsset(b, from);
    dedustAsset(b, to);
    return b.storeCoins(amountIn).storeCoins(amountOut)
        .storeRef(beginCell().storeAddress(A(ALICE)).storeAddress(null).storeCoins(1000n * GRAM).storeCoins(1000n * GRAM)).endCell();
}

const BOB = addr(90);
const BOB_JC = addr(91);

/**
 * pool 1 (AAA → BBB, or grams → BBB) → pool 2 (BBB → CCC, or BBB → grams) → the output vault's
 * payout to `payee` (ALICE, who swaps, unless a test says otherwise): a CCC transfer, or grams
 * with payout#474f86cf.
 */
function dedustChain(firstIn: string | null, amountIn: bigint, payee = ALICE, out: 'jetton' | 'native' = 'jetton'): TxSpec {
    const payout: TxSpec = out === 'jetton'
        ? jettonTransfer({ owner: VAULT_C, from: VAULT_C_JC, to: payee, toWallet: payee === ALICE ? ALICE_JC : BOB_JC, amount: 9_500_000n, payload: null })
        : { account: payee, interfaces: WALLET, body: msg(0x474f86cf, (b) => b.storeBit(0)), value: 9_500_000n };
    return {
        account: POOL, interfaces: ['dedust_pool'], body: msg(0x61ee542d), externalOut: [dedustEvent(firstIn, MASTER_B, amountIn, 30_000_000n)],
        children: [{
            account: POOL2, interfaces: ['dedust_pool'], body: msg(0x72aca8aa),
            externalOut: [dedustEvent(MASTER_B, out === 'jetton' ? MASTER_C : null, 30_000_000n, 9_500_000n)],
            children: [{
                account: out === 'jetton' ? VAULT_C : NATIVE_VAULT, interfaces: ['dedust_vault'],
                body: msg(0xad4eb6f5, (b) => b.storeRef(beginCell().endCell()).storeCoins(9_500_000n).storeAddress(A(payee)).storeBit(0)),
                children: [payout],
            }],
        }],
    };
}

function dedustJettonSwap(requestedPools: string[], payee = ALICE, out: 'jetton' | 'native' = 'jetton') {
    const payload = dedustSteps(beginCell().storeUint(0xe3a0d482, 32), requestedPools).storeRef(dedustParams()).endCell();
    return constructTrace(jettonTransfer({
        owner: ALICE, from: ALICE_JA, to: VAULT_A, toWallet: VAULT_A_JA, amount: 12n * GRAM, payload, toInterfaces: ['dedust_vault'],
        then: [dedustChain(MASTER_A, 12n * GRAM, payee, out)],
    }));
}

function dedustNativeSwap(payee = ALICE, out: 'jetton' | 'native' = 'jetton') {
    return constructTrace(wallet([{
        account: NATIVE_VAULT, interfaces: ['dedust_vault'], value: 3n * GRAM + GRAM / 5n,
        body: msg(0xea06185d, (b) => dedustSteps(b.storeCoins(3n * GRAM), [POOL, POOL2]).storeRef(dedustParams())),
        children: [dedustChain(null, 3n * GRAM, payee, out)],
    }]));
}

describe('constructed: multi-hop swaps and liquidity deposits (documented message layouts)', () => {
    test('constructed: STON.fi v2 two hops on one router (pay_to → next pool) are one JettonSwap, first token in, last out', () => {
        const root = stonfiSameRouter(true);
        const e = event(root);
        assert.deepEqual(types(e), [['JettonSwap', 'ok']]);
        assert.deepEqual(detail(e), {
            dex: 'stonfi', amount_in: (10n * GRAM).toString(), amount_out: '7000000', user_wallet: accounts(ALICE), router: accounts(ROUTER),
            jetton_master_in: facts().jettons.get(MASTER_A), jetton_master_out: facts().jettons.get(MASTER_C),
        });
        assert.equal(e.actions[0].simple_preview.description, 'Swapping 10 AAA for 7 CCC');
        assert.equal(event(root, ALICE, 'ru').actions[0].simple_preview.description, 'Обмен 10 AAA на 7 CCC');
        // transfer in (4) + pool + pay_to + pool 2 + pay_to 2 + transfer out (4)
        assert.equal(e.actions[0].base_transactions.length, 12);
    });

    test('constructed: STON.fi v2 two hops across routers (jetton transfer with a swap payload to router 2) are one JettonSwap', () => {
        const e = event(stonfiTwoRouters(true));
        assert.deepEqual(types(e), [['JettonSwap', 'ok']]);
        const swap = detail(e);
        assert.equal(swap.amount_in, (10n * GRAM).toString());
        assert.equal(swap.amount_out, '7000000');
        assert.deepEqual(swap.jetton_master_out, facts().jettons.get(MASTER_C));
        assert.deepEqual(swap.router, accounts(ROUTER2), 'the router of the last hop');
        assert.equal(e.actions[0].base_transactions.length, 16);
    });

    test('constructed: STON.fi v2 second hop refunded (exit 0x39603190): the first hop is a swap, the second a failed swap of its own', () => {
        for (const [name, root, router2] of [['same router', stonfiSameRouter(false), ROUTER], ['two routers', stonfiTwoRouters(false), ROUTER2]] as const) {
            const e = event(root);
            assert.deepEqual(types(e), [['JettonSwap', 'ok'], ['JettonSwap', 'failed']], name);
            // the first hop: what its pay_to reported (20 BBB) is what the user ends up with
            assert.deepEqual(detail(e, 0), {
                dex: 'stonfi', amount_in: (10n * GRAM).toString(), amount_out: '20000000', user_wallet: accounts(ALICE), router: accounts(ROUTER),
                jetton_master_in: facts().jettons.get(MASTER_A), jetton_master_out: facts().jettons.get(MASTER_B),
            }, name);
            // the failed hop: BBB in, the CCC it asked for at least
            assert.deepEqual(detail(e, 1), {
                dex: 'stonfi', amount_in: '20000000', amount_out: '6000000', user_wallet: accounts(ALICE), router: accounts(router2),
                jetton_master_in: facts().jettons.get(MASTER_B), jetton_master_out: facts().jettons.get(MASTER_C),
            }, name);
            assert.equal(e.actions[0].simple_preview.description, 'Swapping 10 AAA for 20 BBB', name);
            assert.equal(e.actions[1].simple_preview.description, 'Swapping 20 BBB for 6 CCC', name);
        }
    });

    test('constructed: DeDust two steps (swap_external → swap_peer, each logging swap#9c610de3) are one JettonSwap', () => {
        const e = event(dedustJettonSwap([POOL, POOL2]));
        assert.deepEqual(types(e), [['JettonSwap', 'ok']]);
        assert.deepEqual(detail(e), {
            dex: 'dedust', amount_in: (12n * GRAM).toString(), amount_out: '9500000', user_wallet: accounts(ALICE), router: accounts(VAULT_A),
            jetton_master_in: facts().jettons.get(MASTER_A), jetton_master_out: facts().jettons.get(MASTER_C),
        });
        assert.equal(e.actions[0].simple_preview.description, 'Swapping 12 AAA for 9.5 CCC');
        // transfer in (4) + 2 pools + payout command + transfer out (4)
        assert.equal(e.actions[0].base_transactions.length, 11);

        // Grams in through the native vault, two steps as well.
        const n = event(dedustNativeSwap());
        assert.deepEqual(types(n), [['JettonSwap', 'ok']]);
        assert.equal(detail(n).native_in, 3n * GRAM);
        assert.equal(detail(n).amount_out, '9500000');
        assert.equal(n.actions[0].simple_preview.description, 'Swapping 3 gram for 9.5 CCC');
    });

    test('constructed: a DeDust payout to someone other than the swapper is no swap (the payout must reach who started it)', () => {
        const swaps = (root: ReturnType<typeof constructTrace>) => findActions(root, facts()).actions.filter((a) => a.draft.type === 'JettonSwap');
        for (const out of ['jetton', 'native'] as const) {
            for (const [start, build] of [['jetton in', (payee: string) => dedustJettonSwap([POOL, POOL2], payee, out)], ['grams in', (payee: string) => dedustNativeSwap(payee, out)]] as const) {
                const name = `${start}, ${out} out`;
                const own = swaps(build(ALICE));
                assert.equal(own.length, 1, name);
                assert.equal(own[0].draft.success, true, name);
                assert.deepEqual(own[0].draft.type === 'JettonSwap' && own[0].draft.out, out === 'jetton' ? { kind: 'jetton', master: MASTER_C, amount: 9_500_000n } : { kind: 'native', amount: 9_500_000n }, name);

                const other = build(BOB);
                assert.deepEqual(swaps(other), [], name);
                // What happened is still shown: the payout to BOB is an action of its own.
                const { actions } = findActions(other, facts());
                const paid = actions.find((a) => (a.draft.type === 'JettonTransfer' || a.draft.type === 'NativeTransfer') && a.draft.recipient === BOB && a.draft.amount === 9_500_000n);
                assert.ok(paid, `${name}: ${actions.map((a) => a.draft.type).join()}`);
            }
        }
    });

    test('constructed: DeDust chain whose pool count differs from the steps requested is no swap', () => {
        for (const requested of [[POOL], [POOL, POOL2, addr(99)]]) {
            const { actions } = findActions(dedustJettonSwap(requested), facts());
            assert.ok(!actions.some((a) => a.draft.type === 'JettonSwap'), `${requested.length} steps requested`);
        }
    });

    // ------------------------------------------------------------ Bidask

    /** range (internal_continue_provide#0c09445a) → LP multitoken (deployed) → liquidity_added_notify#0dc8bb28 to ALICE */
    const rangeAndPosition = (refund?: TxSpec): TxSpec => ({
        account: RANGE, interfaces: ['bidask_range'], body: msg(0x0c09445a),
        children: [
            {
                account: MULTITOKEN, interfaces: ['bidask_lp_multitoken'], deploys: true, body: msg(0x0c09445a),
                children: [{ account: ALICE, interfaces: WALLET, body: msg(0x0dc8bb28, (b) => b.storeBit(0)), value: GRAM / 20n }],
            },
            ...(refund ? [{ account: POOL, interfaces: ['bidask_pool'], body: msg(0x02422cbe), children: [refund] }] : []),
        ],
    });

    test('constructed: Bidask jetton + grams (bidask_provide_both#3ea0bafc) is one LiquidityDeposit; value flow and subject accounts', () => {
        // bidask_provide_both#3ea0bafc ton_amount:Coins deposit_type:uint4 liquidity_dict:(HashmapE 32 int32) reject_payload forward_payload
        const payload = beginCell().storeUint(0x3ea0bafc, 32).storeCoins(2n * GRAM).storeUint(1, 4).storeBit(0).storeBit(0).storeBit(0).endCell();
        const transfer = jettonTransfer({
            owner: ALICE, from: ALICE_JA, to: POOL, toWallet: POOL_JA, amount: 5n * GRAM, payload, toInterfaces: ['bidask_pool'], then: [rangeAndPosition()],
        });
        const root = constructTrace(wallet([{ ...transfer, value: 2n * GRAM + GRAM / 2n }]));
        const e = event(root);
        assert.deepEqual(types(e), [['LiquidityDeposit', 'ok']]);
        assert.deepEqual(detail(e), {
            protocol: { name: 'bidask', image: 'https://bidask.finance/assets/landing/bidask-logo.webp' },
            from: accounts(ALICE),
            tokens: [{ price: nativePrice(2n * GRAM), vault: POOL }, { price: jettonPrice(MASTER_A, 5n * GRAM), vault: POOL_JA }],
        });
        assert.equal(e.actions[0].simple_preview.name, 'Liquidity Deposit');
        assert.equal(e.actions[0].simple_preview.value, '2 gram + 5 AAA');
        assert.equal(e.actions[0].simple_preview.description, 'Depositing 2 gram + 5 AAA to bidask liquidity pool');
        assert.equal(event(root, ALICE, 'ru').actions[0].simple_preview.description, 'Депозит 2 gram + 5 AAA в пул ликвидности bidask');
        assert.deepEqual(e.actions[0].simple_preview.accounts, [accounts(POOL), accounts(POOL_JA)]);

        // extra: the gram flow less the 2 gram deposited (the rest is fees and gas)
        const { valueFlow } = findActions(root, facts());
        assert.equal(e.extra, valueFlow.gramOf(ALICE) + 2n * GRAM);
        assert.ok(e.extra < 0n);
        // the pool is a subject (a vault): wallet/emulate from its side shows the deposit, +2 gram explained
        const fromPool = event(root, POOL);
        assert.deepEqual(types(fromPool), [['LiquidityDeposit', 'ok']]);
        assert.equal(fromPool.extra, valueFlow.gramOf(POOL) - 2n * GRAM);
    });

    test('constructed: Bidask one jetton (bidask_provide#96feef7b) with a provide_refund#02422cbe back through the pool', () => {
        const payload = beginCell().storeUint(0x96feef7b, 32).storeUint(1, 4).storeBit(0).storeBit(0).storeBit(0).endCell();
        const refund = jettonTransfer({ owner: POOL, from: POOL_JA, to: ALICE, toWallet: ALICE_JA, amount: GRAM / 2n, payload: null });
        const root = constructTrace(jettonTransfer({
            owner: ALICE, from: ALICE_JA, to: POOL, toWallet: POOL_JA, amount: 5n * GRAM, payload, toInterfaces: ['bidask_pool'], then: [rangeAndPosition(refund)],
        }));
        const e = event(root);
        assert.deepEqual(types(e), [['LiquidityDeposit', 'ok']]);
        assert.deepEqual(detail(e).tokens, [{ price: jettonPrice(MASTER_A, 5n * GRAM), vault: POOL_JA }]);
        // every transaction of the trace belongs to the deposit, the refund and the deployed multitoken included
        assert.equal(e.actions[0].base_transactions.length, 4 + 3 + 1 + 4);
    });

    test('constructed: Bidask two jettons meeting in the internal liquidity vault (save_liquidity_info → adding_liquidity_notify)', () => {
        const first = jettonTransfer({
            owner: ALICE, from: ALICE_JA, to: POOL, toWallet: POOL_JA, amount: 5n * GRAM, payload: beginCell().storeUint(0x96feef7b, 32).endCell(), toInterfaces: ['bidask_pool'],
            then: [{ account: LIQ_VAULT, interfaces: ['bidask_internal_liquidity_vault'], deploys: true, body: msg(0x214ad1d2) }],
        });
        const second = jettonTransfer({
            owner: ALICE, from: ALICE_JB, to: POOL, toWallet: POOL_JB, amount: 8_000_000n, payload: beginCell().storeUint(0x96feef7b, 32).endCell(), toInterfaces: ['bidask_pool'],
            then: [{
                account: LIQ_VAULT, interfaces: ['bidask_internal_liquidity_vault'], body: msg(0x214ad1d2),
                children: [{ account: POOL, interfaces: ['bidask_pool'], body: msg(0xaf31d23f), children: [rangeAndPosition()] }],
            }],
        });
        const e = event(constructTrace(wallet([first, second])));
        assert.deepEqual(types(e), [['LiquidityDeposit', 'ok']]);
        assert.deepEqual(detail(e), {
            protocol: { name: 'bidask', image: 'https://bidask.finance/assets/landing/bidask-logo.webp' },
            from: accounts(ALICE),
            tokens: [{ price: jettonPrice(MASTER_A, 5n * GRAM), vault: POOL_JA }, { price: jettonPrice(MASTER_B, 8_000_000n), vault: POOL_JB }],
        });
        assert.equal(e.actions[0].simple_preview.description, 'Depositing 5 AAA + 8 BBB to bidask liquidity pool');
    });

    // ------------------------------------------------------------ STON.fi v2 provide_lp

    /** provide_lp#37c096df token_wallet1 refund excesses tx_deadline ^[min_lp_out to_address both_positive fwd_amount custom_payload] */
    const provideLp = (otherWallet: string, to: string, bothPositive: boolean) => beginCell().storeUint(0x37c096df, 32)
        .storeAddress(A(otherWallet)).storeAddress(A(ALICE)).storeAddress(A(ALICE)).storeUint(1_751_462_000, 64)
        .storeRef(beginCell().storeCoins(1n).storeAddress(A(to)).storeUint(bothPositive ? 1 : 0, 1).storeCoins(0n).storeMaybeRef(null)).endCell();

    /** router → pool provide_lp#37c096df → LP account add_liquidity#50c6a654 (→ pool cb_add_liquidity#06ecd527 → LP jettons to ALICE) */
    const stonfiProvide = (amount: bigint, completes: boolean): TxSpec => ({
        account: POOL, interfaces: POOL_V2, body: msg(0x37c096df, (b) => b.storeAddress(A(ALICE)).storeCoins(amount).storeCoins(0n)),
        children: [{
            account: LP_ACCOUNT, interfaces: ['stonfi_lp_account_v2'], deploys: !completes, body: msg(0x50c6a654),
            children: completes
                ? [{
                    account: POOL, interfaces: POOL_V2, body: msg(0x06ecd527),
                    children: [{
                        account: ALICE_LP, interfaces: ['jetton_wallet'], deploys: true,
                        body: jettonInternalTransferBody({ amount: 3n * GRAM, from: A(POOL), responseAddress: A(ALICE), forwardTonAmount: 0n, forwardPayload: null }),
                        children: [excess(ALICE)],
                    }],
                }]
                : [excess(ALICE)],
        }],
    });

    test('constructed: STON.fi v2 single-side provide_lp: router → pool → LP account → cb_add_liquidity → LP jettons', () => {
        const build = (to: string) => constructTrace(jettonTransfer({
            owner: ALICE, from: ALICE_JA, to: ROUTER, toWallet: ROUTER_JA, amount: 40n * GRAM, payload: provideLp(ROUTER_JB, to, false), toInterfaces: ROUTER_V2,
            then: [stonfiProvide(40n * GRAM, true)],
        }));
        const e = event(build(ALICE));
        assert.deepEqual(types(e), [['LiquidityDeposit', 'ok']]);
        assert.deepEqual(detail(e), {
            protocol: { name: 'stonfi', image: 'https://static.ston.fi/favicon/android-chrome-192x192.png' },
            from: accounts(ALICE),
            tokens: [{ price: jettonPrice(MASTER_A, 40n * GRAM), vault: ROUTER_JA }],
        });
        assert.equal(e.actions[0].simple_preview.description, 'Depositing 40 AAA to stonfi liquidity pool');
        // LP jettons minted to someone else (e.g. a farm): not the sender's deposit
        assert.ok(!findActions(build(addr(99)), facts()).actions.some((a) => a.draft.type === 'LiquidityDeposit'));
    });

    test('constructed: STON.fi v2 both sides, grams through pTON and a jetton: one LiquidityDeposit, grams explained in extra', () => {
        const root = constructTrace(wallet([
            ptonIn(3n * GRAM, provideLp(ROUTER_JA, ALICE, true), [stonfiProvide(3n * GRAM, false)]),
            jettonTransfer({
                owner: ALICE, from: ALICE_JA, to: ROUTER, toWallet: ROUTER_JA, amount: 40n * GRAM, payload: provideLp(ROUTER_PTON, ALICE, true), toInterfaces: ROUTER_V2,
                then: [stonfiProvide(40n * GRAM, true)],
            }),
        ]));
        const e = event(root);
        assert.deepEqual(types(e), [['LiquidityDeposit', 'ok']]);
        assert.deepEqual(detail(e).tokens, [
            { price: jettonPrice(MASTER_A, 40n * GRAM), vault: ROUTER_JA },
            { price: nativePrice(3n * GRAM), vault: ROUTER },
        ]);
        assert.equal(event(root, ALICE, 'ru').actions[0].simple_preview.description, 'Депозит 40 AAA + 3 gram в пул ликвидности stonfi');
        const { valueFlow } = findActions(root, facts());
        assert.equal(e.extra, valueFlow.gramOf(ALICE) + 3n * GRAM);
    });

    // ------------------------------------------------------------ Moon

    test('constructed: Moon grams (moon_deposit_liquidity#b31db781) and a jetton with that payload: one LiquidityDeposit', () => {
        // The deposit record's, provide's and success notice's op codes are not documented here: placeholders.
        const RECORD_OP = 0x0000abcd;
        const PROVIDE_OP = 0x0000abce;
        const SUCCEED_OP = 0x0000abcf;
        const root = constructTrace(wallet([
            {
                account: POOL, interfaces: ['moon_pool'], value: 200n * GRAM, body: msg(0xb31db781, (b) => b.storeCoins(1n)),
                children: [{ account: RECORD, deploys: true, body: msg(RECORD_OP) }],
            },
            jettonTransfer({
                owner: ALICE, from: ALICE_JA, to: POOL, toWallet: POOL_JA, amount: 595n * GRAM, payload: beginCell().storeUint(0xb31db781, 32).storeCoins(1n).endCell(),
                toInterfaces: ['moon_pool'],
                then: [{
                    account: RECORD, body: msg(RECORD_OP),
                    children: [{
                        account: POOL, interfaces: ['moon_pool'], body: msg(PROVIDE_OP),
                        children: [
                            {
                                account: ALICE_LP, interfaces: ['jetton_wallet'], deploys: true,
                                body: jettonInternalTransferBody({ amount: GRAM, from: A(POOL), responseAddress: A(ALICE), forwardTonAmount: 0n, forwardPayload: null }),
                                children: [excess(ALICE)],
                            },
                            { account: ALICE, interfaces: WALLET, body: msg(SUCCEED_OP), value: GRAM / 100n },
                        ],
                    }],
                }],
            }),
        ]));
        const e = event(root);
        assert.deepEqual(types(e), [['LiquidityDeposit', 'ok']]);
        assert.deepEqual(detail(e), {
            protocol: { name: 'mooncx', image: 'https://moon.cx/assets/logoMoon.svg' },
            from: accounts(ALICE),
            tokens: [{ price: nativePrice(200n * GRAM), vault: POOL }, { price: jettonPrice(MASTER_A, 595n * GRAM), vault: POOL }],
        });
        assert.equal(e.actions[0].simple_preview.description, 'Depositing 200 gram + 595 AAA to mooncx liquidity pool');
        const { valueFlow } = findActions(root, facts());
        assert.equal(e.extra, valueFlow.gramOf(ALICE) + 200n * GRAM);
    });

    // ------------------------------------------------------------ TONCO

    test('constructed: TONCO both jettons (POOLV3_FUND_ACCOUNT → ACCOUNTV3_ADD_LIQUIDITY → POOLV3_MINT), the unused part refunded by pay_to', () => {
        // pool_fund_account#4468de77 jetton_target enough0 enough1 liquidity:uint128 tickLower:int24 tickUpper:int24
        const fund = beginCell().storeUint(0x4468de77, 32).storeAddress(A(POOL)).storeCoins(5n * GRAM).storeCoins(9_000_000n)
            .storeUint(1000n, 128).storeInt(-600, 24).storeInt(600, 24).endCell();
        const fundChain = (amount: bigint, then: TxSpec[]): TxSpec => ({
            account: POOL, interfaces: ['tonco_pool'], body: msg(0x4468de77, (b) => b.storeAddress(A(ALICE)).storeCoins(amount).storeCoins(0n)),
            children: [{ account: addr(70), interfaces: ['tonco_account'], body: msg(0x3ebe5431), children: then }],
        });
        const mint: TxSpec = {
            account: POOL, interfaces: ['tonco_pool'], body: msg(0x81702ef8),
            children: [
                { account: POSITION, interfaces: ['nft_item'], deploys: true, body: msg(0xd5ecca2a) },
                {
                    // ROUTERV3_PAY_TO#a1daa96d: the 1 AAA the position did not need goes back
                    account: ROUTER, interfaces: ['tonco_router'], body: msg(0xa1daa96d, (b) => b.storeAddress(A(ALICE)).storeAddress(null).storeUint(0, 32).storeUint(0, 64).storeBit(0)),
                    children: [jettonTransfer({ owner: ROUTER, from: ROUTER_JA, to: ALICE, toWallet: ALICE_JA, amount: GRAM, payload: null })],
                },
                excess(ALICE),
            ],
        };
        const root = constructTrace(wallet([
            jettonTransfer({ owner: ALICE, from: ALICE_JA, to: ROUTER, toWallet: ROUTER_JA, amount: 5n * GRAM, payload: fund, toInterfaces: ['tonco_router'], then: [fundChain(5n * GRAM, [])] }),
            jettonTransfer({ owner: ALICE, from: ALICE_JB, to: ROUTER, toWallet: ROUTER_JB, amount: 9_000_000n, payload: fund, toInterfaces: ['tonco_router'], then: [fundChain(9_000_000n, [mint])] }),
        ]));
        const e = event(root);
        assert.deepEqual(types(e), [['LiquidityDeposit', 'ok']]);
        assert.deepEqual(detail(e), {
            protocol: { name: 'tonco', image: 'https://ton.app/media/1f913e65-9c32-433e-a0a3-a7c5ccf46ad5.png' },
            from: accounts(ALICE),
            tokens: [{ price: jettonPrice(MASTER_B, 9_000_000n), vault: ROUTER_JB }, { price: jettonPrice(MASTER_A, 4n * GRAM), vault: ROUTER_JA }],
        });
        assert.equal(e.actions[0].simple_preview.description, 'Depositing 9 BBB + 4 AAA to tonco liquidity pool');
        assert.equal(event(root, ALICE, 'ru').actions[0].simple_preview.description, 'Депозит 9 BBB + 4 AAA в пул ликвидности tonco');
        // the whole trace but the wallet's own transaction is the deposit
        const { actions } = findActions(root, facts());
        assert.deepEqual(actions.map((a) => a.draft.type), ['LiquidityDeposit']);
    });

    test('constructed: a TONCO single leg without the mint (position not complete) is no deposit', () => {
        const fund = beginCell().storeUint(0x4468de77, 32).storeAddress(A(POOL)).storeCoins(1n).storeCoins(1n).storeUint(1n, 128).storeInt(0, 24).storeInt(60, 24).endCell();
        const root = constructTrace(jettonTransfer({
            owner: ALICE, from: ALICE_JA, to: ROUTER, toWallet: ROUTER_JA, amount: 5n * GRAM, payload: fund, toInterfaces: ['tonco_router'],
            then: [{
                account: POOL, interfaces: ['tonco_pool'], body: msg(0x4468de77),
                children: [{ account: addr(70), interfaces: ['tonco_account'], body: msg(0x3ebe5431) }],
            }],
        }));
        assert.ok(!findActions(root, facts()).actions.some((a) => a.draft.type === 'LiquidityDeposit'));
    });
});
