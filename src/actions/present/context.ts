import type { TraceFacts } from '../trace-input.ts';
import type { ExtraCurrencyCatalog } from '../../ton/extra-currencies.ts';
import type { PreviewLanguage } from './language.ts';

/** AccountAddress (spec 2.2) as the API shows it. */
export interface AccountAddressJson {
    address: string;
    is_scam: boolean;
    is_wallet: boolean;
    name?: string;
    icon?: string;
}

export interface PresentContext {
    facts: TraceFacts;
    language: PreviewLanguage;
    /** the account whose event this is: left out of preview accounts, sign of relative values */
    viewer?: string;
    accounts: (raw: string) => AccountAddressJson;
    /** symbols and decimals of extra currencies (the service's table) */
    currencies: ExtraCurrencyCatalog;
}
