import { sha256 } from '../sha256.ts';
import { Cell } from '@ton/core';
import { type Block, loadBlock } from './block.ts';
import type { ExtBlkRef } from './ext-blk-ref.ts';
import { shardTreeLeaves } from './shard-hashes.ts';
import { formatShard, MASTERCHAIN_ID, ROOT_SHARD, shardChild, shardIdFromIdent, shardParent } from './shard-id.ts';
import { readBoc } from '../boc/boc-reader.ts';

export interface BlockRef {
    workchain: number;
    /** 16 lowercase hex digits, e.g. '8000000000000000'. */
    shard: string;
    seqno: number;
    /** 64 lowercase hex digits. */
    rootHash: string;
    fileHash: string;
}

export interface ParsedBlockTransaction {
    /** Raw address 'wc:64hex', lowercase. */
    account: string;
    lt: bigint;
    /** Hex of the transaction cell hash. */
    hash: string;
    cell: Cell;
}

export interface ParsedShardTop extends BlockRef {
    startLt: bigint;
    endLt: bigint;
    utime: number;
}

export interface ParsedBlock {
    /** rootHash: hash of the root cell; fileHash: SHA-256 of the BOC file bytes. */
    id: BlockRef;
    utime: number;
    startLt: bigint;
    endLt: bigint;
    isKeyBlock: boolean;
    /** The last key block before this one (masterchain seqno). */
    prevKeyBlockSeqno: number;
    globalId: number;
    /** One block, or two (left child shard, right child shard) after a merge. */
    prev: BlockRef[];
    /** The masterchain block a shard block refers to; absent for masterchain blocks. */
    masterRef?: BlockRef;
    /** Masterchain blocks only: the latest block of every shard, from McBlockExtra.shard_hashes. */
    shardTops: ParsedShardTop[];
    /** Sorted by lt, then account. */
    transactions: ParsedBlockTransaction[];
    /** Key blocks of the masterchain: the ConfigParams dictionary root. */
    config?: Cell;
}

export function parseBlockFile(boc: Buffer): ParsedBlock {
    return parseBlockCell(readBlockRoot(boc), sha256(boc).toString('hex'));
}

/** The single root cell of a block file, for callers that also want to read more of it (see block-state.ts). */
export function readBlockRoot(boc: Buffer): Cell {
    const roots = readBoc(boc);
    if (roots.length !== 1) {
        throw new Error(`A block file has one root cell, found ${roots.length}`);
    }
    return roots[0];
}

/** parseBlockFile for an already deserialized block; fileHash is the hex SHA-256 of the BOC file. */
export function parseBlockCell(root: Cell, fileHash: string, block: Block = loadBlock(root.beginParse())): ParsedBlock {
    const { info } = block;
    const workchain = info.shard.workchainId;
    const shard = shardIdFromIdent(info.shard);

    return {
        id: {
            workchain,
            shard: formatShard(shard),
            seqno: info.seqno,
            rootHash: root.hash().toString('hex'),
            fileHash,
        },
        utime: info.genUtime,
        startLt: info.startLt,
        endLt: info.endLt,
        isKeyBlock: info.keyBlock,
        prevKeyBlockSeqno: info.prevKeyBlockSeqno,
        globalId: block.globalId,
        prev: previousBlocks(block, workchain, shard),
        masterRef: info.masterRef ? toBlockRef(MASTERCHAIN_ID, ROOT_SHARD, info.masterRef.master) : undefined,
        shardTops: shardTops(block),
        transactions: blockTransactions(block, workchain),
        config: block.extra.custom?.config?.root,
    };
}

function toBlockRef(workchain: number, shard: bigint, ref: ExtBlkRef): BlockRef {
    return {
        workchain,
        shard: formatShard(shard),
        seqno: ref.seqno,
        rootHash: ref.rootHash.toString('hex'),
        fileHash: ref.fileHash.toString('hex'),
    };
}

function previousBlocks(block: Block, workchain: number, shard: bigint): BlockRef[] {
    const { prevRef, afterSplit } = block.info;
    if (prevRef.kind === 'merged') {
        return [
            toBlockRef(workchain, shardChild(shard, 'left'), prevRef.prev1),
            toBlockRef(workchain, shardChild(shard, 'right'), prevRef.prev2),
        ];
    }
    return [toBlockRef(workchain, afterSplit ? shardParent(shard) : shard, prevRef.prev)];
}

function shardTops(block: Block): ParsedShardTop[] {
    const shardHashes = block.extra.custom?.shardHashes;
    if (!shardHashes) {
        return [];
    }
    const tops: ParsedShardTop[] = [];
    for (const [workchain, tree] of shardHashes) {
        for (const { shard, leaf } of shardTreeLeaves(tree)) {
            tops.push({
                workchain,
                shard: formatShard(shard),
                seqno: leaf.seqno,
                rootHash: leaf.rootHash.toString('hex'),
                fileHash: leaf.fileHash.toString('hex'),
                startLt: leaf.startLt,
                endLt: leaf.endLt,
                utime: leaf.genUtime,
            });
        }
    }
    return tops;
}

function blockTransactions(block: Block, workchain: number): ParsedBlockTransaction[] {
    const transactions: ParsedBlockTransaction[] = [];
    for (const accountBlock of block.extra.accountBlocks.values()) {
        const account = `${workchain}:${accountBlock.accountAddr.toString('hex')}`;
        for (const [lt, { cell }] of accountBlock.transactions) {
            assertTransactionHeader(cell, accountBlock.accountAddr, lt);
            transactions.push({ account, lt, hash: cell.hash().toString('hex'), cell });
        }
    }
    return transactions.sort(
        (a, b) => (a.lt < b.lt ? -1 : a.lt > b.lt ? 1 : a.account < b.account ? -1 : a.account > b.account ? 1 : 0),
    );
}

// transaction$0111 account_addr:bits256 lt:uint64 ...: the dictionary keys must agree with the cell
function assertTransactionHeader(cell: Cell, accountAddr: Buffer, lt: bigint) {
    const slice = cell.beginParse();
    if (slice.loadUint(4) !== 0b0111) {
        throw new Error('Invalid Transaction tag');
    }
    if (!slice.loadBuffer(32).equals(accountAddr) || slice.loadUintBig(64) !== lt) {
        throw new Error(`Transaction ${cell.hash().toString('hex')} is filed under another account or lt`);
    }
}
