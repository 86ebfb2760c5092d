import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { Address } from '@ton/core';
import { DevnetSource } from '../../src/chain/devnet/devnet-source.ts';
import { ChainLog } from '../../src/chain/devnet/chain-log.ts';
import { compareWithProjectParser } from '../helpers/compare-block-readers.ts';
import type { IndependentBlock } from '../helpers/independent-block-reader.ts';
import { messageDescriptors, queuedAfter, type MessageDescriptors } from '../helpers/independent-queue-reader.ts';
import { tempDir } from '../helpers/stores.ts';
import { assertExportRoundTrip } from '../helpers/export-round-trip.ts';
import { formatShard, shardParent } from '../../src/ton/block/shard-id.ts';

interface ReadBlock {
    seq: number;
    boc: Buffer;
    block: IndependentBlock;
    descriptors: MessageDescriptors;
}

const GRAM = 1_000_000_000n;
const SHARDS = ['2000000000000000', '6000000000000000', 'a000000000000000', 'e000000000000000'];

/** An address whose id starts with the shard's two prefix bits (the rest fixed), in the basechain. */
function addressIn(shard: string, tail: number): Address {
    const top = Number.parseInt(shard[0], 16) & 0b1100;
    const hash = Buffer.alloc(32, tail);
    hash[0] = (top << 4) | (tail & 0x3f);
    return new Address(0, hash);
}

/**
 * A devnet of 4 basechain shards (`shards: 4`): the basechain starts unsplit and splits by min_split
 * as TON's masterchain splits a workchain, a message to an account of another shard waits in its
 * sender's out-message queue and is imported by its destination's next block, and its sender takes
 * it off the queue once the masterchain has committed the import. Every block is read by the
 * independent reader (@ton/core cells only) besides the project's parser.
 */
describe('a devnet of 4 basechain shards', () => {
    const dir = tempDir('devnet-shards-');
    let blocks: ReadBlock[] = [];
    let zerostates: Map<number, string>;
    const transfers: string[] = [];

    const run = async (work: (devnet: DevnetSource) => Promise<void>) => {
        const devnet = new DevnetSource({ dataDir: dir.path, blockIntervalMs: 20, faucetCap: 10n ** 15n, shards: 4 });
        const warnings: string[] = [];
        devnet.onWarning(line => warnings.push(line));
        await devnet.start();
        try {
            await work(devnet);
        } finally {
            await devnet.stop();
        }
        assert.deepEqual(warnings, []);
    };

    before(async () => {
        // Stopped right after the root shard's last block before its split: the restart splits it.
        await run(async devnet => {
            await devnet.nextBlock();
            await devnet.nextBlock();
        });
        await run(async devnet => {
            while (!devnet.seeded) await devnet.nextBlock();
            // From the faucet's shard to an account of every shard.
            const sent = await Promise.all(SHARDS.map((shard, i) => devnet.faucet(addressIn(shard, i + 1), 3n * GRAM)));
            transfers.push(...sent.map(s => s.messageHash));
            for (let i = 0; i < 4; i++) await devnet.nextBlock();
        });
        const log = new ChainLog(`${dir.path}/devnet/chain.sqlite`);
        try {
            const db = (log as unknown as { db: { prepare(sql: string): { all(): unknown[] } } }).db;
            zerostates = new Map((db.prepare('SELECT workchain, root_hash FROM zerostates').all() as Array<{ workchain: number; root_hash: string }>).map(z => [z.workchain, z.root_hash]));
            const rows = db.prepare('SELECT seq, boc FROM blocks ORDER BY seq').all() as Array<{ seq: number; boc: Buffer }>;
            blocks = rows.map(r => ({ seq: r.seq, boc: r.boc, block: compareWithProjectParser(r.boc), descriptors: messageDescriptors(r.boc) }));
        } finally {
            log.close();
        }
    });
    after(() => dir.remove());

    const basechain = () => blocks.filter(b => b.block.info.workchain === 0);

    test('the basechain splits from one shard into two, then four, by min_split: a before_split block, then both halves after_split', () => {
        const flags = basechain().slice(0, 10).map(({ block: { info } }) => `${info.shard}:${info.seqno}${info.beforeSplit ? ' before_split' : ''}${info.afterSplit ? ' after_split' : ''}`);
        assert.deepEqual(flags, [
            '8000000000000000:1', '8000000000000000:2 before_split',
            '4000000000000000:3 after_split', 'c000000000000000:3 after_split',
            '4000000000000000:4 before_split', 'c000000000000000:4 before_split',
            '2000000000000000:5 after_split', '6000000000000000:5 after_split', 'a000000000000000:5 after_split', 'e000000000000000:5 after_split',
        ]);
        const last = blocks.filter(b => b.block.info.workchain === -1).at(-1)!.block;
        assert.deepEqual(last.shardHashes!.map(top => top.shard), SHARDS);
        assert.ok(basechain().slice(10).every(({ block }) => SHARDS.includes(block.info.shard) && !block.info.beforeSplit && !block.info.afterSplit));
    });

    test('every block balances its value flow, and both readers agree on it (done while reading)', () => {
        assert.ok(blocks.length > 40, `only ${blocks.length} blocks`);
        for (const { block } of blocks) assert.ok(block.valueFlowBalanced, `block ${block.info.workchain}:${block.info.shard}:${block.info.seqno} value flow`);
    });

    test('each shard chain links its parent and its state: a half after a split to its parent\'s last block and whole state, across the restart', () => {
        const tops = new Map<string, { rootHash: string; state: string }>([['8000000000000000', { rootHash: zerostates.get(0)!, state: zerostates.get(0)! }]]);
        for (const { block } of basechain()) {
            const { info } = block;
            const shard = BigInt(`0x${info.shard}`);
            const parent = tops.get(formatShard(info.afterSplit ? shardParent(shard) : shard));
            assert.ok(parent, `${info.shard}:${info.seqno} has no parent chain`);
            assert.equal(info.prev.length, 1);
            assert.equal(info.prev[0].rootHash, parent.rootHash, `${info.shard}:${info.seqno} parent`);
            assert.equal(block.stateUpdate.oldHash, parent.state, `${info.shard}:${info.seqno} old state`);
            tops.set(info.shard, { rootHash: block.rootHash, state: block.stateUpdate.newHash });
        }
        const master = blocks.filter(b => b.block.info.workchain === -1).at(-1)!.block;
        for (const top of master.shardHashes!) assert.equal(top.rootHash, tops.get(top.shard)!.rootHash, `the masterchain commits ${top.shard}'s last block`);
    });

    test('a transfer to another shard waits in the sender\'s queue (msg_export_new), is imported in a later block of its shard (msg_import_fin), then dequeued', () => {
        const shardOf = (b: ReadBlock) => b.block.info.shard;
        const master = (b: ReadBlock) => blocks.find(m => m.seq > b.seq && m.block.info.workchain === -1)!.seq;
        let crossShard = 0;
        const senders = new Set(transfers.map(hash => {
            const block = blocks.find(b => b.descriptors.in.get(hash) === 'ext');
            assert.ok(block && block.block.info.workchain === 0, `the faucet's transfer ${hash} is in no basechain block`);
            return block;
        }));
        for (const sender of senders) {
            for (const [message, kind] of sender.descriptors.out) {
                if (kind !== 'new') continue;
                const importing = blocks.find(b => b.seq > sender.seq && b.block.info.workchain === 0 && b.descriptors.in.get(message) === 'fin');
                if (!importing) continue;
                crossShard++;
                assert.notEqual(shardOf(importing), shardOf(sender));
                assert.ok(master(importing) > master(sender), 'imported in a later step than its export');
                assert.ok(queuedAfter(sender.boc)!.hashes.has(message), 'the sender\'s state after the export queues the message');
                const dequeuing = blocks.find(b => b.seq > importing.seq && b.descriptors.out.get(message) === 'deq_short');
                assert.ok(dequeuing, `message ${message} was never dequeued`);
                assert.equal(shardOf(dequeuing), shardOf(sender));
                // Dequeued only once the masterchain committed the import (a later step than the import's).
                assert.ok(master(dequeuing) > master(importing));
                assert.ok(!queuedAfter(dequeuing.boc)?.hashes.has(message), 'the sender\'s state after the dequeue no longer queues the message');
            }
        }
        assert.equal(crossShard, 3, 'of the faucet\'s four transfers, three go to another shard');
    });

    test('the chain keeps its shards: starting it with another number is refused, saying which it has', async () => {
        const devnet = new DevnetSource({ dataDir: dir.path, blockIntervalMs: 20, faucetCap: 10n ** 15n, shards: 2 });
        await assert.rejects(devnet.start(), /this devnet was created with --shards 4, and a chain keeps its shards; start it with --shards 4/);
        await devnet.stop().catch(() => undefined);
    });

    test('export-blocks round-trips the sharded chain: files named by each block\'s shard, imported into the index the devnet path gives', async () => {
        const files = await assertExportRoundTrip(dir.path, blocks.map(b => b.boc));
        const shards = new Set(files.map(name => name.split('_')[1]));
        assert.deepEqual([...shards].sort(), ['2000000000000000', '4000000000000000', '6000000000000000', '8000000000000000', 'a000000000000000', 'c000000000000000', 'e000000000000000']);
    });
});
