import { isWalletInterface } from '../../ton/interfaces/known-code.ts';

/** What the index knows about accounts that appear in one response, fetched in one query. */
export class AccountDirectory {
    constructor(private readonly interfacesByAddress: Map<string, string[]>) {}

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
