import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';
import { SqliteDialect } from 'kysely';

/** A SQLite file with WAL, and every integer read back as bigint (lts and balances exceed 2^53). */
export function sqliteDialect(file: string): SqliteDialect {
    if (file !== ':memory:') mkdirSync(dirname(file), { recursive: true });
    const database = new Database(file);
    database.defaultSafeIntegers(true);
    database.pragma('journal_mode = WAL');
    database.pragma('synchronous = NORMAL');
    database.pragma('busy_timeout = 5000');
    database.pragma('cache_size = -65536');
    return new SqliteDialect({ database });
}
