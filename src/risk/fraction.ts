/**
 * Exact non-negative rationals over bigint, for money: rates are decimal strings and totals mix
 * nanograms with jettons of any number of decimals, so nothing here ever goes through a float.
 */
export interface Fraction {
    readonly num: bigint;
    /** always > 0 */
    readonly den: bigint;
}

export const ONE: Fraction = { num: 1n, den: 1n };

const DECIMAL = /^(\d+)(?:\.(\d+))?$/;

/** "12", "0.19", "5.000001" → exact value; anything else (signs, exponents, blanks) → undefined. */
export function parseDecimal(text: string): Fraction | undefined {
    const match = DECIMAL.exec(text);
    if (!match) return undefined;
    const fractional = match[2] ?? '';
    return reduce({ num: BigInt(match[1] + fractional), den: 10n ** BigInt(fractional.length) });
}

/** `amount` smallest units of a token with `decimals` decimals, in whole tokens. */
export function fromUnits(amount: bigint, decimals: number): Fraction {
    return reduce({ num: amount, den: 10n ** BigInt(decimals) });
}

export function add(a: Fraction, b: Fraction): Fraction {
    return reduce({ num: a.num * b.den + b.num * a.den, den: a.den * b.den });
}

export function mul(a: Fraction, b: Fraction): Fraction {
    return reduce({ num: a.num * b.num, den: a.den * b.den });
}

export function div(a: Fraction, b: Fraction): Fraction {
    if (b.num === 0n) throw new RangeError('division by zero');
    return reduce({ num: a.num * b.den, den: a.den * b.num });
}

/** Smallest integer ≥ the value (values are non-negative). */
export function ceil(a: Fraction): bigint {
    return (a.num + a.den - 1n) / a.den;
}

function gcd(a: bigint, b: bigint): bigint {
    while (b !== 0n) [a, b] = [b, a % b];
    return a;
}

function reduce(f: Fraction): Fraction {
    const g = gcd(f.num, f.den);
    return g > 1n ? { num: f.num / g, den: f.den / g } : f;
}
