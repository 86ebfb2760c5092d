import { Dictionary, type Slice } from '@ton/core';
import { type BinTree, loadBinTree } from './bin-tree.ts';
import { loadShardDescr, type ShardDescr } from './shard-descr.ts';
import { ROOT_SHARD, shardChild } from './shard-id.ts';
import { DictKeys } from '../cells/dict-keys.ts';

// _ (HashmapE 32 ^(BinTree ShardDescr)) = ShardHashes;

/** Shard trees keyed by workchain id. */
export type ShardHashes = Map<number, BinTree<ShardDescr>>;

export function loadShardHashes(slice: Slice): ShardHashes {
    const trees = Dictionary.load(DictKeys.Int(32), Dictionary.Values.Cell(), slice);
    const result: ShardHashes = new Map();
    for (const [workchain, cell] of trees) {
        result.set(workchain, loadBinTree(cell.beginParse(), loadShardDescr));
    }
    return result;
}

/** The leaves of a shard tree with their shard ids: a fork splits its shard into left and right halves. */
export function shardTreeLeaves<X>(tree: BinTree<X>, shard: bigint = ROOT_SHARD): { shard: bigint; leaf: X }[] {
    if (tree.kind === 'leaf') {
        return [{ shard, leaf: tree.leaf }];
    }
    return [
        ...shardTreeLeaves(tree.left, shardChild(shard, 'left')),
        ...shardTreeLeaves(tree.right, shardChild(shard, 'right')),
    ];
}
