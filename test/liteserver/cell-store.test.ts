import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { BitString, Cell } from '@ton/core';
import { ChainLog } from '../../src/chain/devnet/chain-log.ts';
import { readBoc } from '../../src/ton/boc/boc-reader.ts';
import { writeBoc } from '../../src/ton/boc/boc-writer.ts';
import { CellStore, stateHashAfterBlock, type SyncStats } from '../../src/liteserver/devnet/cell-store.ts';
import { findAccount } from '../../src/ton/cells/merkle-proof.ts';
import { DevnetChain } from './devnet-chain-fixture.ts';

interface LoggedBlock { seq: number; workchain: number; seqno: number; rootHash: string; fileHash: string; block: Cell }

function loggedBlocks(chainLogFile: string): LoggedBlock[] {
    const log = new ChainLog(chainLogFile, { readonly: true });
    try {
        return [...log.allBlocks()].map(b => {
            const block = readBoc(b.boc)[0];
            return { seq: b.seq, workchain: b.workchain, seqno: b.seqno, rootHash: block.hash(0).toString('hex'), fileHash: '', block };
        });
    } finally {
        log.close();
    }
}

/** The whole tree under `hash` rebuilt from the store's records with @ton/core's own cell constructor (hashes computed by @ton/core). */
function materialize(store: CellStore, hash: Buffer, memo = new Map<string, Cell>()): Cell {
    const key = hash.toString('hex');
    const known = memo.get(key);
    if (known) return known;
    const record = store.record(hash);
    assert.ok(record, `the store has cell ${key}`);
    const refs = record.refHashes.map(h => materialize(store, h, memo));
    const cell = new Cell({ exotic: record.exotic, bits: new BitString(record.data, 0, record.bitLength), refs });
    memo.set(key, cell);
    return cell;
}

describe('devnet cell store', () => {
    const chain = new DevnetChain();
    let first: SyncStats;
    let blocks: LoggedBlock[];

    before(async () => {
        await chain.produce(2);
        const store = new CellStore(chain.cellStoreFile);
        try {
            first = store.sync(chain.chainLogFile);
        } finally {
            store.close();
        }
        blocks = loggedBlocks(chain.chainLogFile);
    });
    after(() => chain.remove());

    test('sync ingests the zerostates and every block, and each stored state is the state after its block', t => {
        const store = new CellStore(chain.cellStoreFile);
        try {
            assert.equal(first.zerostates, 2);
            assert.equal(first.blocks, blocks.length);
            assert.equal(first.lastSeq, blocks.at(-1)!.seq);
            const size = store.size();
            t.diagnostic(`store after ${blocks.length} blocks: ${size.cells} cells, ${(size.bytes / 1024).toFixed(0)} KiB `
                + `(sync added ${first.cells} cells, ${(first.bytes / 1024).toFixed(0)} KiB of representations)`);
            for (const b of blocks) {
                const state = store.stateOfBlock(Buffer.from(b.rootHash, 'hex'));
                assert.ok(state, `${b.workchain}:${b.seqno} has a state`);
                assert.equal(state.blockHash.toString('hex'), b.rootHash);
                assert.ok(state.stateHash.equals(stateHashAfterBlock(b.block)));
                assert.ok(store.stateHashAfterBlock(b.rootHash)!.equals(state.stateHash));
                assert.ok(store.stateRoot(state.stateHash).hash(0).equals(state.stateHash));
            }
            for (const workchain of [-1, 0]) {
                const zero = store.zerostate(workchain)!;
                assert.ok(zero.stateHash.equals(zero.blockHash), 'a zerostate is its own id');
                assert.ok(store.stateHashAfterBlock(zero.blockHash)!.equals(zero.stateHash));
            }
        } finally {
            store.close();
        }
    });

    test('states rebuilt from the store by @ton/core hash as the blocks\' new state hashes (old and new blocks, both chains)', () => {
        const store = new CellStore(chain.cellStoreFile);
        try {
            const memo = new Map<string, Cell>();
            for (const workchain of [-1, 0]) {
                const chainBlocks = blocks.filter(b => b.workchain === workchain);
                const picked = [chainBlocks[0], chainBlocks[Math.floor(chainBlocks.length / 2)], chainBlocks.at(-1)!];
                const zero = store.zerostate(workchain)!;
                assert.ok(materialize(store, zero.stateHash, memo).hash(0).equals(zero.stateHash));
                for (const b of picked) {
                    const expected = stateHashAfterBlock(b.block);
                    assert.ok(materialize(store, expected, memo).hash(0).equals(expected), `${workchain}:${b.seqno}`);
                }
            }
        } finally {
            store.close();
        }
    });

    test('accounts read from stored states are the chain log\'s ShardAccounts at that block (changed and unchanged accounts)', () => {
        const store = new CellStore(chain.cellStoreFile);
        const log = new ChainLog(chain.chainLogFile, { readonly: true });
        try {
            const basechain = blocks.filter(b => b.workchain === 0);
            const picked = [basechain[1], basechain[Math.floor(basechain.length / 2)], basechain.at(-1)!];
            let changedChecked = 0;
            let unchangedChecked = 0;
            const everyAddress = log.accounts().map(a => a.address).filter(a => a.startsWith('0:'));
            for (const b of picked) {
                const id = { workchain: 0, shard: '8000000000000000', seqno: b.seqno, rootHash: b.rootHash, fileHash: b.fileHash };
                const changed = new Set(log.accountsChangedBy(b.seq).map(a => a.address));
                const unchanged = everyAddress.filter(a => !changed.has(a)).slice(0, 3);
                const state = store.stateAfter(Buffer.from(b.rootHash, 'hex'))!;
                for (const address of [...changed, ...unchanged]) {
                    const expected = log.shardAccountAt(id as never, address);
                    const found = findAccount(state, Buffer.from(address.slice(2), 'hex')).account;
                    // No history, or account_none$0 (an address a message reached without creating an account): not in the dictionary.
                    if (!expected || !Cell.fromBoc(expected)[0].refs[0].beginParse().loadBit()) {
                        assert.equal(found, null, `${address} is not in the state after 0:${b.seqno}`);
                        continue;
                    }
                    assert.ok(found, `${address} is in the state after 0:${b.seqno}`);
                    const expectedCell = Cell.fromBoc(expected)[0];
                    assert.ok(found.shardAccount.hash().equals(expectedCell.hash()), `${address} after 0:${b.seqno}`);
                    // The Account written back from the store is the chain log's, byte for byte as a tree.
                    assert.ok(Cell.fromBoc(writeBoc(found.account))[0].hash().equals(expectedCell.refs[0].hash()));
                    if (changed.has(address)) changedChecked++;
                    else unchangedChecked++;
                }
            }
            assert.ok(changedChecked >= 3, `only ${changedChecked} changed accounts checked`);
            assert.ok(unchangedChecked >= 3, `only ${unchangedChecked} unchanged accounts checked`);
        } finally {
            log.close();
            store.close();
        }
    });

    test('walking to one account reads only its path from the database', t => {
        const store = new CellStore(chain.cellStoreFile, { cacheCells: 1000 });
        try {
            const last = blocks.filter(b => b.workchain === 0).at(-1)!;
            const state = store.stateAfter(Buffer.from(last.rootHash, 'hex'))!;
            const address = chain.funded.at(-1)!;
            const found = findAccount(state, Buffer.from(address.slice(2), 'hex')).account;
            assert.ok(found, 'the last funded address is in the state');
            t.diagnostic(`one account lookup read ${store.reads} cells`);
            assert.ok(store.reads < 60, `${store.reads} cells read`);
        } finally {
            store.close();
        }
    });

    test('incremental sync after more blocks adds only them; a reopened store resumes where it stopped', async t => {
        const before = blocks.length;
        await chain.produce(2);
        const more = loggedBlocks(chain.chainLogFile);
        const store = new CellStore(chain.cellStoreFile);
        try {
            // Sync part of the new blocks (the store resumes after the last committed batch).
            const second = store.sync(chain.chainLogFile, { batch: 1 });
            assert.equal(second.zerostates, 0);
            assert.equal(second.blocks, more.length - before);
            assert.equal(second.lastSeq, more.at(-1)!.seq);
            t.diagnostic(`incremental sync of ${second.blocks} blocks (faucet transfers) added ${second.cells} cells, ${(second.bytes / 1024).toFixed(1)} KiB: `
                + `${(second.cells / second.blocks).toFixed(1)} cells, ${(second.bytes / second.blocks).toFixed(0)} bytes per block`);
            t.diagnostic(`first sync: zerostates ${first.zerostateCells} cells, then ${first.blocks} blocks (seeding: deployments, jettons, NFTs, transfers) `
                + `${((first.cells - first.zerostateCells) / first.blocks).toFixed(1)} cells per block`);
            assert.equal(store.sync(chain.chainLogFile).blocks, 0);
        } finally {
            store.close();
        }
        const reopened = new CellStore(chain.cellStoreFile);
        try {
            assert.equal(reopened.lastSeq, more.at(-1)!.seq);
            const again = reopened.sync(chain.chainLogFile);
            assert.deepEqual({ ...again }, { zerostates: 0, zerostateCells: 0, blocks: 0, cells: 0, bytes: 0, lastSeq: more.at(-1)!.seq });
            for (const b of more.slice(before)) {
                const expected = stateHashAfterBlock(b.block);
                assert.ok(materialize(reopened, expected).hash(0).equals(expected), `${b.workchain}:${b.seqno}`);
            }
        } finally {
            reopened.close();
        }
    });
});
