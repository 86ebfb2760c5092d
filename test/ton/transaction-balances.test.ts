import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import {
    accountBalanceChains,
    balanceChange,
    type AccountBalanceChain,
    type TransactionBalanceDelta,
    transactionEndBalances,
} from '../../src/ton/block/account-balances.ts';
import { readBlockRoot } from '../../src/ton/block/block-file.ts';
import { accountStatesAfterBlock } from '../../src/ton/block/block-state.ts';
import { readBlockBoc as blockRecordFromBoc } from '../../src/chain/block-reading.ts';
import { FIXTURE_BLOCKS, MAINNET_AVAILABLE, mainnetSkip, readBlockBoc, readSummary } from '../helpers/fixtures.ts';

/**
 * Per fixture block: accounts with transactions, whose balance before the block is read from their own
 * entry in the old state (present, or proven absent) or from the dictionary's balance totals.
 */
const EXPECTED: Record<string, { accounts: number; transactions: number; fromEntry: number; fromTotals: number; newAccounts: number }> = {
    'block-1': { accounts: 167, transactions: 329, fromEntry: 155, fromTotals: 12, newAccounts: 163 },
    'block-2': { accounts: 40, transactions: 479, fromEntry: 7, fromTotals: 33, newAccounts: 2 },
    'block-4': { accounts: 0, transactions: 0, fromEntry: 0, fromTotals: 0, newAccounts: 0 },
    'block-5': { accounts: 4, transactions: 6, fromEntry: 3, fromTotals: 1, newAccounts: 0 },
    'block-6': { accounts: 10, transactions: 11, fromEntry: 5, fromTotals: 5, newAccounts: 0 },
};

const chainsOf = new Map(MAINNET_AVAILABLE ? FIXTURE_BLOCKS.map(name => [name, accountBalanceChains(readBlockRoot(readBlockBoc(name)))]) : []);

/** Whether the chain from the balance before the block through every transaction, by `change`, lands on the new state. */
function lands(chain: AccountBalanceChain, change: (d: TransactionBalanceDelta) => bigint): boolean {
    return chain.transactions.reduce((balance, t) => balance + change(t.delta), chain.before!) === chain.after;
}

describe('balance after each transaction, from the block', { skip: mainnetSkip }, () => {
    for (const name of FIXTURE_BLOCKS) {
        test(`${name}: every account's chain lands on its new state, so every transaction gets a balance`, () => {
            const root = readBlockRoot(readBlockBoc(name));
            const chains = chainsOf.get(name)!;
            const expected = EXPECTED[name];
            assert.equal(chains.length, expected.accounts);
            assert.equal(chains.filter(c => c.beforeFrom === 'entry').length, expected.fromEntry);
            assert.equal(chains.filter(c => c.beforeFrom === 'totals').length, expected.fromTotals);
            assert.equal(chains.filter(c => c.before === 0n).length, expected.newAccounts);
            for (const chain of chains) {
                assert.notEqual(chain.before, undefined, chain.account);
                assert.notEqual(chain.after, undefined, chain.account);
                assert.ok(chain.exact, `${chain.account}: ${chain.chained?.at(-1)} ≠ ${chain.after}`);
                assert.ok(lands(chain, balanceChange), chain.account);
            }

            const balances = transactionEndBalances(root);
            const summary = readSummary(name);
            assert.equal(summary.transactions.length, expected.transactions);
            assert.equal(balances.size, expected.transactions);
            for (const t of summary.transactions) assert.equal(typeof balances.get(t.hash), 'bigint', t.hash);

            // the last transaction of each account ends on the state after the block
            for (const state of accountStatesAfterBlock(root)) assert.equal(balances.get(state.lastTransHash), state.balance, state.account);
        });
    }

    test('a wrong identity does not land: each term is needed', () => {
        const all = [...chainsOf.values()].flat();
        const failing = (change: (d: TransactionBalanceDelta) => bigint) => all.filter(c => !lands(c, change)).length;
        // every term is ≥ 0, so leaving one out moves an account's end by the sum of that term over its
        // transactions: exactly the accounts where it is ever non-zero fail
        const having = (term: keyof TransactionBalanceDelta) => all.filter(c => c.transactions.some(t => t.delta[term] > 0n)).length;
        assert.equal(all.length, 221);
        assert.equal(failing(balanceChange), 0);
        // the fees (storage, gas, action and bounce fees, import fees)
        assert.equal(having('totalFees'), 217);
        assert.equal(failing(d => d.inValue - d.outValue - d.outFwdFees), 217);
        // the forwarding fees the internal out messages carry on
        assert.equal(having('outFwdFees'), 42);
        assert.equal(failing(d => d.inValue - d.totalFees - d.outValue), 42);
        // ... but only those: the share the action phase keeps is in total_fees already
        assert.equal(failing(d => d.inValue - d.totalFees - d.outValue - 2n * d.outFwdFees), 42);
        // the inbound and outbound values
        assert.equal(failing(d => -d.totalFees - d.outValue - d.outFwdFees), having('inValue'));
        assert.equal(failing(d => d.inValue - d.totalFees - d.outFwdFees), having('outValue'));
        assert.ok(having('inValue') > 100 && having('outValue') > 10, 'the blocks move value both ways');
    });

    test('hand check: a bounced message (compute phase failed, bounce phase ok)', () => {
        const chain = chainsOf.get('block-2')!.find(c => c.account === '0:ad61bd69876845befd90556783028bc2082e990626e2807e3bd9780f24d41f3f')!;
        const i = chain.transactions.findIndex(t => t.hash === 'a252965d31ad544b9908ee2299f5732c640fbe3de5e19d3418b503dca407c3ad');
        assert.ok(i >= 0, 'the transaction is in the block');
        const before = i === 0 ? chain.before! : chain.chained![i - 1];
        assert.equal(before, 41_389_020n);
        // total_fees = storage 8 + gas 2 486 000 + bounce msg_fees 333 328; the bounce carries 296 514 000
        // on with fwd_fee 666 672 (= its full forwarding fee 1 000 000 − the 333 328 kept)
        assert.deepEqual(chain.transactions[i].delta, { inValue: 300_000_000n, totalFees: 2_819_336n, outValue: 296_514_000n, outFwdFees: 666_672n });
        assert.equal(chain.chained![i], 41_389_020n + 300_000_000n - 2_819_336n - 296_514_000n - 666_672n);
        assert.equal(chain.chained![i], 41_389_012n); // all came back but the storage fee
        assert.equal(transactionEndBalances(readBlockRoot(readBlockBoc('block-2'))).get(chain.transactions[i].hash), 41_389_012n);
    });

    test('hand check: an external out message is paid in full from total_fees', () => {
        const chain = chainsOf.get('block-6')!.find(c => c.account === '0:b5f50da66821d52df22d36be7f16c809c53f27e05b8503adee234c44ecf4363b')!;
        const i = chain.transactions.findIndex(t => t.hash === '775fdb1a5e796c7a72ea7c4ca45107fb0ed70ece0950b6d7cc2f6cc7971b8d3d');
        assert.ok(i >= 0, 'the transaction is in the block');
        const before = i === 0 ? chain.before! : chain.chained![i - 1];
        assert.equal(before, 453_560_593_606n);
        // total_fees = storage 3 + gas 7 895 600 + total_action_fees 2 412 768; total_fwd_fees 6 438 400 =
        // 2 412 768 + the two internal messages' fwd_fee 266 669 + 3 758 963, so the external message's
        // forwarding fee is all in total_action_fees
        assert.deepEqual(chain.transactions[i].delta, { inValue: 5_080_000_000n, totalFees: 10_308_371n, outValue: 50_000_000n + 65_665_997n, outFwdFees: 266_669n + 3_758_963n });
        assert.equal(chain.chained![i], 458_510_593_606n);
        assert.equal(chain.after, 458_510_593_606n);
    });

    test('block files give every transaction its balance', async () => {
        for (const name of FIXTURE_BLOCKS) {
            const record = await blockRecordFromBoc(readBlockBoc(name));
            const balances = transactionEndBalances(readBlockRoot(readBlockBoc(name)));
            assert.equal(record.transactions.length, EXPECTED[name].transactions);
            for (const t of record.transactions) {
                const hash = t.cell!.hash().toString('hex');
                assert.equal(t.endBalance, balances.get(hash), `${name} ${hash}`);
            }
        }
    });
});
