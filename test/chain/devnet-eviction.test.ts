import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { Address, BitString, Cell, loadShardAccount } from '@ton/core';
import { DevnetSource } from '../../src/chain/devnet/devnet-source.ts';
import { ChainLog } from '../../src/chain/devnet/chain-log.ts';
import { readBoc } from '../../src/ton/boc/boc-reader.ts';
import { CellStore, blockStateUpdate } from '../../src/liteserver/devnet/cell-store.ts';
import { merkleUpdate } from '../../src/ton/cells/merkle-update.ts';
import { compareWithProjectParser } from '../helpers/compare-block-readers.ts';
import { tempDir } from '../helpers/stores.ts';

const AMOUNT = 10n ** 9n;

/**
 * A devnet that keeps almost no account in memory (recentAccounts 2): the sandbox lets go of every
 * contract but the last used and the collator of every region of the accounts dictionary but the
 * last changed, so the seed activity (tokens, DNS, multisig, elections) and transfers to accounts
 * evicted long before run on accounts loaded back from the chain log. Its blocks must be what a
 * devnet holding every account makes: readers agree, state updates chain, and each Merkle update
 * is the one computed from the two full states.
 */
describe('devnet with evicted accounts', { timeout: 300_000 }, () => {
    const dir = tempDir('devnet-eviction-');
    const chainLog = `${dir.path}/devnet/chain.sqlite`;
    const funded = Array.from({ length: 5 }, (_, i) => Address.parse(`0:${(BigInt(i + 1) * 0x9e3779b97f4a7c15n).toString(16).padStart(64, '0')}`));
    let blocks: Array<{ workchain: number; seqno: number; block: Cell; boc: Buffer }> = [];

    const run = async (work: (devnet: DevnetSource, checked: (step: Promise<void>) => Promise<void>) => Promise<void>) => {
        const devnet = new DevnetSource({ dataDir: dir.path, blockIntervalMs: 20, faucetCap: 10n ** 12n, recentAccounts: 2 });
        // A block the producer fails to make (e.g. a region loaded back wrong) fails the test at once.
        const failed = new Promise<never>((_, reject) => devnet.onFailure(reject));
        failed.catch(() => undefined);
        await devnet.start();
        const checked = (step: Promise<void>) => Promise.race([step, failed]);
        try {
            while (!devnet.seeded) await checked(devnet.nextBlock());
            await work(devnet, checked);
        } finally {
            await devnet.stop();
        }
    };

    before(async () => {
        await run(async (devnet, checked) => {
            for (const to of funded) {
                await devnet.faucet(to, AMOUNT);
                await checked(devnet.nextBlock());
            }
        });
        // After a restart (accounts restored from the chain log into evicted regions), back to the first ones, evicted long since.
        await run(async (devnet, checked) => {
            for (const to of funded.slice(0, 3)) {
                await devnet.faucet(to, AMOUNT);
                await checked(devnet.nextBlock());
            }
        });
        const log = new ChainLog(chainLog, { readonly: true });
        try {
            blocks = [...log.allBlocks()].map(b => ({ workchain: b.workchain, seqno: b.seqno, block: readBoc(b.boc)[0], boc: b.boc }));
        } finally {
            log.close();
        }
    });
    after(() => dir.remove());

    test('transfers to evicted accounts add up: each holds what the faucet sent it, less storage fees', () => {
        const log = new ChainLog(chainLog, { readonly: true });
        try {
            funded.forEach((address, i) => {
                const saved = log.account(address.toRawString());
                assert.ok(saved, `${address.toRawString()} is saved`);
                const balance = loadShardAccount(Cell.fromBoc(saved.shardAccount)[0].beginParse()).account!.storage.balance.coins;
                const sent = i < 3 ? 2n * AMOUNT : AMOUNT;
                assert.ok(balance <= sent && balance > sent - 10_000_000n, `${address.toRawString()} holds ${balance} of ${sent} sent`);
            });
        } finally {
            log.close();
        }
    });

    test('a restart reads every account in id order while regions are loaded by id range beside it', () => {
        const log = new ChainLog(chainLog, { readonly: true });
        try {
            const ids: string[] = [];
            for (const account of log.accountsOf(0)) {
                ids.push(account.address);
                const id = account.address.slice(2);
                assert.deepEqual([...log.accountsBetween(0, id, id)].map(a => a.address), [account.address]);
            }
            assert.equal(ids.length, log.accountCount(0));
            assert.deepEqual(ids, [...ids].sort());
            for (const address of funded) assert.ok(ids.includes(address.toRawString()));
        } finally {
            log.close();
        }
    });

    test('both readers agree on every block and each shard chain links its states across the restart', () => {
        assert.ok(blocks.length > 80, `only ${blocks.length} blocks`);
        for (const { boc } of blocks) assert.ok(compareWithProjectParser(boc).valueFlowBalanced);
        for (const workchain of [-1, 0]) {
            let state: Buffer | null = null;
            for (const { block } of blocks.filter(b => b.workchain === workchain)) {
                const update = blockStateUpdate(block);
                assert.ok(update.oldSide.hash(0).equals(update.oldHash) && update.newSide.hash(0).equals(update.newHash));
                if (state) assert.ok(update.oldHash.equals(state));
                state = update.newHash;
            }
        }
    });

    test('every state update is the Merkle update between the full states before and after the block', () => {
        const storeDir = tempDir('devnet-eviction-cells-');
        const store = new CellStore(`${storeDir.path}/cells.sqlite`);
        try {
            store.sync(chainLog);
            const full = (hash: Buffer, memo: Map<string, Cell>): Cell => {
                const key = hash.toString('hex');
                const known = memo.get(key);
                if (known) return known;
                const record = store.record(hash)!;
                assert.ok(record, `the cell store has ${key}`);
                const cell = new Cell({ exotic: record.exotic, bits: new BitString(record.data, 0, record.bitLength), refs: record.refHashes.map(h => full(h, memo)) });
                memo.set(key, cell);
                return cell;
            };
            let checked = 0;
            for (const { block, workchain, seqno } of blocks) {
                const update = blockStateUpdate(block);
                const memo = new Map<string, Cell>();
                const before = full(update.oldHash, memo);
                const after = full(update.newHash, memo);
                const inNew = new Set<string>();
                const collect = (cell: Cell): void => {
                    const key = cell.hash(0).toString('latin1');
                    if (inNew.has(key)) return;
                    inNew.add(key);
                    cell.refs.forEach(collect);
                };
                collect(after);
                const expected = merkleUpdate(before, after, key => inNew.has(key));
                assert.equal(block.refs[2].hash(0).toString('hex'), expected.hash(0).toString('hex'), `${workchain}:${seqno} state update`);
                checked++;
            }
            assert.equal(checked, blocks.length);
        } finally {
            store.close();
            storeDir.remove();
        }
    });
});
