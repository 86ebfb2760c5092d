/**
 * Serialized answers of GET /v2/traces for complete traces. A complete trace never changes, but
 * what the index knows about its accounts (interfaces, hence `is_wallet`) can, so an entry is used
 * only while those are exactly as they were when it was made. Bounded by total text size, least
 * recently used out first.
 */
export class TraceResponseCache {
    private readonly entries = new Map<string, CachedTrace>();
    private size = 0;

    constructor(private readonly maxChars: number) {}

    get(traceId: string, txCount: number): CachedTrace | undefined {
        const entry = this.entries.get(traceId);
        if (!entry || entry.txCount !== txCount) return undefined;
        this.entries.delete(traceId);
        this.entries.set(traceId, entry);
        return entry;
    }

    set(traceId: string, entry: CachedTrace): void {
        if (entry.text.length > this.maxChars / 8) return;
        const previous = this.entries.get(traceId);
        if (previous) this.size -= previous.text.length;
        this.entries.delete(traceId);
        this.entries.set(traceId, entry);
        this.size += entry.text.length;
        for (const [key, oldest] of this.entries) {
            if (this.size <= this.maxChars) break;
            this.entries.delete(key);
            this.size -= oldest.text.length;
        }
    }
}

export interface CachedTrace {
    text: string;
    txCount: number;
    /** Interfaces of every account in the trace when the text was made (JSON of sorted entries). */
    accounts: string[];
    interfaces: string;
}

export function interfacesFingerprint(interfaces: Map<string, string[]>, accounts: string[]): string {
    return JSON.stringify(accounts.map(a => interfaces.get(a) ?? []));
}
