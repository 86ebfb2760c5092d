import type { JettonMetadata } from '../../ton/jetton/jetton-preview.ts';
import type { IndexDb, JettonHistoryTable, JettonOperationsTable } from '../schema.ts';
import { toNumber } from '../schema.ts';
import { sql } from 'kysely';
import { onPostgres, readAmong } from './among.ts';
import { accountInterfaces } from './accounts.ts';

/** A jetton transfer, mint or burn. Addresses are raw; `source` and `destination` are owners, not jetton wallets. */
export interface JettonOperation {
    operation: 'transfer' | 'mint' | 'burn';
    utime: number;
    lt: bigint;
    transactionHash: string;
    traceId: string;
    master: string;
    amount: bigint;
    source: string | null;
    destination: string | null;
    queryId: bigint;
    /** The forward payload as decoded at indexing, as the JSON text stored then: `{"text": …}`, a known message, or a BOC's hex; null when none. */
    payloadJson: string | null;
}

/**
 * An operation as the indexer stored its text (present/stored/jetton-operation-text.ts), with what its holes
 * are filled from: its parties and its jetton.
 */
export interface StoredJettonOperation {
    lt: bigint;
    transactionHash: string;
    master: string;
    source: string | null;
    destination: string | null;
    /**
     * The stored text (json/template.ts), ASCII: its bytes, or on SQLite those bytes read as a string
     * (the database makes it, where a Buffer and then a string cost a page ~20 µs); and its holes'
     * descriptors led by its version.
     */
    text: Buffer | string;
    holes: string;
}

/** One page of an account's jetton history, with what is needed to show it. */
export interface JettonHistoryPage {
    /** Stored texts where the index has them; operations indexed before texts were stored, decoded. */
    operations: Array<JettonOperation | StoredJettonOperation>;
    /** The `beforeLt` of the next page; undefined on the last page. */
    nextFrom: bigint | undefined;
    /** Metadata of the operations' jettons whose master is indexed. */
    jettons: Map<string, JettonMetadata>;
    /** Interfaces of the operations' parties the index holds a state for. */
    interfaces: Map<string, string[]>;
}

/**
 * Jetton operations where the account is the source or the destination owner, newest first,
 * strictly below `beforeLt`. Operations sharing the lt at the page boundary are never split
 * between pages (the cursor is an lt, so a split would lose the rest of them).
 */
export async function jettonHistory(db: IndexDb, account: string, beforeLt: bigint | undefined, limit: number, reading: JettonHistoryReading = {}): Promise<JettonHistoryPage> {
    const { rows, nextFrom } = await historyRows(db, account, beforeLt, limit);
    const operations = await withTextsOrDecoded(db, rows, reading.textUsable ?? (() => false));
    const parties = new Set<string>();
    const masters = new Set<string>();
    for (const op of operations) {
        if (op.source !== null) parties.add(op.source);
        if (op.destination !== null) parties.add(op.destination);
        masters.add(op.master);
    }
    const [jettons, interfaces] = await Promise.all([
        (reading.jettons ?? (keys => jettonMetadata(db, keys)))([...masters]),
        (reading.interfaces ?? (keys => accountInterfaces(db, keys)))([...parties]),
    ]);
    return { operations, nextFrom, jettons, interfaces };
}

/** How `jettonHistory` reads what it does not read itself; by default, everything from the index. */
export interface JettonHistoryReading {
    /** Whether a stored text can be used, by its holes (the presenter's version); by default none is, and each operation is read from its columns. */
    textUsable?: (holes: string) => boolean;
    /** The parties' interfaces (those the index holds a state for). */
    interfaces?: (accounts: string[]) => Promise<Map<string, string[]>>;
    /** The metadata of the jettons whose master the index holds. */
    jettons?: (masters: string[]) => Promise<Map<string, JettonMetadata>>;
}

/** Metadata of the jetton masters the index holds, by address. */
export async function jettonMetadata(db: IndexDb, masters: readonly string[]): Promise<Map<string, JettonMetadata>> {
    const rows = await readAmong(db, 'address', [...new Set(masters)], condition => db.selectFrom('jetton_masters').select(['address', 'metadata'])
        .where(condition).execute());
    return new Map(rows.map(row => [row.address, JSON.parse(row.metadata) as JettonMetadata]));
}

type OperationRow = Pick<JettonOperationsTable, 'operation' | 'lt' | 'transaction_hash' | 'trace_id' | 'master' | 'amount' | 'source' | 'destination' | 'query_id' | 'payload' | 'utime'>;

const COLUMNS = ['operation', 'utime', 'lt', 'transaction_hash', 'trace_id', 'master', 'amount', 'source', 'destination', 'query_id', 'payload'] as const;

/** What a page reads of each operation: its stored text and what fills the text's holes. */
type PageRow = Pick<JettonHistoryTable, 'lt' | 'transaction_hash' | 'master' | 'source' | 'destination' | 'text_holes'> & { text: Buffer | string | null };

const PAGE_COLUMNS = ['lt', 'transaction_hash', 'master', 'source', 'destination', 'text_holes'] as const;

/** A page's columns: on SQLite the text comes as a string (`StoredJettonOperation.text`). */
function pageColumns(db: IndexDb) {
    return [...PAGE_COLUMNS, onPostgres(db) ? sql<Buffer | null>`text`.as('text') : sql<string | null>`cast(text as text)`.as('text')] as const;
}

/**
 * The page's rows as their stored texts where `textUsable` takes them; the others (indexed before
 * texts were stored, or by another version of the presenter) read whole and decoded; in the page's order.
 */
async function withTextsOrDecoded(db: IndexDb, rows: PageRow[], textUsable: (holes: string) => boolean): Promise<Array<JettonOperation | StoredJettonOperation>> {
    const texted = rows.map(row => row.text !== null && row.text_holes !== null && textUsable(row.text_holes));
    const untexted = rows.filter((_, i) => !texted[i]).map(row => row.transaction_hash);
    const whole = untexted.length === 0 ? new Map<string, JettonOperation>() : await jettonOperationsByHash(db, untexted);
    return rows.map((row, i) => texted[i]
        ? { lt: row.lt, transactionHash: row.transaction_hash, master: row.master, source: row.source, destination: row.destination, text: row.text!, holes: row.text_holes! }
        : whole.get(row.transaction_hash)!);
}

/** The operations of these transactions the index holds, decoded, by transaction hash. */
export async function jettonOperationsByHash(db: IndexDb, hashes: readonly string[]): Promise<Map<string, JettonOperation>> {
    const rows = await readAmong(db, 'transaction_hash', hashes, condition => db.selectFrom('jetton_operations').select(COLUMNS).where(condition).execute());
    return new Map(rows.map(row => [row.transaction_hash, decodeOperation(row)]));
}

async function historyRows(db: IndexDb, account: string, beforeLt: bigint | undefined, limit: number): Promise<{ rows: PageRow[]; nextFrom: bigint | undefined }> {
    // One range of the account's rows, newest first. The key's own order (lt, then hash, both
    // descending) is read; ties of an lt are shown by hash ascending, sorted here (asking the
    // database for that order would have it sort all of the account's rows below the cursor).
    let query = db.selectFrom('jetton_history').select(pageColumns(db)).where('account', '=', account);
    if (beforeLt !== undefined) query = query.where('lt', '<', beforeLt);
    const rows = (await query.orderBy('lt', 'desc').orderBy('transaction_hash', 'desc').limit(limit + 1).execute()).sort(newestFirst);
    if (rows.length <= limit) return { rows, nextFrom: undefined };
    let page = rows.slice(0, limit);
    const boundary = page[page.length - 1].lt;
    if (rows[limit].lt === boundary) {
        page = page.filter(op => op.lt !== boundary);
        if (page.length === 0) {
            const tied = await db.selectFrom('jetton_history').select(pageColumns(db))
                .where('account', '=', account).where('lt', '=', boundary)
                .orderBy('transaction_hash').execute();
            return { rows: tied, nextFrom: boundary };
        }
    }
    return { rows: page, nextFrom: page[page.length - 1].lt };
}

function newestFirst(a: PageRow, b: PageRow): number {
    if (a.lt !== b.lt) return a.lt > b.lt ? -1 : 1;
    return a.transaction_hash < b.transaction_hash ? -1 : a.transaction_hash > b.transaction_hash ? 1 : 0;
}

/** An operation's columns as the API reads them (the indexer writes its text from the same). */
export function decodeOperation(row: OperationRow): JettonOperation {
    return {
        operation: row.operation,
        utime: toNumber(row.utime),
        lt: row.lt,
        transactionHash: row.transaction_hash,
        traceId: row.trace_id,
        master: row.master,
        amount: BigInt(row.amount),
        source: row.source,
        destination: row.destination,
        queryId: BigInt(row.query_id),
        payloadJson: row.payload,
    };
}
