/**
 * Random numbers and bytes from a seed (xorshift32), so a test that draws them can be replayed:
 * the seed is TEST_SEED when set, else the test's own default, and the test prints it.
 */
export interface SeededRandom {
    readonly seed: number;
    /** in [0, 1) */
    next(): number;
    bytes(length: number): Buffer;
}

export function seededRandom(defaultSeed: number): SeededRandom {
    const seed = (process.env.TEST_SEED ? Number(process.env.TEST_SEED) : defaultSeed) >>> 0 || 1;
    let x = seed;
    const next = () => {
        x ^= x << 13;
        x >>>= 0;
        x ^= x >>> 17;
        x ^= x << 5;
        x >>>= 0;
        return x / 0x100000000;
    };
    return {
        seed,
        next,
        bytes(length) {
            const out = Buffer.alloc(length);
            for (let i = 0; i < length; i++) out[i] = Math.floor(next() * 256);
            return out;
        },
    };
}
