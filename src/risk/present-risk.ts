import { UnknownCurrencyError } from './errors.ts';
import { ONE, add, ceil, div, fromUnits, mul, type Fraction } from './fraction.ts';
import { NATIVE_CURRENCY, jettonRate, type RateTable } from './rates.ts';
import type { WalletRisk } from './wallet-risk.ts';

type Awaitable<T> = T | Promise<T>;

/** AccountAddress of the OpenAPI document. */
export interface AccountAddressJson {
    address: string;
    name?: string;
    is_scam: boolean;
    icon?: string;
    is_wallet: boolean;
}

/** JettonPreview of the OpenAPI document. */
export interface JettonPreviewJson {
    address: string;
    name: string;
    symbol: string;
    decimals: number;
    image: string;
    verification: 'whitelist' | 'graylist' | 'blacklist' | 'none';
    score: number;
    custom_payload_api_uri?: string;
    scaled_ui?: { numerator: string; denominator: string };
    description?: string;
}

/** NftItem of the OpenAPI document (the members this module fills or passes through). */
export interface NftItemJson {
    address: string;
    index: bigint;
    owner?: AccountAddressJson;
    collection?: { address: string; name: string; description: string };
    verified: boolean;
    metadata: Record<string, unknown>;
    approved_by: ('getgems' | 'tonkeeper')[];
    trust: 'whitelist' | 'graylist' | 'blacklist' | 'none';
    [member: string]: unknown;
}

export interface RiskJson {
    transfer_all_remaining_balance: boolean;
    native: bigint;
    gram: bigint;
    jettons: { quantity: string; wallet_address: AccountAddressJson; jetton: JettonPreviewJson }[];
    nfts: NftItemJson[];
    total_equivalent?: bigint;
}

/** What the index knows, asked for by raw address (`wc:hex`). */
export interface RiskLookups {
    jettonWallet(address: string): Awaitable<{ master: string; owner?: string } | undefined>;
    jettonPreview(master: string): Awaitable<JettonPreviewJson | undefined>;
    nftItem(address: string): Awaitable<NftItemJson | undefined>;
    accountAddress(address: string): Awaitable<AccountAddressJson>;
}

export interface PresentRiskOptions {
    /** the signing wallet (raw); jetton wallets known to belong to another owner are left out */
    wallet?: string;
    /** the signing wallet's balance now, in nanograms: what a mode-128 message can take */
    walletBalance: bigint;
    /** currency for `total_equivalent`, any case; needs `rates` (without them only GRAM is known) */
    currency?: string;
    rates?: RateTable;
}

const NANO_PER_GRAM = 9;
/** TEP-64: a jetton without a `decimals` entry has 9. */
const DEFAULT_JETTON_DECIMALS = 9;

/** The upper-case currency code if the table has a rate for it, else UnknownCurrencyError. */
export function resolveCurrency(currency: string, rates: RateTable | undefined): string {
    const code = currency.trim().toUpperCase();
    const known = rates ? [...rates.currencies.keys()] : [NATIVE_CURRENCY];
    if (!known.includes(code)) throw new UnknownCurrencyError(currency, known.sort());
    return code;
}

/**
 * `total_equivalent` is an int64: jetton amounts (VarUInteger 16) times a rate can exceed it, and
 * such a value, far beyond any real holding, is shown as this ceiling.
 */
const MAX_EQUIVALENT = 2n ** 63n - 1n;

/**
 * The Risk object of the API. Jetton wallets and NFT items the index does not know are left out,
 * as the reference does: a jetton amount cannot be presented (nor valued) without its master, nor
 * an NFT without its index. NFTs are not valued in `total_equivalent`.
 *
 * `total_equivalent` is in WHOLE units of the currency (the OpenAPI schema's integer; the reference
 * emits a float), rounded UP: this is an upper bound of a loss, and any loss above zero shows as at
 * least 1 instead of vanishing into 0.
 */
export async function presentRisk(risk: WalletRisk, lookups: RiskLookups, options: PresentRiskOptions): Promise<RiskJson> {
    const currency = options.currency === undefined ? undefined : resolveCurrency(options.currency, options.rates);

    const atRiskNano = risk.transferAllRemainingBalance && options.walletBalance > risk.native ? options.walletBalance : risk.native;
    let totalGrams: Fraction = fromUnits(atRiskNano, NANO_PER_GRAM);

    const jettons: RiskJson['jettons'] = [];
    for (const [walletAddress, quantity] of risk.jettons) {
        const wallet = await lookups.jettonWallet(walletAddress);
        if (!wallet) continue;
        if (options.wallet && wallet.owner && wallet.owner !== options.wallet) continue;
        // A known wallet whose master is not indexed yet still shows, with TEP-64's default decimals.
        const jetton = (await lookups.jettonPreview(wallet.master)) ?? unknownJettonPreview(wallet.master);
        jettons.push({ quantity: quantity.toString(), wallet_address: await lookups.accountAddress(walletAddress), jetton });
        const rate = options.rates && jettonRate(options.rates, wallet.master, jetton.symbol || undefined);
        if (rate) totalGrams = add(totalGrams, mul(fromUnits(quantity, jetton.decimals), rate));
    }

    const nfts: NftItemJson[] = [];
    for (const address of risk.nfts) {
        const item = await lookups.nftItem(address);
        if (item) nfts.push(item);
    }

    const result: RiskJson = {
        transfer_all_remaining_balance: risk.transferAllRemainingBalance,
        native: risk.native,
        gram: risk.native,
        jettons,
        nfts,
    };
    if (currency !== undefined) {
        const equivalent = ceil(div(totalGrams, options.rates?.currencies.get(currency) ?? ONE));
        result.total_equivalent = equivalent > MAX_EQUIVALENT ? MAX_EQUIVALENT : equivalent;
    }
    return result;
}

function unknownJettonPreview(master: string): JettonPreviewJson {
    return { address: master, name: '', symbol: '', decimals: DEFAULT_JETTON_DECIMALS, image: '', verification: 'none', score: 0 };
}
