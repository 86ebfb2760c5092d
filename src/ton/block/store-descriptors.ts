import { type Address, type Builder, type Cell, loadCurrencyCollection } from '@ton/core';
import { type AugmentedDictType } from '../dict/augmented-dict.ts';
import { addAmounts, type Amounts, amountsOf, storeAmounts, ZERO } from '../currency.ts';
import { type ExtBlkRefFields, storeExtBlkRef } from './store-block.ts';
import { cellBuilder } from '../cells/core-cells.ts';

// Augmented dictionaries of blocks and states, as the types their writers need (see augmented-dict.ts),
// and the message descriptors of InMsgDescr / OutMsgDescr.

/** Values kept as ready cells and written inline (their bits and refs copied into the leaf). */
const storeInline = (value: Cell, builder: Builder) => builder.storeSlice(value.beginParse());

/** `import_fees$_ fees_collected:Grams value_imported:CurrencyCollection = ImportFees;` */
export interface ImportFees {
    feesCollected: bigint;
    valueImported: Amounts;
}

export interface DescribedInMsg {
    cell: Cell;
    fees: ImportFees;
}

/** `_ (HashmapAugE 256 InMsg ImportFees) = InMsgDescr;` keyed by message hash. */
export const IN_MSG_DESCR: AugmentedDictType<DescribedInMsg, ImportFees> = {
    keyBits: 256,
    extraOf: value => value.fees,
    add: (a, b) => ({ feesCollected: a.feesCollected + b.feesCollected, valueImported: addAmounts(a.valueImported, b.valueImported) }),
    empty: { feesCollected: 0n, valueImported: ZERO },
    storeExtra: (extra, builder) => {
        builder.storeCoins(extra.feesCollected);
        storeAmounts(extra.valueImported, builder);
    },
    storeValue: (value, builder) => storeInline(value.cell, builder),
};

export interface DescribedOutMsg {
    cell: Cell;
    exported: Amounts;
}

/** `_ (HashmapAugE 256 OutMsg CurrencyCollection) = OutMsgDescr;` keyed by message hash. */
export const OUT_MSG_DESCR: AugmentedDictType<DescribedOutMsg, Amounts> = {
    keyBits: 256,
    extraOf: value => value.exported,
    add: addAmounts,
    empty: ZERO,
    storeExtra: storeAmounts,
    storeValue: (value, builder) => storeInline(value.cell, builder),
};

/** `HashmapAug 64 ^Transaction CurrencyCollection` of an AccountBlock, keyed by lt; the extra is the transaction's total fees. */
export const ACCOUNT_TRANSACTIONS: AugmentedDictType<{ cell: Cell; totalFees: Amounts }, Amounts> = {
    keyBits: 64,
    extraOf: value => value.totalFees,
    add: addAmounts,
    empty: ZERO,
    storeExtra: storeAmounts,
    storeValue: (value, builder) => builder.storeRef(value.cell),
};

/** `_ (HashmapAugE 256 AccountBlock CurrencyCollection) = ShardAccountBlocks;` the extra is the fees of the account's transactions. */
export const SHARD_ACCOUNT_BLOCKS: AugmentedDictType<{ cell: Cell; fees: Amounts }, Amounts> = {
    keyBits: 256,
    extraOf: value => value.fees,
    add: addAmounts,
    empty: ZERO,
    storeExtra: storeAmounts,
    storeValue: (value, builder) => storeInline(value.cell, builder),
};

/** `depth_balance$_ split_depth:(#<= 30) balance:CurrencyCollection = DepthBalanceInfo;` */
export interface DepthBalance {
    splitDepth: number;
    balance: Amounts;
}

export interface ShardAccountEntry {
    /** `account_descr$_ account:^Account last_trans_hash:bits256 last_trans_lt:uint64 = ShardAccount;` */
    cell: Cell;
    balance: Amounts;
}

/** `_ (HashmapAugE 256 ShardAccount DepthBalanceInfo) = ShardAccounts;` (no anycast on the devnet: split depth 0). */
export const SHARD_ACCOUNTS: AugmentedDictType<ShardAccountEntry, DepthBalance> = {
    keyBits: 256,
    extraOf: value => ({ splitDepth: 0, balance: value.balance }),
    add: (a, b) => ({ splitDepth: Math.max(a.splitDepth, b.splitDepth), balance: addAmounts(a.balance, b.balance) }),
    empty: { splitDepth: 0, balance: ZERO },
    storeExtra: (extra, builder) => {
        builder.storeUint(extra.splitDepth, 5);
        storeAmounts(extra.balance, builder);
    },
    storeValue: (value, builder) => storeInline(value.cell, builder),
    loadExtra: slice => ({ splitDepth: slice.loadUint(5), balance: amountsOf(loadCurrencyCollection(slice)) }),
};

/** `_ key:Bool blk_ref:ExtBlkRef = KeyExtBlkRef;` */
export interface KeyExtBlkRef {
    key: boolean;
    ref: ExtBlkRefFields;
}

/** `_ key:Bool max_end_lt:uint64 = KeyMaxLt;` */
export interface KeyMaxLt {
    key: boolean;
    maxEndLt: bigint;
}

/** `_ (HashmapAugE 32 KeyExtBlkRef KeyMaxLt) = OldMcBlocksInfo;` keyed by masterchain seqno. */
export const OLD_MC_BLOCKS: AugmentedDictType<KeyExtBlkRef, KeyMaxLt> = {
    keyBits: 32,
    extraOf: value => ({ key: value.key, maxEndLt: value.ref.endLt }),
    add: (a, b) => ({ key: a.key || b.key, maxEndLt: a.maxEndLt > b.maxEndLt ? a.maxEndLt : b.maxEndLt }),
    empty: { key: false, maxEndLt: 0n },
    storeExtra: (extra, builder) => builder.storeBit(extra.key).storeUint(extra.maxEndLt, 64),
    storeValue: (value, builder) => {
        builder.storeBit(value.key);
        storeExtBlkRef(value.ref, builder);
    },
};

/** `_ fees:CurrencyCollection create:CurrencyCollection = ShardFeeCreated;` */
export interface ShardFeeCreated {
    fees: Amounts;
    create: Amounts;
}

const storeShardFeeCreated = (value: ShardFeeCreated, builder: Builder) => {
    storeAmounts(value.fees, builder);
    storeAmounts(value.create, builder);
};

/** `_ (HashmapAugE 96 ShardFeeCreated ShardFeeCreated) = ShardFees;` keyed by workchain (int32) ‖ shard (uint64). */
export const SHARD_FEES: AugmentedDictType<ShardFeeCreated, ShardFeeCreated> = {
    keyBits: 96,
    extraOf: value => value,
    add: (a, b) => ({ fees: addAmounts(a.fees, b.fees), create: addAmounts(a.create, b.create) }),
    empty: { fees: ZERO, create: ZERO },
    storeExtra: storeShardFeeCreated,
    storeValue: storeShardFeeCreated,
};

export function shardFeesKey(workchain: number, shard: bigint): bigint {
    return (BigInt.asUintN(32, BigInt(workchain)) << 64n) | shard;
}

/** The `use_dest_bits` of `interm_addr_regular$0 use_dest_bits:(#<= 96)`: 96 = at the destination, 0 = at the source. */
export interface Route {
    current: number;
    next: number;
}

/** `msg_metadata#0 depth:uint32 initiator_addr:MsgAddressInt initiator_lt:uint64 = MsgMetadata;` */
export interface MsgMetadata {
    depth: number;
    initiator: Address;
    initiatorLt: bigint;
}

/**
 * msg_envelope#4 cur_addr:IntermediateAddress next_addr:IntermediateAddress
 *   fwd_fee_remaining:Grams msg:^(Message Any) = MsgEnvelope;
 * msg_envelope_v2#5 (the same, then emitted_lt:(Maybe uint64) metadata:(Maybe MsgMetadata)), written
 * when the message carries metadata (config capability capMsgMetadata).
 */
export function envelopeCell(message: Cell, route: Route, fwdFeeRemaining: bigint, metadata?: MsgMetadata): Cell {
    const builder = cellBuilder().storeUint(metadata ? 5 : 4, 4)
        .storeUint(0, 1).storeUint(route.current, 7)
        .storeUint(0, 1).storeUint(route.next, 7)
        .storeCoins(fwdFeeRemaining)
        .storeRef(message);
    if (metadata) {
        builder.storeBit(false).storeBit(true).storeUint(0, 4).storeUint(metadata.depth, 32)
            .storeAddress(metadata.initiator).storeUint(metadata.initiatorLt, 64);
    }
    return builder.endCell();
}

/** msg_import_ext$000 msg:^(Message Any) transaction:^Transaction = InMsg; */
export function importExternal(message: Cell, transaction: Cell): DescribedInMsg {
    return { cell: cellBuilder().storeUint(0b000, 3).storeRef(message).storeRef(transaction).endCell(), fees: IN_MSG_DESCR.empty };
}

/** msg_import_imm$011 in_msg:^MsgEnvelope transaction:^Transaction fwd_fee:Grams = InMsg; (made and delivered in this block) */
export function importImmediate(envelope: Cell, transaction: Cell, fwdFee: bigint): DescribedInMsg {
    return {
        cell: cellBuilder().storeUint(0b011, 3).storeRef(envelope).storeRef(transaction).storeCoins(fwdFee).endCell(),
        fees: { feesCollected: fwdFee, valueImported: ZERO },
    };
}

/** msg_import_fin$100 in_msg:^MsgEnvelope transaction:^Transaction fwd_fee:Grams = InMsg; (from another shard, delivered here) */
export function importFinal(envelope: Cell, transaction: Cell, fwdFee: bigint, carried: Amounts): DescribedInMsg {
    return {
        cell: cellBuilder().storeUint(0b100, 3).storeRef(envelope).storeRef(transaction).storeCoins(fwdFee).endCell(),
        fees: { feesCollected: fwdFee, valueImported: carried },
    };
}

/** msg_export_ext$000 msg:^(Message Any) transaction:^Transaction = OutMsg; */
export function exportExternal(message: Cell, transaction: Cell): DescribedOutMsg {
    return { cell: cellBuilder().storeUint(0b000, 3).storeRef(message).storeRef(transaction).endCell(), exported: ZERO };
}

/** msg_export_imm$010 out_msg:^MsgEnvelope transaction:^Transaction reimport:^InMsg = OutMsg; */
export function exportImmediate(envelope: Cell, transaction: Cell, reimport: Cell): DescribedOutMsg {
    return { cell: cellBuilder().storeUint(0b010, 3).storeRef(envelope).storeRef(transaction).storeRef(reimport).endCell(), exported: ZERO };
}

/** msg_export_new$001 out_msg:^MsgEnvelope transaction:^Transaction = OutMsg; (leaves the shard) */
export function exportNew(envelope: Cell, transaction: Cell, carried: Amounts): DescribedOutMsg {
    return { cell: cellBuilder().storeUint(0b001, 3).storeRef(envelope).storeRef(transaction).endCell(), exported: carried };
}

/**
 * msg_export_deq_short$1101 msg_env_hash:bits256 next_workchain:int32 next_addr_pfx:uint64 import_block_lt:uint64 = OutMsg;
 * (a queued message its destination imported, in the block of lt `importBlockLt`, taken off the queue)
 */
export function exportDequeued(envelopeHash: Buffer, nextWorkchain: number, nextAddressPrefix: bigint, importBlockLt: bigint): DescribedOutMsg {
    return {
        cell: cellBuilder().storeUint(0b1101, 4).storeBuffer(envelopeHash, 32).storeInt(nextWorkchain, 32).storeUint(nextAddressPrefix, 64).storeUint(importBlockLt, 64).endCell(),
        exported: ZERO,
    };
}

/** msg_export_deq$1100 out_msg:^MsgEnvelope import_block_lt:uint63 = OutMsg; (as exportDequeued, where the config lacks capShortDequeue) */
export function exportDequeuedWithEnvelope(envelope: Cell, importBlockLt: bigint): DescribedOutMsg {
    return { cell: cellBuilder().storeUint(0b1100, 4).storeRef(envelope).storeUint(importBlockLt, 63).endCell(), exported: ZERO };
}
