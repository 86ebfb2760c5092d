import { type Builder, type Cell, type Slice } from '@ton/core';
import { builtCell, cellBuilder } from '../cells/core-cells.ts';
import { UnloadedCell } from '../cells/lazy-cell.ts';
import { readColdRecord, writeColdRecord } from './cold-record.ts';
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
    /** Reads an extra as `storeExtra` wrote it; needed only by a dictionary whose source keeps folded forks' subtrees (`SubtreeSource.folds`). */
    loadExtra?(slice: Slice): E;
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

/**
 * A subtree not held in memory, which is also its edge's cell (unloaded until read): its label,
 * hash, depth and extra. A region (`children` null) is loaded back from the dictionary's source; a
 * fork whose two subtrees had both gone cold folds into one, whose `children` are those two, or the
 * id the source's fold store keeps them under. Nothing in it changes but memos (what it loaded, its
 * children once taken back), so a state built on it reads the same cells whenever it is read.
 * Folding keeps a dictionary's cold part at one small object a node, or, with a fold store, at the
 * cold subtrees hanging off what is held.
 */
class Cold<V, E> extends UnloadedCell {
    declare readonly kind: 'cold';
    /** A region's subtree once loaded back (by the dictionary or by whoever read this cell). */
    subtree: Edge<V, E> | undefined = undefined;

    constructor(
        private readonly dict: AugmentedDict<V, E>,
        hash: Buffer,
        depth: number,
        readonly extra: E,
        readonly offset: number,
        readonly length: number,
        readonly key: bigint,
        public children: [Cold<V, E>, Cold<V, E>] | number | null,
    ) {
        super(hash, depth);
    }

    protected produce(): Cell {
        return this.dict.coldCell(this);
    }
}
Object.defineProperty(Cold.prototype, 'kind', { value: 'cold' });

/**
 * Where folded forks' subtrees wait, serialized, while they are cold: what keeps a large
 * dictionary's cold part out of memory. An id is taken back once.
 */
export interface FoldStore {
    /** Keeps the serialized pair; returns the id to take it back by. */
    keep(children: Buffer): number;
    /** The pair kept under `id`, which the store then forgets (undefined if it holds none). */
    take(id: number): Buffer | undefined;
}

/** Where a dictionary with evicted subtrees loads them back from. */
export interface SubtreeSource<V> {
    /** Every entry whose key starts with the top `bits` bits of `prefix` (as the dictionary held them when the subtree was evicted). */
    entries(prefix: bigint, bits: number): Iterable<[bigint, V]>;
    /** Told of each subtree loaded back, with its edge cell. */
    loaded?(cell: Cell): void;
    /** Where folded forks keep their two subtrees (without one, in memory); the dictionary's type must then read extras (`loadExtra`). */
    folds?: FoldStore;
}

/** A node with its label: `length` key bits starting `offset` bits from the top of `key` (any key below it). */
interface Edge<V, E> {
    offset: number;
    length: number;
    key: bigint;
    node: Leaf<V, E> | Fork<V, E> | Cold<V, E>;
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

    /** `source`: where evicted subtrees are loaded back from (without one, nothing can be evicted). */
    constructor(readonly type: AugmentedDictType<V, E>, private readonly source?: SubtreeSource<V>) {
        if (source?.folds && (!type.loadExtra || type.keyBits > 256)) throw new Error('a dictionary that stores folded forks needs keys of at most 256 bits and a type that reads extras (loadExtra)');
    }

    get size(): number {
        return this.count;
    }

    get(key: bigint): V | undefined {
        let edge = this.root;
        while (edge) {
            if (this.commonPrefix(edge, key) < edge.length) return undefined;
            if (edge.node.kind === 'cold') this.thaw(edge);
            if (edge.node.kind === 'leaf') return edge.node.value;
            if (edge.node.kind !== 'fork') return undefined;
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

    /**
     * Drops the cells and entries of the subtree holding `key` whose edge ends at least `depth` bits
     * down (or is a leaf), keeping its hash, depth and extra; it is loaded back from the source when
     * something at or below its label changes. The forks above it whose two subtrees are then both
     * evicted fold into one cold subtree each. With `held` (is anything under the top `bits` bits of
     * `key` to stay in memory?), a subtree beside that path that is held by nothing goes too, whole:
     * what is left of a region loaded back larger than the ones evicted now. Returns the cells that
     * left the tree (the evicted subtrees' children and the folded forks': what a census of the tree
     * no longer counts); null when no entry has those first `depth` bits or the subtree is evicted
     * already.
     * With a fold store, a root made before the eviction is not to be read below what it folded (the
     * pairs are taken back once, by the current tree): make the root again, which hashes the same.
     */
    evict(key: bigint, depth: number, held?: (key: bigint, bits: number) => boolean): Cell[] | null {
        if (!this.source) throw new Error('a dictionary without a source cannot evict subtrees');
        const path: Edge<V, E>[] = [];
        let edge = this.root;
        while (edge) {
            if (edge.node.kind === 'cold') return null;
            const end = edge.offset + edge.length;
            if (end >= depth || edge.node.kind === 'leaf') {
                const checked = Math.min(depth, end);
                if (checked > 0 && ((edge.key ^ key) >> BigInt(this.type.keyBits - checked)) !== 0n) return null;
                // The parents' cells hold the subtree's cells; they are made again on the cold cell (same hashes).
                // A fork that folds keeps its cell's hash, so the cell it had is what the fold reads.
                const before = path.map(parent => parent.cell);
                for (const parent of path) parent.cell = undefined;
                const gone = this.evictWhole(edge);
                for (let i = path.length - 1; i >= 0; i--) {
                    const fork = path[i].node;
                    if (fork.kind !== 'fork') break;
                    if (held) {
                        const bits = path[i].offset + path[i].length + 1;
                        for (const child of [fork.left, fork.right]) {
                            if (child.node.kind !== 'cold' && !held(child.key, bits)) gone.push(...this.evictWhole(child));
                        }
                    }
                    if (fork.left.node.kind !== 'cold' || fork.right.node.kind !== 'cold') break;
                    // The fork's cell goes cold: its two (cold) subtrees and any cells its extra refers to leave the tree.
                    const forkCell = before[i] ?? this.edgeCell(path[i]);
                    gone.push(fork.left.node.asCell(), fork.right.node.asCell(), ...forkCell.refs.slice(2));
                    const pair: [Cold<V, E>, Cold<V, E>] = [fork.left.node, fork.right.node];
                    this.freeze(path[i], forkCell, this.source.folds ? this.keepPair(pair) : pair);
                }
                return gone;
            }
            if (this.commonPrefix(edge, key) < edge.length) return null;
            path.push(edge);
            edge = this.bitAt(key, end) ? edge.node.right : edge.node.left;
        }
        return null;
    }

    /**
     * The edge's subtree made one cold region; its cell's refs, which leave the tree. Folded forks
     * inside it (left by evictions within a region loaded back larger) are dropped from the fold store:
     * the region comes back whole from the source.
     */
    private evictWhole(edge: Edge<V, E>): Cell[] {
        const cell = this.edgeCell(edge);
        if (this.source?.folds) this.dropFolds(edge);
        this.freeze(edge, cell, null);
        return [...cell.refs];
    }

    private dropFolds(edge: Edge<V, E>): void {
        const node = edge.node;
        if (node.kind === 'fork') {
            this.dropFolds(node.left);
            this.dropFolds(node.right);
        } else if (node.kind === 'cold') {
            this.dropColdFolds(node);
        }
    }

    private dropColdFolds(cold: Cold<V, E>): void {
        const children = this.childrenOf(cold);
        if (children) for (const child of children) this.dropColdFolds(child);
    }

    /** The edge's subtree, whose cell is `cell`, made cold (a folded fork's with its `children`). */
    private freeze(edge: Edge<V, E>, cell: Cell, children: Cold<V, E>['children']): void {
        const cold = new Cold(this, cell.hash(0), cell.depth(0), this.edgeExtra(edge), edge.offset, edge.length, edge.key, children);
        edge.node = cold;
        edge.cell = cold.asCell();
    }

    /** A folded fork's two subtrees written to the fold store; the id they are kept under. */
    private keepPair(pair: [Cold<V, E>, Cold<V, E>]): number {
        return this.source!.folds!.keep(Buffer.concat(pair.map(cold => this.coldRecord(cold))));
    }

    /** A folded fork's two subtrees, taken back from the fold store the first time they are asked for (null for a region). */
    private childrenOf(cold: Cold<V, E>): [Cold<V, E>, Cold<V, E>] | null {
        if (typeof cold.children === 'number') {
            const record = this.source!.folds!.take(cold.children);
            if (!record) throw new Error(`fold ${cold.children} was taken back already: a root made before an eviction was read below the subtrees folded by it (make the root again after evicting)`);
            const left = this.readColdRecord(record, 0);
            cold.children = [left.cold, this.readColdRecord(record, left.end).cold];
        }
        return cold.children;
    }

    /** A cold subtree as the fold store keeps it (cold-record.ts). */
    private coldRecord(cold: Cold<V, E>): Buffer {
        // A folded subtree whose pair was taken back (its cell was read) is kept again under a new id.
        if (Array.isArray(cold.children)) cold.children = this.keepPair(cold.children);
        const builder = cellBuilder();
        this.type.storeExtra(cold.extra, builder);
        const { offset, length, key, children } = cold;
        const fields = { folded: children !== null, hash: cold.hash(), depth: cold.depth(), offset, length, key, id: children ?? 0 };
        return writeColdRecord(fields, builtCell(builder));
    }

    /** The cold subtree `coldRecord` wrote at `start` of `record`, and where its record ends. */
    private readColdRecord(record: Buffer, start: number): { cold: Cold<V, E>; end: number } {
        const { fields: f, extra, end } = readColdRecord(record, start);
        return { cold: new Cold(this, f.hash, f.depth, this.type.loadExtra!(extra), f.offset, f.length, f.key, f.folded ? f.id : null), end };
    }

    /** A cold subtree in memory again, in place (its edge keeps its label): a folded fork over its two cold subtrees, a region from the source. */
    private thaw(edge: Edge<V, E>): void {
        const cold = edge.node as Cold<V, E>;
        const cell = cold.materialize();
        const fork = this.unfolded(cold);
        if (fork) {
            edge.node = fork;
        } else {
            const subtree = cold.subtree!;
            edge.node = subtree.node;
            edge.key = subtree.key;
        }
        edge.cell = cell;
        edge.extra = cold.extra;
    }

    /**
     * The real cell of a cold subtree (what reading its cell asks for): a folded fork's made again on
     * its two cold subtrees, a region's from the source's entries. The source is told of each.
     * @internal for Cold
     */
    coldCell(cold: Cold<V, E>): Cell {
        const fork = this.unfolded(cold);
        const edge = fork ? { offset: cold.offset, length: cold.length, key: cold.key, node: fork, extra: cold.extra } : (cold.subtree ??= this.loadSubtree(cold.offset, cold.length, cold.key));
        const cell = this.edgeCell(edge);
        this.source!.loaded?.(cell);
        return cell;
    }

    /** The subtree below an edge (`offset`, `length`, any key under it) made again from the source's entries. */
    private loadSubtree(offset: number, length: number, key: bigint): Edge<V, E> {
        const depth = offset + length;
        const part = new AugmentedDict(this.type);
        for (const [k, value] of this.source!.entries(key, depth)) part.set(k, value);
        const root = part.root;
        if (!root || root.offset !== 0 || root.length !== depth || (root.node.kind === 'leaf') !== (depth === this.type.keyBits)) {
            throw new Error(`the ${part.size} entries loaded back under a ${depth}-bit prefix do not make the subtree evicted there`);
        }
        return { offset, length, key: root.key, node: root.node };
    }

    private insert(edge: Edge<V, E>, key: bigint, leaf: Leaf<V, E>): Edge<V, E> {
        if (edge.node.kind === 'cold') this.thaw(edge);
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
        if (edge.node.kind !== 'fork') throw new Error('unreachable: a cold subtree is thawed above');
        if (this.bitAt(key, edge.offset + edge.length)) edge.node.right = this.insert(edge.node.right, key, leaf);
        else edge.node.left = this.insert(edge.node.left, key, leaf);
        return edge;
    }

    private remove(edge: Edge<V, E>, key: bigint): Edge<V, E> | null | typeof NOT_FOUND {
        if (this.commonPrefix(edge, key) < edge.length) return NOT_FOUND;
        if (edge.node.kind === 'cold') this.thaw(edge);
        if (edge.node.kind === 'leaf') return null;
        if (edge.node.kind !== 'fork') throw new Error('unreachable: a cold subtree is thawed above');
        const right = this.bitAt(key, edge.offset + edge.length);
        const child = right ? edge.node.right : edge.node.left;
        const result = this.remove(child, key);
        if (result === NOT_FOUND) return NOT_FOUND;
        if (result === null) {
            // The fork has one child left: it takes this edge's place with the labels joined.
            const other = right ? edge.node.left : edge.node.right;
            if (other.node.kind === 'cold') this.thaw(other);
            return { offset: edge.offset, length: edge.length + 1 + other.length, key: other.key, node: other.node };
        }
        edge.cell = undefined;
        edge.extra = undefined;
        if (right) edge.node.right = result;
        else edge.node.left = result;
        return edge;
    }

    /** A folded fork's node over its two cold subtrees (null for a region). */
    private unfolded(cold: Cold<V, E>): Fork<V, E> | null {
        const children = this.childrenOf(cold);
        if (!children) return null;
        const edge = (sub: Cold<V, E>): Edge<V, E> => ({ offset: sub.offset, length: sub.length, key: sub.key, node: sub, cell: sub.asCell(), extra: sub.extra });
        return { kind: 'fork', left: edge(children[0]), right: edge(children[1]) };
    }

    private edgeExtra(edge: Edge<V, E>): E {
        if (edge.extra === undefined) {
            edge.extra = edge.node.kind !== 'fork' ? edge.node.extra : this.type.add(this.edgeExtra(edge.node.left), this.edgeExtra(edge.node.right));
        }
        return edge.extra;
    }

    private edgeCell(edge: Edge<V, E>): Cell {
        if (edge.cell) return edge.cell;
        if (edge.node.kind === 'cold') return (edge.cell = edge.node.asCell());
        const builder = cellBuilder();
        storeHmLabel(builder, edge.key, this.type.keyBits, edge.offset, edge.length, this.type.keyBits - edge.offset);
        if (edge.node.kind === 'leaf') {
            this.type.storeExtra(edge.node.extra, builder);
            this.type.storeValue(edge.node.value, builder);
        } else {
            builder.storeRef(this.edgeCell(edge.node.left)).storeRef(this.edgeCell(edge.node.right));
            this.type.storeExtra(this.edgeExtra(edge), builder);
        }
        edge.cell = builtCell(builder);
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
