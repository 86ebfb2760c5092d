import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { Cell } from '@ton/core';
import { DevnetSource } from '../../src/chain/devnet/devnet-source.ts';
import { ChainLog } from '../../src/chain/devnet/chain-log.ts';
import { compareWithProjectParser } from '../helpers/compare-block-readers.ts';
import type { IndependentBlock } from '../helpers/independent-block-reader.ts';
import { tempDir } from '../helpers/stores.ts';
import { assertExportRoundTrip } from '../helpers/export-round-trip.ts';

/**
 * Every block the devnet makes is a real block: the project's parser and an independent reader
 * (@ton/core cells and dictionaries only) agree on it, its value flow balances, its state update
 * links the shard's states from the zerostate on, and a restarted devnet continues the chain.
 */
describe('devnet blocks', () => {
    const dir = tempDir('devnet-blocks-');
    let blocks: Array<{ boc: Buffer; block: IndependentBlock; rootHash: string; fileHash: string }> = [];
    let zerostates: Map<number, string>;

    const produce = async (steps: number) => {
        const devnet = new DevnetSource({ dataDir: dir.path, blockIntervalMs: 20, faucetCap: 10n ** 12n });
        await devnet.start();
        try {
            if (!devnet.seeded) while (!devnet.seeded) await devnet.nextBlock();
            for (let i = 0; i < steps; i++) await devnet.nextBlock();
        } finally {
            await devnet.stop();
        }
    };

    before(async () => {
        await produce(1);
        await produce(2); // a restart in between
        const log = new ChainLog(`${dir.path}/devnet/chain.sqlite`);
        try {
            const db = (log as unknown as { db: { prepare(sql: string): { all(): unknown[] } } }).db;
            zerostates = new Map((db.prepare('SELECT workchain, root_hash FROM zerostates').all() as Array<{ workchain: number; root_hash: string }>).map(z => [z.workchain, z.root_hash]));
            const rows = db.prepare('SELECT boc, root_hash, file_hash FROM blocks ORDER BY seq').all() as Array<{ boc: Buffer; root_hash: string; file_hash: string }>;
            blocks = rows.map(r => ({ boc: r.boc, block: compareWithProjectParser(r.boc), rootHash: r.root_hash, fileHash: r.file_hash }));
        } finally {
            log.close();
        }
    });
    after(() => dir.remove());

    test('both readers agree on every block: header, transactions, shard hashes, value flow and descriptor totals', () => {
        assert.ok(blocks.length >= 2 * 37, `only ${blocks.length} blocks`);
        const transactions = blocks.reduce((n, b) => n + b.block.transactions.length, 0);
        assert.ok(transactions > 50, `only ${transactions} transactions`);
        for (const { block } of blocks) assert.ok(block.valueFlowBalanced, `block ${block.info.workchain}:${block.info.seqno} value flow`);
    });

    test('block ids are real: root hash of the cell, file hash of the BOC, as the chain log records them', () => {
        for (const { boc, block, rootHash, fileHash } of blocks) {
            assert.equal(Cell.fromBoc(boc)[0].hash().toString('hex'), rootHash);
            assert.equal(createHash('sha256').update(boc).digest('hex'), fileHash);
            assert.equal(block.rootHash, rootHash);
        }
    });

    test('each shard chain links parents and states from its zerostate on, across the restart', () => {
        for (const workchain of [-1, 0]) {
            const chain = blocks.filter(b => b.block.info.workchain === workchain);
            let parent = zerostates.get(workchain)!;
            let state = zerostates.get(workchain)!;
            chain.forEach(({ block }, i) => {
                assert.equal(block.info.seqno, i + 1);
                assert.equal(block.info.prev.length, 1);
                assert.equal(block.info.prev[0].rootHash, parent, `${workchain}:${block.info.seqno} parent`);
                assert.equal(block.stateUpdate.oldHash, state, `${workchain}:${block.info.seqno} old state`);
                parent = block.rootHash;
                state = block.stateUpdate.newHash;
            });
        }
    });

    test('masterchain block N commits basechain block N, which refers to masterchain block N - 1; block 1 is a key block with the config', () => {
        const masters = blocks.filter(b => b.block.info.workchain === -1).map(b => b.block);
        const shards = blocks.filter(b => b.block.info.workchain === 0).map(b => b.block);
        assert.equal(masters.length, shards.length);
        masters.forEach((master, i) => {
            assert.equal(master.shardHashes?.length, 1);
            assert.equal(master.shardHashes![0].rootHash, shards[i].rootHash);
            assert.equal(master.shardHashes![0].seqno, shards[i].info.seqno);
            assert.equal(shards[i].info.masterRef!.rootHash, i === 0 ? zerostates.get(-1) : masters[i - 1].rootHash);
            assert.equal(master.info.keyBlock, i === 0, `masterchain ${master.info.seqno} key block`);
            assert.equal(master.info.prevKeyBlockSeqno, i === 0 ? 0 : 1);
        });
        assert.ok(masters[0].configHash, 'the first masterchain block carries the config');
    });

    test('export-blocks writes the chain as files whose import gives the index the devnet path gives (same rows)', async () => {
        await assertExportRoundTrip(dir.path, blocks.map(b => b.boc));
    });
});
