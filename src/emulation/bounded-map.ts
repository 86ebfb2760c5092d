/** A map that forgets its oldest entries beyond a size. */
export class BoundedMap<K, V> extends Map<K, V> {
    constructor(private readonly limit: number) {
        super();
    }

    override set(key: K, value: V): this {
        super.set(key, value);
        if (this.size > this.limit) this.delete(this.keys().next().value as K);
        return this;
    }
}
