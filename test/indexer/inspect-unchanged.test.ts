/**
 * AccountInspector runs an account's get-methods again only when its code, data or balance
 * changed: a state that differs by its last transaction alone (the config contract's every
 * masterchain block) reuses what was detected.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { Address, beginCell, type Cell } from '@ton/core';
import type { AccountStateRecord } from '../../src/chain/chain-source.ts';
import { jettonMinterCode, jettonMinterData, jettonWalletAddress, jettonWalletCode, jettonWalletData } from '../../src/chain/devnet/contracts/jetton.ts';
import { AccountInspector } from '../../src/indexer/inspect-accounts.ts';
import { GetMethodRunner } from '../../src/ton/interfaces/get-method-runner.ts';
import { formatRawAddress } from '../../src/ton/address.ts';
import { openStore, type Store } from '../../src/store/store.ts';
import { tempDir } from '../helpers/stores.ts';

const owner = new Address(0, Buffer.alloc(32, 0x0a));
const masterAddress = new Address(0, Buffer.alloc(32, 0x3c));
const walletAddress = jettonWalletAddress(owner, masterAddress);

function state(address: Address, code: Cell, data: Cell, balance: bigint, lt: bigint): AccountStateRecord {
    return {
        address: formatRawAddress(address), status: 'active', balance,
        codeHash: code.hash().toString('hex'), dataHash: data.hash().toString('hex'), code: code.toBoc(), data: data.toBoc(),
        lastTransLt: lt, lastTransHash: lt.toString(16).padStart(64, '0'),
    };
}

const master = (lt: bigint) => state(masterAddress, jettonMinterCode(), jettonMinterData({ admin: owner, content: beginCell().storeUint(1, 8).storeStringTail('https://example.org/dusd.json').endCell(), totalSupply: 1_000n }), 5n * 10n ** 9n, lt);
const wallet = (jettons: bigint, balance: bigint, lt: bigint) => state(walletAddress, jettonWalletCode(), jettonWalletData(owner, masterAddress, jettons), balance, lt);

let dir: ReturnType<typeof tempDir>;
let store: Store;
const calls: string[] = [];
const run = GetMethodRunner.prototype.run;

before(async () => {
    dir = tempDir('inspect-unchanged-');
    store = await openStore({ dataDir: dir.path });
    GetMethodRunner.prototype.run = function (this: GetMethodRunner, ...args: Parameters<typeof run>) {
        calls.push(`${formatRawAddress(args[0].address)} ${String(args[1])}`);
        return run.apply(this, args);
    };
});

after(async () => {
    GetMethodRunner.prototype.run = run;
    await store.close();
    dir.remove();
});

test('an account whose code, data and balance are unchanged is not run again; a new balance or data is', async () => {
    const inspector = await AccountInspector.create();
    const walletRaw = formatRawAddress(walletAddress);
    const first = await inspector.inspect(store.db, [master(1n), wallet(700n, 10n ** 8n, 2n)]);
    assert.equal(first.get(walletRaw)?.detected.jettonWallet?.balance, 700n);
    assert.equal(first.get(walletRaw)?.verifiedJettonWallet, true);
    const ranOnWallet = () => calls.filter(c => c.startsWith(walletRaw)).length;
    const afterFirst = ranOnWallet();
    assert.ok(afterFirst > 0, 'the first inspection ran the jetton wallet\'s get-methods');

    // Only the last transaction differs: the same detection, nothing run on the wallet; still verified by its master.
    const again = await inspector.inspect(store.db, [master(3n), wallet(700n, 10n ** 8n, 4n)]);
    assert.equal(ranOnWallet(), afterFirst);
    assert.deepEqual(again.get(walletRaw), first.get(walletRaw));

    // New data (jetton balance): run again.
    const moreJettons = await inspector.inspect(store.db, [wallet(900n, 10n ** 8n, 5n), master(6n)]);
    assert.ok(ranOnWallet() > afterFirst);
    assert.equal(moreJettons.get(walletRaw)?.detected.jettonWallet?.balance, 900n);
    assert.equal(moreJettons.get(walletRaw)?.verifiedJettonWallet, true);

    // A new balance alone: run again too (a get-method may read it).
    const beforeBalance = ranOnWallet();
    await inspector.inspect(store.db, [wallet(900n, 2n * 10n ** 8n, 7n), master(8n)]);
    assert.ok(ranOnWallet() > beforeBalance);
});
