import { type Builder, type Cell, Dictionary, type DictionaryValue } from '@ton/core';
import { type Amounts, storeAmounts } from '../currency.ts';
import { type ExtBlkRefFields, type ConfigParamsFields, type ShardTops, storeExtBlkRef, storeShardHashes, storeShardIdent } from './store-block.ts';
import { outMsgQueueInfoCell } from './store-queue.ts';
import { cellBuilder } from '../cells/core-cells.ts';
import { DictKeys } from '../cells/dict-keys.ts';

// The writing side of shard states (shard-state.ts reads them).

export interface ShardStateFields {
    globalId: number;
    workchain: number;
    shard: bigint;
    seqno: number;
    genUtime: number;
    genLt: bigint;
    minRefMcSeqno: number;
    /** The ShardAccounts cell (`HashmapAugE 256 ShardAccount DepthBalanceInfo`). */
    accounts: Cell;
    totalBalance: Amounts;
    totalValidatorFees: Amounts;
    /** Root of `HashmapE 256 LibDescr`; null when empty. */
    libraries: Cell | null;
    masterRef?: ExtBlkRefFields;
    mcExtra?: Cell;
    /** The OutMsgQueueInfo cell (store-queue.ts); without it, an empty queue. */
    outMsgQueueInfo?: Cell;
    /** The config's capStoreOutMsgQueueSize (param 8), for an empty queue. */
    storeQueueSize: boolean;
    /** The state is the last of its shard before a split. */
    beforeSplit?: boolean;
}

/**
 * shard_state#9023afe2 global_id:int32 shard_id:ShardIdent seq_no:uint32 vert_seq_no:#
 *   gen_utime:uint32 gen_lt:uint64 min_ref_mc_seqno:uint32 out_msg_queue_info:^OutMsgQueueInfo
 *   before_split:(## 1) accounts:^ShardAccounts ^[ overload_history:uint64 underload_history:uint64
 *   total_balance:CurrencyCollection total_validator_fees:CurrencyCollection
 *   libraries:(HashmapE 256 LibDescr) master_ref:(Maybe BlkMasterInfo) ]
 *   custom:(Maybe ^McStateExtra) = ShardStateUnsplit;
 */
export function shardStateCell(state: ShardStateFields): Cell {
    const more = cellBuilder().storeUint(0, 64).storeUint(0, 64);
    storeAmounts(state.totalBalance, more);
    storeAmounts(state.totalValidatorFees, more);
    more.storeMaybeRef(state.libraries);
    if (state.masterRef) {
        more.storeBit(true);
        storeExtBlkRef(state.masterRef, more);
    } else {
        more.storeBit(false);
    }
    const builder = cellBuilder().storeUint(0x9023afe2, 32).storeInt(state.globalId, 32);
    storeShardIdent(state.workchain, state.shard, builder);
    return builder.storeUint(state.seqno, 32).storeUint(0, 32)
        .storeUint(state.genUtime, 32).storeUint(state.genLt, 64).storeUint(state.minRefMcSeqno, 32)
        .storeRef(state.outMsgQueueInfo ?? outMsgQueueInfoCell(null, [], state.storeQueueSize))
        .storeBit(state.beforeSplit ?? false)
        .storeRef(state.accounts)
        .storeRef(more.endCell())
        .storeMaybeRef(state.mcExtra ?? null)
        .endCell();
}

/** `split_state#5f327da5 left:^ShardStateUnsplit right:^ShardStateUnsplit = ShardState;` */
export function splitStateCell(left: Cell, right: Cell): Cell {
    return cellBuilder().storeUint(0x5f327da5, 32).storeRef(left).storeRef(right).endCell();
}

export interface McStateExtraFields {
    shards: ShardTops;
    config: ConfigParamsFields;
    validatorListHashShort: number;
    catchainSeqno: number;
    /** Stores `prev_blocks:OldMcBlocksInfo`. */
    storePrevBlocks: (builder: Builder) => void;
    afterKeyBlock: boolean;
    lastKeyBlock?: ExtBlkRefFields;
    globalBalance: Amounts;
}

/**
 * masterchain_state_extra#cc26 shard_hashes:ShardHashes config:ConfigParams
 *   ^[ flags:(## 16) validator_info:ValidatorInfo prev_blocks:OldMcBlocksInfo after_key_block:Bool
 *      last_key_block:(Maybe ExtBlkRef) block_create_stats:(flags . 0)?BlockCreateStats ]
 *   global_balance:CurrencyCollection = McStateExtra;
 * validator_info$_ validator_list_hash_short:uint32 catchain_seqno:uint32 nx_cc_updated:Bool = ValidatorInfo;
 */
export function mcStateExtraCell(extra: McStateExtraFields): Cell {
    const more = cellBuilder().storeUint(0, 16)
        .storeUint(extra.validatorListHashShort, 32).storeUint(extra.catchainSeqno, 32).storeBit(false);
    extra.storePrevBlocks(more);
    more.storeBit(extra.afterKeyBlock);
    if (extra.lastKeyBlock) {
        more.storeBit(true);
        storeExtBlkRef(extra.lastKeyBlock, more);
    } else {
        more.storeBit(false);
    }
    const builder = cellBuilder().storeUint(0xcc26, 16);
    storeShardHashes(extra.shards, builder);
    builder.storeBuffer(extra.config.configAddress, 32).storeRef(extra.config.config).storeRef(more.endCell());
    storeAmounts(extra.globalBalance, builder);
    return builder.endCell();
}

const TRUE_VALUE: DictionaryValue<true> = { serialize: () => undefined, parse: () => true };

/**
 * `shared_lib_descr$00 lib:^Cell publishers:(Hashmap 256 True) = LibDescr;` in a `HashmapE 256 LibDescr`
 * keyed by library hash: the public libraries of a masterchain state and who publishes them.
 */
export function libraryDescriptors(libraries: ReadonlyMap<string, { root: Cell; publishers: string[] }>): Cell | null {
    if (libraries.size === 0) return null;
    const descriptor: DictionaryValue<{ root: Cell; publishers: string[] }> = {
        serialize: (value, builder) => {
            const publishers = Dictionary.empty(DictKeys.Buffer(32), TRUE_VALUE);
            for (const publisher of value.publishers) publishers.set(Buffer.from(publisher, 'hex'), true);
            builder.storeUint(0, 2).storeRef(value.root).storeDictDirect(publishers);
        },
        parse: () => {
            throw new Error('not read here');
        },
    };
    const dict = Dictionary.empty(DictKeys.Buffer(32), descriptor);
    for (const [hash, value] of libraries) dict.set(Buffer.from(hash, 'hex'), value);
    return cellBuilder().storeDictDirect(dict).endCell();
}
