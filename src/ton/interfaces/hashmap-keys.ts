import { readHmLabel } from '../dict/hm-label.ts';
import type { Cell } from '@ton/core';

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
            const label = readHmLabel(slice, keyBits - length);
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
