import { type Builder, type Cell, Dictionary } from '@ton/core';
import { type Amounts, storeAmounts } from '../currency.ts';
import { cellBuilder } from '../cells/core-cells.ts';
import { DictKeys } from '../cells/dict-keys.ts';
import type { FutureSplitMerge } from './future-split-merge.ts';
import { formatShard, ROOT_SHARD, shardChild } from './shard-id.ts';

// The writing side of the block layouts read in this folder (TL-B lines quoted at each writer).

/** ext_blk_ref$_ end_lt:uint64 seq_no:uint32 root_hash:bits256 file_hash:bits256 = ExtBlkRef; */
export interface ExtBlkRefFields {
    endLt: bigint;
    seqno: number;
    rootHash: Buffer;
    fileHash: Buffer;
}

export function storeExtBlkRef(ref: ExtBlkRefFields, builder: Builder): void {
    builder.storeUint(ref.endLt, 64).storeUint(ref.seqno, 32).storeBuffer(ref.rootHash, 32).storeBuffer(ref.fileHash, 32);
}

/** shard_ident$00 shard_pfx_bits:(#<= 60) workchain_id:int32 shard_prefix:uint64 = ShardIdent; */
export function storeShardIdent(workchain: number, shard: bigint, builder: Builder): void {
    const tag = shard & -shard;
    const prefixBits = 63 - (tag.toString(2).length - 1);
    builder.storeUint(0, 2).storeUint(prefixBits, 6).storeInt(workchain, 32).storeUint(shard - tag, 64);
}

export interface BlockInfoFields {
    workchain: number;
    shard: bigint;
    seqno: number;
    keyBlock: boolean;
    genUtime: number;
    startLt: bigint;
    endLt: bigint;
    genValidatorListHashShort: number;
    genCatchainSeqno: number;
    minRefMcSeqno: number;
    prevKeyBlockSeqno: number;
    /** capabilities#c4 version:uint32 capabilities:uint64 = GlobalVersion; written with flags = 1. */
    genSoftware?: { version: number; capabilities: bigint };
    /** Shard blocks: the masterchain block they refer to. */
    masterRef?: ExtBlkRefFields;
    /** The parent block, or after a merge the two parents (left, then right). */
    prev: ExtBlkRefFields | readonly [ExtBlkRefFields, ExtBlkRefFields];
    /** The shard splits after this block (its state is the last of the shard unsplit). */
    beforeSplit?: boolean;
    /** The first block of a shard made by a split. */
    afterSplit?: boolean;
    /** The shard's load asks for a split / its idleness for a merge with its sibling. */
    wantSplit?: boolean;
    wantMerge?: boolean;
}

/**
 * block_info#9bc7a987 version:uint32 not_master:(## 1) after_merge:(## 1) before_split:(## 1)
 *   after_split:(## 1) want_split:Bool want_merge:Bool key_block:Bool vert_seqno_incr:(## 1)
 *   flags:(## 8) seq_no:# vert_seq_no:# shard:ShardIdent gen_utime:uint32 start_lt:uint64
 *   end_lt:uint64 gen_validator_list_hash_short:uint32 gen_catchain_seqno:uint32
 *   min_ref_mc_seqno:uint32 prev_key_block_seqno:uint32 gen_software:flags . 0?GlobalVersion
 *   master_ref:not_master?^BlkMasterInfo prev_ref:^(BlkPrevInfo after_merge)
 *   prev_vert_ref:vert_seqno_incr?^(BlkPrevInfo 0) = BlockInfo;
 */
export function blockInfoCell(info: BlockInfoFields): Cell {
    const notMaster = info.masterRef !== undefined;
    const afterMerge = Array.isArray(info.prev);
    const builder = cellBuilder()
        .storeUint(0x9bc7a987, 32)
        .storeUint(0, 32)
        .storeBit(notMaster)
        .storeBit(afterMerge).storeBit(info.beforeSplit ?? false).storeBit(info.afterSplit ?? false)
        .storeBit(info.wantSplit ?? false).storeBit(info.wantMerge ?? false)
        .storeBit(info.keyBlock)
        .storeBit(false)
        .storeUint(info.genSoftware ? 1 : 0, 8)
        .storeUint(info.seqno, 32)
        .storeUint(0, 32);
    storeShardIdent(info.workchain, info.shard, builder);
    builder.storeUint(info.genUtime, 32).storeUint(info.startLt, 64).storeUint(info.endLt, 64)
        .storeUint(info.genValidatorListHashShort, 32).storeUint(info.genCatchainSeqno, 32)
        .storeUint(info.minRefMcSeqno, 32).storeUint(info.prevKeyBlockSeqno, 32);
    if (info.genSoftware) builder.storeUint(0xc4, 8).storeUint(info.genSoftware.version, 32).storeUint(info.genSoftware.capabilities, 64);
    if (info.masterRef) builder.storeRef(refCell(info.masterRef));
    // prev_blk_info$_ prev:ExtBlkRef = BlkPrevInfo 0; prev_blks_info$_ prev1:^ExtBlkRef prev2:^ExtBlkRef = BlkPrevInfo 1;
    const prev = info.prev as ExtBlkRefFields | readonly [ExtBlkRefFields, ExtBlkRefFields];
    if (isPair(prev)) builder.storeRef(cellBuilder().storeRef(refCell(prev[0])).storeRef(refCell(prev[1])).endCell());
    else builder.storeRef(refCell(prev));
    return builder.endCell();
}

function isPair(prev: ExtBlkRefFields | readonly [ExtBlkRefFields, ExtBlkRefFields]): prev is readonly [ExtBlkRefFields, ExtBlkRefFields] {
    return Array.isArray(prev);
}

function refCell(ref: ExtBlkRefFields): Cell {
    const builder = cellBuilder();
    storeExtBlkRef(ref, builder);
    return builder.endCell();
}

export interface ValueFlowFields {
    fromPrevBlk: Amounts;
    toNextBlk: Amounts;
    imported: Amounts;
    exported: Amounts;
    feesCollected: Amounts;
    burned: Amounts;
    feesImported: Amounts;
    recovered: Amounts;
    created: Amounts;
    minted: Amounts;
}

/**
 * value_flow#b8e48dfb ^[ from_prev_blk to_next_blk imported exported ] fees_collected
 *   ^[ fees_imported recovered created minted ] = ValueFlow;
 * value_flow_v2#3ebf98b7 (burned:CurrencyCollection after fees_collected), written when something was burned.
 */
export function valueFlowCell(flow: ValueFlowFields): Cell {
    const first = cellBuilder();
    for (const amounts of [flow.fromPrevBlk, flow.toNextBlk, flow.imported, flow.exported]) storeAmounts(amounts, first);
    const second = cellBuilder();
    for (const amounts of [flow.feesImported, flow.recovered, flow.created, flow.minted]) storeAmounts(amounts, second);
    const burned = flow.burned.grams !== 0n || flow.burned.extra.size > 0;
    const builder = cellBuilder().storeUint(burned ? 0x3ebf98b7 : 0xb8e48dfb, 32).storeRef(first.endCell());
    storeAmounts(flow.feesCollected, builder);
    if (burned) storeAmounts(flow.burned, builder);
    return builder.storeRef(second.endCell()).endCell();
}

export interface ShardDescrFields {
    seqno: number;
    regMcSeqno: number;
    startLt: bigint;
    endLt: bigint;
    rootHash: Buffer;
    fileHash: Buffer;
    nextCatchainSeqno: number;
    nextValidatorShard: bigint;
    minRefMcSeqno: number;
    genUtime: number;
    feesCollected: Amounts;
    fundsCreated: Amounts;
    /** The block is the shard's last before it splits / the shard merges with its sibling after it. */
    beforeSplit?: boolean;
    beforeMerge?: boolean;
    wantSplit?: boolean;
    wantMerge?: boolean;
    /** A split or merge the masterchain announced for this shard. */
    splitMergeAt?: FutureSplitMerge;
}

/**
 * shard_descr_new#a seq_no:uint32 reg_mc_seqno:uint32 start_lt:uint64 end_lt:uint64
 *   root_hash:bits256 file_hash:bits256 before_split:Bool before_merge:Bool want_split:Bool
 *   want_merge:Bool nx_cc_updated:Bool flags:(## 3) next_catchain_seqno:uint32
 *   next_validator_shard:uint64 min_ref_mc_seqno:uint32 gen_utime:uint32
 *   split_merge_at:FutureSplitMerge ^[ fees_collected:CurrencyCollection funds_created:CurrencyCollection ] = ShardDescr;
 */
export function storeShardDescr(descr: ShardDescrFields, builder: Builder): void {
    const fees = cellBuilder();
    storeAmounts(descr.feesCollected, fees);
    storeAmounts(descr.fundsCreated, fees);
    builder.storeUint(0xa, 4).storeUint(descr.seqno, 32).storeUint(descr.regMcSeqno, 32)
        .storeUint(descr.startLt, 64).storeUint(descr.endLt, 64)
        .storeBuffer(descr.rootHash, 32).storeBuffer(descr.fileHash, 32)
        .storeBit(descr.beforeSplit ?? false).storeBit(descr.beforeMerge ?? false)
        .storeBit(descr.wantSplit ?? false).storeBit(descr.wantMerge ?? false)
        .storeBit(false).storeUint(0, 3)
        .storeUint(descr.nextCatchainSeqno, 32).storeUint(descr.nextValidatorShard, 64)
        .storeUint(descr.minRefMcSeqno, 32).storeUint(descr.genUtime, 32);
    storeFutureSplitMerge(descr.splitMergeAt ?? { kind: 'none' }, builder);
    builder.storeRef(fees.endCell());
}

/** fsm_none$0 | fsm_split$10 split_utime:uint32 interval:uint32 | fsm_merge$11 merge_utime:uint32 interval:uint32 */
function storeFutureSplitMerge(fsm: FutureSplitMerge, builder: Builder): void {
    if (fsm.kind === 'none') builder.storeBit(false);
    else if (fsm.kind === 'split') builder.storeUint(0b10, 2).storeUint(fsm.splitUtime, 32).storeUint(fsm.interval, 32);
    else builder.storeUint(0b11, 2).storeUint(fsm.mergeUtime, 32).storeUint(fsm.interval, 32);
}

/** Each workchain's shards (the leaves of its shard tree, by shard id) with their top blocks' descriptors. */
export type ShardTops = ReadonlyMap<number, ReadonlyMap<bigint, ShardDescrFields>>;

/**
 * _ (HashmapE 32 ^(BinTree ShardDescr)) = ShardHashes;
 * bt_leaf$0 {X:Type} leaf:X = BinTree X; bt_fork$1 {X:Type} left:^(BinTree X) right:^(BinTree X) = BinTree X;
 */
export function storeShardHashes(shards: ShardTops, builder: Builder): void {
    const dict = Dictionary.empty(DictKeys.Int(32), Dictionary.Values.Cell());
    for (const [workchain, tops] of shards) dict.set(workchain, shardTreeCell(tops, ROOT_SHARD));
    builder.storeDict(dict.size > 0 ? dict : undefined);
}

/** The BinTree of the shards under `node`: its leaf when it is one of them, else a fork of its two halves. */
function shardTreeCell(tops: ReadonlyMap<bigint, ShardDescrFields>, node: bigint): Cell {
    const descr = tops.get(node);
    if (descr) {
        const leaf = cellBuilder().storeBit(false);
        storeShardDescr(descr, leaf);
        return leaf.endCell();
    }
    if ((node & -node) === 1n) throw new Error(`the shards given do not cover shard ${formatShard(node)}`);
    return cellBuilder().storeBit(true).storeRef(shardTreeCell(tops, shardChild(node, 'left'))).storeRef(shardTreeCell(tops, shardChild(node, 'right'))).endCell();
}

/** `_ config_addr:bits256 config:^(Hashmap 32 ^Cell) = ConfigParams;` */
export interface ConfigParamsFields {
    configAddress: Buffer;
    config: Cell;
}

/**
 * masterchain_block_extra#cca5 key_block:(## 1) shard_hashes:ShardHashes shard_fees:ShardFees
 *   ^[ prev_blk_signatures:(HashmapE 16 CryptoSignaturePair) recover_create_msg:(Maybe ^InMsg)
 *      mint_msg:(Maybe ^InMsg) ] config:key_block?ConfigParams = McBlockExtra;
 * Nothing recovered or minted: both messages absent, as the collator leaves them for zero amounts.
 */
export function mcBlockExtraCell(
    shards: ShardTops, storeShardFees: (builder: Builder) => void, config?: ConfigParamsFields,
    special: { recoverCreateMsg?: Cell; mintMsg?: Cell } = {},
): Cell {
    const builder = cellBuilder().storeUint(0xcca5, 16).storeBit(config !== undefined);
    storeShardHashes(shards, builder);
    storeShardFees(builder);
    // ^[ prev_blk_signatures:(HashmapE 16 CryptoSignaturePair) recover_create_msg:(Maybe ^InMsg) mint_msg:(Maybe ^InMsg) ]
    builder.storeRef(cellBuilder().storeBit(false).storeMaybeRef(special.recoverCreateMsg ?? null).storeMaybeRef(special.mintMsg ?? null).endCell());
    if (config) builder.storeBuffer(config.configAddress, 32).storeRef(config.config);
    return builder.endCell();
}

export interface BlockExtraFields {
    inMsgDescr: Cell;
    outMsgDescr: Cell;
    accountBlocks: Cell;
    randSeed: Buffer;
    createdBy: Buffer;
    mcExtra?: Cell;
}

/**
 * block_extra#4a33f6fd in_msg_descr:^InMsgDescr out_msg_descr:^OutMsgDescr
 *   account_blocks:^ShardAccountBlocks rand_seed:bits256 created_by:bits256
 *   custom:(Maybe ^McBlockExtra) = BlockExtra;
 */
export function blockExtraCell(extra: BlockExtraFields): Cell {
    return cellBuilder().storeUint(0x4a33f6fd, 32)
        .storeRef(extra.inMsgDescr).storeRef(extra.outMsgDescr).storeRef(extra.accountBlocks)
        .storeBuffer(extra.randSeed, 32).storeBuffer(extra.createdBy, 32)
        .storeMaybeRef(extra.mcExtra ?? null)
        .endCell();
}

/**
 * block#11ef55aa global_id:int32 info:^BlockInfo value_flow:^ValueFlow
 *   state_update:^(MERKLE_UPDATE ShardState) extra:^BlockExtra = Block;
 */
export function blockCell(globalId: number, info: Cell, valueFlow: Cell, stateUpdate: Cell, extra: Cell): Cell {
    return cellBuilder().storeUint(0x11ef55aa, 32).storeInt(globalId, 32)
        .storeRef(info).storeRef(valueFlow).storeRef(stateUpdate).storeRef(extra)
        .endCell();
}
