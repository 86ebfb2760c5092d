import type pg from 'pg';
import type { PostgresCursor, PostgresPool, PostgresPoolClient } from 'kysely';

/**
 * A pool for Kysely whose connections run the index's reads as named prepared statements.
 *
 * node-postgres sends every query unnamed, and PostgreSQL then parses and plans it anew each time: for
 * wallets by key (a join with four counting subqueries) planning took longer than running it. A named
 * statement is parsed once a connection, and its plan is cached by the server's own rules
 * (`plan_cache_mode`).
 *
 * Only reads are named (the writer's statements are mostly multi-row inserts, a text per row count),
 * only those with few parameters (an IN list of n values is a statement per n), and only so many
 * texts: each is kept by the server once a connection until the connection closes.
 */
export function preparingPool(pool: pg.Pool, names = new StatementNames()): PostgresPool {
    const clients = new WeakMap<pg.PoolClient, PostgresPoolClient>();
    return {
        async connect() {
            const client = await pool.connect();
            let preparing = clients.get(client);
            if (!preparing) clients.set(client, preparing = preparingClient(client, names));
            return preparing;
        },
        end: () => pool.end(),
    };
}

function preparingClient(client: pg.PoolClient, names: StatementNames): PostgresPoolClient {
    return {
        query: ((statement: string | PostgresCursor<unknown>, parameters?: ReadonlyArray<unknown>): unknown => {
            if (typeof statement !== 'string') return client.query(statement as never);
            const values = (parameters ?? []) as unknown[];
            const name = names.nameOf(statement, values.length);
            return client.query(name === undefined ? { text: statement, values } : { name, text: statement, values });
        }) as PostgresPoolClient['query'],
        release: () => client.release(),
    };
}

/** Names of the statements that are prepared, one a text for the whole process. */
export class StatementNames {
    private readonly names = new Map<string, string>();

    constructor(
        /** The most texts named; later ones run unnamed. */
        readonly limit = 200,
        /** The most parameters a named statement takes. */
        readonly maxParameters = 16,
    ) {}

    /** The name `text` runs under, or undefined to run it unnamed. */
    nameOf(text: string, parameters: number): string | undefined {
        const known = this.names.get(text);
        if (known !== undefined) return known;
        if (parameters > this.maxParameters || this.names.size >= this.limit || !READ.test(text)) return undefined;
        const name = `index_read_${this.names.size + 1}`;
        this.names.set(text, name);
        return name;
    }

    get size(): number {
        return this.names.size;
    }
}

/** A read: Kysely begins one with `select` (the index's code has no `with`, which could hold a write). */
const READ = /^\s*select\b/i;
