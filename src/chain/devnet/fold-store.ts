import { mkdirSync, rmSync } from 'node:fs';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';
import type { FoldStore } from '../../ton/dict/augmented-dict.ts';

/**
 * The accounts dictionaries' folded forks, kept in a scratch SQLite file of the data directory
 * while the devnet runs: the cold part of a million-account dictionary stays on disk, where it
 * would otherwise hold a few hundred bytes of memory an account region. Nothing in it outlives the
 * process: a restarted devnet rebuilds its dictionaries from the chain log and folds them again,
 * so the file is emptied at start, written without a journal or syncs, and deleted at close.
 */
export class SqliteFoldStore implements FoldStore {
    private readonly db: Database.Database;
    private readonly insert: Database.Statement<[Buffer]>;
    private readonly remove: Database.Statement<[number], { pair: Buffer }>;

    constructor(private readonly file: string) {
        mkdirSync(dirname(file), { recursive: true });
        removeDatabase(file);
        this.db = new Database(file);
        this.db.pragma('journal_mode = OFF');
        this.db.pragma('synchronous = OFF');
        this.db.pragma('locking_mode = EXCLUSIVE');
        this.db.exec('CREATE TABLE folds (id INTEGER PRIMARY KEY, pair BLOB NOT NULL)');
        this.insert = this.db.prepare('INSERT INTO folds (pair) VALUES (?)');
        this.remove = this.db.prepare('DELETE FROM folds WHERE id = ? RETURNING pair');
    }

    keep(pair: Buffer): number {
        return Number(this.insert.run(pair).lastInsertRowid);
    }

    take(id: number): Buffer | undefined {
        return this.remove.get(id)?.pair;
    }

    /** How many pairs it holds. */
    get size(): number {
        return (this.db.prepare('SELECT count(*) AS n FROM folds').get() as { n: number }).n;
    }

    close(): void {
        this.db.close();
        removeDatabase(this.file);
    }
}

function removeDatabase(file: string): void {
    for (const suffix of ['', '-journal', '-wal', '-shm']) rmSync(`${file}${suffix}`, { force: true });
}
