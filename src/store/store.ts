import { join } from 'node:path';
import { Kysely, Migrator } from 'kysely';
import type { IndexDatabase, IndexDb, StoreDialect } from './schema.ts';
import { migrationProvider } from './migrations/index.ts';
import { sqliteDialect } from './sqlite/sqlite-connection.ts';
import { postgresDialect } from './postgres/postgres-connection.ts';
import { copyRowsQuery, type CopyRowsQuery } from './postgres/copy-rows.ts';
import { GenerationListener } from './postgres/generation-listener.ts';
import { indexGeneration } from './read/index-generation.ts';
import type { PoolUse } from '../observability/metrics.ts';

export interface Store {
    readonly db: IndexDb;
    readonly dialect: StoreDialect;
    /** Connections of the PostgreSQL pool; absent on SQLite (one connection). */
    readonly poolUse?: () => PoolUse;
    /** PostgreSQL only: a SELECT's rows as bytes, read through a binary COPY, for values of megabytes (postgres/copy-rows.ts). */
    readonly copyRows?: CopyRowsQuery;
    /** The index generation (store/read/index-generation.ts): asked on SQLite, pushed by the server on PostgreSQL. */
    generation(): Promise<bigint>;
    close(): Promise<void>;
}

export interface StoreOptions {
    /** `postgres://…` for PostgreSQL; a file path (or `sqlite:path`) for SQLite; empty = `<dataDir>/index.sqlite`. */
    url?: string;
    dataDir: string;
    /**
     * Bring the schema up to date (default). An API worker opens an index its primary migrated
     * before starting it, and must not migrate alongside the writer.
     */
    migrate?: boolean;
    /** Most connections of the PostgreSQL pool (default 10). */
    maxConnections?: number;
    /** SQLite only: map the file for reading (`sqlite/sqlite-connection.ts`), in processes that only serve the API. */
    mappedReads?: boolean;
}

export function describeStore(options: StoreOptions): { dialect: StoreDialect; target: string } {
    const url = options.url?.trim() ?? '';
    if (/^postgres(ql)?:\/\//i.test(url)) return { dialect: 'postgres', target: url };
    const file = url === '' ? join(options.dataDir, 'index.sqlite') : url.replace(/^sqlite:(\/\/)?/i, '');
    return { dialect: 'sqlite', target: file };
}

/** Opens the index and (unless told not to) brings its schema up to date. */
export async function openStore(options: StoreOptions): Promise<Store> {
    const { dialect, target } = describeStore(options);
    const postgres = dialect === 'postgres' ? postgresDialect(target, options.maxConnections) : null;
    const db = new Kysely<IndexDatabase>({ dialect: postgres ? postgres.dialect : sqliteDialect(target, { mappedReads: options.mappedReads }) });
    if (options.migrate ?? true) {
        const migrator = new Migrator({ db, provider: migrationProvider(dialect) });
        const { error, results } = await migrator.migrateToLatest();
        if (error) {
            await db.destroy();
            const failed = results?.find(r => r.status === 'Error')?.migrationName;
            throw new Error(`index migration ${failed ?? ''} failed: ${error instanceof Error ? error.message : String(error)}`);
        }
    }
    const pool = postgres?.pool;
    const poolUse = pool ? () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount, max: pool.options.max ?? 10 }) : undefined;
    const listener = postgres ? new GenerationListener(target, () => indexGeneration(db)) : null;
    return {
        db,
        dialect,
        poolUse,
        copyRows: pool ? copyRowsQuery(pool) : undefined,
        generation: () => (listener ? listener.current() : indexGeneration(db)),
        async close() {
            await listener?.close();
            await db.destroy();
        },
    };
}
