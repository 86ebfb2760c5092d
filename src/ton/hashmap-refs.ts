import type { Cell, Slice } from '@ton/core';

/**
 * The values of a `Hashmap n ^X` whose leaves are single references, in key order, without
 * decoding keys (a lighter walk than @ton/core's Dictionary for dictionaries read on hot paths).
 *
 * hm_edge#_ {n:#} {X:Type} {l:#} {m:#} label:(HmLabel ~l n) {n = (~m) + l} node:(HashmapNode m X) = Hashmap n X;
 * hmn_leaf#_ {X:Type} value:X = HashmapNode 0 X;
 * hmn_fork#_ {n:#} {X:Type} left:^(Hashmap n X) right:^(Hashmap n X) = HashmapNode (n + 1) X;
 * hml_short$0 {m:#} {n:#} len:(Unary ~n) {n <= m} s:(n * Bit) = HmLabel ~n m;
 * hml_long$10 {m:#} n:(#<= m) s:(n * Bit) = HmLabel ~n m;
 * hml_same$11 {m:#} v:Bit n:(#<= m) = HmLabel ~n m;
 */
export function hashmapRefValues(root: Cell | null, keyBits: number): Cell[] {
    const values: Cell[] = [];
    if (!root) return values;
    const walk = (cell: Cell, remaining: number) => {
        const slice = cell.beginParse();
        const rest = remaining - skipLabel(slice, remaining);
        if (rest === 0) {
            values.push(slice.loadRef());
            return;
        }
        walk(slice.loadRef(), rest - 1);
        walk(slice.loadRef(), rest - 1);
    };
    walk(root, keyBits);
    return values;
}

/** Skips an HmLabel with at most `max` bits and returns its length. */
function skipLabel(slice: Slice, max: number): number {
    if (!slice.loadBit()) {
        let length = 0;
        while (slice.loadBit()) length++;
        slice.skip(length);
        return length;
    }
    const lengthBits = max === 0 ? 0 : 32 - Math.clz32(max);
    if (!slice.loadBit()) {
        const length = slice.loadUint(lengthBits);
        slice.skip(length);
        return length;
    }
    slice.skip(1);
    return slice.loadUint(lengthBits);
}
