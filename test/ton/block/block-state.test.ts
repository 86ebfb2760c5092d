import { pathToFileURL } from 'node:url';
import test from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { beginCell, type Cell, loadTransaction, type Transaction } from '@ton/core';
import { parseBlockCell, readBlockRoot } from '../../../src/ton/block/block-file.ts';
import { accountStatesAfterBlock } from '../../../src/ton/block/block-state.ts';
import { MAINNET_BLOCKS_DIR, mainnetSkip } from '../../helpers/fixtures.ts';

const FIXTURES = pathToFileURL(MAINNET_BLOCKS_DIR);
const BLOCKS = [1, 2, 4, 5, 6] as const;

const STATUS: Record<Transaction['endStatus'], string> = {
    uninitialized: 'uninit',
    frozen: 'frozen',
    active: 'active',
    'non-existing': 'nonexist',
};

function lastTransactions(root: Cell): Map<string, { lt: bigint; hash: string; tx: Transaction }> {
    const last = new Map<string, { lt: bigint; hash: string; tx: Transaction }>();
    for (const { account, lt, hash, cell } of parseBlockCell(root, '').transactions) {
        last.set(account, { lt, hash, tx: loadTransaction(cell.beginParse()) }); // sorted by lt
    }
    return last;
}

/** The decoded fields of a state (without the Account cell, its decoding, and whether the update shows all of it). */
function shown(state: ReturnType<typeof accountStatesAfterBlock>[number] | undefined) {
    assert.ok(state);
    const { accountCell, complete, decoded, ...fields } = state;
    // A complete account is one with no pruned branch below it.
    assert.equal(complete, accountCell.level() === 0);
    // Its decoding comes along, for the full state's record, only then (and not for account_none).
    assert.equal(decoded !== undefined, complete && fields.status !== 'nonexist');
    if (decoded) assert.equal(decoded.storage.balance.coins, fields.balance);
    return fields;
}

function specialActions(tx: Transaction): number {
    return tx.description.type === 'generic' ? (tx.description.actionPhase?.specActions ?? 0) : 0;
}

for (const n of BLOCKS) {
    test(`block-${n}: account states after the block match each account's last transaction`, { skip: mainnetSkip }, () => {
        const root = readBlockRoot(readFileSync(new URL(`block-${n}.boc`, FIXTURES)));
        const last = lastTransactions(root);
        const states = accountStatesAfterBlock(root);

        // every account with transactions changed, so its state is in the update
        assert.deepEqual(
            states.map((s) => s.account),
            [...last.keys()].sort(),
        );
        for (const state of states) {
            const { lt, hash, tx } = last.get(state.account)!;
            assert.equal(state.lastTransLt, lt);
            assert.equal(state.lastTransHash, hash);
            assert.equal(state.status, STATUS[tx.endStatus]);
            assert.ok(state.balance >= 0n);
            assert.equal(state.codeHash !== undefined, state.status === 'active');
            // an account deployed by this transaction runs the code its message brought,
            // unless the transaction replaced it (set_code is a "special" action)
            const init = tx.inMessage?.init;
            if (tx.oldStatus !== 'active' && tx.endStatus === 'active' && init?.code && !specialActions(tx)) {
                assert.equal(state.codeHash, init.code.hash().toString('hex'));
                if (tx.description.type === 'generic' && tx.description.computePhase.type === 'skipped') {
                    assert.equal(state.dataHash, init.data?.hash().toString('hex'));
                }
            }
        }
    });
}

test('block-1: deployed wallets and a known account state', { skip: mainnetSkip }, () => {
    const root = readBlockRoot(readFileSync(new URL('block-1.boc', FIXTURES)));
    const states = accountStatesAfterBlock(root);
    assert.equal(states.length, 167);
    assert.deepEqual(shown(states[0]), {
        account: '0:001fef0f1708202d192240d5e246d9ce7c27efa605754832ae7d3fbc05997ac7',
        balance: 49464000n,
        status: 'active',
        codeHash: 'd3bf3f8cac36a3f2e0978d378019cab87d5df4ab4239c346fcb6a4417c60b5ec',
        dataHash: '8f8bd8cbdcf871ddf5d8b14153f4381b291500fe6c188d1c8713c9b85ed172c4',
        lastTransLt: 33126324000293n,
        lastTransHash: 'c39907cfdeee88f86903f8eaf55fed0b574a2920fe568fac67a72eaf4bc662f4',
    });
    // checked by construction above: deployments whose code came with the message
    const deployed = [...lastTransactions(root).values()].filter(
        ({ tx }) =>
            tx.oldStatus !== 'active' && tx.endStatus === 'active' && tx.inMessage?.init?.code && !specialActions(tx),
    );
    assert.ok(deployed.length > 100, `${deployed.length} deployments`);
});

test('block-2: an uninit account keeps its balance and has no code', { skip: mainnetSkip }, () => {
    const root = readBlockRoot(readFileSync(new URL('block-2.boc', FIXTURES)));
    const zero = accountStatesAfterBlock(root).find((s) => s.account === `0:${'0'.repeat(64)}`);
    assert.deepEqual(shown(zero), {
        account: `0:${'0'.repeat(64)}`,
        balance: 608003058872n,
        status: 'uninit',
        lastTransLt: 43049060000438n,
        lastTransHash: '7a21193bbeab52b8a48ad3636d95953a1b34dd359aa7fb717c71c3ad0c419f9e',
    });
});

test('block-5: a deployment that replaced its own code with an empty cell', { skip: mainnetSkip }, () => {
    // the message's code is SETCP0 ACCEPT NEWC ENDC SETCODE: after the block the code is the empty cell
    const root = readBlockRoot(readFileSync(new URL('block-5.boc', FIXTURES)));
    const account = '-1:8e421c91a3430717750901caa9754c43c8c63bd2a911194e5d5281f00a84613c';
    const { tx } = lastTransactions(root).get(account)!;
    assert.equal(tx.inMessage?.init?.code?.bits.toString(), 'FF00F800C8C9FB04');
    assert.equal(specialActions(tx), 1);
    const state = accountStatesAfterBlock(root).find((s) => s.account === account);
    const empty = beginCell().endCell().hash().toString('hex');
    assert.deepEqual(shown(state), {
        account,
        balance: 462999208n,
        status: 'active',
        codeHash: empty,
        dataHash: empty,
        lastTransLt: 24836995000001n,
        lastTransHash: 'ca53acbff14ecc7dce82eed6667ba25f96d5dea5ec6ba2ce9e0c36338f49d81b',
    });
});
