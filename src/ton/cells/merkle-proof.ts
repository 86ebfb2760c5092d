import { BitString, type Cell, CellType, loadDepthBalanceInfo, type Slice } from '@ton/core';
import { cellBuilder, cellWithRefs } from './core-cells.ts';
import { readHmLabel } from '../dict/hm-label.ts';

/**
 * Merkle proofs as TON builds them:
 *   `!merkle_proof#03 {X:Type} virtual_hash:bits256 depth:uint16 virtual_root:^X = MERKLE_PROOF X;`
 * The virtual root is the original tree with the chosen cells kept and every other ref reachable
 * from them replaced by a pruned branch carrying the cut cell's hashes and depths, so every kept
 * cell keeps its level-0 hash and the virtual root hashes (at level 0) as the original root.
 *
 * Levels: under a Merkle cell (the proof itself, or a MERKLE_UPDATE kept inside the tree) hashes of
 * refs are taken one level higher, so a branch cut at Merkle depth d (d Merkle cells above it,
 * counting the proof) is a pruned branch of level d: its level mask is the cut cell's own mask plus
 * bit d − 1, and it stores the cut cell's hashes and depths at every significant level below d.
 */

/** A cell or its level-0 hash. */
export type CellOrHash = Cell | Buffer;

export interface ProofSelection {
    /** Cells kept themselves (their refs are cut unless selected too); the root is always kept. */
    cells?: Iterable<CellOrHash>;
    /** Cells kept with everything under them. */
    subtrees?: Iterable<CellOrHash>;
}

const keyOf = (cell: CellOrHash): string => (Buffer.isBuffer(cell) ? cell : cell.hash(0)).toString('latin1');

/** The MERKLE_PROOF of `root` showing the selected cells (by level-0 hash) and pruning the rest. */
export function merkleProof(root: Cell, keep: ProofSelection | Iterable<CellOrHash>): Cell {
    const selection: ProofSelection = isSelection(keep) ? keep : { cells: keep };
    return merkleProofCell(root, proofTree(root, selection));
}

function isSelection(keep: ProofSelection | Iterable<CellOrHash>): keep is ProofSelection {
    return !(Symbol.iterator in keep);
}

/** Wraps a virtual tree of `root` (as `proofTree` makes) in a MERKLE_PROOF cell; @ton/core checks the virtual hash. */
export function merkleProofCell(root: Cell, tree: Cell): Cell {
    return cellBuilder().storeUint(3, 8).storeBuffer(root.hash(0)).storeUint(root.depth(0), 16).storeRef(tree).endCell({ exotic: true });
}

/** The virtual tree of `root` showing the selected cells, for Merkle depth `merkleDepth` (1: directly under a MERKLE_PROOF). */
export function proofTree(root: Cell, selection: ProofSelection, merkleDepth = 1): Cell {
    const cells = new Set<string>();
    const subtrees = new Set<string>();
    for (const cell of selection.cells ?? []) cells.add(keyOf(cell));
    for (const cell of selection.subtrees ?? []) subtrees.add(keyOf(cell));
    cells.add(keyOf(root));
    const done = new Map<string, Cell>();
    const visit = (cell: Cell, depth: number): Cell => {
        const k = keyOf(cell);
        if (subtrees.has(k)) return cell;
        const memo = `${depth}:${k}`;
        const known = done.get(memo);
        if (known) return known;
        let result: Cell;
        if (!cells.has(k)) {
            result = prunedBranchAt(cell, depth);
        } else {
            const inner = cell.type === CellType.MerkleProof || cell.type === CellType.MerkleUpdate ? depth + 1 : depth;
            const refs = cell.refs.map(ref => visit(ref, inner));
            result = refs.every((ref, i) => ref === cell.refs[i]) ? cell : cellWithRefs(cell, refs);
        }
        done.set(memo, result);
        return result;
    };
    return visit(root, merkleDepth);
}

/**
 * A pruned branch standing for `cell` at Merkle depth `level` (≥ 1, above the cell's own level):
 * `pruned#01 mask:uint8 hashes:(popcount(mask) * bits256) depths:(popcount(mask) * uint16)`.
 */
export function prunedBranchAt(cell: Cell, level: number): Cell {
    if (level < 1 || level > 3) throw new Error(`a pruned branch is of level 1 to 3, not ${level}`);
    if (cell.level() >= level) throw new Error(`a cell of level ${cell.level()} cannot be pruned at Merkle depth ${level}`);
    const mask = cell.mask.value | (1 << (level - 1));
    // The significant levels below the top one: 0, then i + 1 for each set bit i below the top bit.
    const levels = [0];
    for (let bit = 0; bit < level - 1; bit++) if (mask & (1 << bit)) levels.push(bit + 1);
    const data = Buffer.alloc(2 + 34 * levels.length);
    data[0] = 1;
    data[1] = mask;
    levels.forEach((l, i) => {
        cell.hash(l).copy(data, 2 + 32 * i);
        data.writeUInt16BE(cell.depth(l), 2 + 32 * levels.length + 2 * i);
    });
    return cellWithRefs({ bits: new BitString(data, 0, data.length * 8), isExotic: true } as Cell, []);
}

/** The virtual hash and depth a MERKLE_PROOF cell carries, and its virtual root. */
export function readMerkleProof(proof: Cell): { virtualHash: Buffer; depth: number; root: Cell } {
    if (proof.type !== CellType.MerkleProof) throw new Error('not a MERKLE_PROOF cell');
    const slice = proof.beginParse(true);
    slice.skip(8);
    return { virtualHash: slice.loadBuffer(32), depth: slice.loadUint(16), root: proof.refs[0] };
}

// ---------------------------------------------------------------------------------------------
// Dictionary paths

/**
 * The cells on the way to `key` in a `Hashmap n X` / `HashmapAug n X Y` (same edges; an aug fork's
 * extra follows its refs, a leaf's extra precedes its value):
 *   hm_edge#_ label:(HmLabel ~l n) {n = (~m) + l} node:(HashmapNode m X) = Hashmap n X;
 *   hmn_leaf#_ value:X = HashmapNode 0 X;  hmn_fork#_ left:^(Hashmap n X) right:^(Hashmap n X) = HashmapNode (n + 1) X;
 *   hml_short$0 len:(Unary ~n) s:(n * Bit); hml_long$10 n:(#<= m) s:(n * Bit); hml_same$11 v:Bit n:(#<= m)
 * `leaf` is the leaf's slice just after its label (null when the key is absent: the path then ends
 * at the edge whose label departs from the key, which proves the absence).
 */
export function hashmapPath(root: Cell | null, keyBits: number, key: Buffer | bigint): { path: Cell[]; leaf: Slice | null; leafCell: Cell | null } {
    const bits = typeof key === 'bigint' ? keyBuffer(key, keyBits) : key;
    const bitAt = (i: number) => (bits[i >> 3] >> (7 - (i & 7))) & 1;
    const path: Cell[] = [];
    let cell = root;
    let position = 0;
    while (cell) {
        path.push(cell);
        const slice = cell.beginParse();
        const remaining = keyBits - position;
        const label = readHmLabel(slice, remaining);
        for (let i = 0; i < label.length; i++) {
            if (Number((label.bits >> BigInt(label.length - 1 - i)) & 1n) !== bitAt(position + i)) return { path, leaf: null, leafCell: null };
        }
        position += label.length;
        if (position === keyBits) return { path, leaf: slice, leafCell: cell };
        const next = cell.refs[bitAt(position)];
        position++;
        cell = next;
    }
    return { path, leaf: null, leafCell: null };
}

/** A key of `bits` bits (two's complement for negative keys) as big-endian bytes, padded at the end. */
function keyBuffer(key: bigint, bits: number): Buffer {
    const value = key < 0n ? (1n << BigInt(bits)) + key : key;
    const bytes = Buffer.alloc(Math.ceil(bits / 8));
    const shifted = value << BigInt(bytes.length * 8 - bits);
    for (let i = bytes.length - 1, v = shifted; i >= 0; i--, v >>= 8n) bytes[i] = Number(v & 0xffn);
    return bytes;
}

// ---------------------------------------------------------------------------------------------
// Liteserver answers

/**
 * The MERKLE_PROOF of a block's header: the block root and its `info` (with the cells under it:
 * prev_ref, master_ref, prev_vert_ref), plus per getBlockHeader `mode` bit: 1 the state_update
 * cell (its two sides pruned; its new hash links the block to the state after it), 2 the whole
 * value flow, 16 the extra cell (its refs pruned), 32 with 16 the McBlockExtra and its shard hashes.
 */
export function blockHeaderProof(block: Cell, mode = 0): Cell {
    return merkleProof(block, blockHeaderSelection(block, mode));
}

export function blockHeaderSelection(block: Cell, mode = 0): ProofSelection {
    const [info, valueFlow, stateUpdate, extra] = block.refs;
    const cells: Cell[] = [block];
    const subtrees: Cell[] = [info];
    if (mode & 1) cells.push(stateUpdate);
    if (mode & 2) subtrees.push(valueFlow);
    if (mode & 16) {
        cells.push(extra);
        // block_extra in_msg_descr:^InMsgDescr out_msg_descr:^OutMsgDescr account_blocks:^ShardAccountBlocks
        //   rand_seed:bits256 created_by:bits256 custom:(Maybe ^McBlockExtra) = BlockExtra;
        const custom = extra.refs[3];
        if (mode & 32 && custom) {
            cells.push(custom);
            // masterchain_block_extra#cca5 key_block:(## 1) shard_hashes:ShardHashes … — ShardHashes is a HashmapE 32 (bit, then the root ref).
            const slice = custom.beginParse();
            slice.skip(17);
            if (slice.loadBit()) subtrees.push(custom.refs[0]);
        }
    }
    return { cells, subtrees };
}

/** The proof linking a block to the state after it (getAccountState's first proof root, configInfo's state_proof): mode 1. */
export function blockStateProof(block: Cell): Cell {
    return blockHeaderProof(block, 1);
}

/** The refs of a ShardStateUnsplit root: out_msg_queue_info, accounts, the ^[…] cell, custom (McStateExtra) when present. */
function stateRefs(state: Cell): { accounts: Cell; custom: Cell | null } {
    if (state.beginParse().loadUint(32) !== 0x9023afe2) throw new Error('not a ShardStateUnsplit');
    return { accounts: state.refs[1], custom: state.refs[3] ?? null };
}

export interface AccountInState {
    /** The leaf cell of the accounts dictionary: DepthBalanceInfo then the ShardAccount, inline. */
    leaf: Cell;
    /** The Account cell (`account_none$0` or `account$1 …`). */
    account: Cell;
    lastTransHash: Buffer;
    lastTransLt: bigint;
    /** The ShardAccount as a cell of its own (`account_descr$_ account:^Account last_trans_hash:bits256 last_trans_lt:uint64`), as the TVM writes it. */
    shardAccount: Cell;
}

/** The account with this 256-bit id in a ShardStateUnsplit (`accounts:^ShardAccounts`, `HashmapAugE 256 ShardAccount DepthBalanceInfo`). */
export function findAccount(state: Cell, accountId: Buffer): { path: Cell[]; account: AccountInState | null } {
    const { accounts } = stateRefs(state);
    const path: Cell[] = [accounts];
    // ahme_empty$0 extra:Y | ahme_root$1 root:^(HashmapAug n X Y) extra:Y
    const root = accounts.beginParse().loadBit() ? accounts.refs[0] : null;
    const found = hashmapPath(root, 256, accountId);
    path.push(...found.path);
    if (!found.leaf || !found.leafCell) return { path, account: null };
    const leaf = found.leaf;
    loadDepthBalanceInfo(leaf);
    const account = leaf.loadRef();
    const lastTransHash = leaf.loadBuffer(32);
    const lastTransLt = leaf.loadUintBig(64);
    let shardAccount: Cell | undefined;
    return {
        path,
        account: {
            leaf: found.leafCell, account, lastTransHash, lastTransLt,
            // built (and hashed) only when asked for: most readers want the Account alone
            get shardAccount() {
                shardAccount ??= cellBuilder().storeRef(account).storeBuffer(lastTransHash).storeUint(lastTransLt, 64).endCell();
                return shardAccount;
            },
        },
    };
}

/**
 * The MERKLE_PROOF of a ShardStateUnsplit showing one account: the root, the accounts dictionary's
 * path to the account's leaf (DepthBalanceInfo + ShardAccount, with the Account cell pruned: it is
 * answered in full beside the proof), or to where the key departs from the dictionary (absence).
 * @ton/core's `loadShardStateUnsplit` on the proof's virtual root reads the account's last
 * transaction and skips what is pruned.
 */
export function shardAccountProof(state: Cell, accountId: Buffer): { proof: Cell; account: AccountInState | null } {
    const { path, account } = findAccount(state, accountId);
    return { proof: merkleProof(state, [state, ...path]), account };
}

/**
 * The ConfigParams of a masterchain state: `custom:(Maybe ^McStateExtra)`, then
 * `masterchain_state_extra#cc26 shard_hashes:ShardHashes config:ConfigParams …` with
 * `_ config_addr:bits256 config:^(Hashmap 32 ^Cell) = ConfigParams;`.
 */
export function stateConfig(state: Cell): { extra: Cell; configAddress: Buffer; config: Cell } {
    const { custom } = stateRefs(state);
    if (!custom) throw new Error('the state has no McStateExtra (not a masterchain state)');
    const slice = custom.beginParse();
    if (slice.loadUint(16) !== 0xcc26) throw new Error('invalid McStateExtra tag');
    if (slice.loadBit()) slice.loadRef();
    const configAddress = slice.loadBuffer(32);
    return { extra: custom, configAddress, config: slice.loadRef() };
}

/** A config param's value cell in a masterchain state (null when absent). */
export function configParam(state: Cell, param: number): Cell | null {
    const found = hashmapPath(stateConfig(state).config, 32, BigInt(param));
    return found.leaf ? found.leaf.loadRef() : null;
}

/**
 * The MERKLE_PROOF of a masterchain state showing its config: the root, the McStateExtra cell and
 * the config dictionary: whole (getConfigAll: `params` undefined) or the paths to the given params
 * with their values whole (getConfigParams; an absent param's path proves its absence).
 */
export function configProof(state: Cell, params?: readonly number[]): Cell {
    const { extra, config } = stateConfig(state);
    if (!params) return merkleProof(state, { cells: [state, extra], subtrees: [config] });
    const cells: Cell[] = [state, extra];
    const subtrees: Cell[] = [];
    for (const param of params) {
        const found = hashmapPath(config, 32, BigInt(param));
        cells.push(...found.path);
        if (found.leaf) subtrees.push(found.leaf.loadRef());
    }
    return merkleProof(state, { cells, subtrees });
}
