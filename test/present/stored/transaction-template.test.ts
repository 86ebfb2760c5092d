import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { readBlockBoc as blockRecordFromBoc } from '../../../src/chain/block-reading.ts';
import { AccountDirectory } from '../../../src/present/account-address.ts';
import { presentTransaction } from '../../../src/present/transaction.ts';
import { appendFilledTemplate, fillTemplate, listTemplate, readListTemplate, readTextTemplate, storedListTemplate, templateAccounts, transactionTemplate, TEXT_VERSION } from '../../../src/present/stored/transaction-template.ts';
import { ByteText } from '../../../src/json/byte-text.ts';
import { toJsonBytes } from '../../../src/json/json.ts';

import { loadConfig } from '../../../src/config/config.ts';
import { formatBlockId } from '../../../src/ton/block-id.ts';
import { hasCells, type ParsedTransaction } from '../../../src/ton/transaction.ts';
import { FIXTURE_BLOCKS, mainnetSkip, readBlockBoc } from '../../helpers/fixtures.ts';

interface Case {
    parsed: ParsedTransaction;
    block: string;
    endBalance: bigint | null;
    boc: Buffer;
}

async function fixtureTransactions(): Promise<Case[]> {
    const cases: Case[] = [];
    for (const name of FIXTURE_BLOCKS) {
        const record = await blockRecordFromBoc(readBlockBoc(name));
        for (const t of record.transactions) {
            assert.ok(t.summary && hasCells(t.summary));
            cases.push({ parsed: t.summary, block: formatBlockId(record.id), endBalance: t.endBalance ?? null, boc: t.boc });
        }
    }
    return cases;
}

const INTERFACE_SETS = [
    [], ['wallet_v3r1'], ['wallet_v3r2'], ['wallet_v4r1'], ['wallet_v4r2'], ['wallet_v5r1'], ['wallet_highload_v3'],
    ['jetton_wallet'], ['wallet_v4r2', 'wallet_v3r2'], ['jetton_master', 'wallet_v5r1'],
];

/** Every account of `c` given the same interfaces, or each its own from a seeded walk through INTERFACE_SETS. */
function interfaceMaps(c: Case, seed: number): Array<Map<string, string[]>> {
    const accounts = new Set<string>([c.parsed.account]);
    for (const m of [c.parsed.inMsg, ...c.parsed.outMsgs]) {
        if (m?.source) accounts.add(m.source);
        if (m?.destination) accounts.add(m.destination);
    }
    const maps = INTERFACE_SETS.map(set => new Map([...accounts].map(a => [a, set])));
    let state = seed;
    maps.push(new Map([...accounts].map(a => {
        state = (state * 1103515245 + 12345) % 2 ** 31;
        return [a, INTERFACE_SETS[state % INTERFACE_SETS.length]];
    })));
    return maps;
}

describe('stored transaction texts (templates)', { skip: mainnetSkip }, () => {
    test('filled with any interfaces, a template is the text presented from the BOC with them, byte for byte', async () => {
        const cases = await fixtureTransactions();
        assert.ok(cases.length > 800);
        const holeKinds = new Map<string, number>();
        cases.forEach((c, i) => {
            const stored = transactionTemplate(c.parsed, c.block, c.endBalance);
            assert.ok(stored, `transaction ${c.parsed.hash} has a template`);
            const template = readTextTemplate(stored);
            assert.equal(template.version, TEXT_VERSION);
            for (const [kind] of template.holes) holeKinds.set(kind, (holeKinds.get(kind) ?? 0) + 1);
            assert.deepEqual(templateAccounts(template)!.sort(), [...interfaceMaps(c, 0)[0].keys()].sort());
            for (const interfaces of interfaceMaps(c, i)) {
                const expected = toJsonBytes(presentTransaction(c.parsed, { block: c.block, endBalance: c.endBalance, raw: c.boc }, new AccountDirectory(interfaces)));
                const filled = fillTemplate(template, c.boc, interfaces);
                assert.ok(filled);
                if (!filled.equals(expected)) assert.equal(filled.toString(), expected.toString(), `transaction ${c.parsed.hash}`);
            }
        });
        // The fixtures exercise every kind of hole: wallets, raw, and wallets' external bodies decoded by layout.
        assert.ok((holeKinds.get('w') ?? 0) > cases.length);
        assert.equal(holeKinds.get('r'), cases.length);
        assert.ok((holeKinds.get('d') ?? 0) > 10, `external bodies by layout: ${holeKinds.get('d')}`);
    });

    test("a wallet's exit codes are described by the interfaces the account has when the text is read", async () => {
        // Wallets refuse bad externals before accepting them, so no fixture has one: the codes are set on real transactions.
        const cases = (await fixtureTransactions()).filter(c => {
            const d = c.parsed.tx.description;
            return 'computePhase' in d && d.computePhase.type === 'vm';
        }).slice(0, 40);
        assert.equal(cases.length, 40);
        const described = new Set<string>();
        for (const [i, c] of cases.entries()) {
            const phase = (c.parsed.tx.description as { computePhase: { exitCode: number } }).computePhase;
            phase.exitCode = [33, 35, 133, 136, 40, 7][i % 6];
            const template = readTextTemplate(transactionTemplate(c.parsed, c.block, c.endBalance)!);
            assert.equal(template.holes.some(h => h[0] === 'x'), phase.exitCode !== 7 && phase.exitCode !== 40);
            for (const interfaces of interfaceMaps(c, i)) {
                const expected = toJsonBytes(presentTransaction(c.parsed, { block: c.block, endBalance: c.endBalance, raw: c.boc }, new AccountDirectory(interfaces)));
                const filled = fillTemplate(template, c.boc, interfaces)!;
                assert.equal(filled.toString(), expected.toString());
                const description = (JSON.parse(filled.toString()) as { compute_phase: { exit_code_description?: string } }).compute_phase.exit_code_description;
                if (description) described.add(description);
            }
        }
        // v3/v4 codes (33, 35), v5 codes (133 and 136, the latter v5's alone) and the TVM's own code 7, whatever the interfaces.
        assert.deepEqual([...described].sort(), [
            'Type check error',
            'Wallet refused the message: expired (valid_until has passed)',
            'Wallet refused the message: invalid signature',
            'Wallet refused the message: seqno mismatch (already used or out of order)',
        ]);
    });

    test("a block's list as one template, stored and read back, is its transactions presented in order, byte for byte", async () => {
        const kinds = new Map<string, number>();
        for (const [b, name] of FIXTURE_BLOCKS.entries()) {
            const record = await blockRecordFromBoc(readBlockBoc(name));
            if (record.transactions.length === 0) {
                assert.equal(record.listText, undefined, 'a block without transactions stores no list');
                continue;
            }
            assert.ok(record.listText, `block ${name} has its list text`);
            const template = readListTemplate(record.listText);
            assert.equal(template.version, TEXT_VERSION);
            for (const [kind] of template.holes) kinds.set(kind, (kinds.get(kind) ?? 0) + 1);
            const cases = record.transactions.map(t => ({ parsed: t.summary as ParsedTransaction, block: formatBlockId(record.id), endBalance: t.endBalance ?? null, boc: t.boc }))
                .sort((x, y) => x.parsed.lt !== y.parsed.lt ? (x.parsed.lt < y.parsed.lt ? -1 : 1) : x.parsed.account < y.parsed.account ? -1 : 1);
            const accounts = new Set(cases.flatMap(c => [...interfaceMaps(c, 0)[0].keys()]));
            assert.deepEqual(templateAccounts(template)!.sort(), [...accounts].sort());
            for (const [i, set] of INTERFACE_SETS.entries()) {
                // Every account the same interfaces, and every other account a wallet v4r2 besides.
                const interfaces = new Map([...accounts].map((a, k) => [a, k % 2 === i % 2 ? set : ['wallet_v4r2']]));
                const expected = `[${cases.map(c => toJsonBytes(presentTransaction(c.parsed, { block: c.block, endBalance: c.endBalance, raw: c.boc }, new AccountDirectory(interfaces))).toString()).join(',')}]`;
                const out = new ByteText();
                assert.ok(appendFilledTemplate(out, template, null, interfaces), `block ${b}`);
                assert.equal(out.toBuffer().toString(), expected, `block ${name}`);
            }
        }
        assert.equal(kinds.get('r'), undefined, 'raw is written in');
        assert.ok((kinds.get('w') ?? 0) > 800 && (kinds.get('d') ?? 0) > 10, JSON.stringify([...kinds]));

        // Exit codes a wallet describes are holes in a list too.
        const cases = (await fixtureTransactions()).filter(c => 'computePhase' in c.parsed.tx.description && c.parsed.tx.description.computePhase.type === 'vm').slice(0, 12);
        cases.forEach((c, i) => {
            (c.parsed.tx.description as { computePhase: { exitCode: number } }).computePhase.exitCode = [33, 35, 133, 136][i % 4];
        });
        const list = listTemplate(cases.map(c => ({ template: readTextTemplate(transactionTemplate(c.parsed, c.block, c.endBalance)!), boc: c.boc })))!;
        const template = readListTemplate(storedListTemplate(list));
        assert.equal(template.holes.filter(h => h[0] === 'x').length, cases.length);
        for (const set of INTERFACE_SETS) {
            const interfaces = new Map(template.accounts!.map(a => [a, set]));
            const expected = `[${cases.map(c => toJsonBytes(presentTransaction(c.parsed, { block: c.block, endBalance: c.endBalance, raw: c.boc }, new AccountDirectory(interfaces))).toString()).join(',')}]`;
            const out = new ByteText();
            assert.ok(appendFilledTemplate(out, template, null, interfaces));
            assert.equal(out.toBuffer().toString(), expected);
        }
        // A transaction's own template keeps its raw hole: it cannot be filled without the BOC.
        const own = readTextTemplate(transactionTemplate(cases[0].parsed, cases[0].block, cases[0].endBalance)!);
        const out = new ByteText();
        assert.equal(appendFilledTemplate(out, own, null, new Map()), false);
        assert.equal(out.length, 0);
    });

    test('a template of another version is not filled', async () => {
        const [c] = await fixtureTransactions();
        const other = { ...readTextTemplate(transactionTemplate(c.parsed, c.block, c.endBalance)!), version: TEXT_VERSION + 1 };
        assert.equal(fillTemplate(other, c.boc, new Map()), null);
        assert.equal(templateAccounts(other), null);
    });

    test('a NUL in a comment is escaped in the text, never taken for a hole', async () => {
        const cases = await fixtureTransactions();
        for (const c of cases.slice(0, 50)) {
            const template = transactionTemplate(c.parsed, c.block, c.endBalance)!;
            const holes = JSON.parse(template.holes) as unknown[];
            assert.equal(template.text.filter(byte => byte === 0).length, holes.length - 1);
        }
    });

    test('--transaction-texts off: blocks are read without texts (their transactions are decoded when read)', async () => {
        const boc = readBlockBoc('block-5');
        const withTexts = await blockRecordFromBoc(boc);
        const without = await blockRecordFromBoc(boc, undefined, undefined, false);
        assert.ok(withTexts.transactions.every(t => t.text));
        assert.ok(without.transactions.every(t => t.text === undefined));
        assert.equal(loadConfig([]).config.transactionTexts, true);
        assert.equal(loadConfig(['--transaction-texts', 'off']).config.transactionTexts, false);
        assert.equal(loadConfig(['--transaction-texts=on']).config.transactionTexts, true);
        assert.equal(loadConfig([], { TRANSACTION_TEXTS: 'false' }).config.transactionTexts, false);
        assert.throws(() => loadConfig(['--transaction-texts', 'sometimes']), /transaction texts must be on or off, got 'sometimes'/);
    });
});
