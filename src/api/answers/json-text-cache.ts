import { OldestFirst } from '../../lru.ts';

/**
 * JSON texts (UTF-8 bytes, ready for the wire and outside the JS heap the GC walks) of answers or
 * parts of answers about immutable chain data, by key, bounded by their total size, least recently
 * used out first. What such a text says about the accounts it mentions
 * (interfaces, hence `is_wallet` and decoded bodies) can change as the index learns more, so each
 * entry keeps the accounts and a fingerprint of their interfaces when it was made; callers use an
 * entry only while the fingerprint of the index's current interfaces is the same, read again only
 * once the index has written a block since it was last checked.
 */
export class JsonTextCache<Entry extends CachedJsonText> {
    private readonly entries = new Map<string, Entry>();
    private size = 0;
    /** Kept across calls: see `OldestFirst` in src/lru.ts. */
    private readonly oldest = new OldestFirst(this.entries);

    constructor(private readonly maxBytes: number) {}

    get(key: string): Entry | undefined {
        const entry = this.entries.get(key);
        if (!entry) return undefined;
        this.entries.delete(key);
        this.entries.set(key, entry);
        return entry;
    }

    set(key: string, entry: Entry): void {
        if (entry.bytes.length > this.maxBytes / 8) return;
        const previous = this.entries.get(key);
        if (previous) this.size -= previous.bytes.length;
        this.entries.delete(key);
        this.entries.set(key, entry);
        this.size += entry.bytes.length;
        while (this.size > this.maxBytes) {
            const oldKey = this.oldest.key()!;
            this.size -= this.entries.get(oldKey)!.bytes.length;
            this.entries.delete(oldKey);
        }
    }
}

export interface CachedJsonText {
    bytes: Buffer;
    /** The accounts the text mentions, sorted. */
    accounts: string[];
    /** A fingerprint of those accounts' interfaces when the text was made. */
    interfaces: string;
    /**
     * The index generation (store/read/index-generation.ts) at which the fingerprint last held:
     * while the index has not moved since, it still does, without reading the interfaces again.
     */
    checkedAt: bigint;
}

/** An entry for `bytes` made now, at `generation`, with `interfaces` (which holds those of `accounts` the index knows). */
export function madeEntry(bytes: Buffer, accounts: string[], interfaces: Map<string, string[]>, generation: bigint): CachedJsonText {
    return { bytes, accounts, interfaces: interfacesFingerprint(interfaces, accounts), checkedAt: generation };
}

/**
 * Whether `entry` was made with the interfaces its accounts have in `interfaces` (read at
 * `generation` or later); if so it is marked checked at `generation`.
 */
export function confirmEntry(entry: CachedJsonText, interfaces: Map<string, string[]>, generation: bigint): boolean {
    if (interfacesFingerprint(interfaces, entry.accounts) !== entry.interfaces) return false;
    entry.checkedAt = generation;
    return true;
}

function interfacesFingerprint(interfaces: Map<string, string[]>, accounts: string[]): string {
    return JSON.stringify(accounts.map(a => interfaces.get(a) ?? []));
}
