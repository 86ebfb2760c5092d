import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';
import { Lru } from '../../lru.ts';
import { SqliteAdapter, SqliteDialect, SqliteDriver, type DatabaseConnection, type DialectAdapter, type Driver, type SqliteDialectConfig } from 'kysely';

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

/**
 * On some errors (SQLITE_FULL, SQLITE_IOERR, SQLITE_NOMEM) SQLite rolls the transaction back by
 * itself; Kysely's ROLLBACK after it would fail with "cannot rollback - no transaction is active"
 * and hide the error that says what happened (a full disk, which the indexer waits out).
 */
class RolledBackAwareSqliteDriver extends SqliteDriver {
    constructor(config: SqliteDialectConfig, private readonly database: Database.Database) {
        super(config);
    }

    override async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
        if (!this.database.inTransaction) return;
        await super.rollbackTransaction(connection);
    }
}

class TransactionalDdlSqliteDialect extends SqliteDialect {
    /** `database` is the real one (its transaction state); `config.database` may be a wrapper of it. */
    constructor(private readonly config: SqliteDialectConfig, private readonly database: Database.Database) {
        super(config);
    }

    override createAdapter(): DialectAdapter {
        return new TransactionalDdlSqliteAdapter();
    }

    override createDriver(): Driver {
        return new RolledBackAwareSqliteDriver(this.config, this.database);
    }
}

/**
 * Bytes of the file a reading process maps (`mmap_size`): SQLite's largest, 2 GB less 64 KB. A
 * page in the mapping is read in place; any other costs a `pread` into the page cache.
 */
export const MAPPED_READ_BYTES = 0x7fff0000;

/**
 * A SQLite file with WAL, and every integer read back as bigint (lts and balances exceed 2^53).
 * `mappedReads` maps the file for reading (API-only processes): pages are read in place instead of
 * a `pread` each, which gave 8–18 % more jetton history pages a second under load (block lists, whose
 * long texts are copied out either way, did not change). A process that runs the chain writer does not
 * map it: the pages its reads touched would count in its resident memory, which the devnet keeps
 * bounded.
 */
export function sqliteDialect(file: string, options: { mappedReads?: boolean } = {}): SqliteDialect {
    if (file !== ':memory:') mkdirSync(dirname(file), { recursive: true });
    const database = new Database(file);
    if (options.mappedReads) database.pragma(`mmap_size = ${MAPPED_READ_BYTES}`);
    database.defaultSafeIntegers(true);
    database.pragma('journal_mode = WAL');
    database.pragma('synchronous = NORMAL');
    database.pragma('busy_timeout = 5000');
    database.pragma('cache_size = -65536');
    // Checkpoint every ~40 MB of WAL instead of 4 MB: the indexer rewrites the same hot index pages
    // block after block, and each checkpoint copies them (and syncs) again (BENCHMARKS, devnet ingest).
    database.pragma('wal_autocheckpoint = 10000');
    // A multi-row insert inside the block's transaction keeps a statement journal (to undo just that
    // statement); past 64 KB SQLite spilled it to a temporary file, which the indexer wrote as many
    // bytes to as to the index itself. In memory it is a few MB at most, and an ingest writes 29 % fewer
    // bytes.
    database.pragma('temp_store = MEMORY');
    return new TransactionalDdlSqliteDialect({ database: withStatementCache(database) }, database);
}

/** Prepared statements kept, by SQL text; reads and the indexer's inserts repeat the same few hundred. */
const STATEMENT_CACHE_SIZE = 500;

/**
 * The database as Kysely's driver uses it (it prepares every query it runs), with preparing
 * answered from a cache: compiling a statement costs more than running most of them. SQLite
 * re-prepares a cached statement by itself when the schema changes.
 */
function withStatementCache(database: Database.Database): Database.Database {
    const statements = new Lru<string, Database.Statement | RowsAsObjects>(STATEMENT_CACHE_SIZE);
    // Kysely's driver uses nothing else of the database; native methods need the real object as `this`.
    const cached = { close: () => database.close() } as Database.Database;
    cached.prepare = ((sql: string) => {
        let statement = statements.get(sql);
        if (!statement) {
            const prepared = database.prepare(sql);
            statement = prepared.reader ? new RowsAsObjects(prepared) : prepared;
            statements.set(sql, statement);
        }
        return statement;
    }) as unknown as Database.Database['prepare'];
    return cached;
}

/**
 * A statement that returns rows, as Kysely's driver uses one (`reader`, `all`, `iterate`), its rows
 * read as arrays and made into objects here. better-sqlite3 makes each row's object itself, one
 * property at a time, looking its column's name up in V8's string table for every value: for a page
 * of 101 history rows of six columns that was a third of the read (a page read and presented
 * in-process took 589 µs at the median this way, against 734 µs). Here every row of a statement is one
 * object literal of the same shape.
 */
class RowsAsObjects {
    readonly reader = true;
    /** The column count `toObject` was made for; none before the first row. */
    private columns = -1;
    private toObject!: (values: unknown[]) => Record<string, unknown>;

    constructor(private readonly statement: Database.Statement) {
        statement.raw(true);
    }

    all(parameters: unknown[]): Array<Record<string, unknown>> {
        const rows = this.statement.all(parameters) as unknown[][];
        const objects = new Array<Record<string, unknown>>(rows.length);
        for (let i = 0; i < rows.length; i++) objects[i] = this.object(rows[i]);
        return objects;
    }

    *iterate(parameters: unknown[]): IterableIterator<Record<string, unknown>> {
        for (const values of this.statement.iterate(parameters) as IterableIterator<unknown[]>) yield this.object(values);
    }

    private object(values: unknown[]): Record<string, unknown> {
        // SQLite prepares a statement again after a schema change, and `select *` may then have other columns.
        if (values.length !== this.columns) {
            this.toObject = rowMaker(this.statement.columns().map(column => column.name));
            this.columns = values.length;
        }
        return this.toObject(values);
    }
}

/**
 * A function making a row's object from its values, as one object literal (a later column of the
 * same name wins, as it does in better-sqlite3's objects). The names are the statement's own
 * columns, written into the function as JSON strings; `__proto__`, which a literal would take for
 * the prototype, is defined as a member as the others are.
 */
function rowMaker(names: string[]): (values: unknown[]) => Record<string, unknown> {
    if (names.includes('__proto__')) {
        return values => {
            const row: Record<string, unknown> = {};
            names.forEach((name, i) => Object.defineProperty(row, name, { value: values[i], enumerable: true, writable: true, configurable: true }));
            return row;
        };
    }
    const members = names.map((name, i) => `${JSON.stringify(name)}: values[${i}]`).join(', ');
    return new Function('values', `return { ${members} };`) as (values: unknown[]) => Record<string, unknown>;
}
