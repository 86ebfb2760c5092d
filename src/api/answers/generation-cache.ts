/**
 * The read side's one cache of what the index says: values by key (an account's interfaces, a
 * jetton's metadata, the index heads), kept while the index generation stays where it was when
 * they were read: everything an indexed block or a fetched
 * metadata document changes moves it (`IndexGenerationTable`), and the first read at a new
 * generation starts afresh. Under load most requests between two blocks name the same few accounts
 * and jettons, and on PostgreSQL each of their lookups was a round trip of its own. Keys the index
 * does not hold are kept as absent too.
 */
export class GenerationCache<V> {
    private generation: bigint | null = null;
    private readonly known = new Map<string, V | undefined>();

    /** `maxKeys` bounds the memory: past it the kept values are let go and read again. */
    constructor(private readonly load: (keys: string[]) => Promise<Map<string, V>>, private readonly maxKeys = 50_000) {}

    /**
     * The values of `keys` the index holds at `generation` (read by the caller before it read
     * anything naming the keys, so what is kept is at least that new).
     */
    async read(keys: Iterable<string>, generation: bigint): Promise<Map<string, V>> {
        if (this.generation === null || generation > this.generation) {
            this.known.clear();
            this.generation = generation;
        } else if (generation < this.generation) {
            // A request that began before a newer one read: its keys are read as they are, and not kept.
            return this.load([...new Set(keys)]);
        }
        const out = new Map<string, V>();
        const missing: string[] = [];
        for (const key of new Set(keys)) {
            if (!this.known.has(key)) missing.push(key);
            else {
                const value = this.known.get(key);
                if (value !== undefined) out.set(key, value);
            }
        }
        if (missing.length === 0) return out;
        const loaded = await this.load(missing);
        // A newer generation's read may have begun meanwhile: these are kept only for the one they were read at.
        const keep = this.generation === generation;
        if (keep && this.known.size + missing.length > this.maxKeys) this.known.clear();
        for (const key of missing) {
            const value = loaded.get(key);
            if (value !== undefined) out.set(key, value);
            if (keep) this.known.set(key, value);
        }
        return out;
    }

    /** The value of one key at `generation` (undefined when the index holds none). */
    async value(key: string, generation: bigint): Promise<V | undefined> {
        return (await this.read([key], generation)).get(key);
    }
}
