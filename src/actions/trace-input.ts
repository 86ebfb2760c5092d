import type { ParsedTransaction } from '../ton/transaction.ts';

/**
 * A trace as the action engine reads it: the same shape whether the transactions were emulated or
 * indexed. Addresses are raw `wc:64hex` strings throughout.
 */
export interface ActionTraceNode {
    transaction: ParsedTransaction;
    /** Interfaces of the transaction's account as it is after the trace (e.g. ['wallet_v4r2', 'wallet']). */
    interfaces: string[];
    /** Transactions caused by this one's internal out-messages, ordered by their in-message's created lt. */
    children: ActionTraceNode[];
    /** Balance of the account right after this transaction, when known. */
    endBalance?: bigint;
}

/** JettonPreview (spec 2.3) as the API shows it. */
export interface JettonPreviewFacts {
    address: string;
    name: string;
    symbol: string;
    decimals: number;
    image: string;
    verification: string;
    score: number;
    description?: string;
}

export interface NftItemFacts {
    address: string;
    index: bigint;
    collection: string | null;
    owner: string | null;
    /** The name of a DNS item ("alice.ton", "alice.t.me"). */
    dns?: string;
}

/**
 * What is known about the accounts of a trace beyond their transactions, gathered before the
 * engine runs (the engine itself is synchronous and reads nothing else).
 */
export interface TraceFacts {
    /**
     * Jetton wallets whose master confirmed them (get_wallet_address(owner) gives them back),
     * including recipients' wallets a failed or bounced transfer never reached (maybe not deployed).
     */
    jettonWallets: ReadonlyMap<string, { master: string; owner: string }>;
    /** Jetton masters by address. */
    jettons: ReadonlyMap<string, JettonPreviewFacts>;
    nftItems: ReadonlyMap<string, NftItemFacts>;
    /** NFT sale contracts (get_sale_data) by address; NftPurchase needs the seller and price. */
    nftSales?: ReadonlyMap<string, NftSaleFacts>;
    /** Subscription plugins (get_subscription_data) by address. */
    subscriptions?: ReadonlyMap<string, SubscriptionFacts>;
    /** Gas relayers; without the set, any other account sending a wallet's signed internal request is one. */
    gasRelayers?: ReadonlySet<string>;
}

export interface NftSaleFacts {
    nft: string;
    owner: string;
    /** full price in nanograms */
    price: bigint;
    market?: string;
}

export interface SubscriptionFacts {
    wallet: string;
    beneficiary: string;
    /** nanograms per period */
    amount: bigint;
}
