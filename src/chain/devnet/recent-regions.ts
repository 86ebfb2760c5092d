/** How many levels above its regions a `RecentRegions` counts them: regions loaded back larger than that stay whole. */
const LEVELS_COUNTED = 8;

/**
 * The regions of a shard's accounts dictionary changed last (by the top `bits` bits of their account
 * ids), oldest first, each with an account id in it; and, for the prefixes a few levels shorter,
 * how many of them lie under each. That tells the dictionary which subtrees beside an evicted region
 * nothing is kept in: the rest of a region loaded back from before the regions last got smaller.
 */
export class RecentRegions {
    private readonly regions = new Map<bigint, bigint>();
    /** Recent regions under each shorter prefix, keyed by `prefixKey`. */
    private readonly under = new Map<bigint, number>();
    private readonly shift: bigint;

    constructor(readonly bits: number) {
        this.shift = BigInt(256 - bits);
    }

    get size(): number {
        return this.regions.size;
    }

    /** An account id in each region, oldest first. */
    ids(): IterableIterator<bigint> {
        return this.regions.values();
    }

    /**
     * The same regions at another size, in the same order, each named by the account id it had: a
     * region kept larger than the new size is evicted at the new size when it is the oldest, and the
     * rest of it, under no recent region, goes with it.
     */
    resized(bits: number): RecentRegions {
        const next = new RecentRegions(bits);
        for (const id of this.regions.values()) next.touch(id);
        return next;
    }

    /** The account's region becomes the newest. */
    touch(id: bigint): void {
        const region = id >> this.shift;
        if (this.regions.delete(region)) {
            this.regions.set(region, id);
            return;
        }
        this.regions.set(region, id);
        this.count(region, 1);
    }

    /** The oldest region, no longer recent: an account id in it. */
    takeOldest(): bigint | undefined {
        for (const [region, id] of this.regions) {
            this.regions.delete(region);
            this.count(region, -1);
            return id;
        }
        return undefined;
    }

    /** Whether a recent region lies under the top `bits` bits of `key` (or holds them); beyond the levels counted, assumed so. */
    holdsUnder(key: bigint, bits: number): boolean {
        if (bits >= this.bits) return this.regions.has(key >> this.shift);
        if (this.bits - bits > LEVELS_COUNTED) return true;
        return this.under.has(prefixKey(key >> BigInt(256 - bits), bits));
    }

    private count(region: bigint, delta: number): void {
        for (let level = 1; level <= LEVELS_COUNTED && level <= this.bits; level++) {
            const bits = this.bits - level;
            const key = prefixKey(region >> BigInt(level), bits);
            const count = (this.under.get(key) ?? 0) + delta;
            if (count === 0) this.under.delete(key);
            else this.under.set(key, count);
        }
    }
}

/** A prefix of `bits` bits and its length as one number: a 1 above the prefix's top bit. */
function prefixKey(prefix: bigint, bits: number): bigint {
    return (1n << BigInt(bits)) | prefix;
}
