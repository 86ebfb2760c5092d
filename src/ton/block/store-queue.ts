import { type Builder, type Cell, Dictionary } from '@ton/core';
import { type AugmentedDict, type AugmentedDictType } from '../dict/augmented-dict.ts';
import { cellBuilder } from '../cells/core-cells.ts';
import { DictKeys } from '../cells/dict-keys.ts';

// The writing side of a shard's out-message queue: the messages it exported to other shards that
// their blocks have not imported yet, and how far it has imported from each neighbour.

/** `_ enqueued_lt:uint64 out_msg:^MsgEnvelope = EnqueuedMsg;` */
export interface EnqueuedMsg {
    enqueuedLt: bigint;
    envelope: Cell;
}

/**
 * `_ (HashmapAugE 352 EnqueuedMsg uint64) = OutMsgQueue;` keyed by the next hop's workchain (int32),
 * the first 64 bits of its address and the message hash; the extra is the least enqueued lt.
 */
export const OUT_MSG_QUEUE: AugmentedDictType<EnqueuedMsg, bigint> = {
    keyBits: 352,
    extraOf: value => value.enqueuedLt,
    add: (a, b) => (a < b ? a : b),
    empty: 0n,
    storeExtra: (extra, builder) => builder.storeUint(extra, 64),
    storeValue: (value, builder) => builder.storeUint(value.enqueuedLt, 64).storeRef(value.envelope),
};

/** The OutMsgQueue key of a message: next hop workchain ‖ next hop address prefix (64 bits) ‖ message hash. */
export function outQueueKey(workchain: number, addressPrefix: bigint, messageHash: bigint): bigint {
    return (BigInt.asUintN(32, BigInt(workchain)) << 320n) | (addressPrefix << 256n) | messageHash;
}

/** `processed_upto$_ last_msg_lt:uint64 last_msg_hash:bits256 = ProcessedUpto;` */
export interface ProcessedUpto {
    /** The neighbour shard whose queue it is (uint64 shard id). */
    shard: bigint;
    /** The masterchain block whose view of that neighbour it was imported at. */
    mcSeqno: number;
    lastMsgLt: bigint;
    lastMsgHash: Buffer;
}

/**
 * `_ out_queue:OutMsgQueue proc_info:ProcessedInfo extra:(Maybe OutMsgQueueExtra) = OutMsgQueueInfo;`
 * `_ (HashmapE 96 ProcessedUpto) = ProcessedInfo;` keyed by shard (uint64) ‖ mc_seqno (uint32).
 * The extra (`out_msg_queue_extra#0 dispatch_queue:DispatchQueue out_queue_size:(Maybe uint48)`),
 * with an empty dispatch queue and the queue's size, is written where the config has
 * capStoreOutMsgQueueSize, as collators write it.
 */
export function outMsgQueueInfoCell(queue: AugmentedDict<EnqueuedMsg, bigint> | null, processed: readonly ProcessedUpto[], storeQueueSize: boolean): Cell {
    const builder = cellBuilder();
    if (queue) queue.storeAugE(builder);
    else builder.storeBit(false).storeUint(0, 64);
    storeProcessedInfo(processed, builder);
    if (!storeQueueSize) return builder.storeBit(false).endCell();
    return builder.storeBit(true).storeUint(0, 4).storeBit(false).storeBit(true).storeUint(queue?.size ?? 0, 48).endCell();
}

function storeProcessedInfo(processed: readonly ProcessedUpto[], builder: Builder): void {
    if (processed.length === 0) {
        builder.storeBit(false);
        return;
    }
    const dict = Dictionary.empty(DictKeys.BigUint(96), {
        serialize: (value: ProcessedUpto, to: Builder) => { to.storeUint(value.lastMsgLt, 64).storeBuffer(value.lastMsgHash, 32); },
        parse: () => { throw new Error('not read here'); },
    });
    for (const entry of processed) dict.set((entry.shard << 32n) | BigInt(entry.mcSeqno), entry);
    builder.storeDict(dict);
}
