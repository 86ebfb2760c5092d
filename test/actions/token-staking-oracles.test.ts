import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { Address, beginCell, type Builder, type Cell } from '@ton/core';
import { buildAccountEvent } from '../../src/actions/account-event.ts';
import { findActions } from '../../src/actions/find-actions.ts';
import type { PreviewLanguage } from '../../src/actions/present/language.ts';
import type { ActionTraceNode, JettonPreviewFacts, TraceFacts } from '../../src/actions/trace-input.ts';
import { addr, constructTrace, type TxSpec } from './constructed-trace.ts';
import { assertValidEvent } from './schema.ts';

/**
 * Constructed traces (documented message layouts) of the Pyth oracle request, Ethena and Affluent
 * token staking, FFVault staking and XTR deposits.
 */

const GRAM = 1_000_000_000n;
const A = (raw: string) => Address.parse(raw);

const ALICE = addr(1);
// mainnet addresses the patterns know by themselves
const PYTH = '0:3934fca37d9ced0e6f237130704c053d346b20244930d7dcfad7279c5f44e5b1';
const ETHENA_POOL = '0:a11ae0f5bb47bb2945871f915a621ff281c2d786c746da74873d71d6f2aaa7a5';
const TSUSDE = '0:d0e545323c7acb7102653c073377f7e3c67f122eb94d430a250739f109d4a57d';
const FFVAULT = '0:4c4e2d27a27721f2b8fa3f9993e13c9696e9d701b2f498f981294ece2afdedda';
const XAUT = '0:757f204003da900cfe8b106685ddc6d4f976ebfa9e844816469ea94790720700';
// test roles
const TARGET = addr(2);
const USDE = addr(3);
const ALICE_USDE = addr(4);
const POOL_USDE = addr(5);
const ALICE_TSUSDE = addr(6);
const USDT = addr(7);
const ALICE_USDT = addr(8);
const VAULT = addr(9);
const VAULT_USDT = addr(10);
const ALICE_SHARES = addr(11);
const AGGREGATOR = addr(12);
const ORACLE = addr(13);
const BATCH = addr(14);
const BATCH_SHARES = addr(15);
const ALICE_XAUT = addr(16);
const FFVAULT_XAUT = addr(17);
const POSITION = addr(18);
const XTR_MASTER = addr(19);
const XTR_PAYMENT = addr(20);
const ALICE_XTR = addr(21);
const TG = addr(22);

const TON_USD = '8963217838ab4cf5cadc172203c1f0b763fbaa45f346d8ee50ba994bbcac3026';
const TSTON_TON = '3d1784128eeab5961ec60648fe497d3901eebd211b7f51e4bb0db9f024977d25';

const jetton = (address: string, symbol: string, decimals: number): JettonPreviewFacts => ({
    address, name: symbol, symbol, decimals, image: `https://img/${symbol}.png`, verification: 'whitelist', score: 0,
});

function facts(): TraceFacts {
    return {
        jettonWallets: new Map([
            [ALICE_USDE, { master: USDE, owner: ALICE }], [POOL_USDE, { master: USDE, owner: ETHENA_POOL }],
            [ALICE_TSUSDE, { master: TSUSDE, owner: ALICE }],
            [ALICE_USDT, { master: USDT, owner: ALICE }], [VAULT_USDT, { master: USDT, owner: VAULT }],
            [ALICE_SHARES, { master: VAULT, owner: ALICE }], [BATCH_SHARES, { master: VAULT, owner: BATCH }],
            [ALICE_XAUT, { master: XAUT, owner: ALICE }], [FFVAULT_XAUT, { master: XAUT, owner: FFVAULT }],
        ]),
        jettons: new Map([
            [USDE, jetton(USDE, 'USDe', 6)], [TSUSDE, jetton(TSUSDE, 'tsUSDe', 6)], [USDT, jetton(USDT, 'USDT', 6)],
            [VAULT, jetton(VAULT, 'affUSDT', 6)], [XAUT, jetton(XAUT, 'XAUt0', 6)],
        ]),
        nftItems: new Map([[POSITION, { address: POSITION, index: 0n, collection: FFVAULT, owner: ALICE }]]),
    };
}

const accounts = (raw: string) => ({ address: raw, is_scam: false, is_wallet: raw === ALICE });

function event(root: ActionTraceNode, account = ALICE, subjectOnly = true, language: PreviewLanguage = 'en') {
    const e = buildAccountEvent(root, facts(), { account, subjectOnly, language, accounts });
    assertValidEvent(e);
    return e;
}

const kinds = (e: ReturnType<typeof event>) => e.actions.map((a) => [a.type, a.status]);

const op = (code: number, tail?: (b: Builder) => void) => {
    const b = beginCell().storeUint(code, 32).storeUint(0, 64);
    tail?.(b);
    return b.endCell();
};
const excessTo = (account: string): TxSpec => ({ account, interfaces: account === ALICE ? ['wallet_v4r2'] : [], body: op(0xd53276db), value: GRAM / 100n });

// ---- TEP-74 bodies ----
const transferBody = (amount: bigint, to: string, response: string, payload: Cell | null) =>
    op(0x0f8a7ea5, (b) => b.storeCoins(amount).storeAddress(A(to)).storeAddress(A(response)).storeBit(0).storeCoins(GRAM / 10n).storeMaybeRef(payload));
const internalTransferBody = (amount: bigint, from: string, response: string, payload: Cell | null) =>
    op(0x178d4519, (b) => b.storeCoins(amount).storeAddress(A(from)).storeAddress(A(response)).storeCoins(GRAM / 10n).storeMaybeRef(payload));
const notifyBody = (amount: bigint, sender: string, payload: Cell | null) =>
    op(0x7362d09c, (b) => b.storeCoins(amount).storeAddress(A(sender)).storeMaybeRef(payload));

/** owner → its wallet (transfer) → receiver's wallet (internal_transfer) → receiver (notify, then `then`) + excesses to the owner. */
function jettonTransfer(p: { owner: string; from: string; to: string; toWallet: string; amount: bigint; payload?: Cell | null; then?: TxSpec[]; toInterfaces?: string[] }): TxSpec {
    const payload = p.payload ?? null;
    return {
        account: p.from, interfaces: ['jetton_wallet'], from: p.owner, value: GRAM / 5n, body: transferBody(p.amount, p.to, p.owner, payload),
        children: [{
            account: p.toWallet, interfaces: ['jetton_wallet'], body: internalTransferBody(p.amount, p.owner, p.owner, payload),
            children: [
                { account: p.to, interfaces: p.toInterfaces ?? (p.to === ALICE ? ['wallet_v4r2'] : []), body: notifyBody(p.amount, p.owner, payload), value: GRAM / 10n, children: p.then },
                excessTo(p.owner),
            ],
        }],
    };
}

// ---- Pyth bodies ----
const priceIdsCell = (ids: string[]) => {
    const b = beginCell().storeUint(ids.length, 8);
    for (const id of ids) b.storeUint(BigInt('0x' + id), 256);
    return b.endCell();
};
const pythRequest = (ids: string[], target: string, idsCell = priceIdsCell(ids)) => beginCell()
    .storeUint(5, 32).storeRef(beginCell().storeUint(0x504e4155, 32).endCell()).storeRef(idsCell)
    .storeUint(1_751_461_000, 64).storeUint(1_751_461_400, 64).storeAddress(A(target)).storeRef(beginCell().endCell())
    .endCell();
const pricePoint = (price: bigint, expo: number) => beginCell().storeInt(price, 64).storeUint(1000n, 64).storeInt(expo, 32).storeUint(1_751_461_300, 64).endCell();
function pythResponse(feeds: Array<[string, bigint, number]>, initialSender: string): Cell {
    let next: Cell | null = null;
    for (const [id, price, expo] of [...feeds].reverse()) {
        const stored = beginCell().storeRef(pricePoint(price, expo)).storeRef(pricePoint(price, expo)).endCell();
        const node = beginCell().storeUint(BigInt('0x' + id), 256).storeRef(stored);
        if (next) node.storeRef(next);
        next = node.endCell();
    }
    return beginCell().storeUint(5, 32).storeUint(feeds.length, 8).storeRef(next!).storeAddress(A(initialSender)).storeRef(beginCell().endCell()).endCell();
}

describe('token staking, oracle and XTR actions on constructed traces', () => {
    const pythTrace = (initialSender: string, answered = true) => constructTrace({
        account: ALICE, interfaces: ['wallet_v4r2'], external: true,
        children: [{
            account: PYTH, interfaces: ['pyth_oracle'], value: GRAM / 2n, body: pythRequest([TON_USD, TSTON_TON], TARGET),
            children: answered
                ? [{ account: TARGET, value: GRAM / 3n, body: pythResponse([[TON_USD, 130_550_314n, -8], [TSTON_TON, 110_144_577n, -8]], initialSender) }]
                : [],
        }],
    });

    test('constructed: Pyth parse_price_feed_updates#5 answered by response_success#5 is an OracleRequest of the requester', () => {
        const e = event(pythTrace(ALICE));
        assert.deepEqual(kinds(e), [['OracleRequest', 'ok']]);
        assert.deepEqual(e.actions[0].OracleRequest, {
            requester: accounts(ALICE), response_to: accounts(TARGET),
            price_feeds: [{ id: TON_USD, display_symbol: 'TON/USD', rate: 1.30550314 }, { id: TSTON_TON, display_symbol: 'TSTON/TON', rate: 1.10144577 }],
        });
        assert.equal(e.actions[0].base_transactions.length, 2);
        assert.equal(e.actions[0].simple_preview.name, 'Oracle Request');
        assert.equal(e.actions[0].simple_preview.description, 'Requesting TON/USD, TSTON/TON prices from the oracle');
        assert.equal(event(pythTrace(ALICE), ALICE, true, 'ru').actions[0].simple_preview.description, 'Запрос цен TON/USD, TSTON/TON у оракула');
        // The target is not a subject of the request: its wallet view has nothing to show.
        assert.deepEqual(kinds(event(pythTrace(ALICE), TARGET)), [['Unknown', 'ok']]);
        assert.deepEqual(kinds(event(pythTrace(ALICE), TARGET, false)), [['OracleRequest', 'ok']]);
    });

    test('constructed: a Pyth answer naming another initial sender is not the answer; no answer is a failed request', () => {
        const spoofed = findActions(pythTrace(addr(99)), facts()).actions.map((a) => a.draft.type);
        assert.ok(!spoofed.includes('OracleRequest'));
        const unanswered = event(pythTrace(ALICE, false));
        assert.deepEqual(kinds(unanswered), [['OracleRequest', 'failed']]);
        assert.deepEqual((unanswered.actions[0].OracleRequest as { price_feeds: unknown[] }).price_feeds, [
            { id: TON_USD, display_symbol: 'TON/USD' }, { id: TSTON_TON, display_symbol: 'TSTON/TON' },
        ]);
    });

    const ethenaDeposit = () => constructTrace(jettonTransfer({
        owner: ALICE, from: ALICE_USDE, to: ETHENA_POOL, toWallet: POOL_USDE, amount: 1_000_000n,
        then: [{
            account: TSUSDE, interfaces: ['jetton_master'],
            body: op(0x642b7d07, (b) => b.storeAddress(A(ALICE)).storeCoins(GRAM / 20n).storeRef(internalTransferBody(990_000n, TSUSDE, ALICE, null))),
            children: [{
                account: ALICE_TSUSDE, interfaces: ['jetton_wallet'], body: internalTransferBody(990_000n, TSUSDE, ALICE, null),
                children: [{ account: ALICE, interfaces: ['wallet_v4r2'], body: notifyBody(990_000n, TSUSDE, null), value: 1n }, excessTo(ALICE)],
            }],
        }],
    }));

    test('constructed: Ethena stake: USDe to the staking pool, tsUSDe minted to the staker', () => {
        const e = event(ethenaDeposit());
        assert.deepEqual(kinds(e), [['DepositTokenStake', 'ok']]);
        assert.deepEqual(e.actions[0].DepositTokenStake, {
            staker: accounts(ALICE), protocol: { name: 'Ethena', image: 'https://ethena.fi/shared/usde.png' },
            stake_meta: { currency_type: 'jetton', value: '1000000', decimals: 6, token_name: 'USDe', verification: 'whitelist', image: 'https://img/USDe.png', jetton: USDE },
        });
        assert.equal(e.actions[0].base_transactions.length, 8);
        assert.equal(e.actions[0].simple_preview.description, 'Staking 1 USDe in Ethena');
        assert.equal(e.actions[0].simple_preview.value, '1 USDe');
        assert.equal(e.actions[0].simple_preview.value_image, 'https://img/USDe.png');
        assert.equal(event(ethenaDeposit(), ALICE, true, 'ru').actions[0].simple_preview.description, 'Стейкинг 1 USDe в Ethena');
        // The merged flow keeps both legs: USDe out, tsUSDe in.
        const flow = findActions(ethenaDeposit(), facts()).valueFlow.accounts.get(ALICE)!;
        assert.equal(flow.jettons.get(USDE), -1_000_000n);
        assert.equal(flow.jettons.get(TSUSDE), 990_000n);
    });

    test('constructed: Ethena unstake request: tsUSDe to the pool, mint#642b7d07 on tsUSDe locking the amount in the staker\'s wallet', () => {
        const root = constructTrace(jettonTransfer({
            owner: ALICE, from: ALICE_TSUSDE, to: ETHENA_POOL, toWallet: TSUSDE, amount: 3_561_999n,
            then: [{
                account: TSUSDE, interfaces: ['jetton_master'],
                body: op(0x642b7d07, (b) => b.storeAddress(A(ALICE)).storeCoins(GRAM / 30n).storeRef(op(0xb2583ed5))),
                children: [{ account: ALICE_TSUSDE, interfaces: ['jetton_wallet'], body: op(0xb2583ed5) }],
            }],
        }));
        const e = event(root);
        assert.deepEqual(kinds(e), [['WithdrawTokenStakeRequest', 'ok']]);
        assert.deepEqual(e.actions[0].WithdrawTokenStakeRequest, {
            staker: accounts(ALICE), protocol: { name: 'Ethena', image: 'https://ethena.fi/shared/usde.png' },
            stake_meta: { currency_type: 'jetton', value: '3561999', decimals: 6, token_name: 'tsUSDe', verification: 'whitelist', image: 'https://img/tsUSDe.png', jetton: TSUSDE },
        });
        assert.equal(e.actions[0].simple_preview.description, 'Request to withdraw 3.56 tsUSDe from Ethena');
        assert.equal(event(root, ALICE, true, 'ru').actions[0].simple_preview.description, 'Запрос на вывод 3.56 tsUSDe из Ethena');
    });

    const sharesMinted = (amount: bigint): TxSpec => ({
        account: ALICE_SHARES, interfaces: ['jetton_wallet'], body: internalTransferBody(amount, VAULT, ALICE, null), children: [excessTo(ALICE)],
    });
    const depositPayload = beginCell().storeUint(0xf9471134, 32).storeBit(0).storeCoins(0n).storeBit(0).endCell();
    const vaultInterfaces = ['affluent_lending_vault', 'jetton_master'];

    test('constructed: Affluent deposits: USDT to a lending vault, shares minted at once or after the aggregator round (#b0c69ffe … #77c65602)', () => {
        const direct = event(constructTrace(jettonTransfer({
            owner: ALICE, from: ALICE_USDT, to: VAULT, toWallet: VAULT_USDT, amount: 1_000_000n, payload: depositPayload, toInterfaces: vaultInterfaces,
            then: [sharesMinted(999_222n)],
        })));
        const expected = {
            staker: accounts(ALICE), protocol: { name: 'Affluent', image: 'https://ton.app/media/71e5021a-77ab-4c48-8ef3-35e9c67701b0.png' },
            stake_meta: { currency_type: 'jetton', value: '1000000', decimals: 6, token_name: 'USDT', verification: 'whitelist', image: 'https://img/USDT.png', jetton: USDT },
        };
        assert.deepEqual(kinds(direct), [['DepositTokenStake', 'ok']]);
        assert.deepEqual(direct.actions[0].DepositTokenStake, expected);
        assert.equal(direct.actions[0].base_transactions.length, 6);

        const aggregated = (mintOk: boolean) => constructTrace(jettonTransfer({
            owner: ALICE, from: ALICE_USDT, to: VAULT, toWallet: VAULT_USDT, amount: 1_000_000n, payload: depositPayload, toInterfaces: vaultInterfaces,
            then: [{
                account: AGGREGATOR, deploys: true,
                body: op(0xb0c69ffe, (b) => b.storeBit(0).storeBit(0).storeBit(0).storeUint(0xf9471134, 32).storeAddress(A(USDT)).storeAddress(A(ALICE)).storeCoins(1_000_000n)),
                children: [{
                    account: ORACLE, body: op(0x2a75c2f1),
                    children: [{
                        account: AGGREGATOR, body: op(0xab7bef17),
                        children: [{ account: VAULT, interfaces: vaultInterfaces, body: op(0x77c65602), children: [{ ...sharesMinted(999_222n), success: mintOk }] }],
                    }],
                }],
            }],
        }));
        const withOracles = event(aggregated(true));
        assert.deepEqual(kinds(withOracles), [['DepositTokenStake', 'ok']]);
        assert.deepEqual(withOracles.actions[0].DepositTokenStake, expected);
        // transfer (4) + aggregator, oracle, aggregator, vault, mint, excess
        assert.equal(withOracles.actions[0].base_transactions.length, 10);
        assert.deepEqual(kinds(event(aggregated(false))), [['DepositTokenStake', 'failed']]);
    });

    test('constructed: Affluent withdrawals: shares to a withdrawal batch (queued) and shares burned with the asset paid out at once', () => {
        const queued = event(constructTrace(jettonTransfer({
            owner: ALICE, from: ALICE_SHARES, to: BATCH, toWallet: BATCH_SHARES, amount: 49_880_158n, toInterfaces: ['affluent_batch'], then: [excessTo(ALICE)],
        })));
        assert.deepEqual(kinds(queued), [['WithdrawTokenStakeRequest', 'ok']]);
        assert.deepEqual((queued.actions[0].WithdrawTokenStakeRequest as { stake_meta: unknown }).stake_meta, {
            currency_type: 'jetton', value: '49880158', decimals: 6, token_name: 'affUSDT', verification: 'whitelist', image: 'https://img/affUSDT.png', jetton: VAULT,
        });
        assert.equal(queued.actions[0].simple_preview.description, 'Request to withdraw 49.8 affUSDT from Affluent');

        const burn = op(0x595f07bc, (b) => b.storeCoins(999_222n).storeAddress(A(ALICE)).storeBit(0));
        const instant = constructTrace({
            account: ALICE_SHARES, interfaces: ['jetton_wallet'], from: ALICE, value: GRAM / 5n, body: burn,
            children: [{
                account: VAULT, interfaces: vaultInterfaces, body: op(0x7bdd97de, (b) => b.storeCoins(999_222n).storeAddress(A(ALICE)).storeAddress(A(ALICE))),
                children: [jettonTransfer({ owner: VAULT, from: VAULT_USDT, to: ALICE, toWallet: ALICE_USDT, amount: 1_000_500n })],
            }],
        });
        const e = event(instant);
        assert.deepEqual(kinds(e), [['WithdrawTokenStakeRequest', 'ok']]);
        assert.deepEqual(e.actions[0].WithdrawTokenStakeRequest, {
            staker: accounts(ALICE), protocol: { name: 'Affluent', image: 'https://ton.app/media/71e5021a-77ab-4c48-8ef3-35e9c67701b0.png' },
            stake_meta: { currency_type: 'jetton', value: '999222', decimals: 6, token_name: 'affUSDT', verification: 'whitelist', image: 'https://img/affUSDT.png', jetton: VAULT },
        });
        assert.equal(e.actions[0].simple_preview.value, '0.999 affUSDT');
        const flow = findActions(instant, facts()).valueFlow.accounts.get(ALICE)!;
        assert.equal(flow.jettons.get(VAULT), -999_222n);
        assert.equal(flow.jettons.get(USDT), 1_000_500n);
    });

    test('constructed: FFVault stake: XAUt0 with asset_deposit#534917c3 → the vault\'s Pyth request → stake_operation#7a294fdc deploying the position', () => {
        const assetDeposit = beginCell().storeUint(0x534917c3, 32).storeMaybeRef(beginCell().storeUint(0x504e4155, 32).endCell()).endCell();
        const root = constructTrace({
            account: ALICE, interfaces: ['wallet_v4r2'], external: true,
            children: [jettonTransfer({
                owner: ALICE, from: ALICE_XAUT, to: FFVAULT, toWallet: FFVAULT_XAUT, amount: 19_949n, payload: assetDeposit, toInterfaces: ['ff_vault'],
                then: [{
                    account: PYTH, value: GRAM / 10n, body: pythRequest(['2817b78438c769357182c04346fddaad1178c82f4048828fe0997c3c64624e14'], FFVAULT),
                    children: [{
                        account: FFVAULT, interfaces: ['ff_vault'], body: pythResponse([['2817b78438c769357182c04346fddaad1178c82f4048828fe0997c3c64624e14', 65_340_164_557n, -8]], FFVAULT),
                        children: [{
                            account: POSITION, interfaces: ['ff_vault_position'], deploys: true, value: GRAM / 100n,
                            body: op(0x7a294fdc, (b) => b.storeAddress(A(ALICE)).storeCoins(19_949n)),
                        }],
                    }],
                }],
            })],
        });
        const all = event(root, ALICE, false);
        assert.deepEqual(kinds(all), [['DepositStake', 'ok'], ['ContractDeploy', 'ok'], ['OracleRequest', 'ok']]);
        assert.deepEqual(all.actions[0].DepositStake, {
            amount: 0n, staker: accounts(ALICE), pool: accounts(FFVAULT), implementation: 'ffvault',
            stake_meta: { currency_type: 'jetton', value: '19949', decimals: 6, token_name: 'XAUt0', verification: 'whitelist', image: 'https://img/XAUt0.png', jetton: XAUT },
        });
        assert.deepEqual(all.actions[2].OracleRequest, {
            requester: accounts(FFVAULT), response_to: accounts(FFVAULT),
            price_feeds: [{ id: '2817b78438c769357182c04346fddaad1178c82f4048828fe0997c3c64624e14', display_symbol: 'SPYX/USD', rate: 653.40164557 }],
        });
        // ALICE's wallet sees its stake only: the oracle request is the vault's, the deployment the position's.
        const mine = event(root);
        assert.deepEqual(kinds(mine), [['DepositStake', 'ok']]);
        assert.equal(mine.actions[0].simple_preview.description, 'Deposit 0.0199 XAUt0 to staking pool');
        assert.equal(event(root, ALICE, true, 'ru').actions[0].simple_preview.description, 'Депозит 0.0199 XAUt0 в пул стейкинга');
        // A stake of jettons moves no grams: ALICE's extra is everything she spent.
        assert.equal(mine.extra, findActions(root, facts()).valueFlow.gramOf(ALICE));
    });

    test('constructed: FFVault unstake_request#8a77cf39 on the position is a WithdrawStakeRequest from its vault', () => {
        const root = constructTrace({
            account: POSITION, interfaces: ['ff_vault_position'], from: ALICE, value: GRAM / 20n, body: op(0x8a77cf39, (b) => b.storeCoins(9_974n)),
            children: [excessTo(ALICE)],
        });
        const e = event(root);
        assert.deepEqual(kinds(e), [['WithdrawStakeRequest', 'ok']]);
        assert.deepEqual(e.actions[0].WithdrawStakeRequest, {
            staker: accounts(ALICE), pool: accounts(FFVAULT), implementation: 'ffvault',
            stake_meta: { currency_type: 'jetton', value: '9974', decimals: 6, token_name: 'XAUt0', verification: 'whitelist', image: 'https://img/XAUt0.png', jetton: XAUT },
        });
        assert.equal(e.actions[0].base_transactions.length, 2);
        assert.equal(e.actions[0].simple_preview.description, 'Request to withdraw 0.00997 XAUt0 from staking pool.');
        // A body with more than query_id and amount is not an unstake request.
        const other = constructTrace({ account: POSITION, from: ALICE, value: GRAM / 20n, body: op(0x8a77cf39, (b) => b.storeCoins(9_974n).storeUint(1, 8)) });
        assert.ok(!findActions(other, facts()).actions.some((a) => a.draft.type === 'WithdrawStakeRequest'));
    });

    test('constructed: XTR deposit: update_payment#2a999df4 → … → commit_xtr#e472935c on the user\'s XTR contract', () => {
        const processMessage = (payload: Cell) => beginCell().storeUint(0xe2628539, 32)
            .storeRef(beginCell().storeRef(beginCell().endCell()).storeRef(beginCell().endCell()).storeUint(3, 32).endCell())
            .storeAddress(A(XTR_MASTER)).storeCoins(0n).storeRef(payload).endCell();
        const commit = beginCell().storeUint(0xe472935c, 32).storeUint(7, 64).storeAddress(A(ALICE)).storeCoins(1500n).endCell();
        const root = constructTrace({
            account: XTR_MASTER, interfaces: ['xtr_master'], from: TG, value: GRAM / 2n,
            body: beginCell().storeUint(0x2a999df4, 32).storeAddress(A(XTR_PAYMENT)).storeRef(beginCell().storeUint(1, 8).endCell()).endCell(),
            children: [{
                account: XTR_PAYMENT, body: processMessage(beginCell().storeUint(1, 8).endCell()),
                children: [{
                    account: XTR_MASTER, interfaces: ['xtr_master'], body: beginCell().storeUint(0x59ff81d6, 32).storeAddress(A(ALICE_XTR)).storeRef(commit).endCell(),
                    children: [{ account: ALICE_XTR, body: processMessage(commit), children: [excessTo(ALICE)] }],
                }],
            }],
        });
        const e = event(root, ALICE_XTR);
        assert.deepEqual(kinds(e), [['DepositXTR', 'ok']]);
        assert.deepEqual(e.actions[0].DepositXTR, { recipient: accounts(ALICE_XTR), amount: '1500' });
        assert.equal(e.actions[0].base_transactions.length, 5);
        assert.equal(event(root, ALICE_XTR, true, 'ru').actions[0].simple_preview.description, 'Пополнение 1500 XTR');
    });
});
