// Cross-checks the project's block parser (parseBlockFile) against the independent reader, for any
// block BOC: mainnet fixtures today, the devnet's own blocks later. No fixture data is used here.
import assert from 'node:assert/strict';
import { parseBlockFile } from '../../src/ton/block/block-file.ts';
import { type IndependentBlock, readBlockIndependently, readStateUpdateSides } from './independent-block-reader.ts';

const MASTER_SHARD = '8000000000000000';

export interface CompareOptions {
    /**
     * Also require the value flow to agree with the message descriptors (imported = InMsgDescr root
     * value_imported, exported = OutMsgDescr root extra, masterchain fees_imported = ShardFees root fees).
     * Default true.
     */
    descriptorTotals?: boolean;
}

/** Asserts that both readers agree on everything they both read, and that the block is self-consistent. */
export function compareWithProjectParser(boc: Buffer, options: CompareOptions = {}): IndependentBlock {
    const mine = readBlockIndependently(boc);
    const theirs = parseBlockFile(boc);
    const { info } = mine;
    const label = `block (${info.workchain},${info.shard},${info.seqno})`;

    assert.deepEqual(
        theirs.id,
        { workchain: info.workchain, shard: info.shard, seqno: info.seqno, rootHash: mine.rootHash, fileHash: mine.fileHash },
        `${label}: id`,
    );
    assert.equal(theirs.utime, info.genUtime, `${label}: utime`);
    assert.equal(theirs.startLt, info.startLt, `${label}: start lt`);
    assert.equal(theirs.endLt, info.endLt, `${label}: end lt`);
    assert.equal(theirs.isKeyBlock, info.keyBlock, `${label}: key block`);
    assert.equal(theirs.globalId, mine.globalId, `${label}: global id`);
    assert.deepEqual(
        theirs.prev,
        info.prev.map(({ workchain, shard, seqno, rootHash, fileHash }) => ({ workchain, shard, seqno, rootHash, fileHash })),
        `${label}: prev`,
    );
    assert.deepEqual(
        theirs.masterRef,
        info.masterRef && { workchain: -1, shard: MASTER_SHARD, seqno: info.masterRef.seqno, rootHash: info.masterRef.rootHash, fileHash: info.masterRef.fileHash },
        `${label}: master ref`,
    );
    assert.equal(info.notMaster, info.workchain !== -1, `${label}: not_master agrees with the workchain`);

    assert.deepEqual(
        theirs.shardTops,
        (mine.shardHashes ?? []).map(({ workchain, shard, seqno, rootHash, fileHash, startLt, endLt, genUtime }) => ({
            workchain, shard, seqno, rootHash, fileHash, startLt, endLt, utime: genUtime,
        })),
        `${label}: shard tops`,
    );
    assert.equal(theirs.config?.hash().toString('hex'), mine.configHash, `${label}: config root`);

    assert.deepEqual(
        theirs.transactions.map(({ account, lt, hash }) => ({ account, lt, hash })),
        mine.transactions.map(({ account, lt, hash }) => ({ account, lt, hash })),
        `${label}: transactions`,
    );
    for (const tx of mine.transactions) {
        assert.ok(info.startLt <= tx.lt && tx.lt < info.endLt, `${label}: transaction lt ${tx.lt} outside the block's lt range`);
    }
    const feeSum = mine.transactions.reduce((sum, tx) => sum + tx.totalFees, 0n);
    assert.equal(mine.accountBlockFees, feeSum, `${label}: account_blocks root extra = sum of transaction fees`);

    assertValueFlow(mine, label, options.descriptorTotals ?? true);
    assertStateUpdate(boc, mine, label);
    return mine;
}

function assertValueFlow(mine: IndependentBlock, label: string, descriptorTotals: boolean) {
    const v = mine.valueFlow;
    assert.ok(mine.valueFlowBalanced, `${label}: value flow does not balance: ${JSON.stringify(v, (_k, x) => (typeof x === 'bigint' ? `${x}` : x))}`);
    assert.ok(mine.extraCurrenciesBalanced, `${label}: extra currencies of the value flow do not balance`);
    if (!descriptorTotals) {
        return;
    }
    assert.equal(v.imported, mine.inMsgImportFees.valueImported, `${label}: value_flow.imported = InMsgDescr value_imported`);
    assert.equal(v.exported, mine.outMsgExported, `${label}: value_flow.exported = OutMsgDescr root extra`);
    if (mine.shardFees) {
        assert.equal(v.feesImported, mine.shardFees.fees, `${label}: value_flow.fees_imported = ShardFees root fees`);
    }
}

function assertStateUpdate(boc: Buffer, mine: IndependentBlock, label: string) {
    const sides = readStateUpdateSides(boc);
    assert.equal(mine.stateUpdate.oldHash, sides.oldHash, `${label}: MERKLE_UPDATE old_hash = hash of the old side`);
    assert.equal(mine.stateUpdate.newHash, sides.newHash, `${label}: MERKLE_UPDATE new_hash = hash of the new side`);
    assert.equal(mine.stateUpdate.oldDepth, sides.oldDepth, `${label}: MERKLE_UPDATE old_depth`);
    assert.equal(mine.stateUpdate.newDepth, sides.newDepth, `${label}: MERKLE_UPDATE new_depth`);
}
