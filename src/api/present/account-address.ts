import { isWalletInterface } from '../../ton/interfaces/known-code.ts';
import { ExtraCurrencyCatalog, type EcPreviewJson } from '../../ton/extra-currencies.ts';

/**
 * What the index knows about accounts that appear in one response, fetched in one query, and the
 * service's extra currency table for the currencies its messages carry (a response without
 * messages needs none).
 */
export class AccountDirectory {
    constructor(
        private readonly interfacesByAddress: Map<string, string[]>,
        readonly currencies: ExtraCurrencyCatalog = ExtraCurrencyCatalog.EMPTY,
    ) {}

    extraCurrency(id: number): EcPreviewJson {
        return this.currencies.preview(id);
    }

    interfaces(address: string): string[] {
        return this.interfacesByAddress.get(address) ?? [];
    }

    accountAddress(address: string) {
        return {
            address,
            is_scam: false,
            is_wallet: this.interfaces(address).some(isWalletInterface),
        };
    }
}
