import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';
import type { Cell } from '@ton/core';
import { readBoc } from '../../ton/boc/boc-reader.ts';
import type { BlockIdExt } from '../../ton/block-id.ts';
import type { ProducedBlock, PreviousMasterBlock } from './collator.ts';

export interface PersistedAccount {
    address: string;
    /** The ShardAccount BOC exactly as the TVM wrote it (its hash is in the chain's state). */
    shardAccount: Buffer;
    lastTxTime: number;
}

const LAYOUT_VERSION = 2;
const ROOT_SHARD_HEX = '8000000000000000';

interface AccountRow {
    address: string;
    shard_account: Buffer;
    last_tx_time: number;
}

function persisted(row: AccountRow): PersistedAccount {
    return { address: row.address, shardAccount: row.shard_account, lastTxTime: row.last_tx_time };
}

/**
 * The devnet's own storage, separate from the index, as a node keeps it: the block BOCs it produced
 * (served byte-identical forever), the zerostates, every account's state after each block that
 * changed it (what getAccountState answers) and the latest state of every account. One production
 * step — its blocks, the accounts they changed and the chain's counters — commits in one SQLite
 * transaction, so a restarted devnet continues exactly after its last committed block.
 */
export class ChainLog {
    private readonly db: Database.Database;
    /** shardAccountAt runs for most accounts of every block ingested, so its statements are prepared once. */
    private stateQueries?: { block: Database.Statement; account: Database.Statement };
    /** The devnet loads accounts it evicted from memory one by one or by id range (collator subtrees). */
    private accountQueries?: { one: Database.Statement; range: Database.Statement; scan: Database.Statement };

    /** `readonly`: a reader beside the producer that writes the log (it opens an existing log as it is). */
    constructor(file: string, options: { readonly?: boolean } = {}) {
        if (options.readonly) {
            this.db = new Database(file, { readonly: true, fileMustExist: true });
            return;
        }
        mkdirSync(dirname(file), { recursive: true });
        this.db = new Database(file);
        this.db.pragma('journal_mode = WAL');
        this.db.pragma('synchronous = NORMAL');
        const oldLayout = this.db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'blocks' AND sql LIKE '%record TEXT%'").get();
        if (oldLayout) {
            this.db.close();
            throw new Error(`${file} holds a devnet made by an earlier version of native-explorer (its blocks were not real TON blocks); `
                + 'start with a new --data-dir, or delete that data directory to create a new devnet');
        }
        this.db.exec(`
            CREATE TABLE IF NOT EXISTS blocks (
                seq INTEGER PRIMARY KEY, workchain INTEGER NOT NULL, seqno INTEGER NOT NULL, utime INTEGER NOT NULL,
                end_lt TEXT NOT NULL, is_key INTEGER NOT NULL, root_hash TEXT NOT NULL, file_hash TEXT NOT NULL, boc BLOB NOT NULL,
                shard TEXT NOT NULL DEFAULT '${ROOT_SHARD_HEX}');
            CREATE TABLE IF NOT EXISTS zerostates (workchain INTEGER PRIMARY KEY, root_hash TEXT NOT NULL, file_hash TEXT NOT NULL, boc BLOB NOT NULL);
            CREATE TABLE IF NOT EXISTS accounts (address TEXT PRIMARY KEY, shard_account BLOB NOT NULL, last_tx_time INTEGER NOT NULL);
            CREATE TABLE IF NOT EXISTS account_history (address TEXT NOT NULL, seq INTEGER NOT NULL, shard_account BLOB NOT NULL, PRIMARY KEY (address, seq)) WITHOUT ROWID;
            CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
        `);
        // A chain log made while the devnet had one basechain shard: its blocks are the root shard's.
        const columns = this.db.prepare('PRAGMA table_info(blocks)').all() as Array<{ name: string }>;
        if (!columns.some(column => column.name === 'shard')) this.db.exec(`ALTER TABLE blocks ADD COLUMN shard TEXT NOT NULL DEFAULT '${ROOT_SHARD_HEX}'`);
        this.db.exec(`
            DROP INDEX IF EXISTS blocks_by_id;
            CREATE UNIQUE INDEX IF NOT EXISTS blocks_by_shard_id ON blocks (workchain, shard, seqno);
        `);
        this.db.prepare('INSERT OR IGNORE INTO meta (key, value) VALUES (?, ?)').run('layout', String(LAYOUT_VERSION));
    }

    close(): void {
        this.db.close();
    }

    meta<T>(key: string): T | undefined {
        const row = this.db.prepare('SELECT value FROM meta WHERE key = ?').get(key) as { value: string } | undefined;
        return row ? (JSON.parse(row.value) as T) : undefined;
    }

    /** The latest saved state of an account (raw address); null if the chain never saved one. */
    account(address: string): PersistedAccount | null {
        this.accountQueries ??= this.prepareAccountQueries();
        const row = this.accountQueries.one.get(address) as AccountRow | undefined;
        return row ? persisted(row) : null;
    }

    /** The latest saved states of the accounts of `workchain` with ids (64 hex digits) from `from` to `to` inclusive, in id order. */
    *accountsBetween(workchain: number, from: string, to: string): Generator<PersistedAccount> {
        this.accountQueries ??= this.prepareAccountQueries();
        for (const row of this.accountQueries.range.iterate(`${workchain}:${from}`, `${workchain}:${to}`) as Iterable<AccountRow>) yield persisted(row);
    }

    /**
     * The latest saved states of every account of `workchain`, in id order (a restart's fill; its own
     * statement, so accounts can be loaded by range while it runs).
     */
    *accountsOf(workchain: number): Generator<PersistedAccount> {
        this.accountQueries ??= this.prepareAccountQueries();
        for (const row of this.accountQueries.scan.iterate(`${workchain}:`, `${workchain};`) as Iterable<AccountRow>) yield persisted(row);
    }

    /** How many accounts of `workchain` the chain has saved (those that no longer exist included). */
    accountCount(workchain: number): number {
        return (this.db.prepare('SELECT COUNT(*) AS n FROM accounts WHERE address >= ? AND address < ?').get(`${workchain}:`, `${workchain};`) as { n: number }).n;
    }

    private prepareAccountQueries() {
        return {
            one: this.db.prepare('SELECT address, shard_account, last_tx_time FROM accounts WHERE address = ?'),
            range: this.db.prepare('SELECT address, shard_account, last_tx_time FROM accounts WHERE address >= ? AND address <= ? ORDER BY address'),
            scan: this.db.prepare('SELECT address, shard_account, last_tx_time FROM accounts WHERE address > ? AND address < ? ORDER BY address'),
        };
    }

    /** The latest saved state of every account (tests compare whole chains with it). */
    accounts(): PersistedAccount[] {
        return (this.db.prepare('SELECT address, shard_account, last_tx_time FROM accounts').all() as AccountRow[]).map(persisted);
    }

    saveZerostates(states: Array<{ workchain: number; rootHash: string; fileHash: string; boc: Buffer }>): void {
        const insert = this.db.prepare('INSERT OR REPLACE INTO zerostates (workchain, root_hash, file_hash, boc) VALUES (?, ?, ?, ?)');
        this.db.transaction(() => {
            for (const s of states) insert.run(s.workchain, s.rootHash, s.fileHash, s.boc);
        })();
    }

    /**
     * Appends blocks and saves the accounts each changed (by block) and the chain's counters atomically;
     * returns the seq of each block. `accounts[i]` are the accounts `blocks[i]` changed.
     */
    commit(blocks: Array<ProducedBlock & { isKeyBlock: boolean }>, accounts: PersistedAccount[][], meta: Record<string, unknown>): number[] {
        const insertBlock = this.db.prepare('INSERT INTO blocks (workchain, shard, seqno, utime, end_lt, is_key, root_hash, file_hash, boc) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)');
        const upsertAccount = this.db.prepare('INSERT INTO accounts (address, shard_account, last_tx_time) VALUES (?, ?, ?) ON CONFLICT(address) DO UPDATE SET shard_account = excluded.shard_account, last_tx_time = excluded.last_tx_time');
        const insertHistory = this.db.prepare('INSERT OR REPLACE INTO account_history (address, seq, shard_account) VALUES (?, ?, ?)');
        const upsertMeta = this.db.prepare('INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value');
        return this.db.transaction(() => {
            const seqs = blocks.map((b, i) => {
                const seq = Number(insertBlock.run(b.id.workchain, b.id.shard, b.id.seqno, b.utime, b.endLt.toString(), b.isKeyBlock ? 1 : 0, b.id.rootHash, b.id.fileHash, b.boc).lastInsertRowid);
                for (const a of accounts[i] ?? []) {
                    upsertAccount.run(a.address, a.shardAccount, a.lastTxTime);
                    insertHistory.run(a.address, seq, a.shardAccount);
                }
                return seq;
            });
            for (const [key, value] of Object.entries(meta)) upsertMeta.run(key, JSON.stringify(value));
            return seqs;
        })();
    }

    /** Saves accounts that exist from the start (in the zerostates) with the counters. */
    commitGenesis(accounts: PersistedAccount[], meta: Record<string, unknown>): void {
        const upsertAccount = this.db.prepare('INSERT OR REPLACE INTO accounts (address, shard_account, last_tx_time) VALUES (?, ?, ?)');
        const insertHistory = this.db.prepare('INSERT OR REPLACE INTO account_history (address, seq, shard_account) VALUES (?, 0, ?)');
        const upsertMeta = this.db.prepare('INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)');
        this.db.transaction(() => {
            for (const a of accounts) {
                upsertAccount.run(a.address, a.shardAccount, a.lastTxTime);
                insertHistory.run(a.address, a.shardAccount);
            }
            for (const [key, value] of Object.entries(meta)) upsertMeta.run(key, JSON.stringify(value));
        })();
    }

    /** A zerostate's ids (hex), e.g. the masterchain's for the global config. */
    zerostate(workchain: number): { rootHash: string; fileHash: string } | null {
        const row = this.db.prepare('SELECT root_hash, file_hash FROM zerostates WHERE workchain = ?').get(workchain) as { root_hash: string; file_hash: string } | undefined;
        return row ? { rootHash: row.root_hash, fileHash: row.file_hash } : null;
    }

    blocksAfter(seq: number, limit: number): Array<{ seq: number; boc: Buffer }> {
        return this.db.prepare('SELECT seq, boc FROM blocks WHERE seq > ? ORDER BY seq LIMIT ?').all(seq, limit) as Array<{ seq: number; boc: Buffer }>;
    }

    /** Every block in production order (export). */
    *allBlocks(): Generator<{ seq: number; workchain: number; shard: string; seqno: number; boc: Buffer }> {
        yield* this.db.prepare('SELECT seq, workchain, shard, seqno, boc FROM blocks ORDER BY seq').iterate() as Iterable<{ seq: number; workchain: number; shard: string; seqno: number; boc: Buffer }>;
    }

    /** The states of the accounts a block changed, as saved with it. */
    accountsChangedBy(seq: number): Array<{ address: string; shardAccount: Buffer }> {
        const rows = this.db.prepare('SELECT address, shard_account FROM account_history WHERE seq = ?').all(seq) as Array<{ address: string; shard_account: Buffer }>;
        return rows.map(r => ({ address: r.address, shardAccount: r.shard_account }));
    }

    /** The masterchain blocks (zerostate included) before `seqno`, for OldMcBlocksInfo. */
    masterBlocksBefore(seqno: number): PreviousMasterBlock[] {
        const zero = this.db.prepare('SELECT root_hash, file_hash FROM zerostates WHERE workchain = -1').get() as { root_hash: string; file_hash: string } | undefined;
        const rows = this.db.prepare('SELECT seqno, end_lt, is_key, root_hash, file_hash FROM blocks WHERE workchain = -1 AND seqno < ? ORDER BY seqno').all(seqno) as Array<{ seqno: number; end_lt: string; is_key: number; root_hash: string; file_hash: string }>;
        const previous: PreviousMasterBlock[] = zero && seqno > 0 ? [{ seqno: 0, endLt: '0', rootHash: zero.root_hash, fileHash: zero.file_hash, key: true }] : [];
        for (const r of rows) previous.push({ seqno: r.seqno, endLt: r.end_lt, rootHash: r.root_hash, fileHash: r.file_hash, key: r.is_key === 1 });
        return previous;
    }

    /** The Account cell of `address` right after `block` (the account-state reader of the one ingestion path). */
    accountCellAt(block: BlockIdExt, address: string): Cell | null {
        const saved = this.shardAccountAt(block, address);
        return saved ? readBoc(saved)[0].refs[0] : null;
    }

    /** The ShardAccount BOC of `address` as it was right after `block`; null if the block or any state of the account before it is unknown. */
    shardAccountAt(block: BlockIdExt, address: string): Buffer | null {
        this.stateQueries ??= {
            block: this.db.prepare('SELECT seq FROM blocks WHERE workchain = ? AND shard = ? AND seqno = ? AND root_hash = ?'),
            account: this.db.prepare('SELECT shard_account FROM account_history WHERE address = ? AND seq <= ? ORDER BY seq DESC LIMIT 1'),
        };
        const found = this.stateQueries.block.get(block.workchain, block.shard, block.seqno, block.rootHash) as { seq: number } | undefined;
        if (!found) return null;
        const row = this.stateQueries.account.get(address, found.seq) as { shard_account: Buffer } | undefined;
        return row?.shard_account ?? null;
    }
}
