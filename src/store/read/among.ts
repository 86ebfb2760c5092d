import { PostgresAdapter, sql, type RawBuilder } from 'kysely';
import type { IndexDb } from '../schema.ts';

/**
 * `column` is one of the text `values`. On PostgreSQL one array parameter: the statement is the same
 * whatever the count, so it is parsed and planned once a connection (postgres/prepared-statements.ts),
 * where an IN list is a new statement for each count. On SQLite an IN list, whose statements are kept
 * by their text; callers keep it within SQLite's parameters (`readInChunks`).
 */
export function among(db: IndexDb, column: string, values: readonly string[]): RawBuilder<boolean> {
    if (db.getExecutor().adapter instanceof PostgresAdapter) return sql<boolean>`${sql.ref(column)} = any(${[...values]}::text[])`;
    if (values.length === 0) return sql<boolean>`false`;
    return sql<boolean>`${sql.ref(column)} in (${sql.join(values)})`;
}
