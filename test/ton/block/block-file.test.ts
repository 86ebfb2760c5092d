import { pathToFileURL } from 'node:url';
import test from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import {
    beginCell,
    type CurrencyCollection,
    type Cell,
    Dictionary,
    type DictionaryValue,
    loadTransaction,
} from '@ton/core';
import {
    type ParsedBlock,
    parseBlockCell,
    parseBlockFile,
    readBlockRoot,
} from '../../../src/ton/block/block-file.ts';
import { loadBlock, type Block } from '../../../src/ton/block/block.ts';
import {
    formatShard,
    ROOT_SHARD,
    shardChild,
    shardIdFromIdent,
    shardParent,
} from '../../../src/ton/block/shard-id.ts';
import { MAINNET_BLOCKS_DIR, mainnetSkip, type BlockSummary } from '../../helpers/fixtures.ts';

const FIXTURES = pathToFileURL(MAINNET_BLOCKS_DIR);
const BLOCKS = [1, 2, 4, 5, 6] as const;
const WITH_EXPECTED = [1, 2, 4, 5] as const;

type Summary = BlockSummary;

interface ExpectedCurrency {
    Grams: string;
    Other: Record<string, string>;
}

interface Expected {
    Accounts: Record<
        string,
        {
            Transactions: Record<
                string,
                {
                    AccountAddr: string;
                    Lt: number;
                    PrevTransHash: string;
                    PrevTransLt: number;
                    Now: number;
                    OutMsgCnt: number;
                    OrigStatus: string;
                    EndStatus: string;
                }
            >;
        }
    >;
    TxHashes: string[] | null;
    ValueFlow: Record<string, ExpectedCurrency | null>;
    InMsgDescrLength: number;
    OutMsgDescrLength: number;
}

function fixture(name: string): Buffer {
    return readFileSync(new URL(name, FIXTURES));
}

function json<T>(name: string): T {
    return JSON.parse(fixture(name).toString('utf8')) as T;
}

// Parsing a block takes a few hundred ms: do it once per fixture.
const parsedCache = new Map<number, ParsedBlock>();
function parsed(n: number): ParsedBlock {
    let block = parsedCache.get(n);
    if (!block) {
        block = parseBlockFile(fixture(`block-${n}.boc`));
        parsedCache.set(n, block);
    }
    return block;
}

const rawCache = new Map<number, Block>();
function raw(n: number): Block {
    let block = rawCache.get(n);
    if (!block) {
        block = loadBlock(readBlockRoot(fixture(`block-${n}.boc`)).beginParse());
        rawCache.set(n, block);
    }
    return block;
}

const HEX64 = /^[0-9a-f]{64}$/;
const SHARD = /^[0-9a-f]{16}$/;

for (const n of BLOCKS) {
    test(`block-${n}: reproduces block-${n}.summary.json`, { skip: mainnetSkip }, () => {
        const summary = json<Summary>(`block-${n}.summary.json`);
        const block = parsed(n);
        assert.equal(block.id.workchain, summary.workchain);
        assert.equal(block.id.shard, summary.shard);
        assert.equal(block.id.seqno, summary.seqno);
        assert.equal(block.utime, summary.utime);
        assert.equal(block.id.workchain === -1, summary.master);
        assert.equal(block.isKeyBlock, summary.key_block);
        assert.equal(block.startLt, BigInt(summary.start_lt));
        assert.equal(block.endLt, BigInt(summary.end_lt));
        assert.equal(block.id.rootHash, summary.root_hash);
        assert.equal(block.transactions.length, summary.tx_quantity);
        assert.deepEqual(
            block.transactions.map((tx) => ({ account: tx.account, lt: tx.lt.toString(), hash: tx.hash })),
            summary.transactions,
        );
    });

    test(`block-${n}: ids, hashes and transaction cells are consistent`, { skip: mainnetSkip }, () => {
        const boc = fixture(`block-${n}.boc`);
        const block = parsed(n);
        assert.equal(block.id.fileHash, createHash('sha256').update(boc).digest('hex'));
        assert.notEqual(block.id.fileHash, block.id.rootHash);
        assert.equal(block.globalId, -239); // mainnet
        for (const ref of [block.id, ...block.prev, ...(block.masterRef ? [block.masterRef] : [])]) {
            assert.match(ref.shard, SHARD);
            assert.match(ref.rootHash, HEX64);
            assert.match(ref.fileHash, HEX64);
        }
        for (const tx of block.transactions) {
            assert.equal(tx.hash, tx.cell.hash().toString('hex'));
            assert.ok(tx.lt > block.startLt && tx.lt <= block.endLt, `lt ${tx.lt} inside the block`);
            const decoded = loadTransaction(tx.cell.beginParse());
            assert.equal(`${block.id.workchain}:${decoded.address.toString(16).padStart(64, '0')}`, tx.account);
            assert.equal(decoded.lt, tx.lt);
            assert.equal(decoded.now, block.utime);
        }
        // parseBlockCell is the same parse on an already deserialized root
        assert.deepEqual(
            parseBlockCell(readBlockRoot(boc), block.id.fileHash).transactions.map((tx) => tx.hash),
            block.transactions.map((tx) => tx.hash),
        );
    });

    test(`block-${n}: previous blocks and master reference are plausible`, { skip: mainnetSkip }, () => {
        const block = parsed(n);
        const { info } = raw(n);
        assert.ok(block.prev.length >= 1);
        // a block's seqno follows its latest predecessor; previous blocks end before it starts
        assert.equal(block.id.seqno, Math.max(...block.prev.map((p) => p.seqno)) + 1);
        const prevInfos = info.prevRef.kind === 'single' ? [info.prevRef.prev] : [info.prevRef.prev1, info.prevRef.prev2];
        for (const prev of prevInfos) {
            assert.ok(prev.endLt < block.startLt);
        }
        for (const prev of block.prev) {
            assert.equal(prev.workchain, block.id.workchain);
        }
        if (block.id.workchain === -1) {
            assert.equal(block.masterRef, undefined);
        } else {
            assert.ok(block.masterRef);
            assert.equal(block.masterRef.workchain, -1);
            assert.equal(block.masterRef.shard, '8000000000000000');
            assert.ok(info.masterRef!.master.endLt < block.startLt, 'the referred masterchain block is older');
            assert.ok(block.masterRef.seqno >= info.minRefMcSeqno);
        }
    });
}

test('previous blocks: same shard, seqno - 1 (blocks 1, 2, 5, 6)', { skip: mainnetSkip }, () => {
    const cases: [number, string, number, string, string][] = [
        [1, '8000000000000000', 30816552, '99f6fd8886c86059dfc9ad0293b1e3fb7346fb932317f811d823ee669f302ac9', 'b241440714b032cd225a8e78bff49c0480aa2098b325560cf2fd822458e8a2b2'],
        [2, '8000000000000000', 40484415, '5987296ca4770de5eb4c6848b9a4c04dc10a2c26131697137ba05f9536f30b3e', 'cd4d2b9b48eaa4785602f9d8039dc64a531ef25dcacc7bb7d75399d0dc6c9f02'],
        [5, '8000000000000000', 17734190, '6e397714e73d30f58a53d48319fb244362d8e1e578e165dccc176d617ab0670f', 'c302de8f2435f658d4a6ecc6cc72f3d2e030ac53c411b815f36a7134b935e76c'],
        [6, 'a000000000000000', 54302207, 'd171e3f7707610cdecc8331f7562b631a346b1cd150ad71bd7d0d175eb8cad18', 'd41420d7b7841b3008ec9bbc671eb75bc3ac2a047142b625fcd880f471a1f319'],
    ];
    for (const [n, shard, seqno, rootHash, fileHash] of cases) {
        const block = parsed(n);
        assert.equal(raw(n).info.afterMerge, false);
        assert.equal(raw(n).info.afterSplit, false);
        assert.deepEqual(block.prev, [{ workchain: block.id.workchain, shard, seqno, rootHash, fileHash }]);
        assert.equal(seqno, block.id.seqno - 1);
    }
});

test('block-4 follows a merge: its predecessors are the two child shards', { skip: mainnetSkip }, () => {
    const block = parsed(4);
    assert.equal(raw(4).info.afterMerge, true);
    assert.deepEqual(block.prev, [
        {
            workchain: 0,
            shard: '0d83400000000000',
            seqno: 4168600,
            rootHash: '9702efbed5c61a8e28fcafa4c75f3bedc85242087f18ea2e49d5124fb0ae052e',
            fileHash: 'b94e99f081a288a34015eb6f53983095cdf6f2ab13af03164510437bf999a909',
        },
        {
            workchain: 0,
            shard: '0d83c00000000000',
            seqno: 4168599,
            rootHash: '3dfcc86a9540c846826fddeafa9796ed111fd5ec4c442cda5c0f7cdb674ebdfa',
            fileHash: 'e7ec198420b46fccf949879b999a83ff915dccc1ee55ce666286a361bc72f8ed',
        },
    ]);
});

// BlockInfo bit layout: tag:32 version:32 not_master:1 after_merge:1 before_split:1 after_split:1 ...
const AFTER_SPLIT_BIT = 67;

function withFlag(root: Cell, bit: number): Cell {
    const info = root.refs[0];
    const bits = info.bits;
    const patched = beginCell()
        .storeBits(bits.substring(0, bit))
        .storeBit(!bits.at(bit))
        .storeBits(bits.substring(bit + 1, bits.length - bit - 1));
    for (const ref of info.refs) {
        patched.storeRef(ref);
    }
    const block = beginCell().storeBits(root.bits).storeRef(patched.endCell());
    for (const ref of root.refs.slice(1)) {
        block.storeRef(ref);
    }
    return block.endCell();
}

test('right after a split the predecessor is the parent shard', { skip: mainnetSkip }, () => {
    // no fixture is the first block of a shard after a split: flip after_split in block-6 (shard a000…)
    const root = readBlockRoot(fixture('block-6.boc'));
    const original = parseBlockCell(root, '');
    const patchedRoot = withFlag(root, AFTER_SPLIT_BIT);
    assert.equal(loadBlock(patchedRoot.beginParse()).info.afterSplit, true);
    const afterSplit = parseBlockCell(patchedRoot, '');
    assert.equal(afterSplit.id.shard, 'a000000000000000');
    assert.deepEqual(afterSplit.prev, [{ ...original.prev[0], shard: 'c000000000000000' }]);
});

test('master references of the shard blocks', { skip: mainnetSkip }, () => {
    const expected: [number, number, string, string][] = [
        [1, 25310198, '4990d3d57b0e996fb6eb7fb5083b0029c4e8a80838b03754ce8c9f30da052077', '4bc928cc42a66feff7580c4a7a7673b2361a6a73400cc39593afc6aa6f7273c3'],
        [2, 34606309, '860a73cf65aae22c8de74ccbacaad6e529f734887cb7be0a5ded0885bf14f7d3', 'af277938bb8a791863ab390f6bdb4edcfa10b694fb38d5925ae170a69734f47d'],
        [4, 3085312, '21812a6b1e28b1dc6e1caab7dbaf721eda924643e46dda86202ee9ea614b3293', 'b7a9fcf2c63de118e0a679f7886cf15d4b5fe68211e8809bdf529bd379bc84f1'],
        [6, 49444053, '37c79f231624ac14fe274a1c4c4aa4e9e687cacd2bd2eadc4545c8e63c394c84', '3b0d505de03a2e7aed47dd15eae4452ecb98beb177d8597780c37d4b0e8e4b95'],
    ];
    for (const [n, seqno, rootHash, fileHash] of expected) {
        assert.deepEqual(parsed(n).masterRef, { workchain: -1, shard: '8000000000000000', seqno, rootHash, fileHash });
    }
    // masterchain seqnos grow with time, across the shard blocks and masterchain block 5
    const byTime = [...BLOCKS]
        .map((n) => ({ utime: parsed(n).utime, mcSeqno: parsed(n).masterRef?.seqno ?? parsed(n).id.seqno }))
        .sort((a, b) => a.utime - b.utime);
    for (let i = 1; i < byTime.length; i++) {
        assert.ok(byTime[i].mcSeqno > byTime[i - 1].mcSeqno);
    }
});

test('block-5 (masterchain) carries the basechain shard top', { skip: mainnetSkip }, () => {
    const block = parsed(5);
    assert.deepEqual(block.shardTops, [
        {
            workchain: 0,
            shard: '8000000000000000',
            seqno: 22738548,
            rootHash: 'f7a03e15551893cb81ceed2fd962629bb40ee8ded998cfb8e3182c574ba7de93',
            fileHash: '0cc3d3561a6efde9803e80e40cfc6ab445680b8532467e0960a3277edb756500',
            startLt: 24836994000000n,
            endLt: 24836994000001n,
            utime: 1642757051,
        },
    ]);
    const [top] = block.shardTops;
    assert.ok(top.endLt < block.startLt && top.utime <= block.utime);
    const extra = raw(5).extra.custom;
    assert.ok(extra);
    assert.equal(extra.keyBlock, false);
    assert.equal(extra.config, undefined);
    for (const n of [1, 2, 4, 6]) {
        assert.deepEqual(parsed(n).shardTops, []);
        assert.equal(raw(n).extra.custom, undefined);
    }
});

function currency(value: CurrencyCollection | undefined): ExpectedCurrency | null {
    if (!value) {
        return null;
    }
    const other: Record<string, string> = {};
    for (const [id, amount] of value.other ?? []) {
        other[String(id)] = amount.toString();
    }
    return { Grams: value.coins.toString(), Other: other };
}

const ignoreValue: DictionaryValue<null> = {
    serialize() {
        throw new Error('not used');
    },
    parse: () => null,
};

function hashmapSize(root: Cell): number {
    return Dictionary.load(Dictionary.Keys.BigUint(256), ignoreValue, root).size;
}

const STATUS: Record<string, string> = {
    uninitialized: 'uninit',
    frozen: 'frozen',
    active: 'active',
    'non-existing': 'nonexist',
};

for (const n of WITH_EXPECTED) {
    test(`block-${n}: agrees with block-${n}.expected.json`, { skip: mainnetSkip }, () => {
        const expected = json<Expected>(`block-${n}.expected.json`);
        const block = parsed(n);
        const { valueFlow, extra } = raw(n);

        assert.deepEqual(
            block.transactions.map((tx) => tx.hash).sort(),
            [...(expected.TxHashes ?? [])].sort(),
        );

        const byAccount = new Map<string, Map<string, Cell>>();
        for (const tx of block.transactions) {
            const address = tx.account.split(':')[1];
            const txs = byAccount.get(address) ?? new Map<string, Cell>();
            txs.set(tx.lt.toString(), tx.cell);
            byAccount.set(address, txs);
        }
        assert.deepEqual([...byAccount.keys()].sort(), Object.keys(expected.Accounts).sort());
        for (const [address, { Transactions }] of Object.entries(expected.Accounts)) {
            const txs = byAccount.get(address)!;
            assert.deepEqual([...txs.keys()].sort(), Object.keys(Transactions).sort());
            for (const [lt, want] of Object.entries(Transactions)) {
                const tx = loadTransaction(txs.get(lt)!.beginParse());
                assert.equal(tx.address.toString(16).padStart(64, '0'), want.AccountAddr);
                assert.equal(tx.lt, BigInt(want.Lt));
                assert.equal(tx.prevTransactionHash.toString(16).padStart(64, '0'), want.PrevTransHash);
                assert.equal(tx.prevTransactionLt, BigInt(want.PrevTransLt));
                assert.equal(tx.now, want.Now);
                assert.equal(tx.outMessagesCount, want.OutMsgCnt);
                assert.equal(STATUS[tx.oldStatus], want.OrigStatus);
                assert.equal(STATUS[tx.endStatus], want.EndStatus);
            }
        }

        assert.deepEqual(
            {
                FromPrevBlk: currency(valueFlow.fromPrevBlk),
                ToNextBlk: currency(valueFlow.toNextBlk),
                Imported: currency(valueFlow.imported),
                Exported: currency(valueFlow.exported),
                FeesCollected: currency(valueFlow.feesCollected),
                Burned: currency(valueFlow.burned),
                FeesImported: currency(valueFlow.feesImported),
                Recovered: currency(valueFlow.recovered),
                Created: currency(valueFlow.created),
                Minted: currency(valueFlow.minted),
            },
            expected.ValueFlow,
        );

        assert.equal(hashmapSize(extra.inMsgDescr), expected.InMsgDescrLength);
        assert.equal(hashmapSize(extra.outMsgDescr), expected.OutMsgDescrLength);
    });
}

test('account blocks: fees and state hashes agree with the transactions', { skip: mainnetSkip }, () => {
    for (const n of BLOCKS) {
        for (const accountBlock of raw(n).extra.accountBlocks.values()) {
            const txs = [...accountBlock.transactions.values()].map(({ fees, cell }) => ({
                fees,
                tx: loadTransaction(cell.beginParse()),
            }));
            assert.ok(txs.length > 0);
            for (const { fees, tx } of txs) {
                assert.equal(fees.coins, tx.totalFees.coins);
            }
            // the account block's HASH_UPDATE spans its transactions' updates
            const byLt = txs.sort((a, b) => (a.tx.lt < b.tx.lt ? -1 : 1));
            assert.deepEqual(accountBlock.stateUpdate.oldHash, byLt[0].tx.stateUpdate.oldHash);
            assert.deepEqual(accountBlock.stateUpdate.newHash, byLt[byLt.length - 1].tx.stateUpdate.newHash);
        }
    }
});

test('shard id arithmetic', () => {
    assert.equal(formatShard(ROOT_SHARD), '8000000000000000');
    assert.equal(formatShard(shardChild(ROOT_SHARD, 'left')), '4000000000000000');
    assert.equal(formatShard(shardChild(ROOT_SHARD, 'right')), 'c000000000000000');
    assert.equal(formatShard(shardChild(0xc000000000000000n, 'left')), 'a000000000000000');
    assert.equal(formatShard(shardParent(0xa000000000000000n)), 'c000000000000000');
    assert.equal(formatShard(shardParent(0x0d83400000000000n)), '0d83800000000000');
    assert.equal(formatShard(shardParent(0x0d83c00000000000n)), '0d83800000000000');
    assert.equal(shardParent(shardChild(0x0d83800000000000n, 'right')), 0x0d83800000000000n);
    assert.equal(formatShard(0x0d83800000000000n), '0d83800000000000');
    assert.throws(() => shardParent(ROOT_SHARD));
    assert.equal(shardIdFromIdent({ workchainId: 0, shardPrefixBits: 0, shardPrefix: 0n }), ROOT_SHARD);
    assert.equal(shardIdFromIdent({ workchainId: 0, shardPrefixBits: 2, shardPrefix: 0x8000000000000000n }), 0xa000000000000000n);
    assert.equal(shardIdFromIdent({ workchainId: 0, shardPrefixBits: 16, shardPrefix: 0x0d83000000000000n }), 0x0d83800000000000n);
    assert.throws(() => shardIdFromIdent({ workchainId: 0, shardPrefixBits: 1, shardPrefix: 0x2000000000000000n }));
});

test('rejects what is not a block', { skip: mainnetSkip }, () => {
    const tx = parsed(5).transactions[0].cell;
    assert.throws(() => parseBlockFile(tx.toBoc()), /block/i);
    assert.throws(() => parseBlockFile(beginCell().storeUint(0x11ef55aa, 32).endCell().toBoc()));
});
