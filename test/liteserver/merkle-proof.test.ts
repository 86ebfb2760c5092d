import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { beginCell, BitString, Cell, CellType, Dictionary, loadShardStateUnsplit } from '@ton/core';
import { ChainLog } from '../../src/chain/devnet/chain-log.ts';
import { readBoc } from '../../src/ton/boc/boc-reader.ts';
import { writeBoc, writeBocRoots } from '../../src/ton/boc/boc-writer.ts';
import { CellStore, stateHashAfterBlock } from '../../src/liteserver/devnet/cell-store.ts';
import {
    blockHeaderProof, blockStateProof, configParam, configProof, findAccount, merkleProof, readMerkleProof, shardAccountProof, stateConfig,
} from '../../src/ton/cells/merkle-proof.ts';
import { DevnetChain } from './devnet-chain-fixture.ts';

interface LoggedBlock { seq: number; workchain: number; seqno: number; block: Cell; boc: Buffer }

/** A proof as a client gets it: written as a BOC and read back by @ton/core (which checks every Merkle proof's virtual hash). */
function roundTrip(roots: Cell[]): Cell[] {
    const read = Cell.fromBoc(writeBocRoots(roots));
    assert.equal(read.length, roots.length);
    read.forEach((cell, i) => assert.ok(cell.hash().equals(roots[i].hash()), `root ${i} keeps its hash`));
    return read;
}

function assertProofOf(proof: Cell, root: Cell): void {
    assert.equal(proof.type, CellType.MerkleProof);
    assert.equal(proof.level(), 0, 'a proof is a level-0 cell');
    const { virtualHash, depth, root: virtualRoot } = readMerkleProof(proof);
    assert.ok(virtualHash.equals(root.hash(0)), 'the virtual hash is the root\'s hash');
    assert.equal(depth, root.depth(0));
    assert.ok(virtualRoot.hash(0).equals(root.hash(0)), 'the virtual root hashes (level 0) as the root');
}

/** Every cell of a tree (rebuilt with @ton/core from the store, so independent of the lazy cells). */
function materialize(store: CellStore, hash: Buffer, memo = new Map<string, Cell>()): Cell {
    const key = hash.toString('hex');
    const known = memo.get(key);
    if (known) return known;
    const record = store.record(hash)!;
    const cell = new Cell({ exotic: record.exotic, bits: new BitString(record.data, 0, record.bitLength), refs: record.refHashes.map(h => materialize(store, h, memo)) });
    memo.set(key, cell);
    return cell;
}

describe('Merkle proofs for liteserver answers', () => {
    const chain = new DevnetChain();
    let store: CellStore;
    let log: ChainLog;
    let blocks: LoggedBlock[];

    before(async () => {
        await chain.produce(2);
        store = new CellStore(chain.cellStoreFile);
        store.sync(chain.chainLogFile);
        log = new ChainLog(chain.chainLogFile, { readonly: true });
        blocks = [...log.allBlocks()].map(b => ({ seq: b.seq, workchain: b.workchain, seqno: b.seqno, block: readBoc(b.boc)[0], boc: b.boc }));
    });
    after(() => {
        log.close();
        store.close();
        chain.remove();
    });

    test('writeBocRoots: multi-root BOCs read back by @ton/core with every root; writeBoc is writeBocRoots of one root', () => {
        const shared = beginCell().storeUint(7, 8).endCell();
        const a = beginCell().storeUint(1, 8).storeRef(shared).endCell();
        const b = beginCell().storeUint(2, 8).storeRef(shared).storeRef(a).endCell();
        const read = roundTrip([a, b, shared]);
        assert.ok(read[1].refs[1].hash().equals(a.hash()));
        assert.ok(writeBoc(b).equals(writeBocRoots([b])));
        const block = blocks.at(-1)!;
        assert.ok(writeBoc(block.block).equals(block.boc), 'a block written back is its BOC');
        const txs = Array.from({ length: 300 }, (_, i) => beginCell().storeUint(i, 16).storeRef(shared).endCell());
        roundTrip(txs);
    });

    test('block header proofs for every getBlockHeader mode: virtual hash = block hash, info readable, the rest pruned', () => {
        for (const { block } of [blocks[0], blocks[1], blocks.at(-2)!, blocks.at(-1)!]) {
            for (const mode of [0, 1, 2, 16, 1 | 2 | 16 | 32]) {
                const proof = blockHeaderProof(block, mode);
                assertProofOf(proof, block);
                const [read] = roundTrip([proof]);
                const virtualBlock = read.refs[0];
                const info = virtualBlock.refs[0];
                assert.equal(info.isExotic, false);
                assert.equal(info.beginParse().loadUint(32), 0x9bc7a987);
                assert.equal(virtualBlock.refs[2].type, mode & 1 ? CellType.MerkleUpdate : CellType.PrunedBranch);
                assert.equal(virtualBlock.refs[1].type, mode & 2 ? CellType.Ordinary : CellType.PrunedBranch);
                assert.equal(virtualBlock.refs[3].type, mode & 16 ? CellType.Ordinary : CellType.PrunedBranch);
                if (mode & 1) {
                    // The state update's sides are pruned at Merkle depth 2 (under the proof and the update).
                    assert.equal(virtualBlock.refs[2].refs[1].type, CellType.PrunedBranch);
                    assert.equal(virtualBlock.refs[2].refs[1].level(), 2);
                    const u = virtualBlock.refs[2].beginParse(true);
                    u.skip(8 + 256);
                    assert.ok(u.loadBuffer(32).equals(stateHashAfterBlock(block)));
                }
                assert.ok(writeBoc(proof).length < (mode === 0 ? 700 : 4000), `mode ${mode}: ${writeBoc(proof).length} bytes`);
            }
        }
    });

    test('account proofs (2-root BOC as getAccountState answers) give the ShardAccount of the state, read as ton-lite-client reads it', () => {
        const basechain = blocks.filter(b => b.workchain === 0);
        let checked = 0;
        for (const b of [basechain[2], basechain[Math.floor(basechain.length / 2)], basechain.at(-1)!]) {
            const state = store.stateAfter(b.block.hash(0))!;
            const rootHash = b.block.hash(0).toString('hex');
            const changed = log.accountsChangedBy(b.seq).map(a => a.address);
            const unchanged = log.accounts().map(a => a.address).filter(a => a.startsWith('0:') && !changed.includes(a));
            for (const address of [...changed, ...unchanged.slice(0, 2)]) {
                const id = Buffer.from(address.slice(2), 'hex');
                const history = log.shardAccountAt({ workchain: 0, shard: '8000000000000000', seqno: b.seqno, rootHash } as never, address);
                const expected = history ? Cell.fromBoc(history)[0] : null;
                const present = expected !== null && expected.refs[0].beginParse().loadBit();
                const { proof, account } = shardAccountProof(state, id);
                assertProofOf(proof, state);
                const [blockProof, stateProof] = roundTrip([blockStateProof(b.block), proof]);
                // The first root links the block to the state the second one proves.
                const update = blockProof.refs[0].refs[2].beginParse(true);
                update.skip(8 + 256);
                assert.ok(update.loadBuffer(32).equals(readMerkleProof(stateProof).virtualHash));
                // ton-lite-client: Cell.fromBoc(proof)[1].refs[0] parsed by @ton/core's loadShardStateUnsplit → accounts.get(address).
                const parsed = loadShardStateUnsplit(stateProof.refs[0].beginParse());
                assert.ok(parsed.accounts, 'the accounts dictionary is in the proof');
                const entry = parsed.accounts.get(BigInt(`0x${address.slice(2)}`));
                if (!present) {
                    assert.equal(account, null);
                    assert.equal(entry, undefined);
                    continue;
                }
                assert.ok(account && entry, `${address} after 0:${b.seqno}`);
                assert.ok(account.shardAccount.hash().equals(expected!.hash()), 'the ShardAccount is the chain log\'s');
                assert.equal(entry.shardAccount.lastTransactionLt, account.lastTransLt);
                assert.equal(entry.shardAccount.lastTransactionHash, BigInt(`0x${account.lastTransHash.toString('hex')}`));
                assert.equal(entry.shardAccount.account, undefined, 'the Account itself is pruned (answered as `state`)');
                // The `state` answered beside the proof: the Account cell, whose hash the proof's leaf carries.
                const stateBoc = writeBoc(account.account);
                assert.ok(Cell.fromBoc(stateBoc)[0].hash().equals(expected!.refs[0].hash()));
                checked++;
            }
            // An address with no account: the proof shows where the key leaves the dictionary.
            const absent = Buffer.alloc(32, 0x5a);
            const none = shardAccountProof(state, absent);
            assert.equal(none.account, null);
            const parsed = loadShardStateUnsplit(roundTrip([none.proof])[0].refs[0].beginParse());
            assert.equal(parsed.accounts!.get(BigInt(`0x${absent.toString('hex')}`)), undefined);
        }
        assert.ok(checked >= 4, `only ${checked} accounts checked`);
    });

    test('a proof from the lazily loaded store equals the proof of the whole state rebuilt by @ton/core, and reads few cells', () => {
        const last = blocks.filter(b => b.workchain === 0).at(-1)!;
        const stateHash = stateHashAfterBlock(last.block);
        const address = chain.funded.at(-1)!;
        const id = Buffer.from(address.slice(2), 'hex');
        const lazyStore = new CellStore(chain.cellStoreFile, { readonly: true });
        try {
            const lazy = shardAccountProof(lazyStore.stateRoot(stateHash), id).proof;
            assert.ok(lazyStore.reads < 100, `${lazyStore.reads} cells read for one account proof`);
            const full = shardAccountProof(materialize(store, stateHash), id).proof;
            assert.ok(lazy.hash().equals(full.hash()));
            assert.ok(writeBoc(lazy, { dedupeByHash: true }).equals(writeBoc(full, { dedupeByHash: true })));
        } finally {
            lazyStore.close();
        }
    });

    test('config proofs of masterchain states (the key block and the last block): all params, or chosen params', () => {
        const masters = blocks.filter(b => b.workchain === -1);
        assert.ok(masters[0].block.refs[0].beginParse().skip(32 + 32 + 1 + 1 + 1 + 1 + 1 + 1).loadBit(), 'masterchain block 1 is a key block');
        for (const b of [masters[0], masters.at(-1)!]) {
            const state = store.stateAfter(b.block.hash(0))!;
            const full = materialize(store, state.hash(0));
            const { config } = stateConfig(full);
            const params = Dictionary.loadDirect(Dictionary.Keys.Int(32), Dictionary.Values.Cell(), config);
            assert.ok(params.size > 20, `${params.size} config params`);

            // getConfigAll: the whole dictionary.
            const all = configProof(state);
            assertProofOf(all, state);
            const [allRead] = roundTrip([blockStateProof(b.block), all]).slice(1);
            const allParams = Dictionary.loadDirect(Dictionary.Keys.Int(32), Dictionary.Values.Cell(), stateConfig(allRead.refs[0]).config);
            assert.deepEqual(allParams.keys().sort(), params.keys().sort());
            for (const key of params.keys()) assert.ok(allParams.get(key)!.hash().equals(params.get(key)!.hash()), `param ${key}`);
            const proofState = loadShardStateUnsplit(allRead.refs[0].beginParse());
            assert.equal(proofState.accounts, undefined, 'the accounts are pruned');

            // getConfigParams: the paths to the chosen params (an absent one proves its absence).
            const chosen = [0, 1, 34, 12, 12345];
            const some = configProof(state, chosen);
            assertProofOf(some, state);
            const [someRead] = roundTrip([some]);
            for (const param of chosen) {
                const value = configParam(someRead.refs[0], param);
                const expected = params.get(param);
                if (expected === undefined) assert.equal(value, null, `param ${param} is absent`);
                else assert.ok(value && value.hash().equals(expected.hash()) && !value.isExotic, `param ${param}`);
            }
            assert.throws(() => configParam(someRead.refs[0], 8), /Exotic/, 'params not asked for are pruned');
            assert.ok(writeBoc(some).length < writeBoc(all).length);
        }
    });

    test('merkleProof of chosen cells keeps the virtual hash and prunes everything else', () => {
        const leafA = beginCell().storeUint(1, 8).endCell();
        const leafB = beginCell().storeUint(2, 8).endCell();
        const mid = beginCell().storeUint(3, 8).storeRef(leafA).storeRef(leafB).endCell();
        const root = beginCell().storeUint(4, 8).storeRef(mid).storeRef(leafB).endCell();
        const proof = merkleProof(root, [mid]);
        assertProofOf(proof, root);
        const [read] = roundTrip([proof]);
        assert.equal(read.refs[0].refs[0].isExotic, false);
        assert.equal(read.refs[0].refs[0].refs[0].type, CellType.PrunedBranch);
        assert.equal(read.refs[0].refs[1].type, CellType.PrunedBranch);
        const whole = merkleProof(root, { subtrees: [mid] });
        assert.equal(Cell.fromBoc(writeBoc(whole))[0].refs[0].refs[0].refs[1].isExotic, false);
        // A proof of a proof: the inner proof's pruned branches are lifted a level.
        const outer = merkleProof(proof, [proof.refs[0]]);
        assertProofOf(outer, proof);
        roundTrip([outer]);
        // An account is found through the proof as through the state.
        const state = store.stateAfter(blocks.filter(b => b.workchain === 0).at(-1)!.block.hash(0))!;
        const id = Buffer.from(chain.funded[0].slice(2), 'hex');
        const proven = shardAccountProof(state, id).proof;
        assert.ok(findAccount(proven.refs[0], id).account!.shardAccount.hash(0).equals(findAccount(state, id).account!.shardAccount.hash(0)));
    });
});
