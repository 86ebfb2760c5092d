import { PostgresAdapter, sql, type RawBuilder } from 'kysely';
import type { IndexDb } from '../schema.ts';
import { readInChunks } from '../chunks.ts';

/**
 * `column` is one of the text `values`. On PostgreSQL one array parameter: the statement is the same
 * whatever the count, so it is parsed and planned once a connection (postgres/prepared-statements.ts),
 * where an IN list is a new statement for each count. On SQLite an IN list, whose statements are kept
 * by their text; callers keep it within SQLite's parameters (`readAmong`).
 */
export function among(db: IndexDb, column: string, values: readonly string[]): RawBuilder<boolean> {
    if (onPostgres(db)) return sql<boolean>`${sql.ref(column)} = any(${[...values]}::text[])`;
    if (values.length === 0) return sql<boolean>`false`;
    return sql<boolean>`${sql.ref(column)} in (${sql.join(values)})`;
}

/**
 * `read` of the rows whose `column` is one of `values`, given the condition: in one statement on
 * PostgreSQL, in IN lists of `sqliteChunk` on SQLite.
 */
export function readAmong<R>(db: IndexDb, column: string, values: readonly string[], read: (condition: RawBuilder<boolean>) => Promise<readonly R[]>, sqliteChunk = 500): Promise<R[]> {
    const size = onPostgres(db) ? Math.max(values.length, 1) : sqliteChunk;
    return readInChunks(values, size, chunk => read(among(db, column, chunk)));
}

/** Whether the index is on PostgreSQL (else SQLite). */
export function onPostgres(db: IndexDb): boolean {
    return db.getExecutor().adapter instanceof PostgresAdapter;
}
