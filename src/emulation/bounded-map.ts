import { OldestFirst } from '../lru.ts';

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
