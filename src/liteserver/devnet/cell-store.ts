import { sha256 } from '../../ton/sha256.ts';
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';
import { BitString, Cell, CellType } from '@ton/core';
import { readBoc } from '../../ton/boc/boc-reader.ts';
import { loadBlockInfo } from '../../ton/block/block-info.ts';
import { splitStateCell } from '../../ton/block/store-state.ts';
import { makeKnownCell, ownBytes } from '../../ton/cells/core-cells.ts';

/**
 * The devnet's cell database ("celldb"): every cell of every shard state the devnet has had, stored
 * once by its hash, so a liteserver can answer for the state after ANY past block without keeping
 * whole states. It is derived from the chain log alone: the zerostates are stored whole, then each
 * block's MERKLE_UPDATE new side adds the cells it shows (the cells that changed); every pruned branch
 * of a new side stands for a cell of an earlier state of the same shard, which is stored already.
 *
 * Table `cells`: hash (32 bytes, the level-0 representation hash) → `repr`, the cell's level-0
 * representation: d1 (refs + 8·exotic, level mask 0), d2, the padded data, then each ref's depth
 * (uint16) and each ref's hash. So `sha256(repr) = hash`, the cell's own serialized bytes are
 * `repr[0 .. 2 + data length]` and its refs' hashes and depths follow them. States are trees of
 * level-0 cells (ordinary cells and library cells); anything else in a state is refused at ingest.
 *
 * Table `states`: (workchain, seqno) → the block's root hash and the state hash after the block
 * (the zerostate at seqno 0, with the zerostate's root hash as block hash).
 *
 * Reading is lazy: `load(hash)` gives a @ton/core-compatible Cell whose refs are read from the
 * database when first touched (and kept by that cell), with an LRU of loaded cells shared by all
 * lookups; walking a path of a state reads only that path and the siblings it touches.
 */

/** 2: states by block (several shards' blocks share a seqno). */
const LAYOUT_VERSION = 2;
const LIBRARY_CELL = 2;

export interface CellStoreOptions {
    /** How many loaded cells stay cached (LRU) between lookups; default 100 000. */
    cacheCells?: number;
    /** Check `sha256(repr) = hash` for every cell read from the database; default true. */
    verify?: boolean;
    readonly?: boolean;
}

export interface SyncStats {
    /** Zerostates stored by this call (0 or 2). */
    zerostates: number;
    /** Of `cells`, those the zerostates added. */
    zerostateCells: number;
    /** Blocks whose state updates were ingested by this call. */
    blocks: number;
    /** Cells added to the store (new distinct hashes). */
    cells: number;
    /** Bytes of `repr` added (plus 32 per cell for the key). */
    bytes: number;
    /** The chain log seq of the last ingested block. */
    lastSeq: number;
}

export interface StoredState {
    workchain: number;
    seqno: number;
    /** The block's root hash (for seqno 0: the zerostate's root hash). */
    blockHash: Buffer;
    /** The state hash after the block (ShardStateUnsplit root). */
    stateHash: Buffer;
    /** The chain log seq of the block (0 for zerostates). */
    seq: number;
}

/** The parts of a stored cell's representation. */
export interface CellRecord {
    exotic: boolean;
    /** The bits descriptor (⌈bits/8⌉ + ⌊bits/8⌋); `data` is the padded data. */
    d2: number;
    data: Buffer;
    bitLength: number;
    refHashes: Buffer[];
    refDepths: number[];
    depth: number;
}

export class CellStore {
    private readonly db: Database.Database;
    private readonly cache = new Map<string, Cell>();
    private readonly cacheLimit: number;
    private readonly verify: boolean;
    private readonly selectCell: Database.Statement<[Buffer], { repr: Buffer }>;
    private readonly hasCell: Database.Statement<[Buffer], { one: number }>;
    /** Number of cell rows read from the database (tests and benchmarks). */
    reads = 0;

    constructor(file: string, options: CellStoreOptions = {}) {
        this.cacheLimit = options.cacheCells ?? 100_000;
        this.verify = options.verify ?? true;
        if (options.readonly) {
            this.db = new Database(file, { readonly: true, fileMustExist: true });
        } else {
            mkdirSync(dirname(file), { recursive: true });
            this.db = new Database(file);
            this.db.pragma('journal_mode = WAL');
            this.db.pragma('synchronous = NORMAL');
            // Everything here is derived from the chain log: a store of another layout is dropped and made again.
            const made = this.db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'meta'").get() !== undefined;
            if (made && this.meta<number>('layout') !== LAYOUT_VERSION) {
                this.db.exec('DROP TABLE IF EXISTS cells; DROP TABLE IF EXISTS states; DROP TABLE meta;');
            }
            this.db.exec(`
                CREATE TABLE IF NOT EXISTS cells (hash BLOB PRIMARY KEY, repr BLOB NOT NULL) WITHOUT ROWID;
                CREATE TABLE IF NOT EXISTS states (block_hash BLOB PRIMARY KEY, workchain INTEGER NOT NULL, seqno INTEGER NOT NULL,
                    state_hash BLOB NOT NULL, seq INTEGER NOT NULL) WITHOUT ROWID;
                CREATE INDEX IF NOT EXISTS states_by_seqno ON states (workchain, seqno);
                CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
            `);
            this.setMeta('layout', LAYOUT_VERSION);
        }
        this.selectCell = this.db.prepare('SELECT repr FROM cells WHERE hash = ?');
        this.hasCell = this.db.prepare('SELECT 1 AS one FROM cells WHERE hash = ?');
    }

    close(): void {
        this.db.close();
        this.cache.clear();
    }

    /** The chain log seq of the last block ingested (0 before any). */
    get lastSeq(): number {
        return this.meta<number>('last_seq') ?? 0;
    }

    /**
     * Brings the store up to the chain log at `chainLogFile` (`<data>/devnet/chain.sqlite`, opened
     * read-only beside its producer): the zerostates once, then every block after the last one
     * ingested, in production order. Blocks are committed in batches with the position reached, so
     * an interrupted sync resumes where it stopped.
     */
    sync(chainLogFile: string, options: { batch?: number } = {}): SyncStats {
        const log = new Database(chainLogFile, { readonly: true, fileMustExist: true });
        try {
            return this.syncFrom(log, options.batch ?? 64);
        } finally {
            log.close();
        }
    }

    private syncFrom(log: Database.Database, batch: number): SyncStats {
        const stats: SyncStats = { zerostates: 0, zerostateCells: 0, blocks: 0, cells: 0, bytes: 0, lastSeq: this.lastSeq };
        const zerostates = log.prepare('SELECT workchain, root_hash FROM zerostates ORDER BY workchain').all() as Array<{ workchain: number; root_hash: string }>;
        if (zerostates.length === 0) return stats;
        const identity = zerostates.map(z => `${z.workchain}:${z.root_hash}`).join(',');
        const known = this.meta<string>('zerostates');
        if (known !== undefined && known !== identity) {
            throw new Error(`the cell store was made from another chain (zerostates ${known}, the chain log has ${identity}); delete it to rebuild it`);
        }
        const inserter = this.inserter(stats);
        if (known === undefined) {
            this.db.transaction(() => {
                const selectBoc = log.prepare('SELECT boc FROM zerostates WHERE workchain = ?');
                for (const z of zerostates) {
                    const root = readBoc((selectBoc.get(z.workchain) as { boc: Buffer }).boc)[0];
                    if (root.hash(0).toString('hex') !== z.root_hash) throw new Error(`zerostate ${z.workchain} does not hash as its id`);
                    inserter.storeTree(root);
                    this.putState({ workchain: z.workchain, seqno: 0, blockHash: root.hash(0), stateHash: root.hash(0), seq: 0 });
                    stats.zerostates++;
                }
                stats.zerostateCells = stats.cells;
                this.setMeta('zerostates', identity);
                this.setMeta('last_seq', 0);
            })();
        }
        const select = log.prepare('SELECT seq, workchain, seqno, root_hash, boc FROM blocks WHERE seq > ? ORDER BY seq LIMIT ?');
        for (;;) {
            const rows = select.all(stats.lastSeq, batch) as Array<{ seq: number; workchain: number; seqno: number; root_hash: string; boc: Buffer }>;
            if (rows.length === 0) break;
            this.db.transaction(() => {
                for (const row of rows) {
                    const block = readBoc(row.boc)[0];
                    const blockHash = block.hash(0);
                    if (blockHash.toString('hex') !== row.root_hash) throw new Error(`block ${row.workchain}:${row.seqno} does not hash as its id`);
                    const update = blockStateUpdate(block);
                    const previous = this.stateBefore(block);
                    if (!previous) throw new Error(`block ${row.workchain}:${row.seqno} follows a state the store does not have`);
                    if (!previous.equals(update.oldHash)) throw new Error(`block ${row.workchain}:${row.seqno}: its old state is not the state after its previous block`);
                    inserter.storeNewSide(update.newSide, `${row.workchain}:${row.seqno}`);
                    if (!update.newSide.hash(0).equals(update.newHash)) throw new Error(`block ${row.workchain}:${row.seqno}: the update's new side is not its new hash`);
                    this.putState({ workchain: row.workchain, seqno: row.seqno, blockHash, stateHash: update.newHash, seq: row.seq });
                    stats.blocks++;
                    stats.lastSeq = row.seq;
                }
                this.setMeta('last_seq', stats.lastSeq);
            })();
        }
        return stats;
    }

    /** Writes cells (level 0 only) in the open transaction, counting what is new. */
    private inserter(stats: SyncStats) {
        const insert = this.db.prepare('INSERT OR IGNORE INTO cells (hash, repr) VALUES (?, ?)');
        const store = (cell: Cell): void => {
            const repr = level0Repr(cell);
            const hash = cell.hash(0);
            if (!sha256(repr).equals(hash)) {
                throw new Error(`cell ${hash.toString('hex')}: its level-0 representation does not hash as the cell`);
            }
            if (insert.run(hash, repr).changes > 0) {
                stats.cells++;
                stats.bytes += repr.length;
            }
        };
        return {
            /** A whole tree of level-0 cells (a zerostate). */
            storeTree: (root: Cell) => {
                const seen = new Set<string>();
                const visit = (cell: Cell) => {
                    const k = cell.hash(0).toString('latin1');
                    if (seen.has(k)) return;
                    seen.add(k);
                    if (cell.level() !== 0) throw new Error(`a state holds a cell of level ${cell.level()}; the cell store keeps level-0 cells only`);
                    store(cell);
                    for (const ref of cell.refs) visit(ref);
                };
                visit(root);
            },
            /**
             * The new side of a state update: cells it shows are stored, pruned branches (level 1)
             * must be stored already (they stand for cells of the previous state).
             */
            storeNewSide: (root: Cell, block: string) => {
                const seen = new Set<string>();
                const referenced: Buffer[] = [];
                const visit = (cell: Cell) => {
                    const k = cell.hash(0).toString('latin1');
                    if (seen.has(k)) return;
                    seen.add(k);
                    if (cell.type === CellType.PrunedBranch) {
                        if (cell.mask.value !== 1) throw new Error(`block ${block}: its state update has a pruned branch of level mask ${cell.mask.value}`);
                        referenced.push(cell.hash(0));
                        return;
                    }
                    if (cell.type !== CellType.Ordinary && cell.type !== CellType.Library) {
                        throw new Error(`block ${block}: its new state holds an exotic cell of type ${cell.type}; the cell store keeps level-0 cells only`);
                    }
                    store(cell);
                    for (const ref of cell.refs) visit(ref);
                };
                visit(root);
                for (const hash of referenced) {
                    if (!seen.has(hash.toString('latin1')) && !this.hasCell.get(hash)) {
                        throw new Error(`block ${block}: its state update prunes cell ${hash.toString('hex')}, which no earlier state has`);
                    }
                }
            },
        };
    }

    private putState(s: StoredState): void {
        this.db.prepare('INSERT OR REPLACE INTO states (block_hash, workchain, seqno, state_hash, seq) VALUES (?, ?, ?, ?, ?)')
            .run(s.blockHash, s.workchain, s.seqno, s.stateHash, s.seq);
    }

    /**
     * The hash of the state a block starts from: the state after its previous block, or after a merge
     * `split_state#5f327da5 left:^ShardStateUnsplit right:^ShardStateUnsplit` of its two previous blocks' states.
     */
    private stateBefore(block: Cell): Buffer | null {
        const info = loadBlockInfo(block.refs[0].beginParse());
        if (info.prevRef.kind === 'single') return this.stateHashAfterBlock(info.prevRef.prev.rootHash);
        const left = this.stateHashAfterBlock(info.prevRef.prev1.rootHash);
        const right = this.stateHashAfterBlock(info.prevRef.prev2.rootHash);
        if (!left || !right) return null;
        return splitStateCell(this.load(left), this.load(right)).hash(0);
    }

    /** The masterchain's state after its block `seqno` (seqno 0: the zerostate); null if not ingested. */
    private masterState(seqno: number): StoredState | null {
        return storedState(this.db.prepare('SELECT workchain, seqno, block_hash, state_hash, seq FROM states WHERE workchain = -1 AND seqno = ?').get(seqno) as StateRow | undefined);
    }

    /** The state after the block with this root hash (a zerostate's root hash: the zerostate); null if not ingested. */
    stateOfBlock(blockRootHash: Buffer): StoredState | null {
        return storedState(this.db.prepare('SELECT workchain, seqno, block_hash, state_hash, seq FROM states WHERE block_hash = ?').get(blockRootHash) as StateRow | undefined);
    }

    /** A workchain's zerostate; null before it is ingested. */
    zerostate(workchain: number): StoredState | null {
        return storedState(this.db.prepare('SELECT workchain, seqno, block_hash, state_hash, seq FROM states WHERE workchain = ? AND seqno = 0').get(workchain) as StateRow | undefined);
    }

    /** The state hash after the block with this root hash (a zerostate's root hash gives itself); null if not ingested. */
    stateHashAfterBlock(blockRootHash: Buffer | string): Buffer | null {
        const hash = typeof blockRootHash === 'string' ? Buffer.from(blockRootHash, 'hex') : blockRootHash;
        const row = this.db.prepare('SELECT state_hash FROM states WHERE block_hash = ?').get(hash) as { state_hash: Buffer } | undefined;
        return row?.state_hash ?? null;
    }

    /** The state hash after masterchain block `seqno` (seqno 0: the zerostate's root hash); null if not ingested. */
    masterStateHashAfter(seqno: number): Buffer | null {
        return this.masterState(seqno)?.stateHash ?? null;
    }

    /** The root of the state after the block with this root hash (lazy); null if not ingested. */
    stateAfter(blockRootHash: Buffer): Cell | null {
        const hash = this.stateHashAfterBlock(blockRootHash);
        return hash ? this.load(hash) : null;
    }

    /** A state's root cell by the state hash (lazy). Throws if the store does not have it. */
    stateRoot(stateHash: Buffer | string): Cell {
        return this.load(stateHash);
    }

    has(hash: Buffer | string): boolean {
        const key = typeof hash === 'string' ? Buffer.from(hash, 'hex') : hash;
        return this.cache.has(key.toString('latin1')) || this.hasCell.get(key) !== undefined;
    }

    /** The stored parts of one cell, without building it; null if absent. */
    record(hash: Buffer | string): CellRecord | null {
        const key = typeof hash === 'string' ? Buffer.from(hash, 'hex') : hash;
        const row = this.selectCell.get(key);
        return row ? parseRepr(row.repr) : null;
    }

    /**
     * The cell with this hash as a @ton/core-compatible Cell (ton/cells/core-cells.ts: `beginParse`,
     * dictionaries, Builder.storeRef and writeBoc accept it). Its refs are loaded on
     * first access and then kept by it; loaded cells are shared through the LRU. Throws if absent.
     */
    load(hash: Buffer | string): Cell {
        const key = typeof hash === 'string' ? Buffer.from(hash, 'hex') : hash;
        const cacheKey = key.toString('latin1');
        const cached = this.cache.get(cacheKey);
        if (cached) {
            this.cache.delete(cacheKey);
            this.cache.set(cacheKey, cached);
            return cached;
        }
        const row = this.selectCell.get(key);
        if (!row) throw new Error(`the cell store has no cell ${key.toString('hex')}`);
        this.reads++;
        if (this.verify && !sha256(row.repr).equals(key)) {
            throw new Error(`cell ${key.toString('hex')} in the cell store is corrupt (its representation hashes otherwise)`);
        }
        const cell = this.makeCell(Buffer.from(key), row.repr);
        this.cache.set(cacheKey, cell);
        if (this.cache.size > this.cacheLimit) this.cache.delete(this.cache.keys().next().value!);
        return cell;
    }

    /** Cells and bytes held (sizes). */
    size(): { cells: number; bytes: number } {
        const row = this.db.prepare('SELECT COUNT(*) AS cells, COALESCE(SUM(LENGTH(repr)), 0) + 32 * COUNT(*) AS bytes FROM cells').get() as { cells: number; bytes: number };
        return row;
    }

    private makeCell(hash: Buffer, repr: Buffer): Cell {
        const record = parseRepr(repr);
        const refs: Cell[] = new Array(record.refHashes.length);
        for (let i = 0; i < record.refHashes.length; i++) {
            const refHash = record.refHashes[i];
            let loaded: Cell | undefined;
            Object.defineProperty(refs, i, { enumerable: true, get: () => (loaded ??= this.load(refHash)) });
        }
        Object.freeze(refs);
        const bits = new BitString(record.data, 0, record.bitLength);
        Object.freeze(bits);
        let type = CellType.Ordinary;
        if (record.exotic) {
            if (record.bitLength < 8 || record.data[0] !== LIBRARY_CELL) throw new Error(`cell ${hash.toString('hex')}: a stored exotic cell must be a library cell`);
            type = CellType.Library;
        }
        return makeKnownCell(type, bits, refs, hash, record.depth, repr.subarray(0, 2 + record.data.length));
    }

    private meta<T>(key: string): T | undefined {
        const row = this.db.prepare('SELECT value FROM meta WHERE key = ?').get(key) as { value: string } | undefined;
        return row ? (JSON.parse(row.value) as T) : undefined;
    }

    private setMeta(key: string, value: unknown): void {
        this.db.prepare('INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value').run(key, JSON.stringify(value));
    }
}

/** The level-0 representation of a level-0 cell (or of the cell a Merkle side shows, whose pruned refs stand for level-0 cells). */
function level0Repr(cell: Cell): Buffer {
    const own = ownBytes(cell) ?? encodeOwnBytes(cell);
    const refs = cell.refs;
    const dataLength = own.length - 2;
    const repr = Buffer.allocUnsafe(2 + dataLength + 34 * refs.length);
    repr[0] = refs.length + (cell.isExotic ? 8 : 0);
    repr[1] = own[1];
    own.copy(repr, 2, 2);
    let at = 2 + dataLength;
    for (const ref of refs) {
        repr.writeUInt16BE(ref.depth(0), at);
        at += 2;
    }
    for (const ref of refs) {
        ref.hash(0).copy(repr, at);
        at += 32;
    }
    return repr;
}

/** d1, d2 and the padded data of a cell built without serialized bytes. */
function encodeOwnBytes(cell: Cell): Buffer {
    const length = cell.bits.length;
    const bytes = Buffer.alloc(2 + Math.ceil(length / 8));
    bytes[0] = cell.refs.length + (cell.isExotic ? 8 : 0);
    bytes[1] = Math.ceil(length / 8) + Math.floor(length / 8);
    for (let i = 0; i < length; i++) if (cell.bits.at(i)) bytes[2 + (i >> 3)] |= 0x80 >> (i & 7);
    if (length % 8 !== 0) bytes[2 + (length >> 3)] |= 0x80 >> (length % 8);
    return bytes;
}

function parseRepr(repr: Buffer): CellRecord {
    const d1 = repr[0];
    const d2 = repr[1];
    const refCount = d1 & 7;
    const dataLength = (d2 >> 1) + (d2 & 1);
    const data = repr.subarray(2, 2 + dataLength);
    const bitLength = d2 & 1 ? paddedBitLength(data) : (d2 >> 1) * 8;
    const refDepths: number[] = [];
    const refHashes: Buffer[] = [];
    let at = 2 + dataLength;
    let depth = 0;
    for (let i = 0; i < refCount; i++, at += 2) {
        const d = repr.readUInt16BE(at);
        refDepths.push(d);
        depth = Math.max(depth, d + 1);
    }
    for (let i = 0; i < refCount; i++, at += 32) refHashes.push(repr.subarray(at, at + 32));
    return { exotic: (d1 & 8) !== 0, d2, data, bitLength, refHashes, refDepths, depth };
}

function paddedBitLength(data: Buffer): number {
    for (let i = data.length - 1; i >= 0; i--) {
        const byte = data[i];
        if (byte !== 0) return i * 8 + 7 - (31 - Math.clz32(byte & -byte));
    }
    throw new Error('cell data has no completion tag');
}

/**
 * `block#11ef55aa global_id:int32 info:^BlockInfo value_flow:^ValueFlow state_update:^(MERKLE_UPDATE ShardState) extra:^BlockExtra`:
 * the state update of a block, with the hashes its data carries
 * (`!merkle_update#04 old_hash:bits256 new_hash:bits256 old_depth:uint16 new_depth:uint16 old:^X new:^X`).
 */
export function blockStateUpdate(block: Cell): { oldHash: Buffer; newHash: Buffer; oldSide: Cell; newSide: Cell } {
    const slice = block.beginParse();
    if (slice.loadUint(32) !== 0x11ef55aa) throw new Error('not a block');
    const update = block.refs[2];
    if (update?.type !== CellType.MerkleUpdate) throw new Error('the block has no MERKLE_UPDATE state update');
    const u = update.beginParse(true);
    u.skip(8);
    const oldHash = u.loadBuffer(32);
    const newHash = u.loadBuffer(32);
    return { oldHash, newHash, oldSide: update.refs[0], newSide: update.refs[1] };
}

/** The state hash after a block: its state update's new hash. */
interface StateRow {
    workchain: number;
    seqno: number;
    block_hash: Buffer;
    state_hash: Buffer;
    seq: number;
}

function storedState(row: StateRow | undefined): StoredState | null {
    return row ? { workchain: row.workchain, seqno: row.seqno, blockHash: row.block_hash, stateHash: row.state_hash, seq: row.seq } : null;
}

export function stateHashAfterBlock(block: Cell): Buffer {
    return blockStateUpdate(block).newHash;
}

/** Where the devnet's cell store lives beside its chain log. */
export function cellStoreFile(dataDir: string): string {
    return `${dataDir}/devnet/cells.sqlite`;
}
