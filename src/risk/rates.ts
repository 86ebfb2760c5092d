import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Address } from '@ton/core';
import { RatesError } from './errors.ts';
import { ONE, parseDecimal, type Fraction } from './fraction.ts';
import { outboundFetch, type OutboundFetchPolicy } from '../net/safe-fetch.ts';

/**
 * Rates file (JSON), every value a decimal string: how many grams ONE unit of the key is worth.
 *
 *   {
 *     "unit": "gram",                                  optional; if present it must be "gram"
 *     "currencies": { "USD": "0.2", "EUR": "0.216" },  1 USD = 0.2 gram (i.e. 1 gram = 5 USD)
 *     "jettons": {
 *       "0:<64 hex of the master>": "0.19",            1 whole jetton (10^decimals units) = 0.19 gram
 *       "DUSD": "0.2"                                  key by symbol: used when no address key matches
 *     }
 *   }
 *
 * Currency codes are case-insensitive (stored upper-case). GRAM (= 1) is always supported. Jetton
 * keys are master addresses (raw or user-friendly) or symbols; symbols exist for tables whose
 * masters are not known in advance, like the devnet's (its masters derive from random genesis keys).
 * Values are strings, not JSON numbers, so no rate ever passes through a float.
 */
export interface RateTable {
    /** upper-case currency code → grams per unit; always holds GRAM */
    readonly currencies: ReadonlyMap<string, Fraction>;
    /** raw master address or symbol → grams per whole jetton */
    readonly jettons: ReadonlyMap<string, Fraction>;
}

export interface RatesSource {
    /** The current table, refreshed once its TTL has passed. */
    rates(): Promise<RateTable>;
    supportedCurrencies(): Promise<string[]>;
}

export interface RatesSourceOptions {
    /** how long a loaded table is used before it is loaded again (default 5 minutes) */
    ttlMs?: number;
    /** limit for one load, connection to last byte (default 5 s) */
    timeoutMs?: number;
    /** largest accepted table (default 1 MiB) */
    maxBytes?: number;
    /** told about a failed refresh while the previous table keeps being served */
    onStaleRefresh?: (error: RatesError) => void;
    /** while no table has ever loaded, how long a failed load is answered from memory before the source is tried again (default 30 s) */
    retryMs?: number;
    now?: () => number;
    /** Let an http(s) rates URL reach private, loopback and link-local addresses (default off). */
    allowPrivateFetch?: boolean;
}

export const NATIVE_CURRENCY = 'GRAM';
/** The example table for the devnet shipped with the code. */
export const DEVNET_RATES_FILE = fileURLToPath(new URL('./devnet-rates.json', import.meta.url));

const CURRENCY_CODE = /^[A-Z][A-Z0-9]{1,15}$/;

export function parseRateTable(text: string, origin: string): RateTable {
    const invalid = (why: string) => new RatesError(`rates table ${origin}: ${why}`);
    let document: unknown;
    try {
        document = JSON.parse(text);
    } catch (error) {
        throw invalid(`not JSON (${(error as Error).message})`);
    }
    if (!isObject(document)) throw invalid('expected a JSON object');
    for (const key of Object.keys(document)) {
        if (!['unit', 'currencies', 'jettons'].includes(key)) throw invalid(`unknown member "${key}" (expected unit, currencies, jettons)`);
    }
    if (document.unit !== undefined && document.unit !== 'gram') throw invalid('"unit" must be "gram": every rate is the price of one unit in grams');

    const currencies = new Map<string, Fraction>([[NATIVE_CURRENCY, ONE]]);
    for (const [key, value] of entriesOf(document.currencies, 'currencies', invalid)) {
        const code = key.toUpperCase();
        if (!CURRENCY_CODE.test(code)) throw invalid(`"${key}" is not a currency code`);
        if (code === NATIVE_CURRENCY) throw invalid(`${NATIVE_CURRENCY} is the unit itself (always 1); remove it`);
        if (currencies.has(code)) throw invalid(`currency ${code} appears twice`);
        const rate = rateOf(value, `currencies.${key}`, invalid);
        if (rate.num === 0n) throw invalid(`currencies.${key} must be positive: totals are divided by it`);
        currencies.set(code, rate);
    }
    const jettons = new Map<string, Fraction>();
    for (const [key, value] of entriesOf(document.jettons, 'jettons', invalid)) {
        if (key.trim() === '') throw invalid('empty jetton key');
        const normalized = jettonKey(key);
        if (jettons.has(normalized)) throw invalid(`jetton ${normalized} appears twice`);
        jettons.set(normalized, rateOf(value, `jettons.${key}`, invalid));
    }
    return { currencies, jettons };
}

/** Grams per whole jetton: by master address, else by symbol, else unknown. */
export function jettonRate(table: RateTable, master: string, symbol: string | undefined): Fraction | undefined {
    return table.jettons.get(master) ?? (symbol ? table.jettons.get(symbol) : undefined);
}

/**
 * A source from a file path (or file: URL) or an http(s) URL; `undefined` gives the table that
 * only knows GRAM. A table that cannot be loaded fails the call only while there is no previous
 * table: afterwards the previous one is served until a refresh succeeds.
 */
export function loadRatesSource(spec: string | undefined, options: RatesSourceOptions = {}): RatesSource {
    if (spec === undefined || spec.trim() === '') return staticRatesSource({ currencies: new Map([[NATIVE_CURRENCY, ONE]]), jettons: new Map() });
    const timeoutMs = options.timeoutMs ?? 5_000;
    const maxBytes = options.maxBytes ?? 1024 * 1024;
    const policy: OutboundFetchPolicy = { allowPrivate: options.allowPrivateFetch ?? false, timeoutMs, maxBytes, headers: { accept: 'application/json' } };
    const load = /^https?:\/\//i.test(spec) ? () => fetchText(spec, policy)
        : /^[a-z][a-z0-9+.-]*:\/\//i.test(spec) && !spec.startsWith('file://') ? undefined
            : () => readText(spec.startsWith('file://') ? fileURLToPath(spec) : resolve(spec), timeoutMs, maxBytes);
    if (!load) throw new RatesError(`rates source ${spec}: expected a file path or an http(s) URL`);
    return new RefreshingRatesSource(async () => parseRateTable(await load(), spec), {
        ttlMs: options.ttlMs ?? 5 * 60_000, retryMs: options.retryMs ?? 30_000, onStaleRefresh: options.onStaleRefresh, now: options.now ?? Date.now,
    });
}

export function staticRatesSource(table: RateTable): RatesSource {
    return {
        rates: async () => table,
        supportedCurrencies: async () => [...table.currencies.keys()].sort(),
    };
}

class RefreshingRatesSource implements RatesSource {
    private table: RateTable | undefined;
    private loadedAt = 0;
    private loading: Promise<RateTable> | undefined;
    /** The last failed load while there is no table: repeated for `retryMs`, so a dead or hanging source costs each request nothing. */
    private failure: { error: RatesError; at: number } | undefined;

    constructor(
        private readonly load: () => Promise<RateTable>,
        private readonly timing: { ttlMs: number; retryMs: number; onStaleRefresh?: (error: RatesError) => void; now: () => number },
    ) {}

    async rates(): Promise<RateTable> {
        const now = this.timing.now();
        if (this.table && now - this.loadedAt < this.timing.ttlMs) return this.table;
        if (!this.table && this.failure && now - this.failure.at < this.timing.retryMs) throw this.failure.error;
        this.loading ??= this.refresh().finally(() => { this.loading = undefined; });
        return this.loading;
    }

    async supportedCurrencies(): Promise<string[]> {
        return [...(await this.rates()).currencies.keys()].sort();
    }

    private async refresh(): Promise<RateTable> {
        try {
            this.table = await this.load();
            this.failure = undefined;
        } catch (error) {
            const failure = error instanceof RatesError ? error : new RatesError(String(error), { cause: error });
            if (!this.table) {
                this.failure = { error: failure, at: this.timing.now() };
                throw failure;
            }
            this.timing.onStaleRefresh?.(failure);
        }
        // A failed refresh also waits a TTL, so a dead source does not slow down every request.
        this.loadedAt = this.timing.now();
        return this.table;
    }
}

async function readText(path: string, timeoutMs: number, maxBytes: number): Promise<string> {
    let bytes: Buffer;
    try {
        bytes = await readFile(path, { signal: AbortSignal.timeout(timeoutMs) });
    } catch (error) {
        throw new RatesError(`rates file ${path}: ${(error as Error).message}`, { cause: error });
    }
    if (bytes.length > maxBytes) throw new RatesError(`rates file ${path}: larger than ${maxBytes} bytes`);
    return bytes.toString('utf8');
}

async function fetchText(url: string, policy: OutboundFetchPolicy): Promise<string> {
    let response;
    try {
        response = await outboundFetch(url, policy);
    } catch (error) {
        throw new RatesError(`rates URL ${(error as Error).message}`, { cause: error });
    }
    if (response.status < 200 || response.status >= 300) throw new RatesError(`rates URL ${url}: HTTP ${response.status}`);
    return response.body.toString('utf8');
}

function isObject(value: unknown): value is Record<string, unknown> {
    return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function entriesOf(value: unknown, member: string, invalid: (why: string) => RatesError): [string, unknown][] {
    if (value === undefined) return [];
    if (!isObject(value)) throw invalid(`"${member}" must be an object`);
    return Object.entries(value);
}

function rateOf(value: unknown, where: string, invalid: (why: string) => RatesError): Fraction {
    const rate = typeof value === 'string' ? parseDecimal(value) : undefined;
    if (!rate) throw invalid(`${where} must be a decimal string such as "0.19" (got ${JSON.stringify(value)})`);
    return rate;
}

/** Addresses in any form become raw `wc:hex`; anything else is a symbol, kept as written. */
function jettonKey(key: string): string {
    if (Address.isRaw(key) || Address.isFriendly(key)) return Address.parse(key).toRawString();
    return key;
}
