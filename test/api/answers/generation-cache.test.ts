import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { GenerationCache } from '../../../src/api/answers/generation-cache.ts';

/** An index of account interfaces whose reads are counted, and whose contents a test changes. */
function countedIndex(initial: Record<string, string[]>) {
    const index = new Map(Object.entries(initial));
    const reads: string[][] = [];
    let gate: Promise<void> | null = null;
    const load = async (keys: string[]) => {
        reads.push([...keys].sort());
        if (gate) await gate;
        return new Map(keys.filter(key => index.has(key)).map(key => [key, index.get(key)!]));
    };
    return { index, reads, load, hold: (until: Promise<void>) => { gate = until; }, release: () => { gate = null; } };
}

const asObject = (map: Map<string, string[]>) => Object.fromEntries([...map].sort());

describe('GenerationCache', () => {
    it('reads each key once a generation, absent ones included, and afresh once the generation moves', async () => {
        const index = countedIndex({ a: ['wallet_v4r2'], b: ['jetton_wallet'] });
        const lookups = new GenerationCache(index.load);
        assert.deepEqual(asObject(await lookups.read(['a', 'x', 'a'], 5n)), { a: ['wallet_v4r2'] });
        assert.deepEqual(asObject(await lookups.read(['a', 'x', 'b'], 5n)), { a: ['wallet_v4r2'], b: ['jetton_wallet'] });
        assert.deepEqual(index.reads, [['a', 'x'], ['b']], 'a kept key is not read again, nor an absent one');

        index.index.set('a', ['wallet_v5r1']);
        index.index.set('x', ['wallet_v3r2']);
        assert.deepEqual(asObject(await lookups.read(['a', 'x'], 5n)), { a: ['wallet_v4r2'] }, 'within a generation what was read holds');
        assert.deepEqual(asObject(await lookups.read(['a', 'x'], 6n)), { a: ['wallet_v5r1'], x: ['wallet_v3r2'] });
        assert.deepEqual(index.reads.slice(2), [['a', 'x']]);
    });

    it('reads a request of an older generation as it is, without keeping it or losing what the newer one kept', async () => {
        const index = countedIndex({ a: ['wallet_v4r2'] });
        const lookups = new GenerationCache(index.load);
        await lookups.read(['a'], 7n);
        index.index.set('a', ['wallet_v5r1']);
        assert.deepEqual(asObject(await lookups.read(['a'], 6n)), { a: ['wallet_v5r1'] });
        assert.deepEqual(asObject(await lookups.read(['a'], 7n)), { a: ['wallet_v4r2'] }, 'the newer generation keeps its own');
        assert.deepEqual(index.reads, [['a'], ['a']]);
    });

    it('does not keep what was read for a generation that moved on while it was read', async () => {
        const index = countedIndex({ a: ['wallet_v4r2'] });
        const lookups = new GenerationCache(index.load);
        let open!: () => void;
        index.hold(new Promise<void>(resolve => { open = resolve; }));
        const slow = lookups.read(['a'], 1n);
        index.release();
        index.index.set('a', ['wallet_v5r1']);
        assert.deepEqual(asObject(await lookups.read(['a'], 2n)), { a: ['wallet_v5r1'] });
        open();
        assert.deepEqual(asObject(await slow), { a: ['wallet_v5r1'] }, 'the slow read answers its own request with what it read');
        assert.deepEqual(asObject(await lookups.read(['a'], 2n)), { a: ['wallet_v5r1'] });
        assert.equal(index.reads.length, 2, 'generation 2 kept its read; the slow one for generation 1 did not replace it');
    });

    it('lets go of what it kept past its bound, and reads it again', async () => {
        const index = countedIndex(Object.fromEntries(Array.from({ length: 10 }, (_, i) => [`k${i}`, ['wallet_v4r2']])));
        const lookups = new GenerationCache(index.load, 4);
        await lookups.read(['k0', 'k1', 'k2'], 1n);
        await lookups.read(['k3', 'k4'], 1n);
        assert.deepEqual(asObject(await lookups.read(['k0', 'k3'], 1n)), { k0: ['wallet_v4r2'], k3: ['wallet_v4r2'] });
        assert.deepEqual(index.reads, [['k0', 'k1', 'k2'], ['k3', 'k4'], ['k0']]);
    });
});
