import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beginCell } from '@ton/core';
import type { NativeTransferDraft } from '../../src/actions/action.ts';
import { hasOp, isTx } from '../../src/actions/checks.ts';
import { findActions } from '../../src/actions/find-actions.ts';
import { formatTokens } from '../../src/actions/present/format-tokens.ts';
import { pickLanguage } from '../../src/actions/present/language.ts';
import { PATTERNS } from '../../src/actions/patterns/index.ts';
import type { Pattern } from '../../src/actions/straw.ts';
import { tx } from '../../src/actions/patterns/tx.ts';
import { addr, constructTrace } from './constructed-trace.ts';

describe('formatTokens', () => {
    const cases: Array<[bigint, number, string, string]> = [
        [1_500_000_000n, 9, 'gram', '1.5 gram'],
        [100_000_000n, 6, 'USDT', '100 USDT'],
        [1_234_560_000n, 9, 'gram', '1.23 gram'],
        [12_345_000n, 9, 'gram', '0.0123 gram'],
        [12_345_000_000n, 9, 'gram', '12.3 gram'],
        [123_456_789_000_000n, 9, 'gram', '123 456 gram'],
        [1_000_000_000_000n, 0, 'NOT', '1 000 000 000 000 NOT'],
        [0n, 9, 'gram', '0 gram'],
        [1n, 9, 'gram', '0.000000001 gram'],
        [-2_500_000_000n, 9, 'gram', '-2.5 gram'],
        [99_999_999_999n, 9, 'gram', '99.9 gram'],
    ];
    for (const [amount, decimals, symbol, expected] of cases) {
        test(`${amount} with ${decimals} decimals → ${expected}`, () => assert.equal(formatTokens(amount, decimals, symbol), expected));
    }
});

describe('pickLanguage', () => {
    test('q-values decide; primary subtags match; English by default', () => {
        assert.equal(pickLanguage(undefined), 'en');
        assert.equal(pickLanguage(''), 'en');
        assert.equal(pickLanguage('ru-RU,ru;q=0.9,en-US;q=0.8,en;q=0.7'), 'ru');
        assert.equal(pickLanguage('en;q=0.5, ru;q=0.8'), 'ru');
        assert.equal(pickLanguage('de-DE, ru;q=0.3, en;q=0.4'), 'en');
        assert.equal(pickLanguage('fr, de'), 'en');
        assert.equal(pickLanguage('ru;q=0, en;q=0.1'), 'en');
        assert.equal(pickLanguage('*'), 'en');
        assert.equal(pickLanguage('RU'), 'ru');
    });
});

describe('pattern engine', () => {
    const A = addr(1);
    const B = addr(2);
    const C = addr(3);
    const op = (n: number) => beginCell().storeUint(n, 32).storeUint(0, 64).endCell();

    /** A → B (op 1) → C (op 2): one custom action from both, or with B kept (notMerge). */
    const trace = () => constructTrace({ account: B, from: A, body: op(1), children: [{ account: C, body: op(2), children: [{ account: A, body: op(3) }] }] });
    const chain = (notMerge: boolean): Pattern<NativeTransferDraft> => ({
        name: 'test',
        create: () => ({ type: 'NativeTransfer', success: true, sender: '', recipient: '', amount: 0n }),
        root: {
            checks: [isTx, hasOp(1)],
            notMerge,
            build: (d, b) => { d.sender = tx(b).inputFrom!; },
            singleChild: {
                checks: [isTx, hasOp(2)],
                build: (d, b) => { d.recipient = tx(b).account; d.amount = 7n; },
            },
        },
    });

    test('a pattern merges the matched transactions into one action; the rest keep their place', () => {
        const root = trace();
        const { actions } = findActions(root, { jettonWallets: new Map(), jettons: new Map(), nftItems: new Map() }, { patterns: [chain(false)] });
        assert.deepEqual(actions.map((a) => a.draft), [
            { type: 'NativeTransfer', success: true, sender: A, recipient: C, amount: 7n },
            // C → A with op 3 to a contract without interfaces: the fallback's SmartContractExec.
            { type: 'SmartContractExec', success: true, executor: C, contract: A, attached: 100_000_000n, operation: '0x00000003', payload: '' },
        ]);
        assert.deepEqual(actions[0].baseTransactions, [root.transaction.hash, root.children[0].transaction.hash]);
    });

    test('notMerge keeps the root as a separate action after the merged one', () => {
        const root = trace();
        const { actions } = findActions(root, { jettonWallets: new Map(), jettons: new Map(), nftItems: new Map() }, { patterns: [chain(true)] });
        assert.deepEqual(actions.map((a) => [a.draft.type, a.baseTransactions.length]), [
            ['NativeTransfer', 1],
            ['SmartContractExec', 1],
            ['SmartContractExec', 1],
        ]);
        assert.deepEqual(actions[0].baseTransactions, [root.children[0].transaction.hash]);
        assert.equal(actions[2].baseTransactions[0], root.transaction.hash, 'the kept root');
    });

    test('steps share working state through the draft they build; finish takes it off the action', () => {
        // The root step leaves the sender for the child step, which decides by it; the action does not carry it.
        type InProgress = NativeTransferDraft & { seenFrom: string | undefined };
        const shared: Pattern<NativeTransferDraft, InProgress> = {
            name: 'shared',
            create: () => ({ type: 'NativeTransfer', success: true, sender: '', recipient: '', amount: 0n, seenFrom: undefined }),
            finish: ({ seenFrom: _, ...action }) => action,
            root: {
                checks: [isTx, hasOp(1)],
                build: (d, b) => { d.seenFrom = tx(b).inputFrom!; },
                singleChild: {
                    checks: [isTx, hasOp(2)],
                    build: (d, b) => {
                        d.sender = d.seenFrom ?? 'none';
                        d.recipient = tx(b).account;
                    },
                },
            },
        };
        const { actions } = findActions(trace(), { jettonWallets: new Map(), jettons: new Map(), nftItems: new Map() }, { patterns: [shared] });
        assert.deepEqual(actions[0].draft, { type: 'NativeTransfer', success: true, sender: A, recipient: C, amount: 0n });
    });

    test('patterns read bodies only through src/ton/bodies and keep no state beside the drafts', () => {
        const dir = join(import.meta.dirname, '../../src/actions/patterns');
        // Reading bits (slices, cell sizes) belongs to the body loaders; WeakMaps/WeakSets keyed by
        // drafts hide a step's inputs from its types.
        const forbidden = [/\.beginParse\(/, /\.skip\(/, /\.load(Uint|Int|Coins|Ref|MaybeRef|Bit|Buffer|Address|AddressAny)\w*\(/, /\.preload\w+\(/,
            /\.bits\.length/, /\.refs\.length/, /\bWeak(Map|Set)\b/];
        const found: string[] = [];
        for (const file of readdirSync(dir).filter((f) => f.endsWith('.ts'))) {
            const source = readFileSync(join(dir, file), 'utf8');
            for (const pattern of forbidden) if (pattern.test(source)) found.push(`${file}: ${pattern}`);
        }
        assert.deepEqual(found, []);
    });

    test('PATTERNS is one ordered list of named patterns, transfers before the protocols built on them', () => {
        const names = PATTERNS.map((p) => p.name);
        assert.equal(new Set(names).size, names.length);
        assert.ok(names.indexOf('JettonTransferClassic') < names.indexOf('StonfiSwap'));
        assert.ok(names.indexOf('JettonBurn') < names.indexOf('PendingWithdrawRequestLiquid'));
        assert.ok(names.indexOf('NftTransfer') < names.indexOf('NftPurchase'));
        assert.ok(names.indexOf('JettonMintFromMaster') < names.indexOf('JettonMintGovernance'));
    });
});
