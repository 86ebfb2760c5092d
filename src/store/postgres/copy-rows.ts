import pg from 'pg';

/** A value written into the statement as a literal: COPY takes no parameters. */
export type CopyLiteral = string | number | bigint;

/**
 * The rows of a SELECT with each column's bytes as the server sends them in the binary format (a
 * bytea's bytes, a text's UTF-8), NULL as null. `select` may hold `$1`, `$2`, … (as Kysely compiles
 * a query), each replaced by its value as a literal; it must hold no other `$` followed by a digit
 * (no dollar-quoted or string constant that does).
 */
export type CopyRowsQuery = (select: string, values: readonly CopyLiteral[]) => Promise<Array<Array<Buffer | null>>>;

/**
 * Reads a SELECT through `COPY (…) TO STDOUT (FORMAT binary)`, for rows of megabytes (a block's list
 * text). node-postgres decodes every value of a query's rows as UTF-8 into a string, even in the
 * binary format, and a bytea is then encoded back: for a list of 1.7 MB that was a third of reading
 * it. The data of a COPY reaches a query object as bytes (node-postgres's "submittable" queries).
 */
export function copyRowsQuery(pool: pg.Pool): CopyRowsQuery {
    return async (select, values) => {
        const statement = `COPY (${withLiterals(select, values)}) TO STDOUT (FORMAT binary)`;
        const client = await pool.connect();
        let failure: Error | undefined;
        try {
            const copy = new CopyOut(statement);
            client.query(copy as unknown as pg.QueryConfig);
            return parseBinaryCopy(await copy.done);
        } catch (error) {
            failure = error as Error;
            throw error;
        } finally {
            // A client whose connection failed under the query is dropped, not put back.
            client.release(failure && !('severity' in failure) ? failure : undefined);
        }
    };
}

/** `$n` placeholders replaced by literals: integers as they are, strings quoted and escaped. */
function withLiterals(select: string, values: readonly CopyLiteral[]): string {
    return select.replace(/\$(\d+)/g, (_placeholder, index: string) => {
        const value = values[Number(index) - 1];
        if (typeof value === 'bigint') return value.toString();
        if (typeof value === 'number') {
            if (!Number.isSafeInteger(value)) throw new Error(`a COPY statement takes integers only, not ${value}`);
            return String(value);
        }
        if (typeof value === 'string') return pg.escapeLiteral(value);
        throw new Error(`no value for $${index} of a COPY statement`);
    });
}

/** A COPY TO STDOUT as node-postgres runs a query object: its data kept as it arrives, settled by the server's answer. */
class CopyOut {
    readonly done: Promise<Buffer[]>;
    private readonly chunks: Buffer[] = [];
    private resolve!: (chunks: Buffer[]) => void;
    private reject!: (error: Error) => void;

    constructor(private readonly statement: string) {
        this.done = new Promise((resolve, reject) => {
            this.resolve = resolve;
            this.reject = reject;
        });
    }

    submit(connection: { query(text: string): void }): void {
        connection.query(this.statement);
    }

    handleCopyData(message: { chunk: Buffer }): void {
        // The chunk is a view of the connection's read buffer, which the next message may reuse.
        this.chunks.push(Buffer.from(message.chunk));
    }

    handleReadyForQuery(): void {
        this.resolve(this.chunks);
    }

    handleError(error: Error): void {
        this.reject(error);
    }

    /** The server's "COPY n" before it is ready again: nothing to do. */
    handleCommandComplete(): void {}
}

const SIGNATURE = Buffer.from('PGCOPY\n\xff\r\n\0', 'latin1');

/** PostgreSQL's binary COPY format: a signature, flags and an extension, then rows of length-prefixed fields, then -1. */
export function parseBinaryCopy(chunks: Buffer[]): Array<Array<Buffer | null>> {
    const reader = new ChunkReader(chunks);
    if (!reader.take(SIGNATURE.length).equals(SIGNATURE)) throw new Error('not a binary COPY stream');
    reader.int32();
    reader.take(reader.int32());
    const rows: Array<Array<Buffer | null>> = [];
    for (;;) {
        const fields = reader.int16();
        if (fields === -1) return rows;
        const row: Array<Buffer | null> = [];
        for (let i = 0; i < fields; i++) {
            const length = reader.int32();
            row.push(length === -1 ? null : reader.take(length));
        }
        rows.push(row);
    }
}

/** Bytes read in order across chunks; a piece within one chunk is a view of it, not a copy. */
class ChunkReader {
    private chunk = 0;
    private at = 0;

    constructor(private readonly chunks: Buffer[]) {}

    int16(): number {
        return this.take(2).readInt16BE(0);
    }

    int32(): number {
        return this.take(4).readInt32BE(0);
    }

    take(length: number): Buffer {
        while (this.chunk < this.chunks.length && this.at === this.chunks[this.chunk].length) {
            this.chunk++;
            this.at = 0;
        }
        const current = this.chunks[this.chunk];
        if (current && this.at + length <= current.length) {
            this.at += length;
            return current.subarray(this.at - length, this.at);
        }
        const pieces: Buffer[] = [];
        let needed = length;
        while (needed > 0) {
            const chunk = this.chunks[this.chunk];
            if (!chunk) throw new Error('binary COPY stream ends in the middle of a row');
            const piece = chunk.subarray(this.at, this.at + needed);
            pieces.push(piece);
            needed -= piece.length;
            this.at += piece.length;
            if (this.at === chunk.length) {
                this.chunk++;
                this.at = 0;
            }
        }
        return Buffer.concat(pieces, length);
    }
}
