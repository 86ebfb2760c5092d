import pg from 'pg';
import { PostgresDialect } from 'kysely';
import { preparingPool } from './prepared-statements.ts';

const INT8_OID = 20;

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
                return pg.types.getTypeParser(oid, format as 'text');
            }) as typeof pg.types.getTypeParser,
        },
    });
    // A client losing its connection (the server restarting) must not crash the process: an idle one
    // is reported here and dropped; a checked-out one has no listener of the pool's, so it gets one of
    // its own (its query fails instead, and the pool drops it when it is released).
    pool.on('error', () => undefined);
    pool.on('connect', client => client.on('error', () => undefined));
    return { dialect: new PostgresDialect({ pool: preparingPool(pool) }), pool };
}
