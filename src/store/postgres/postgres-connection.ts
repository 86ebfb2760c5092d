import pg from 'pg';
import { PostgresDialect } from 'kysely';

const INT8_OID = 20;

/** PostgreSQL through a pool; int8 columns are parsed to bigint, never to a lossy number. */
export function postgresDialect(url: string, maxConnections = 10): { dialect: PostgresDialect; pool: pg.Pool } {
    const pool = new pg.Pool({
        connectionString: url,
        max: maxConnections,
        types: {
            getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
                oid === INT8_OID ? (value: string) => BigInt(value) : pg.types.getTypeParser(oid, format as 'text')) as typeof pg.types.getTypeParser,
        },
    });
    // An idle client losing its connection must not crash the process; the next query reconnects.
    pool.on('error', () => undefined);
    return { dialect: new PostgresDialect({ pool }), pool };
}
