// What passes between shards, read from block BOCs with @ton/core cells only (not the project's
// parser): the kinds of a block's message descriptors, and the out-message queue entries the new
// state of its Merkle update shows.
import { Cell, type Slice } from '@ton/core';

export type InMsgKind = 'ext' | 'ihr' | 'imm' | 'fin' | 'tr' | 'discard_fin' | 'discard_tr' | 'deferred';
export type OutMsgKind = 'ext' | 'imm' | 'new' | 'tr' | 'deq' | 'deq_short' | 'tr_req' | 'deq_imm' | 'deferred';

export interface MessageDescriptors {
    /** By message hash (hex). */
    in: Map<string, InMsgKind>;
    out: Map<string, OutMsgKind>;
}

/** Reads `(HmLabel ~l n)`: hml_short$0 (unary length), hml_long$10 n:(#<= m), hml_same$11 v:Bit n:(#<= m). */
function label(s: Slice, m: number): { length: number; bits: bigint } {
    const width = m.toString(2).length;
    if (!s.loadBit()) {
        let length = 0;
        while (s.loadBit()) length++;
        return { length, bits: length === 0 ? 0n : s.loadUintBig(length) };
    }
    if (!s.loadBit()) {
        const length = s.loadUint(width);
        return { length, bits: length === 0 ? 0n : s.loadUintBig(length) };
    }
    const bit = s.loadBit();
    const length = s.loadUint(width);
    return { length, bits: bit ? (1n << BigInt(length)) - 1n : 0n };
}

/**
 * The leaves of a `HashmapAug n` edge: their keys and, positioned after the leaf's extra (read by
 * `skipExtra`), their value slices. Pruned branches (a Merkle update's unchanged parts) are skipped
 * and counted.
 */
function augLeaves(cell: Cell, n: number, skipExtra: (s: Slice) => void, out: Array<{ key: bigint; value: Slice }>, prefix = 0n): number {
    if (cell.isExotic) return 1;
    const s = cell.beginParse();
    const l = label(s, n);
    const key = (prefix << BigInt(l.length)) | l.bits;
    const rest = n - l.length;
    if (rest === 0) {
        skipExtra(s);
        out.push({ key, value: s });
        return 0;
    }
    return augLeaves(s.loadRef(), rest - 1, skipExtra, out, key << 1n) + augLeaves(s.loadRef(), rest - 1, skipExtra, out, (key << 1n) | 1n);
}

/** `currencies$_ grams:Grams other:ExtraCurrencyCollection` (the extra currencies a HashmapE: a maybe-ref). */
function skipCurrencies(s: Slice): void {
    s.loadCoins();
    s.loadMaybeRef();
}

function inKind(s: Slice): InMsgKind {
    const tag = s.loadUint(3);
    const kinds: Record<number, InMsgKind> = { 0: 'ext', 2: 'ihr', 3: 'imm', 4: 'fin', 5: 'tr', 6: 'discard_fin', 7: 'discard_tr' };
    return tag === 1 ? 'deferred' : kinds[tag];
}

function outKind(s: Slice): OutMsgKind {
    const tag = s.loadUint(3);
    if (tag === 0b110) return s.loadBit() ? 'deq_short' : 'deq';
    const kinds: Record<number, OutMsgKind> = { 0: 'ext', 1: 'new', 2: 'imm', 3: 'tr', 4: 'deq_imm', 7: 'tr_req' };
    return tag === 0b101 ? 'deferred' : kinds[tag];
}

const hex = (key: bigint) => key.toString(16).padStart(64, '0');

/** The InMsgDescr and OutMsgDescr of a block: every message's descriptor kind, by message hash. */
export function messageDescriptors(boc: Buffer): MessageDescriptors {
    const extra = Cell.fromBoc(boc)[0].refs[3];
    const [inDescr, outDescr] = extra.refs;
    const read = (cell: Cell, skipExtra: (s: Slice) => void) => {
        const s = cell.beginParse();
        const leaves: Array<{ key: bigint; value: Slice }> = [];
        if (s.loadBit()) augLeaves(s.loadRef(), 256, skipExtra, leaves);
        return leaves;
    };
    return {
        in: new Map(read(inDescr, s => { s.loadCoins(); skipCurrencies(s); }).map(leaf => [hex(leaf.key), inKind(leaf.value)])),
        out: new Map(read(outDescr, skipCurrencies).map(leaf => [hex(leaf.key), outKind(leaf.value)])),
    };
}

/**
 * The out-message queue of the state a block leaves (the new side of its state update), as far as
 * the update shows it: the queued messages' hashes, and whether part of the queue was pruned (left
 * as it was). `_ out_queue:OutMsgQueue proc_info:ProcessedInfo extra:(Maybe OutMsgQueueExtra) = OutMsgQueueInfo;`,
 * `_ (HashmapAugE 352 EnqueuedMsg uint64) = OutMsgQueue;` keyed by workchain ‖ next hop prefix ‖ message hash.
 */
export function queuedAfter(boc: Buffer): { hashes: Set<string>; pruned: boolean } | null {
    const newState = Cell.fromBoc(boc)[0].refs[2].refs[1];
    if (newState.isExotic) return null;
    const queueInfo = newState.refs[0];
    if (queueInfo.isExotic) return null;
    const s = queueInfo.beginParse();
    const leaves: Array<{ key: bigint; value: Slice }> = [];
    let pruned = 0;
    if (s.loadBit()) pruned = augLeaves(s.loadRef(), 352, leaf => leaf.skip(64), leaves);
    return { hashes: new Set(leaves.map(leaf => hex(leaf.key & ((1n << 256n) - 1n)))), pruned: pruned > 0 };
}
