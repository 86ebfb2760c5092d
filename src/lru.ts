/** A map of at most `limit` entries that forgets the least recently read or written one first. */
export class Lru<K, V> {
    private readonly map = new Map<K, V>();
    private readonly oldest = new OldestFirst(this.map);

    constructor(private readonly limit: number) {}

    get(key: K): V | undefined {
        const value = this.map.get(key);
        if (value !== undefined) {
            this.map.delete(key);
            this.map.set(key, value);
        }
        return value;
    }

    set(key: K, value: V): void {
        this.map.delete(key);
        this.map.set(key, value);
        if (this.map.size > this.limit) this.map.delete(this.oldest.key()!);
    }
}

/**
 * The oldest key of a Map used as a queue (entries taken from the front, moved to the back by
 * deleting and setting them again). A Map keeps the slots of deleted entries until its table is
 * rebuilt, and a new iterator walks past all of them: taking the oldest key with
 * `map.keys().next()` after many deletions cost time in proportion to the map's size (15 µs a
 * call at 60k entries). One iterator kept across calls walks past each deleted slot once; by the
 * language's rules it still sees entries set after it was made and skips deleted ones.
 */
export class OldestFirst<K> {
    private cursor: Iterator<K>;

    constructor(private readonly map: Map<K, unknown>) {
        this.cursor = map.keys();
    }

    /** The key set longest ago (undefined for an empty map); the caller deletes it before asking again. */
    key(): K | undefined {
        let next = this.cursor.next();
        if (next.done) {
            // An iterator that reached the end stays there: a new one starts from the front.
            this.cursor = this.map.keys();
            next = this.cursor.next();
        }
        return next.done ? undefined : next.value;
    }
}

/** A map that forgets its oldest entries beyond a size. */
export class BoundedMap<K, V> extends Map<K, V> {
    private oldest: OldestFirst<K> | undefined;

    constructor(private readonly limit: number) {
        super();
    }

    override set(key: K, value: V): this {
        super.set(key, value);
        if (this.size > this.limit) this.delete((this.oldest ??= new OldestFirst(this)).key()!);
        return this;
    }
}
