import pg from 'pg';
import { PostgresDialect } from 'kysely';

const INT8_OID = 20;
const BYTEA_OID = 17;
const TEXT_OID = 25;

/** PostgreSQL through a pool; int8 columns are parsed to bigint, never to a lossy number. */
export function postgresDialect(url: string, maxConnections = 10): { dialect: PostgresDialect; pool: pg.Pool } {
    const pool = new pg.Pool({
        connectionString: url,
        max: maxConnections,
        // A server that does not answer at all (a host gone from the network) fails a query in
        // seconds, as a refused connection does, instead of holding it until the client gives up.
        connectionTimeoutMillis: 5_000,
        keepAlive: true,
        types: {
            getTypeParser: ((oid: number, format?: 'text' | 'binary') => {
                if (oid === INT8_OID) return (value: string) => BigInt(value);
                // A bytea in the binary format (binaryQuery) is its bytes as they came.
                if (oid === BYTEA_OID && format === 'binary') return (value: Buffer) => value;
                return pg.types.getTypeParser(oid, format as 'text');
            }) as typeof pg.types.getTypeParser,
        },
    });
    // A client losing its connection (the server restarting) must not crash the process: an idle one
    // is reported here and dropped; a checked-out one has no listener of the pool's, so it gets one of
    // its own (its query fails instead, and the pool drops it when it is released).
    pool.on('error', () => undefined);
    pool.on('connect', client => client.on('error', () => undefined));
    return { dialect: new PostgresDialect({ pool }), pool };
}

/**
 * A query whose rows come back in PostgreSQL's binary format, for text and bytea columns whose bytes
 * are UTF-8 (a block's list text: JSON with NUL marks). In the text format a bytea is sent as hex,
 * twice its size, and made into a string before it is decoded: for a list of 1.7 MB that was three
 * quarters of reading it (14 ms against 7). node-postgres reads every value as UTF-8 text before it
 * parses it, even in the binary format, so bytes that are not UTF-8 (and any other type's binary
 * form) would come back altered: a query selecting another type is refused.
 */
export function binaryQuery(pool: pg.Pool): BinaryQuery {
    return async (text, values) => {
        const result = await pool.query({ text, values: [...values], binary: true } as pg.QueryConfig);
        const other = result.fields.find(field => field.dataTypeID !== BYTEA_OID && field.dataTypeID !== TEXT_OID);
        if (other) throw new Error(`binaryQuery reads text and bytea columns only, not ${other.name} (type ${other.dataTypeID})`);
        return result.rows as Array<Record<string, unknown>>;
    };
}

export type BinaryQuery = (sql: string, values: readonly unknown[]) => Promise<Array<Record<string, unknown>>>;
