import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';
import { readBoc } from '../../ton/boc/boc-reader.ts';
import { writeBoc } from '../../ton/boc/boc-writer.ts';
import { loadBlock } from '../../ton/block/block.ts';
import { shardTreeLeaves } from '../../ton/block/shard-hashes.ts';
import { shardIdFromIdent, shardsOverlap } from '../../ton/block/shard-id.ts';

/**
 * The liteserver's lookup tables over the devnet's chain log, kept in a SQLite file of its own
 * (`<data>/devnet/lite-catalog.sqlite`) and filled incrementally from the log, in production order:
 *
 * - `blocks`: every block's id, shard, gen_utime and logical-time range (lookupBlock by seqno, lt,
 *   utime; the chain log keeps end_lt as text, which SQLite cannot order numerically);
 * - `transactions`: every transaction by (account, lt) with its hash, its block and its BOC
 *   (getTransactions, getOneTransaction, listBlockTransactions in TON's order: account, then lt);
 * - `mc_shards`: the shard blocks each masterchain block commits (its McBlockExtra shard_hashes),
 *   for basechain answers asked at a masterchain block.
 *
 * Everything here is derived from the chain log; delete the file and it is rebuilt.
 */

/** 2: blocks of several shards share seqnos. */
const LAYOUT_VERSION = 2;

export interface CatalogBlock {
    /** The chain log's seq of the block. */
    seq: number;
    workchain: number;
    /** The shard id as unsigned 64-bit. */
    shard: bigint;
    seqno: number;
    utime: number;
    startLt: bigint;
    endLt: bigint;
    rootHash: Buffer;
    fileHash: Buffer;
}

export interface CatalogTransaction {
    account: Buffer;
    lt: bigint;
    hash: Buffer;
    blockSeq: number;
}

export interface CommittedShardBlock {
    workchain: number;
    shard: bigint;
    seqno: number;
    rootHash: Buffer;
    fileHash: Buffer;
}

interface BlockRow {
    seq: bigint;
    workchain: bigint;
    shard: Buffer;
    seqno: bigint;
    utime: bigint;
    start_lt: bigint;
    end_lt: bigint;
    root_hash: Buffer;
    file_hash: Buffer;
}

interface TransactionRow {
    account: Buffer;
    lt: bigint;
    hash: Buffer;
    block_seq: bigint;
}

const shardKey = (shard: bigint): Buffer => {
    const b = Buffer.alloc(8);
    b.writeBigUInt64BE(shard);
    return b;
};

/** The first of the rows (in their order) whose shard overlaps `shard`. */
function firstOverlapping(rows: Iterable<BlockRow>, shard: bigint): CatalogBlock | null {
    for (const row of rows) {
        const block = toBlock(row);
        if (shardsOverlap(block.shard, shard)) return block;
    }
    return null;
}

function toBlock(row: BlockRow): CatalogBlock {
    return {
        seq: Number(row.seq),
        workchain: Number(row.workchain),
        shard: row.shard.readBigUInt64BE(),
        seqno: Number(row.seqno),
        utime: Number(row.utime),
        startLt: row.start_lt,
        endLt: row.end_lt,
        rootHash: row.root_hash,
        fileHash: row.file_hash,
    };
}

function toTransaction(row: TransactionRow): CatalogTransaction {
    return { account: row.account, lt: row.lt, hash: row.hash, blockSeq: Number(row.block_seq) };
}

export class BlockCatalog {
    private readonly db: Database.Database;
    private readonly statements;

    constructor(file: string) {
        mkdirSync(dirname(file), { recursive: true });
        this.db = new Database(file);
        this.db.pragma('journal_mode = WAL');
        this.db.pragma('synchronous = NORMAL');
        // Everything here is derived from the chain log: a catalog of another layout is dropped and made again.
        const made = this.db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'meta'").get() !== undefined;
        if (made && this.meta<number>('layout') !== LAYOUT_VERSION) {
            this.db.exec('DROP TABLE IF EXISTS blocks; DROP TABLE IF EXISTS transactions; DROP TABLE IF EXISTS mc_shards; DROP TABLE meta;');
        }
        this.db.exec(`
            CREATE TABLE IF NOT EXISTS blocks (seq INTEGER PRIMARY KEY, workchain INTEGER NOT NULL, shard BLOB NOT NULL, seqno INTEGER NOT NULL,
                utime INTEGER NOT NULL, start_lt INTEGER NOT NULL, end_lt INTEGER NOT NULL, root_hash BLOB NOT NULL, file_hash BLOB NOT NULL);
            CREATE UNIQUE INDEX IF NOT EXISTS blocks_by_id ON blocks (workchain, shard, seqno);
            CREATE INDEX IF NOT EXISTS blocks_by_seqno ON blocks (workchain, seqno);
            CREATE INDEX IF NOT EXISTS blocks_by_lt ON blocks (workchain, end_lt);
            CREATE INDEX IF NOT EXISTS blocks_by_utime ON blocks (workchain, utime);
            CREATE TABLE IF NOT EXISTS transactions (account BLOB NOT NULL, lt INTEGER NOT NULL, hash BLOB NOT NULL, block_seq INTEGER NOT NULL,
                boc BLOB NOT NULL, PRIMARY KEY (account, lt)) WITHOUT ROWID;
            CREATE INDEX IF NOT EXISTS transactions_by_block ON transactions (block_seq, account, lt);
            CREATE TABLE IF NOT EXISTS mc_shards (mc_seqno INTEGER NOT NULL, workchain INTEGER NOT NULL, shard BLOB NOT NULL, seqno INTEGER NOT NULL,
                root_hash BLOB NOT NULL, file_hash BLOB NOT NULL, PRIMARY KEY (mc_seqno, workchain, shard)) WITHOUT ROWID;
            CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
        `);
        this.setMeta('layout', LAYOUT_VERSION);
        const safe = <T extends Database.Statement>(s: T): T => s.safeIntegers(true) as T;
        this.statements = {
            blockById: safe(this.db.prepare('SELECT * FROM blocks WHERE workchain = ? AND shard = ? AND seqno = ?')),
            blocksBySeqno: safe(this.db.prepare('SELECT * FROM blocks WHERE workchain = ? AND seqno = ?')),
            blockBySeq: safe(this.db.prepare('SELECT * FROM blocks WHERE seq = ?')),
            blocksByLt: safe(this.db.prepare('SELECT * FROM blocks WHERE workchain = ? AND end_lt > ? ORDER BY end_lt, seq')),
            blocksByUtime: safe(this.db.prepare('SELECT * FROM blocks WHERE workchain = ? AND utime >= ? ORDER BY utime, seqno, seq')),
            lastBlock: safe(this.db.prepare('SELECT * FROM blocks WHERE workchain = ? ORDER BY seqno DESC LIMIT 1')),
            transaction: safe(this.db.prepare('SELECT account, lt, hash, block_seq FROM transactions WHERE account = ? AND lt = ?')),
            transactionBoc: safe(this.db.prepare('SELECT boc FROM transactions WHERE account = ? AND lt = ?')),
            forward: safe(this.db.prepare(`SELECT account, lt, hash, block_seq FROM transactions WHERE block_seq = ?
                AND (account > ? OR (account = ? AND lt > ?)) ORDER BY account, lt LIMIT ?`)),
            backward: safe(this.db.prepare(`SELECT account, lt, hash, block_seq FROM transactions WHERE block_seq = ?
                AND (account < ? OR (account = ? AND lt < ?)) ORDER BY account DESC, lt DESC LIMIT ?`)),
            ofBlock: safe(this.db.prepare('SELECT account, lt, hash, block_seq FROM transactions WHERE block_seq = ? ORDER BY account, lt')),
            committed: safe(this.db.prepare('SELECT workchain, shard, seqno, root_hash, file_hash FROM mc_shards WHERE mc_seqno = ? AND workchain = ?')),
        };
    }

    close(): void {
        this.db.close();
    }

    /** The chain log seq of the last block catalogued (0 before any). */
    get lastSeq(): number {
        return this.meta<number>('last_seq') ?? 0;
    }

    /**
     * Catalogues the chain log's blocks after the last one catalogued, up to `untilSeq` (the cell
     * store's position, so that every catalogued block has its state). Returns how many were added.
     */
    sync(chainLog: Database.Database, untilSeq: number, batch = 64): number {
        const select = chainLog.prepare('SELECT seq, workchain, seqno, utime, root_hash, file_hash, boc FROM blocks WHERE seq > ? AND seq <= ? ORDER BY seq LIMIT ?');
        const insertBlock = this.db.prepare(`INSERT OR REPLACE INTO blocks (seq, workchain, shard, seqno, utime, start_lt, end_lt, root_hash, file_hash)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`);
        const insertTransaction = this.db.prepare('INSERT OR REPLACE INTO transactions (account, lt, hash, block_seq, boc) VALUES (?, ?, ?, ?, ?)');
        const insertShard = this.db.prepare('INSERT OR REPLACE INTO mc_shards (mc_seqno, workchain, shard, seqno, root_hash, file_hash) VALUES (?, ?, ?, ?, ?, ?)');
        const zerostates = chainLog.prepare('SELECT workchain, root_hash FROM zerostates ORDER BY workchain').all() as Array<{ workchain: number; root_hash: string }>;
        if (zerostates.length === 0) return 0;
        const identity = zerostates.map(z => `${z.workchain}:${z.root_hash}`).join(',');
        const known = this.meta<string>('zerostates');
        if (known !== undefined && known !== identity) {
            throw new Error(`the liteserver catalog was made from another chain (zerostates ${known}, the chain log has ${identity}); delete it to rebuild it`);
        }
        if (known === undefined) this.setMeta('zerostates', identity);
        let added = 0;
        let last = this.lastSeq;
        for (;;) {
            const rows = select.all(last, untilSeq, batch) as Array<{ seq: number; workchain: number; seqno: number; utime: number; root_hash: string; file_hash: string; boc: Buffer }>;
            if (rows.length === 0) break;
            this.db.transaction(() => {
                for (const row of rows) {
                    const root = readBoc(row.boc)[0];
                    if (root.hash(0).toString('hex') !== row.root_hash) throw new Error(`block ${row.workchain}:${row.seqno} does not hash as its id`);
                    const block = loadBlock(root.beginParse());
                    const info = block.info;
                    const shard = shardIdFromIdent(info.shard);
                    insertBlock.run(row.seq, row.workchain, shardKey(shard), row.seqno, info.genUtime, info.startLt, info.endLt,
                        Buffer.from(row.root_hash, 'hex'), Buffer.from(row.file_hash, 'hex'));
                    for (const accountBlock of block.extra.accountBlocks.values()) {
                        for (const [lt, tx] of accountBlock.transactions) {
                            insertTransaction.run(accountBlock.accountAddr, lt, tx.cell.hash(0), row.seq, writeBoc(tx.cell));
                        }
                    }
                    for (const [workchain, tree] of block.extra.custom?.shardHashes ?? []) {
                        for (const { shard: leafShard, leaf } of shardTreeLeaves(tree)) {
                            insertShard.run(row.seqno, workchain, shardKey(leafShard), leaf.seqno, leaf.rootHash, leaf.fileHash);
                        }
                    }
                    last = row.seq;
                    added++;
                }
                this.setMeta('last_seq', last);
            })();
        }
        return added;
    }

    block(workchain: number, shard: bigint, seqno: number): CatalogBlock | null {
        const row = this.statements.blockById.get(workchain, shardKey(shard), seqno) as BlockRow | undefined;
        return row ? toBlock(row) : null;
    }

    /** The block of the shard chain `shard` lies in (it, an ancestor or a descendant) with this seqno. */
    blockBySeqno(workchain: number, shard: bigint, seqno: number): CatalogBlock | null {
        return firstOverlapping(this.statements.blocksBySeqno.iterate(workchain, seqno) as Iterable<BlockRow>, shard);
    }

    blockBySeq(seq: number): CatalogBlock | null {
        const row = this.statements.blockBySeq.get(seq) as BlockRow | undefined;
        return row ? toBlock(row) : null;
    }

    /** The first block of the shard chain `shard` lies in whose end_lt is above `lt` (the block holding lt, or the first after it). */
    blockByLt(workchain: number, shard: bigint, lt: bigint): CatalogBlock | null {
        return firstOverlapping(this.statements.blocksByLt.iterate(workchain, lt) as Iterable<BlockRow>, shard);
    }

    /** The first block of the shard chain `shard` lies in generated at or after `utime`. */
    blockByUtime(workchain: number, shard: bigint, utime: number): CatalogBlock | null {
        return firstOverlapping(this.statements.blocksByUtime.iterate(workchain, utime) as Iterable<BlockRow>, shard);
    }

    lastBlock(workchain: number): CatalogBlock | null {
        const row = this.statements.lastBlock.get(workchain) as BlockRow | undefined;
        return row ? toBlock(row) : null;
    }

    transaction(account: Buffer, lt: bigint): CatalogTransaction | null {
        const row = this.statements.transaction.get(account, lt) as TransactionRow | undefined;
        return row ? toTransaction(row) : null;
    }

    transactionBoc(account: Buffer, lt: bigint): Buffer | null {
        const row = this.statements.transactionBoc.get(account, lt) as { boc: Buffer } | undefined;
        return row?.boc ?? null;
    }

    /** A block's transactions in TON's order (account, then lt), after/before (`reverse`) a position, at most `limit`. */
    blockTransactions(blockSeq: number, options: { after?: { account: Buffer; lt: bigint }; reverse: boolean; limit: number }): CatalogTransaction[] {
        const { after, reverse, limit } = options;
        let rows: TransactionRow[];
        if (reverse) {
            const account = after?.account ?? Buffer.alloc(32, 0xff);
            const lt = after ? after.lt : (1n << 63n) - 1n;
            // With no position, everything is "before" the greatest key (a 33-byte blob sorts after any 32-byte one).
            const bound = after ? account : Buffer.alloc(33, 0xff);
            rows = this.statements.backward.all(blockSeq, bound, account, lt, limit) as TransactionRow[];
        } else {
            const account = after?.account ?? Buffer.alloc(0);
            const lt = after ? after.lt : -1n;
            rows = this.statements.forward.all(blockSeq, account, account, lt, limit) as TransactionRow[];
        }
        return rows.map(toTransaction);
    }

    allBlockTransactions(blockSeq: number): CatalogTransaction[] {
        return (this.statements.ofBlock.all(blockSeq) as TransactionRow[]).map(toTransaction);
    }

    /** The shard blocks of `workchain` that masterchain block `mcSeqno` commits (its shard_hashes). */
    committedShards(mcSeqno: number, workchain: number): CommittedShardBlock[] {
        const rows = this.statements.committed.all(mcSeqno, workchain) as Array<{ workchain: bigint; shard: Buffer; seqno: bigint; root_hash: Buffer; file_hash: Buffer }>;
        return rows.map(r => ({ workchain: Number(r.workchain), shard: r.shard.readBigUInt64BE(), seqno: Number(r.seqno), rootHash: r.root_hash, fileHash: r.file_hash }));
    }

    private meta<T>(key: string): T | undefined {
        const row = this.db.prepare('SELECT value FROM meta WHERE key = ?').get(key) as { value: string } | undefined;
        return row ? (JSON.parse(row.value) as T) : undefined;
    }

    private setMeta(key: string, value: unknown): void {
        this.db.prepare('INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value').run(key, JSON.stringify(value));
    }
}

/** Where the catalog lives beside the chain log. */
export function blockCatalogFile(dataDir: string): string {
    return `${dataDir}/devnet/lite-catalog.sqlite`;
}
