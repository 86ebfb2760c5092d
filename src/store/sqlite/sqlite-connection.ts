import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';
import { SqliteAdapter, SqliteDialect, type DialectAdapter } from 'kysely';

/**
 * SQLite does have transactional DDL, but Kysely's adapter says it has not, so its migrator would
 * run a migration statement by statement: a process killed mid-migration (e.g. on its first start)
 * left some tables created and the migration unrecorded, and every later start failed with
 * "table … already exists". Saying so makes each migration one transaction.
 */
class TransactionalDdlSqliteAdapter extends SqliteAdapter {
    override get supportsTransactionalDdl(): boolean {
        return true;
    }
}

class TransactionalDdlSqliteDialect extends SqliteDialect {
    override createAdapter(): DialectAdapter {
        return new TransactionalDdlSqliteAdapter();
    }
}

/** A SQLite file with WAL, and every integer read back as bigint (lts and balances exceed 2^53). */
export function sqliteDialect(file: string): SqliteDialect {
    if (file !== ':memory:') mkdirSync(dirname(file), { recursive: true });
    const database = new Database(file);
    database.defaultSafeIntegers(true);
    database.pragma('journal_mode = WAL');
    database.pragma('synchronous = NORMAL');
    database.pragma('busy_timeout = 5000');
    database.pragma('cache_size = -65536');
    // Checkpoint every ~40 MB of WAL instead of 4 MB: the indexer rewrites the same hot index pages
    // block after block, and each checkpoint copies them (and syncs) again (BENCHMARKS, devnet ingest).
    database.pragma('wal_autocheckpoint = 10000');
    return new TransactionalDdlSqliteDialect({ database });
}
