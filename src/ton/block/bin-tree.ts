import type { Slice } from '@ton/core';

// bt_leaf$0 {X:Type} leaf:X = BinTree X;
// bt_fork$1 {X:Type} left:^(BinTree X) right:^(BinTree X) = BinTree X;

export type BinTree<X> =
    | { kind: 'leaf'; leaf: X }
    | { kind: 'fork'; left: BinTree<X>; right: BinTree<X> };

export function loadBinTree<X>(slice: Slice, loadLeaf: (slice: Slice) => X): BinTree<X> {
    if (!slice.loadBit()) {
        return { kind: 'leaf', leaf: loadLeaf(slice) };
    }
    const left = loadBinTree(slice.loadRef().beginParse(), loadLeaf);
    const right = loadBinTree(slice.loadRef().beginParse(), loadLeaf);
    return { kind: 'fork', left, right };
}
