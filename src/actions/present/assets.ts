import type { Asset } from '../action.ts';
import type { JettonPreviewFacts, NftItemFacts, TraceFacts } from '../trace-input.ts';
import { UNKNOWN_ADDRESS } from '../facts.ts';
import { NATIVE_DECIMALS, NATIVE_SYMBOL, formatTokens } from './format-tokens.ts';

/** JettonPreview of a master; a neutral placeholder when the facts do not know it. */
export function jettonPreviewJson(facts: TraceFacts, master: string | undefined): JettonPreviewFacts {
    const known = master === undefined ? undefined : facts.jettons.get(master);
    if (known) {
        const out: JettonPreviewFacts = {
            address: known.address, name: known.name, symbol: known.symbol, decimals: known.decimals,
            image: known.image, verification: known.verification, score: known.score,
        };
        if (known.description !== undefined) out.description = known.description;
        return out;
    }
    return { address: master ?? UNKNOWN_ADDRESS, name: 'Unknown', symbol: 'UNKNOWN', decimals: 9, image: '', verification: 'none', score: 0 };
}

export interface PriceJson {
    currency_type: 'native' | 'jetton';
    value: string;
    decimals: number;
    token_name: string;
    verification: string;
    image: string;
    jetton?: string;
}

export function priceJson(facts: TraceFacts, asset: Asset): PriceJson {
    if (asset.kind === 'native') {
        return { currency_type: 'native', value: asset.amount.toString(), decimals: NATIVE_DECIMALS, token_name: NATIVE_SYMBOL, verification: 'whitelist', image: '' };
    }
    const jetton = jettonPreviewJson(facts, asset.master);
    return {
        currency_type: 'jetton', value: asset.amount.toString(), decimals: jetton.decimals, token_name: jetton.symbol,
        verification: jetton.verification, image: jetton.image, jetton: jetton.address,
    };
}

export function formatAsset(facts: TraceFacts, asset: Asset): string {
    if (asset.kind === 'native') return formatTokens(asset.amount, NATIVE_DECIMALS, NATIVE_SYMBOL);
    const jetton = jettonPreviewJson(facts, asset.master);
    return formatTokens(asset.amount, jetton.decimals, jetton.symbol);
}

export function formatJettons(facts: TraceFacts, master: string | undefined, amount: bigint): string {
    const jetton = jettonPreviewJson(facts, master);
    return formatTokens(amount, jetton.decimals, jetton.symbol);
}

/**
 * NftItem (spec 2.5) from what the facts hold about the item. `index` is an int64 in the schema;
 * DNS items are indexed by a 256-bit hash, of which the low 64 bits are given (as TonAPI does).
 */
export function nftItemJson(facts: TraceFacts, address: string, account: (raw: string) => unknown): Record<string, unknown> {
    const item: NftItemFacts | undefined = facts.nftItems.get(address);
    const out: Record<string, unknown> = {
        address, index: BigInt.asIntN(64, item?.index ?? 0n), verified: false, metadata: {}, approved_by: [], trust: 'none',
    };
    if (item?.owner) out.owner = account(item.owner);
    if (item?.dns !== undefined) out.dns = item.dns;
    return out;
}
