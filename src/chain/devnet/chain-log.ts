import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';
import type { BlockRecord } from '../chain-source.ts';
import { decodeBlockRecord, encodeBlockRecord } from '../block-record-codec.ts';

export interface PersistedAccount {
    address: string;
    /** ShardAccount BOC. */
    shardAccount: Buffer;
    lastTxTime: number;
}

/**
 * The devnet's own storage, separate from the index: the blocks it produced (the chain history a
 * node keeps) and the latest state of every account. One production step — its blocks, the
 * accounts they changed and the chain's counters — commits in one SQLite transaction, so a
 * restarted devnet continues exactly after its last committed block.
 */
export class ChainLog {
    private readonly db: Database.Database;

    constructor(file: string) {
        mkdirSync(dirname(file), { recursive: true });
        this.db = new Database(file);
        this.db.pragma('journal_mode = WAL');
        this.db.pragma('synchronous = NORMAL');
        this.db.exec(`
            CREATE TABLE IF NOT EXISTS blocks (seq INTEGER PRIMARY KEY, workchain INTEGER NOT NULL, seqno INTEGER NOT NULL, utime INTEGER NOT NULL, record TEXT NOT NULL);
            CREATE TABLE IF NOT EXISTS accounts (address TEXT PRIMARY KEY, shard_account BLOB NOT NULL, last_tx_time INTEGER NOT NULL);
            CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
        `);
    }

    close(): void {
        this.db.close();
    }

    meta<T>(key: string): T | undefined {
        const row = this.db.prepare('SELECT value FROM meta WHERE key = ?').get(key) as { value: string } | undefined;
        return row ? (JSON.parse(row.value) as T) : undefined;
    }

    accounts(): PersistedAccount[] {
        const rows = this.db.prepare('SELECT address, shard_account, last_tx_time FROM accounts').all() as Array<{ address: string; shard_account: Buffer; last_tx_time: number }>;
        return rows.map(r => ({ address: r.address, shardAccount: r.shard_account, lastTxTime: r.last_tx_time }));
    }

    /** Appends blocks and saves changed accounts and counters atomically; returns the seq of each block. */
    commit(blocks: BlockRecord[], accounts: PersistedAccount[], meta: Record<string, unknown>): number[] {
        const insertBlock = this.db.prepare('INSERT INTO blocks (workchain, seqno, utime, record) VALUES (?, ?, ?, ?)');
        const upsertAccount = this.db.prepare('INSERT INTO accounts (address, shard_account, last_tx_time) VALUES (?, ?, ?) ON CONFLICT(address) DO UPDATE SET shard_account = excluded.shard_account, last_tx_time = excluded.last_tx_time');
        const upsertMeta = this.db.prepare('INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value');
        return this.db.transaction(() => {
            const seqs = blocks.map(b => Number(insertBlock.run(b.id.workchain, b.id.seqno, b.utime, encodeBlockRecord(b)).lastInsertRowid));
            for (const a of accounts) upsertAccount.run(a.address, a.shardAccount, a.lastTxTime);
            for (const [key, value] of Object.entries(meta)) upsertMeta.run(key, JSON.stringify(value));
            return seqs;
        })();
    }

    blocksAfter(seq: number, limit: number): Array<{ seq: number; block: BlockRecord }> {
        const rows = this.db.prepare('SELECT seq, record FROM blocks WHERE seq > ? ORDER BY seq LIMIT ?').all(seq, limit) as Array<{ seq: number; record: string }>;
        return rows.map(r => ({ seq: r.seq, block: decodeBlockRecord(r.record) }));
    }

    lastSeq(): number {
        const row = this.db.prepare('SELECT MAX(seq) AS seq FROM blocks').get() as { seq: number | null };
        return row.seq ?? 0;
    }

    latestBlock(workchain: number): { seqno: number; utime: number } | undefined {
        return this.db.prepare('SELECT seqno, utime FROM blocks WHERE workchain = ? ORDER BY seq DESC LIMIT 1').get(workchain) as { seqno: number; utime: number } | undefined;
    }
}
