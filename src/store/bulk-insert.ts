import { CompiledQuery, type Compilable, type Kysely } from 'kysely';
import type { IndexDatabase } from './schema.ts';

type Db = Kysely<IndexDatabase>;

/** A compiled multi-row statement of one row count, and the columns its parameters follow row by row. */
interface Shape {
    sql: string;
    columns: string[];
}

/**
 * A multi-row INSERT the indexer runs for every block. Kysely builds and compiles a statement of a
 * few hundred rows node by node, which costs more than running it; here the rows are cut into
 * chunks of power-of-two sizes, and the SQL Kysely compiles for a size is kept (per dialect) and
 * run again with the next chunk's values. A compiled statement is kept only after checking that its
 * parameters are exactly the rows' values, column by column, so the kept SQL binds as Kysely would.
 * Rows that are not plain values (a missing or undefined column, an expression) take Kysely's way.
 */
export class BulkInsert<Row extends object> {
    private readonly shapes = new Map<unknown, Map<number, Shape>>();

    /** `maxRows` (a power of two) keeps every statement under the drivers' parameter limits. */
    constructor(private readonly build: (db: Db, rows: Row[]) => Compilable, private readonly maxRows = 256) {}

    async run(db: Db, rows: readonly Row[]): Promise<void> {
        let start = 0;
        while (start < rows.length) {
            let size = this.maxRows;
            while (size > rows.length - start) size >>= 1;
            await this.runChunk(db, rows.slice(start, start + size));
            start += size;
        }
    }

    private async runChunk(db: Db, chunk: Row[]): Promise<void> {
        const executor = db.getExecutor();
        const dialect = executor.adapter.constructor;
        let bySize = this.shapes.get(dialect);
        if (!bySize) this.shapes.set(dialect, (bySize = new Map()));
        const shape = bySize.get(chunk.length);
        const parameters = shape ? plainValues(chunk, shape.columns) : null;
        if (shape && parameters) {
            await db.executeQuery(CompiledQuery.raw(shape.sql, parameters));
            return;
        }
        const compiled = this.build(db, chunk).compile();
        const columns = Object.keys(chunk[0]);
        const expected = plainValues(chunk, columns);
        if (!shape && expected && sameValues(compiled.parameters, expected)) bySize.set(chunk.length, { sql: compiled.sql, columns });
        await db.executeQuery(compiled);
    }
}

/** The rows' values, row by row in `columns` order; null unless every row has exactly these columns, each a plain value. */
function plainValues(rows: readonly object[], columns: readonly string[]): unknown[] | null {
    const values: unknown[] = [];
    for (const row of rows) {
        let keys = 0;
        for (const _ in row) keys++;
        if (keys !== columns.length) return null;
        for (const column of columns) {
            const value = (row as Record<string, unknown>)[column];
            if (value === undefined) return null;
            if (typeof value === 'function' || (typeof value === 'object' && value !== null && !Buffer.isBuffer(value))) return null;
            values.push(value);
        }
    }
    return values;
}

function sameValues(a: readonly unknown[], b: readonly unknown[]): boolean {
    if (a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
    return true;
}
