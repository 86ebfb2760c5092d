import { readFileSync } from 'node:fs';
import { Dictionary } from '@ton/core';
import { DictKeys } from './cells/dict-keys.ts';

/**
 * Extra currencies: the chain's own coins besides grams (`extra_currencies$_ dict:(HashmapE 32
 * (VarUInteger 32))` in every CurrencyCollection), known on chain only by a 32-bit id. What a
 * currency is called and how many decimals it has lives off chain, in a table the service loads:
 *
 *   {
 *     "extra_currencies": [
 *       { "id": 100, "symbol": "DGEM", "name": "Devnet Gem", "decimals": 6, "image": "https://…/gem.png" }
 *     ]
 *   }
 *
 * `id`, `symbol` and `decimals` are required; `name` defaults to the symbol, `image` to none.
 * A currency the table does not list is still shown, by id, with 9 decimals and an empty symbol.
 */
export interface ExtraCurrencyMeta {
    id: number;
    symbol: string;
    name: string;
    decimals: number;
    /** URL of the currency's image; empty when it has none. */
    image: string;
}

/** EcPreview (spec) of one currency. */
export interface EcPreviewJson {
    id: number;
    symbol: string;
    decimals: number;
    image: string;
}

/** Decimals shown for a currency the table does not list (those of grams). */
export const UNKNOWN_EXTRA_CURRENCY_DECIMALS = 9;

const MAX_ID = 0xffff_ffff;
const MAX_DECIMALS = 255;

export class ExtraCurrencyTableError extends Error {
    override readonly name = 'ExtraCurrencyTableError';
}

/** The currencies of one table, by id. */
export class ExtraCurrencyCatalog {
    /** The catalog that knows no currency. */
    static readonly EMPTY = new ExtraCurrencyCatalog([]);

    private readonly byId: ReadonlyMap<number, ExtraCurrencyMeta>;

    constructor(currencies: Iterable<ExtraCurrencyMeta>) {
        this.byId = new Map([...currencies].map(c => [c.id, c]));
    }

    get(id: number): ExtraCurrencyMeta | undefined {
        return this.byId.get(id);
    }

    list(): ExtraCurrencyMeta[] {
        return [...this.byId.values()].sort((a, b) => a.id - b.id);
    }

    /** EcPreview of a currency: from the table, else the id with 9 decimals, an empty symbol and no image. */
    preview(id: number): EcPreviewJson {
        const known = this.byId.get(id);
        return known
            ? { id, symbol: known.symbol, decimals: known.decimals, image: known.image }
            : { id, symbol: '', decimals: UNKNOWN_EXTRA_CURRENCY_DECIMALS, image: '' };
    }

    /** What human text calls a currency: its symbol, or `#id` when the table does not list it. */
    label(id: number): string {
        return this.byId.get(id)?.symbol ?? `#${id}`;
    }
}

export function parseExtraCurrencyTable(text: string, origin: string): ExtraCurrencyCatalog {
    const invalid = (why: string) => new ExtraCurrencyTableError(`extra currency table ${origin}: ${why}`);
    let document: unknown;
    try {
        document = JSON.parse(text);
    } catch (error) {
        throw invalid(`not JSON (${(error as Error).message})`);
    }
    if (!isObject(document)) throw invalid('expected a JSON object');
    for (const key of Object.keys(document)) if (key !== 'extra_currencies') throw invalid(`unknown member "${key}" (expected extra_currencies)`);
    const list = document.extra_currencies ?? [];
    if (!Array.isArray(list)) throw invalid('"extra_currencies" must be an array');
    const seen = new Set<number>();
    const currencies = list.map((entry: unknown, i): ExtraCurrencyMeta => {
        const at = `extra_currencies[${i}]`;
        if (!isObject(entry)) throw invalid(`${at} must be an object`);
        for (const key of Object.keys(entry)) {
            if (!['id', 'symbol', 'name', 'decimals', 'image'].includes(key)) throw invalid(`${at}: unknown member "${key}" (expected id, symbol, name, decimals, image)`);
        }
        const { id, symbol, name, decimals, image } = entry;
        if (typeof id !== 'number' || !Number.isInteger(id) || id < 0 || id > MAX_ID) throw invalid(`${at}.id must be an integer from 0 to ${MAX_ID} (the currency id on chain)`);
        if (seen.has(id)) throw invalid(`currency ${id} appears twice`);
        seen.add(id);
        if (typeof symbol !== 'string' || symbol.trim() === '') throw invalid(`${at}.symbol must be a non-empty string`);
        if (name !== undefined && typeof name !== 'string') throw invalid(`${at}.name must be a string`);
        if (typeof decimals !== 'number' || !Number.isInteger(decimals) || decimals < 0 || decimals > MAX_DECIMALS) throw invalid(`${at}.decimals must be an integer from 0 to ${MAX_DECIMALS}`);
        if (image !== undefined && typeof image !== 'string') throw invalid(`${at}.image must be a string (a URL)`);
        return { id, symbol, name: name || symbol, decimals, image: image ?? '' };
    });
    return new ExtraCurrencyCatalog(currencies);
}

/** The table in a JSON file; no file, no currencies. Read once: a service loads it at start. */
export function loadExtraCurrencyTable(file: string | undefined): ExtraCurrencyCatalog {
    if (file === undefined || file.trim() === '') return ExtraCurrencyCatalog.EMPTY;
    let text: string;
    try {
        text = readFileSync(file, 'utf8');
    } catch (error) {
        throw new ExtraCurrencyTableError(`extra currency table ${file}: ${(error as Error).message}`);
    }
    return parseExtraCurrencyTable(text, file);
}

/** The amounts of a CurrencyCollection's `other` dictionary, by currency id (zero amounts left out). */
export function extraCurrencyAmounts(other: Dictionary<number, bigint> | null | undefined): Map<number, bigint> {
    const amounts = new Map<number, bigint>();
    if (!other) return amounts;
    for (const [id, amount] of other) if (amount > 0n) amounts.set(id, amount);
    return new Map([...amounts].sort(([a], [b]) => a - b));
}

/** The `other` dictionary of a CurrencyCollection holding these amounts; undefined when there are none. */
export function extraCurrencyDict(amounts: ReadonlyMap<number, bigint> | undefined): Dictionary<number, bigint> | undefined {
    if (!amounts || amounts.size === 0) return undefined;
    const dict = Dictionary.empty(DictKeys.Uint(32), Dictionary.Values.BigVarUint(5));
    for (const [id, amount] of amounts) dict.set(id, amount);
    return dict;
}

/** Amounts as stored (a JSON object of decimal strings by id), or null when there are none. */
export function encodeExtraBalance(amounts: ReadonlyMap<number, bigint> | undefined): string | null {
    if (!amounts || amounts.size === 0) return null;
    return JSON.stringify(Object.fromEntries([...amounts].map(([id, amount]) => [String(id), amount.toString()])));
}

export function decodeExtraBalance(text: string | null | undefined): Map<number, bigint> {
    if (!text) return new Map();
    return new Map(Object.entries(JSON.parse(text) as Record<string, string>).map(([id, amount]) => [Number(id), BigInt(amount)]));
}

function isObject(value: unknown): value is Record<string, unknown> {
    return typeof value === 'object' && value !== null && !Array.isArray(value);
}
