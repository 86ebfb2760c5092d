import { type Builder, type CurrencyCollection } from '@ton/core';
import { extraCurrencyAmounts, extraCurrencyDict } from './extra-currencies.ts';

/**
 * A CurrencyCollection as numbers: grams and extra currencies by id (no zero entries), added and
 * stored the way TON's augmented dictionaries and value flows sum them.
 * `currencies$_ grams:Grams other:ExtraCurrencyCollection = CurrencyCollection;`
 */
export interface Amounts {
    grams: bigint;
    extra: ReadonlyMap<number, bigint>;
}

const NO_EXTRA: ReadonlyMap<number, bigint> = new Map();

export const ZERO: Amounts = { grams: 0n, extra: NO_EXTRA };

export function grams(value: bigint): Amounts {
    return value === 0n ? ZERO : { grams: value, extra: NO_EXTRA };
}

export function amountsOf(collection: CurrencyCollection): Amounts {
    const extra = extraCurrencyAmounts(collection.other);
    return { grams: collection.coins, extra: extra.size === 0 ? NO_EXTRA : extra };
}

export function addAmounts(a: Amounts, b: Amounts): Amounts {
    if (b.extra.size === 0 && a.extra.size === 0) return b.grams === 0n ? a : a.grams === 0n ? b : { grams: a.grams + b.grams, extra: NO_EXTRA };
    const extra = new Map(a.extra);
    for (const [id, amount] of b.extra) extra.set(id, (extra.get(id) ?? 0n) + amount);
    return { grams: a.grams + b.grams, extra };
}

export function storeAmounts(amounts: Amounts, builder: Builder): void {
    builder.storeCoins(amounts.grams);
    builder.storeDict(amounts.extra.size === 0 ? undefined : extraCurrencyDict(amounts.extra));
}
