import type { Cell, Slice } from '@ton/core';

/** Upper bound on nodes walked, so a junk (or adversarial DAG) dictionary stays cheap. */
export const MAX_HASHMAP_NODES = 1 << 16;

/**
 * The keys of a `Hashmap n X` as unsigned n-bit integers, in key order, without decoding the
 * values (which may be anything: code, empty, refs). Stops quietly at the first malformed node or
 * after {@link MAX_HASHMAP_NODES} nodes, keeping the keys read so far.
 *
 * hm_edge#_ {n:#} {X:Type} {l:#} {m:#} label:(HmLabel ~l n) {n = (~m) + l} node:(HashmapNode m X) = Hashmap n X;
 * hmn_leaf#_ {X:Type} value:X = HashmapNode 0 X;
 * hmn_fork#_ {n:#} {X:Type} left:^(Hashmap n X) right:^(Hashmap n X) = HashmapNode (n + 1) X;
 */
export function hashmapKeys(root: Cell, keyBits: number): bigint[] {
    const keys: bigint[] = [];
    let nodes = 0;
    const stack: { cell: Cell; prefix: bigint; length: number }[] = [{ cell: root, prefix: 0n, length: 0 }];
    try {
        while (stack.length > 0) {
            const { cell, prefix, length } = stack.pop()!;
            if (++nodes > MAX_HASHMAP_NODES || cell.isExotic) break;
            const slice = cell.beginParse();
            const label = readLabel(slice, keyBits - length);
            const key = (prefix << BigInt(label.length)) | label.bits;
            const keyLength = length + label.length;
            if (keyLength === keyBits) {
                keys.push(key);
                continue;
            }
            if (slice.remainingRefs < 2) break;
            const left = slice.loadRef();
            const right = slice.loadRef();
            // right pushed first, so the left subtree is walked first
            stack.push({ cell: right, prefix: (key << 1n) | 1n, length: keyLength + 1 });
            stack.push({ cell: left, prefix: key << 1n, length: keyLength + 1 });
        }
    } catch {
        // malformed node: keep what was read
    }
    return keys;
}

/**
 * hml_short$0 {m:#} {n:#} len:(Unary ~n) {n <= m} s:(n * Bit) = HmLabel ~n m;
 * hml_long$10 {m:#} n:(#<= m) s:(n * Bit) = HmLabel ~n m;
 * hml_same$11 {m:#} v:Bit n:(#<= m) = HmLabel ~n m;
 */
function readLabel(slice: Slice, max: number): { bits: bigint; length: number } {
    const lengthBits = max === 0 ? 0 : 32 - Math.clz32(max);
    if (!slice.loadBit()) {
        let length = 0;
        while (slice.loadBit()) length++;
        if (length > max) throw new Error('hml_short label longer than the key');
        return { bits: length === 0 ? 0n : slice.loadUintBig(length), length };
    }
    if (!slice.loadBit()) {
        const length = slice.loadUint(lengthBits);
        if (length > max) throw new Error('hml_long label longer than the key');
        return { bits: length === 0 ? 0n : slice.loadUintBig(length), length };
    }
    const bit = slice.loadBit();
    const length = slice.loadUint(lengthBits);
    if (length > max) throw new Error('hml_same label longer than the key');
    return { bits: bit ? (1n << BigInt(length)) - 1n : 0n, length };
}
