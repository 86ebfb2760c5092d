import type { Cell, Slice } from '@ton/core';
import { lengthFieldBits } from '../dict/hm-label.ts';
import { BitCursor } from '../bit-cursor.ts';

// account_descr$_ account:^Account last_trans_hash:bits256
//   last_trans_lt:uint64 = ShardAccount;
// _ (HashmapAugE 256 ShardAccount DepthBalanceInfo) = ShardAccounts;
//   ahme_empty$0 extra:Y | ahme_root$1 root:^(HashmapAug 256 X Y) extra:Y
// ahm_edge#_ label:(HmLabel ~l n) node:(HashmapAugNode m X Y)
//   ahmn_leaf#_ extra:Y value:X | ahmn_fork#_ left:^ right:^ extra:Y
// depth_balance$_ split_depth:(#<= 30) balance:CurrencyCollection = DepthBalanceInfo;
//
// Every node carries in its extra the total balance of the accounts under it. A block's state
// update shows only the paths to what changed, so accounts are looked up by key, one path each,
// rather than by reading the whole dictionary.

export interface ShardAccountEntry {
    /** The account's balance in nanograms (the leaf's DepthBalanceInfo). */
    balance: bigint;
    /** The Account cell; a pruned branch when the state is a Merkle proof/update that leaves it out. */
    account: Cell;
    lastTransHash: Buffer;
    lastTransLt: bigint;
}

/** A node on the way to a key: the length of the key prefix all accounts under it share, and their total balance. */
export interface PrefixTotal {
    prefixLength: number;
    total: bigint;
}

export type AccountWalk =
    | { kind: 'leaf'; entry: ShardAccountEntry }
    | { kind: 'absent' }
    /** A pruned cell on the way; `deepest` is the last node read (undefined when there was none). */
    | { kind: 'pruned'; deepest?: PrefixTotal };

/**
 * Follows an account's key (the address as uint256) down a ShardAccounts dictionary (null: the
 * dictionary itself is pruned). A label that leaves the key means the account is not there; a pruned
 * branch on the way means this state does not tell. `stopAt` ends the walk at the first node that
 * covers a key prefix that long, returning its total as deepest.
 */
export function walkShardAccounts(root: Cell | null, key: bigint, stopAt = 257): AccountWalk {
    if (!root) {
        return { kind: 'pruned' };
    }
    return walk(root, key, stopAt);
}

/**
 * Every account of `keys` looked up as walkShardAccounts does, in one pass down the dictionary: the
 * paths of a block's accounts share their upper nodes, and each node is read once. The walks of a
 * root are kept with it, as both of a block's readings (its states, its balances) ask for them.
 */
export function walkShardAccountsAll(root: Cell | null, keys: readonly bigint[]): Map<bigint, AccountWalk> {
    if (!root) return new Map(keys.map(key => [key, { kind: 'pruned' }]));
    const known = walksOfRoot.get(root);
    if (known && keys.every(key => known.has(key))) return known;
    const walks = known ?? new Map<bigint, AccountWalk>();
    const wanted = [...new Set(keys)].filter(key => !walks.has(key));
    const top = nodeBits.reset(root);
    if (!top.bit()) {
        for (const key of wanted) walks.set(key, { kind: 'absent' });
    } else {
        const dictionary = root.refs[0];
        if (!dictionary) throw new Error('a ShardAccounts root without its dictionary');
        const total = readDepthBalance(top);
        // In key order the accounts under a node, and those under each of its branches, are runs of the list.
        const items = wanted.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)).map(key => ({ key, hex: key.toString(16).padStart(64, '0') }));
        descend(dictionary, 0, items, 0, items.length, 0, total, walks);
    }
    walksOfRoot.set(root, walks);
    return walks;
}

/** One entry a block: a root's walks, kept while its cells are. */
const walksOfRoot = new WeakMap<Cell, Map<bigint, AccountWalk>>();

/**
 * The keys `items[from..to)` below `cell` (whose node starts `start` bits into the key), under a
 * node that covers the first `deepestLength` bits of them and holds `deepestTotal`.
 */
function descend(cell: Cell, start: number, items: Array<{ key: bigint; hex: string }>, from: number, to: number, deepestLength: number, deepestTotal: bigint, walks: Map<bigint, AccountWalk>): void {
    if (cell.isExotic) {
        const deepest = { prefixLength: deepestLength, total: deepestTotal };
        for (let i = from; i < to; i++) walks.set(items[i].key, { kind: 'pruned', deepest });
        return;
    }
    const node = readNode(cell, start);
    const end = start + node.length;
    // The keys that follow the label are one run; the rest are not in the dictionary.
    let first = -1;
    let last = -1;
    for (let i = from; i < to; i++) {
        const { key, hex } = items[i];
        if (!labelMatches(node, key, hex, start)) {
            walks.set(key, { kind: 'absent' });
        } else {
            if (first < 0) first = i;
            last = i + 1;
            if (end === 256) walks.set(key, leafWalk(node, key));
        }
    }
    if (first < 0 || end === 256) return;
    // Keys with a 0 at the fork's bit come first.
    let split = first;
    while (split < last && hexBit(items[split].hex, end) === 0) split++;
    if (split > first) descend(node.left!, end + 1, items, first, split, end, node.total, walks);
    if (last > split) descend(node.right!, end + 1, items, split, last, end, node.total, walks);
}

/** The entry of a leaf whose label is the rest of `key`. */
function leafWalk(node: DictNode, key: bigint): AccountWalk {
    // the extra of a leaf is the account's own balance; the Account cell, when there, says the same
    const { account, lastTransHash, lastTransLt } = node.leaf!;
    if (!account.isExotic && accountCellBalance(account) !== node.total) {
        throw new Error(`ShardAccounts entry ${key.toString(16)} disagrees with its Account cell`);
    }
    return { kind: 'leaf', entry: { balance: node.total, account, lastTransHash, lastTransLt } };
}

function walk(root: Cell, key: bigint, stopAt: number): AccountWalk {
    const top = nodeBits.reset(root);
    if (!top.bit()) {
        return { kind: 'absent' };
    }
    let cell = root.refs[0];
    if (!cell) throw new Error('a ShardAccounts root without its dictionary');
    // The deepest node read so far: the prefix length all accounts under it share, and their total.
    let deepestLength = 0;
    let deepestTotal = readDepthBalance(top);
    if (stopAt === 0) {
        return { kind: 'pruned', deepest: { prefixLength: 0, total: deepestTotal } };
    }
    // The key's bits are read from its hex digits: shifting a 256-bit BigInt at every level made several a level.
    const hex = key.toString(16).padStart(64, '0');
    let start = 0;
    for (;;) {
        if (cell.isExotic) {
            return { kind: 'pruned', deepest: { prefixLength: deepestLength, total: deepestTotal } };
        }
        const node = readNode(cell, start);
        const { length, total } = node;
        const end = start + length;
        const matches = labelMatches(node, key, hex, start);
        if (end === 256) {
            if (!matches) {
                return stopAt <= 256 && agreesUpTo(labelBits(node), keyBits(key, start, length), length, stopAt - start) ? { kind: 'pruned', deepest: { prefixLength: 256, total } } : { kind: 'absent' };
            }
            if (stopAt <= 256) {
                return { kind: 'pruned', deepest: { prefixLength: 256, total } };
            }
            return leafWalk(node, key);
        }
        if (!matches) {
            if (stopAt <= 256 && agreesUpTo(labelBits(node), keyBits(key, start, length), length, stopAt - start)) {
                return { kind: 'pruned', deepest: { prefixLength: end, total } };
            }
            return { kind: 'absent' };
        }
        deepestLength = end;
        deepestTotal = total;
        if (end >= stopAt) {
            return { kind: 'pruned', deepest: { prefixLength: deepestLength, total: deepestTotal } };
        }
        // the fork's two children take the next key bit
        cell = hexBit(hex, end) ? node.right! : node.left!;
        start = end + 1;
    }
}

/** Bit `at` (0: the most significant) of a 256-bit key written as 64 hex digits. */
function hexBit(hex: string, at: number): number {
    const digit = hex.charCodeAt(at >> 2);
    const value = digit <= 0x39 ? digit - 0x30 : digit - 0x57;
    return (value >> (3 - (at & 3))) & 1;
}

/** The key's `length` bits from `start`, as the label's bits are read. */
function keyBits(key: bigint, start: number, length: number): bigint {
    return length === 0 ? 0n : (key >> BigInt(256 - start - length)) & ((1n << BigInt(length)) - 1n);
}

/** Whether the node's label is the key's next bits: bit by bit for a short label, as BigInts for a long one (a leaf's, once a walk). */
function labelMatches(node: DictNode, key: bigint, hex: string, start: number): boolean {
    const { length } = node;
    if (length > SHORT_LABEL) return node.bits! === keyBits(key, start, length);
    let bits = 0;
    for (let i = 0; i < length; i++) bits = bits * 2 + hexBit(hex, start + i);
    return bits === node.shortBits;
}

/** Labels up to this many bits are compared as numbers (exact below 2^53). */
const SHORT_LABEL = 48;

/** A dictionary node as read: its label, the total under it, and its children (fork) or its ShardAccount (leaf). */
interface DictNode {
    length: number;
    /** The label's bits when it is longer than SHORT_LABEL bits (labelBits gives any label's). */
    bits?: bigint;
    /** The label's bits as a number when it is SHORT_LABEL bits or fewer. */
    shortBits: number;
    total: bigint;
    left?: Cell;
    right?: Cell;
    leaf?: { account: Cell; lastTransHash: Buffer; lastTransLt: bigint };
}

function labelBits(node: DictNode): bigint {
    return node.bits ?? BigInt(node.shortBits);
}

/** One cursor for every node read: readNode reads a node at a time and calls nothing that reads another. */
const nodeBits = new BitCursor();

/** The node in `cell`, `start` key bits below the root, read straight from the cell's bits (thousands of nodes a block). */
function readNode(cell: Cell, start: number): DictNode {
    const bits = nodeBits.reset(cell);
    const max = 256 - start;
    // hml_short$0 len:(Unary ~n) s:(n * Bit) | hml_long$10 n:(#<= m) s:(n * Bit) | hml_same$11 v:Bit n:(#<= m)
    let length: number;
    let same: boolean | undefined;
    if (!bits.bit()) {
        length = 0;
        while (bits.bit()) length++;
    } else if (!bits.bit()) {
        length = bits.uint(lengthFieldBits(max));
    } else {
        same = bits.bit();
        length = bits.uint(lengthFieldBits(max));
    }
    if (length > max) throw new Error('a ShardAccounts label longer than the key');
    const node: DictNode = { length, bits: undefined, shortBits: -1, total: 0n, left: undefined, right: undefined, leaf: undefined };
    if (length <= SHORT_LABEL) node.shortBits = same === undefined ? bits.uint(length) : same ? 2 ** length - 1 : 0;
    else node.bits = same === undefined ? bits.uintBig(length) : same ? (1n << BigInt(length)) - 1n : 0n;
    if (start + length === 256) {
        // ahmn_leaf#_ extra:DepthBalanceInfo value:ShardAccount; extra currencies in the extra take the first ref
        bits.skip(5);
        node.total = bits.varUint(4);
        const account = cell.refs[bits.bit() ? 1 : 0];
        if (!account) throw new Error('a ShardAccounts leaf without its Account cell');
        node.leaf = { account, lastTransHash: bits.buffer(32), lastTransLt: bits.uintBig(64) };
    } else {
        // ahmn_fork#_ left:^ right:^ extra:DepthBalanceInfo
        if (cell.refs.length < 2) throw new Error('a ShardAccounts fork without its two branches');
        node.left = cell.refs[0];
        node.right = cell.refs[1];
        node.total = readDepthBalance(bits);
    }
    return node;
}

/**
 * The balance of an Account cell (null for `account_none$0`), read up to it without decoding the
 * rest: `account$1 addr:MsgAddressInt storage_stat:StorageInfo storage:AccountStorage` with
 * `storage_info$_ used:StorageUsed storage_extra:StorageExtraInfo last_paid:uint32 due_payment:(Maybe Grams)`
 * and `account_storage$_ last_trans_lt:uint64 balance:CurrencyCollection state:AccountState`.
 */
export function accountBalanceSlice(cell: Cell): Slice | null {
    const slice = cell.beginParse(true);
    if (!slice.loadBit()) return null;
    // addr_std$10 anycast:(Maybe Anycast) workchain_id:int8 address:bits256 without anycast: skipped without making an Address
    if (slice.preloadUint(3) === 0b100) slice.skip(3 + 8 + 256);
    else slice.loadAddress();
    slice.loadVarUintBig(3);
    slice.loadVarUintBig(3);
    if (slice.loadUint(3) === 1) slice.skip(256);
    slice.skip(32);
    if (slice.loadBit()) slice.loadCoins();
    slice.skip(64);
    return slice;
}

function accountCellBalance(cell: Cell): bigint {
    return accountBalanceSlice(cell)?.loadCoins() ?? 0n;
}

/** Whether two labels of `length` bits agree on their first `count` bits (count may exceed length). */
function agreesUpTo(a: bigint, b: bigint, length: number, count: number): boolean {
    if (count <= 0) {
        return true;
    }
    if (count >= length) {
        return a === b;
    }
    const shift = BigInt(length - count);
    return a >> shift === b >> shift;
}

/** `depth_balance$_ split_depth:(#<= 30) balance:CurrencyCollection`: the grams (the extra currencies' Maybe ^ is skipped). */
function readDepthBalance(bits: BitCursor): bigint {
    bits.skip(5);
    const grams = bits.varUint(4);
    bits.bit();
    return grams;
}
