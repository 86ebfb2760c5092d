import { buildAccountEvent, nftItemJson, type AccountAddressJson, type AccountEventJson, type ActionTraceNode, type PreviewLanguage } from '../actions/index.ts';
import { RatesError, UnknownCurrencyError } from '../risk/errors.ts';
import { presentRisk, resolveCurrency, type JettonPreviewJson, type NftItemJson, type RiskJson, type RiskLookups } from '../risk/present-risk.ts';
import type { RateTable, RatesSource } from '../risk/rates.ts';
import type { ExtraCurrencyCatalog } from '../ton/extra-currencies.ts';
import type { EmulationResult, EmulationService, WalletEmulationRequest, WalletEmulationResult } from './emulation-service.ts';
import type { EmulatedTrace, EmulatedTransaction } from './trace-emulator.ts';

/**
 * What an emulated message does, as the API reports it: the event of one account (events/emulate)
 * and, for a signed wallet message, the trace, what the wallet risks and the wallet's event
 * (wallet/emulate). Failures are the emulation's own (`EmulationFailure`) and the risk estimate's
 * (a wallet version or body it cannot read); the currency is for display only and never fails one.
 */

/** How accounts are shown, made from the interfaces the emulation found (the API's account directory). */
export interface AccountView {
    accountAddress(address: string): AccountAddressJson;
    readonly currencies: ExtraCurrencyCatalog;
}

export interface ConsequencesContext<A extends AccountView> {
    accounts: (interfaces: Map<string, string[]>) => A;
    /** Exchange rates for `currency`; without them only the native coin is known. */
    rates?: RatesSource;
}

export interface WalletConsequencesRequest extends WalletEmulationRequest {
    /** Currency of `risk.total_equivalent`, any case; left out when the rates have none for it or cannot be read. */
    currency?: string;
    language: PreviewLanguage;
}

export interface WalletConsequences<A extends AccountView> {
    trace: EmulatedTrace;
    /** The accounts of the trace, as `context.accounts` made them. */
    accounts: A;
    risk: RiskJson;
    /** The signing wallet's event: the actions it is a subject of. */
    event: AccountEventJson;
}

export interface AccountEventRequest {
    boc: string;
    ignoreSignatureCheck: boolean;
    /** Raw address of the account the event is seen from. */
    account: string;
    language: PreviewLanguage;
}

/** wallet/emulate: the message is emulated while the currency's rate is read; the risk is read from the message as signed. */
export async function walletMessageConsequences<A extends AccountView>(
    emulation: EmulationService, request: WalletConsequencesRequest, context: ConsequencesContext<A>,
): Promise<WalletConsequences<A>> {
    const [result, currency] = await Promise.all([emulation.emulateWalletMessage(request), displayCurrency(request.currency, context.rates)]);
    const accounts = context.accounts(result.inspected.interfaces);
    const risk = await presentRisk(result.risk, riskLookups(result, accounts), {
        wallet: result.wallet, walletBalance: result.balanceBefore, currency: currency?.code, rates: currency?.rates,
    });
    const event = accountEvent(result, accounts, { account: result.wallet, subjectOnly: true, language: request.language });
    return { trace: result.trace, accounts, risk, event };
}

/** events/emulate: every action of the trace, seen from `request.account`. */
export async function messageAccountEvent<A extends AccountView>(
    emulation: EmulationService, request: AccountEventRequest, context: Pick<ConsequencesContext<A>, 'accounts'>,
): Promise<AccountEventJson> {
    const result = await emulation.emulateMessage(request.boc, { ignoreSignatureCheck: request.ignoreSignatureCheck });
    return accountEvent(result, context.accounts(result.inspected.interfaces), { account: request.account, subjectOnly: false, language: request.language });
}

/** The emulated trace as the action engine reads it. */
function actionTraceOf(node: EmulatedTransaction, interfaces: (address: string) => string[]): ActionTraceNode {
    return {
        transaction: node.parsed,
        interfaces: interfaces(node.parsed.account),
        children: node.children.map(child => actionTraceOf(child, interfaces)),
        endBalance: node.endBalance,
    };
}

function accountEvent(result: EmulationResult, accounts: AccountView, options: { account: string; subjectOnly: boolean; language: PreviewLanguage }): AccountEventJson {
    const { interfaces, facts } = result.inspected;
    return buildAccountEvent(actionTraceOf(result.trace.root, address => interfaces.get(address) ?? []), facts, {
        ...options, accounts: address => accounts.accountAddress(address), currencies: accounts.currencies,
    });
}

/**
 * The currency code and the table to value the risk in, or undefined when there is no currency,
 * the table has no rate for it, or the rates cannot be read right now.
 */
async function displayCurrency(currency: string | undefined, source: RatesSource | undefined): Promise<{ code: string; rates: RateTable | undefined } | undefined> {
    if (currency === undefined) return undefined;
    try {
        const rates = source ? await source.rates() : undefined;
        return { code: resolveCurrency(currency, rates), rates };
    } catch (error) {
        if (error instanceof UnknownCurrencyError || error instanceof RatesError) return undefined;
        throw error;
    }
}

/** What risk needs to know of jetton wallets and NFT items, from the emulated trace's own inspection. */
function riskLookups(result: WalletEmulationResult, accounts: AccountView): RiskLookups {
    const { facts } = result.inspected;
    const accountAddress = (address: string) => accounts.accountAddress(address);
    return {
        jettonWallet: address => facts.jettonWallets.get(address),
        jettonPreview: master => facts.jettons.get(master) as JettonPreviewJson | undefined,
        nftItem: address => facts.nftItems.has(address) ? nftItemJson(facts, address, accountAddress) as NftItemJson : undefined,
        accountAddress,
    };
}
