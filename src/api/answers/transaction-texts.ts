import type { ExtraCurrencyCatalog } from '../../ton/extra-currencies.ts';
import { decodeStoredTransaction, mentionedAccounts, type IndexedTransaction, type StoredBlockList, type StoredTransaction } from '../../store/read/transactions.ts';
import { JsonTextCache, confirmEntry, madeEntry, type CachedJsonText } from './json-text-cache.ts';
import { RawJson, toJsonBytes } from '../../json/json.ts';
import { AccountDirectory } from '../../present/account-address.ts';
import { presentIndexedTransaction } from '../../present/indexed-transaction.ts';
import { appendFilledTemplate, readListHoles, readTextTemplate, templateAccounts, type TextTemplate } from '../../present/stored/transaction-template.ts';
import { ByteText } from '../../json/byte-text.ts';

/**
 * Transactions (spec 2.13) as JSON texts, each kept by hash once written: a transaction never
 * changes, so an account's pages and a block's list are put together from texts made before, and
 * only transactions not seen yet (or whose accounts the index now knows differently) are made: from
 * the text stored with them at ingest, its holes filled with what the index knows now, or else
 * decoded and presented. One query per call reads the interfaces of the accounts that new texts mention and
 * of those that kept texts mention, unless the index has not written a block since they were checked.
 */
export class TransactionTexts {
    private readonly cache: JsonTextCache<CachedJsonText>;

    constructor(
        maxBytes: number,
        private readonly interfacesOf: (accounts: string[]) => Promise<Map<string, string[]>>,
        private readonly generationOf: () => Promise<bigint>,
        private readonly currencies?: ExtraCurrencyCatalog,
    ) {
        this.cache = new JsonTextCache(maxBytes);
    }

    /**
     * The transactions with these hashes, in this order; `load` reads those whose texts are not
     * kept (or no longer hold) from the index. A transaction stored with its text is filled in from
     * it; one without (indexed before texts were stored, or of another text version) is decoded and presented.
     */
    async present(hashes: string[], load: (hashes: string[]) => Promise<StoredTransaction[]>): Promise<RawJson[]> {
        // Read before the interfaces: a block written in between moves it, and the next call checks again.
        const generation = await this.generationOf();
        const cached = hashes.map(hash => this.cache.get(hash));
        const unchecked = cached.map(entry => entry !== undefined && entry.checkedAt !== generation);
        const read = new Map<string, ReadTransaction>();
        const readRows = async (wanted: string[]) => {
            for (const row of wanted.length > 0 ? await load(wanted) : []) read.set(row.hash, readTransaction(row));
        };
        await readRows(hashes.filter((_, i) => !cached[i]));
        const accounts = new Set<string>();
        cached.forEach((entry, i) => {
            if (unchecked[i]) for (const account of entry!.accounts) accounts.add(account);
        });
        for (const transaction of read.values()) for (const account of transaction.accounts) accounts.add(account);
        const interfaces = accounts.size > 0 ? await this.interfacesOf([...accounts].sort()) : new Map<string, string[]>();
        // Kept texts made when an account's interfaces were different are made again; the others hold at this generation.
        const stale: string[] = [];
        cached.forEach((entry, i) => {
            if (unchecked[i] && !confirmEntry(entry!, interfaces, generation)) stale.push(hashes[i]);
        });
        await readRows(stale);
        const directory = this.directory(interfaces);
        return hashes.map((hash, i) => {
            const transaction = read.get(hash);
            if (!transaction) return new RawJson(cached[i]!.bytes);
            const text = new ByteText();
            appendTransaction(text, transaction, interfaces, directory);
            const bytes = text.toBuffer();
            this.cache.set(hash, madeEntry(bytes, transaction.accounts, interfaces, generation));
            return new RawJson(bytes);
        });
    }

    /**
     * Transactions just read whole from the index (a block's), appended to `out` as one JSON array:
     * filled from their stored texts straight into the answer, with one query for the interfaces of
     * the accounts they mention. The kept texts are neither used nor added to: the rows are read
     * anyway, and a list's hundreds of texts pushed the ones account pages and traces reuse out of
     * the cache, and kept the GC busy.
     */
    async appendList(out: ByteText, rows: StoredTransaction[]): Promise<void> {
        const read = rows.map(readTransaction);
        const accounts = new Set<string>();
        for (const transaction of read) for (const account of transaction.accounts) accounts.add(account);
        const interfaces = accounts.size > 0 ? await this.interfacesOf([...accounts].sort()) : new Map<string, string[]>();
        out.string('[');
        const directory = this.directory(interfaces);
        read.forEach((transaction, i) => {
            if (i > 0) out.string(',');
            appendTransaction(out, transaction, interfaces, directory);
        });
        out.string(']');
    }

    /**
     * A block's list stored as one text (store/read/transactions.ts, blockListText) appended to
     * `out`, its holes filled from one interfaces query (while the text arrives, on PostgreSQL); false,
     * with nothing appended, when the text was made by another version or was not there (the list is
     * then put together from the transactions).
     */
    async appendListText(out: ByteText, stored: StoredBlockList): Promise<boolean> {
        const holes = readListHoles(stored.holes);
        const accounts = templateAccounts(holes);
        if (!accounts) return false;
        const interfaces = accounts.length > 0 ? await this.interfacesOf(accounts.sort()) : new Map<string, string[]>();
        const text = await stored.text;
        return text !== undefined && appendFilledTemplate(out, { ...holes, text }, null, interfaces);
    }

    /** The directory that presents transactions without a stored text, made once a call and only if one needs it. */
    private directory(interfaces: Map<string, string[]>): () => AccountDirectory {
        let directory: AccountDirectory | undefined;
        return () => (directory ??= new AccountDirectory(interfaces, this.currencies));
    }
}

/** A transaction's text appended to `out`: its stored text filled in, else decoded and presented. */
function appendTransaction(out: ByteText, transaction: ReadTransaction, interfaces: Map<string, string[]>, directory: () => AccountDirectory): void {
    const { row, template } = transaction;
    if (template && appendFilledTemplate(out, template, row.boc, interfaces)) return;
    out.bytes(toJsonBytes(presentIndexedTransaction(transaction.decoded ?? decodeStoredTransaction(row), directory())));
}

/** A transaction read from the index: with a stored text of this version, only the accounts its holes name; else decoded. */
interface ReadTransaction {
    row: StoredTransaction;
    /** Its stored text as a template, when it has one. */
    template?: TextTemplate;
    decoded?: IndexedTransaction;
    /** The accounts it mentions, sorted. */
    accounts: string[];
}

function readTransaction(row: StoredTransaction): ReadTransaction {
    const template = row.text ? readTextTemplate(row.text) : undefined;
    const named = template ? templateAccounts(template) : null;
    if (named) return { row, template, accounts: named.sort() };
    const decoded = decodeStoredTransaction(row);
    return { row, template, decoded, accounts: mentionedAccounts([decoded]) };
}
