import type { ExtraCurrencyCatalog } from '../../ton/extra-currencies.ts';
import type { IndexDb } from '../../store/schema.ts';
import { accountInterfaces } from '../../store/read/accounts.ts';
import { traceTransactions, traceTransactionTexts, type TraceTransactionText } from '../../store/read/transactions.ts';
import { toJsonBytes } from '../../json/json.ts';
import { fillTemplate, readTextTemplate, templateAccounts } from '../../present/stored/transaction-template.ts';
import { presentTraceOfTexts, presentTraceTree } from '../../present/trace.ts';

/** A trace's answer as JSON bytes, with what it was made from (for the trace cache's checks). */
export interface TraceText {
    bytes: Buffer;
    /** The accounts it mentions, sorted, and their interfaces as the index knew them. */
    accounts: string[];
    interfaces: Map<string, string[]>;
    transactions: number;
}

/**
 * The trace (spec 2.14) with this id: put together from its transactions' stored texts when every
 * one has a text of this version, their holes filled from one interfaces query; else decoded and
 * presented from the BOCs. `storedTexts: false` always takes the second way.
 */
export async function traceText(db: IndexDb, traceId: string, currencies?: ExtraCurrencyCatalog, storedTexts = true): Promise<TraceText> {
    const stored = storedTexts ? await traceTransactionTexts(db, traceId) : null;
    const fromTexts = stored && stored.length > 0 ? await fromStoredTexts(db, stored) : null;
    if (fromTexts) return fromTexts;
    const trace = await traceTransactions(db, traceId);
    return { bytes: toJsonBytes(presentTraceTree(trace, currencies)), accounts: trace.accounts, interfaces: trace.interfaces, transactions: trace.transactions.length };
}

async function fromStoredTexts(db: IndexDb, stored: TraceTransactionText[]): Promise<TraceText | null> {
    const named = new Set<string>();
    const templates = stored.map(item => readTextTemplate(item.text));
    for (const template of templates) {
        const accounts = templateAccounts(template);
        if (!accounts) return null;
        for (const account of accounts) named.add(account);
    }
    const accounts = [...named].sort();
    const interfaces = await accountInterfaces(db, accounts);
    const texts = new Map<string, Buffer>();
    for (let i = 0; i < stored.length; i++) {
        const bytes = fillTemplate(templates[i], stored[i].boc, interfaces);
        if (!bytes) return null;
        texts.set(stored[i].hash, bytes);
    }
    return { bytes: toJsonBytes(presentTraceOfTexts(stored, texts, interfaces)), accounts, interfaces, transactions: stored.length };
}
