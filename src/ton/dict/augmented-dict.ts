import { beginCell, type Builder, type Cell } from '@ton/core';
import { storeHmLabel } from './hm-label.ts';

// ahm_edge#_ {n:#} {X:Type} {Y:Type} {l:#} {m:#} label:(HmLabel ~l n) {n = (~m) + l}
//   node:(HashmapAugNode m X Y) = HashmapAug n X Y;
// ahmn_leaf#_ {X:Type} {Y:Type} extra:Y value:X = HashmapAugNode 0 X Y;
// ahmn_fork#_ {n:#} {X:Type} {Y:Type} left:^(HashmapAug n X Y)
//   right:^(HashmapAug n X Y) extra:Y = HashmapAugNode (n + 1) X Y;
// ahme_empty$0 {n:#} {X:Type} {Y:Type} extra:Y = HashmapAugE n X Y;
// ahme_root$1 {n:#} {X:Type} {Y:Type} root:^(HashmapAug n X Y) extra:Y = HashmapAugE n X Y;

/** What an augmented dictionary holds: its key size, how values and extras are stored, and how extras add up. */
export interface AugmentedDictType<V, E> {
    keyBits: number;
    /** The extra of a leaf. */
    extraOf(value: V): E;
    /** The extra of a fork: the sum of its children's. */
    add(left: E, right: E): E;
    /** The extra of an empty dictionary. */
    empty: E;
    storeExtra(extra: E, builder: Builder): void;
    storeValue(value: V, builder: Builder): void;
}

interface Leaf<V, E> {
    kind: 'leaf';
    value: V;
    extra: E;
}

interface Fork<V, E> {
    kind: 'fork';
    left: Edge<V, E>;
    right: Edge<V, E>;
}

/** A node with its label: `length` key bits starting `offset` bits from the top of `key` (any key below it). */
interface Edge<V, E> {
    offset: number;
    length: number;
    key: bigint;
    node: Leaf<V, E> | Fork<V, E>;
    /** The serialized edge, kept until something below it changes. */
    cell?: Cell;
    extra?: E;
}

/**
 * A mutable augmented Patricia dictionary that keeps every node's cell until something below it
 * changes, so after k changes its root costs O(k · depth) new cells, not a rebuild (a shard state's
 * accounts change by a few per block among many).
 */
export class AugmentedDict<V, E> {
    private root: Edge<V, E> | null = null;
    private count = 0;

    constructor(readonly type: AugmentedDictType<V, E>) {}

    get size(): number {
        return this.count;
    }

    get(key: bigint): V | undefined {
        let edge = this.root;
        while (edge) {
            if (this.commonPrefix(edge, key) < edge.length) return undefined;
            if (edge.node.kind === 'leaf') return edge.node.value;
            edge = this.bitAt(key, edge.offset + edge.length) ? edge.node.right : edge.node.left;
        }
        return undefined;
    }

    set(key: bigint, value: V): void {
        const leaf: Leaf<V, E> = { kind: 'leaf', value, extra: this.type.extraOf(value) };
        if (this.root) {
            this.root = this.insert(this.root, key, leaf);
        } else {
            this.root = { offset: 0, length: this.type.keyBits, key, node: leaf };
            this.count = 1;
        }
    }

    delete(key: bigint): boolean {
        if (!this.root) return false;
        const result = this.remove(this.root, key);
        if (result === NOT_FOUND) return false;
        this.root = result;
        this.count--;
        return true;
    }

    /** The extra of the whole dictionary. */
    extra(): E {
        return this.root ? this.edgeExtra(this.root) : this.type.empty;
    }

    /** The `HashmapAug n X Y` root cell; null when empty. */
    rootCell(): Cell | null {
        return this.root ? this.edgeCell(this.root) : null;
    }

    /** Stores the dictionary as `HashmapAugE n X Y`. */
    storeAugE(builder: Builder): void {
        const root = this.rootCell();
        if (root) builder.storeBit(true).storeRef(root);
        else builder.storeBit(false);
        this.type.storeExtra(this.extra(), builder);
    }

    private insert(edge: Edge<V, E>, key: bigint, leaf: Leaf<V, E>): Edge<V, E> {
        const common = this.commonPrefix(edge, key);
        if (common < edge.length) {
            // The new key leaves this edge's label at `split`: a fork there, the old node shortened below it.
            const split = edge.offset + common;
            const old: Edge<V, E> = { offset: split + 1, length: edge.length - common - 1, key: edge.key, node: edge.node };
            const fresh: Edge<V, E> = { offset: split + 1, length: this.type.keyBits - split - 1, key, node: leaf };
            this.count++;
            const node: Fork<V, E> = this.bitAt(key, split) ? { kind: 'fork', left: old, right: fresh } : { kind: 'fork', left: fresh, right: old };
            return { offset: edge.offset, length: common, key, node };
        }
        edge.cell = undefined;
        edge.extra = undefined;
        if (edge.node.kind === 'leaf') {
            edge.node = leaf;
            return edge;
        }
        if (this.bitAt(key, edge.offset + edge.length)) edge.node.right = this.insert(edge.node.right, key, leaf);
        else edge.node.left = this.insert(edge.node.left, key, leaf);
        return edge;
    }

    private remove(edge: Edge<V, E>, key: bigint): Edge<V, E> | null | typeof NOT_FOUND {
        if (this.commonPrefix(edge, key) < edge.length) return NOT_FOUND;
        if (edge.node.kind === 'leaf') return null;
        const right = this.bitAt(key, edge.offset + edge.length);
        const child = right ? edge.node.right : edge.node.left;
        const result = this.remove(child, key);
        if (result === NOT_FOUND) return NOT_FOUND;
        if (result === null) {
            // The fork has one child left: it takes this edge's place with the labels joined.
            const other = right ? edge.node.left : edge.node.right;
            return { offset: edge.offset, length: edge.length + 1 + other.length, key: other.key, node: other.node };
        }
        edge.cell = undefined;
        edge.extra = undefined;
        if (right) edge.node.right = result;
        else edge.node.left = result;
        return edge;
    }

    private edgeExtra(edge: Edge<V, E>): E {
        if (edge.extra === undefined) {
            edge.extra = edge.node.kind === 'leaf' ? edge.node.extra : this.type.add(this.edgeExtra(edge.node.left), this.edgeExtra(edge.node.right));
        }
        return edge.extra;
    }

    private edgeCell(edge: Edge<V, E>): Cell {
        if (edge.cell) return edge.cell;
        const builder = beginCell();
        storeHmLabel(builder, edge.key, this.type.keyBits, edge.offset, edge.length, this.type.keyBits - edge.offset);
        if (edge.node.kind === 'leaf') {
            this.type.storeExtra(edge.node.extra, builder);
            this.type.storeValue(edge.node.value, builder);
        } else {
            builder.storeRef(this.edgeCell(edge.node.left)).storeRef(this.edgeCell(edge.node.right));
            this.type.storeExtra(this.edgeExtra(edge), builder);
        }
        edge.cell = builder.endCell();
        return edge.cell;
    }

    /** How many bits of the edge's label `key` shares. */
    private commonPrefix(edge: Edge<V, E>, key: bigint): number {
        if (edge.length === 0) return 0;
        const shift = BigInt(this.type.keyBits - edge.offset - edge.length);
        const differ = ((key ^ edge.key) >> shift) & ((1n << BigInt(edge.length)) - 1n);
        return differ === 0n ? edge.length : edge.length - differ.toString(2).length;
    }

    private bitAt(key: bigint, position: number): boolean {
        return ((key >> BigInt(this.type.keyBits - 1 - position)) & 1n) === 1n;
    }
}

const NOT_FOUND = Symbol('not found');
