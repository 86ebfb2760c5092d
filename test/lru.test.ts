import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { JsonTextCache, type CachedJsonText } from '../src/api/answers/json-text-cache.ts';
import { BoundedMap, Lru } from '../src/lru.ts';

/** The same rules written the slow, obvious way: an array, oldest (least recently used, with `moveOnGet`) first. */
class ModelLru {
    keys: number[] = [];
    constructor(private readonly limit: number, private readonly moveOnGet: boolean) {}
    get(key: number): boolean {
        const at = this.keys.indexOf(key);
        if (at < 0) return false;
        if (this.moveOnGet) this.keys.push(...this.keys.splice(at, 1));
        return true;
    }
    set(key: number): void {
        const at = this.keys.indexOf(key);
        // Map.set keeps a key where it was; the LRUs move it to the back.
        if (at >= 0 && !this.moveOnGet) return;
        if (at >= 0) this.keys.splice(at, 1);
        this.keys.push(key);
        if (this.keys.length > this.limit) this.keys.shift();
    }
}

/** A fixed pseudo-random sequence, so a failure can be run again. */
function random(seed: number): () => number {
    let state = seed;
    return () => {
        state = (state * 1103515245 + 12345) % 2 ** 31;
        return state / 2 ** 31;
    };
}

const OPERATIONS = 40_000;

describe('bounded maps forget the right entry after many moves and evictions', () => {
    for (const limit of [1, 7, 300]) {
        it(`Lru of ${limit}: the same keys as a plain model, in the same order`, () => {
            const lru = new Lru<number, number>(limit);
            const model = new ModelLru(limit, true);
            const next = random(limit);
            for (let i = 0; i < OPERATIONS; i++) {
                const key = Math.floor(next() * limit * 3);
                if (next() < 0.5) assert.equal(lru.get(key) !== undefined, model.get(key), `get ${key} at ${i}`);
                else {
                    lru.set(key, key);
                    model.set(key);
                }
            }
            // What remains, oldest first: evicting one at a time from both agrees all the way.
            const kept = (lru as unknown as { map: Map<number, number> }).map;
            assert.deepEqual([...kept.keys()], model.keys);
        });

        it(`BoundedMap of ${limit}: at most ${limit} keys, the first set forgotten first`, () => {
            const map = new BoundedMap<number, number>(limit);
            const model = new ModelLru(limit, false);
            const next = random(limit + 1);
            for (let i = 0; i < OPERATIONS; i++) {
                const key = Math.floor(next() * limit * 3);
                if (next() < 0.3) {
                    map.delete(key);
                    const at = model.keys.indexOf(key);
                    if (at >= 0) model.keys.splice(at, 1);
                } else {
                    map.set(key, key);
                    model.set(key);
                }
                assert.equal(map.size, model.keys.length, `size at ${i}`);
            }
            assert.deepEqual([...map.keys()], model.keys);
        });
    }

    it('JsonTextCache: bounded by bytes, least recently used out first', () => {
        const limitBytes = 64 * 100;
        const cache = new JsonTextCache<CachedJsonText>(limitBytes);
        const model = new ModelLru(100, true);
        const entry = (key: number): CachedJsonText => ({ bytes: Buffer.alloc(64, key), accounts: [], interfaces: '[]', checkedAt: 0n });
        const next = random(99);
        for (let i = 0; i < OPERATIONS; i++) {
            const key = Math.floor(next() * 300);
            if (next() < 0.5) {
                const found = cache.get(String(key));
                assert.equal(found !== undefined, model.get(key), `get ${key} at ${i}`);
                if (found) assert.equal(found.bytes[0], key % 256);
            } else {
                cache.set(String(key), entry(key));
                model.set(key);
            }
        }
        const kept = (cache as unknown as { entries: Map<string, CachedJsonText> }).entries;
        assert.deepEqual([...kept.keys()].map(Number), model.keys);
    });
});
