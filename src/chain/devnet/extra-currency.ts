import { fileURLToPath } from 'node:url';
import { loadExtraCurrencyTable, type ExtraCurrencyCatalog } from '../../ton/extra-currencies.ts';

/**
 * The extra currency a new devnet mints at genesis (alice-v3r2 holds it; a seed step sends some to
 * bob-v5r1). What it is called and its decimals are in the devnet's extra currency table, shipped
 * with the code and loaded by a devnet service unless another table is configured.
 */
export const DEVNET_EXTRA_CURRENCY_ID = 100;

/** The devnet's extra currency table (the service's default on a devnet). */
export const DEVNET_EXTRA_CURRENCIES_FILE = fileURLToPath(new URL('./extra-currencies.json', import.meta.url));

let devnetTable: ExtraCurrencyCatalog | undefined;

export function devnetExtraCurrencies(): ExtraCurrencyCatalog {
    devnetTable ??= loadExtraCurrencyTable(DEVNET_EXTRA_CURRENCIES_FILE);
    return devnetTable;
}
