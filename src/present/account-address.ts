import { isWalletInterface } from '../ton/interfaces/known-code.ts';
import { ExtraCurrencyCatalog, type EcPreviewJson } from '../ton/extra-currencies.ts';
import { exitCodeDescription } from '../ton/exit-codes.ts';
import { decodeBody, type DecodedBody } from '../ton/bodies/index.ts';
import type { TransactionMessage } from '../ton/transaction.ts';
import type { MemberHole } from '../json/json.ts';

/**
 * What presenting a transaction asks about the accounts it mentions: answered from the index's
 * interfaces (AccountDirectory), or left as holes to answer when read (TemplateDirectory in
 * transaction-template.ts), for texts made before the index knows the accounts.
 */
export interface AccountView {
    accountAddress(address: string): { address: string; is_scam: boolean; is_wallet: boolean | MemberHole };
    /** A compute phase's `exit_code_description` in `account`. */
    exitCodeDescription(account: string, code: number): string | MemberHole | undefined;
    /** A message's `decoded_op_name` and `decoded_body`. */
    decodedBody(m: TransactionMessage): { name: string | MemberHole; value?: unknown } | null;
    extraCurrency(id: number): EcPreviewJson;
}

/**
 * What the index knows about accounts that appear in one response, fetched in one query, and the
 * service's extra currency table for the currencies its messages carry (a response without
 * messages needs none).
 */
export class AccountDirectory implements AccountView {
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
            is_wallet: this.isWallet(address),
        };
    }

    isWallet(address: string): boolean {
        return this.interfaces(address).some(isWalletInterface);
    }

    exitCodeDescription(account: string, code: number): string | undefined {
        return exitCodeDescription(code, this.interfaces(account));
    }

    decodedBody(m: TransactionMessage): DecodedBody | null {
        return decodeBody(m.body, {
            external: m.msgType === 'ext_in_msg',
            destinationInterfaces: m.destination ? this.interfaces(m.destination) : undefined,
        });
    }
}
