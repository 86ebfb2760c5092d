/**
 * What detection learns about a code (not an account): its interfaces and get-methods. Cached by
 * code hash so the same code is probed on the TVM once; per-account data (balances, owners,
 * seqnos) is never cached.
 */
export interface CodeProfile {
    /** Hex hash of the code cell. */
    codeHash: string;
    /** Interfaces, from the known-code table or from get-method probing. */
    interfaces: string[];
    /** Names of the known get-methods present in the code, sorted. */
    getMethods: string[];
    /** True when the interfaces come from the known-code table. */
    known: boolean;
}

export interface DetectionCacheStats {
    size: number;
    hits: number;
    misses: number;
}

/** LRU of code profiles by code hash (a Map in access order); concurrent misses share one probe. */
export class DetectionCache {
    private readonly entries = new Map<string, CodeProfile>();
    private readonly inFlight = new Map<string, Promise<CodeProfile | null>>();
    private hits = 0;
    private misses = 0;

    constructor(readonly maxEntries = 10_000) {
        if (!(maxEntries >= 1)) throw new Error('DetectionCache: maxEntries must be at least 1');
    }

    get(codeHash: string): CodeProfile | undefined {
        const profile = this.entries.get(codeHash);
        if (profile) {
            this.entries.delete(codeHash);
            this.entries.set(codeHash, profile);
        }
        return profile;
    }

    set(codeHash: string, profile: CodeProfile): void {
        this.entries.delete(codeHash);
        this.entries.set(codeHash, profile);
        while (this.entries.size > this.maxEntries) {
            const oldest = this.entries.keys().next().value as string;
            this.entries.delete(oldest);
        }
    }

    /**
     * The cached profile, or the one `compute` gives (cached unless it is null: a profile that
     * must not be kept, e.g. library code whose library is not available yet). Concurrent calls
     * for the same hash wait for one `compute`.
     */
    async getOrCompute(codeHash: string, compute: () => Promise<CodeProfile | null>): Promise<CodeProfile | null> {
        const cached = this.get(codeHash);
        if (cached) {
            this.hits++;
            return cached;
        }
        const pending = this.inFlight.get(codeHash);
        if (pending) {
            this.hits++;
            return pending;
        }
        this.misses++;
        const promise = (async () => {
            try {
                const profile = await compute();
                if (profile) this.set(codeHash, profile);
                return profile;
            } finally {
                this.inFlight.delete(codeHash);
            }
        })();
        this.inFlight.set(codeHash, promise);
        return promise;
    }

    has(codeHash: string): boolean {
        return this.entries.has(codeHash);
    }

    delete(codeHash: string): boolean {
        return this.entries.delete(codeHash);
    }

    clear(): void {
        this.entries.clear();
    }

    get size(): number {
        return this.entries.size;
    }

    stats(): DetectionCacheStats {
        return { size: this.entries.size, hits: this.hits, misses: this.misses };
    }
}
