import type { Address } from '@ton/core';
import type { MessageSink } from '../chain/message-sink.ts';
import type { DevnetManifest } from '../chain/devnet/manifest.ts';
import type { EmulationService } from '../emulation/emulation-service.ts';
import type { RoundRewardsProvider } from '../rewards/service.ts';
import type { RatesSource } from '../risk/rates.ts';
import type { Store } from '../store/store.ts';
import type { ExtraCurrencyCatalog } from '../ton/extra-currencies.ts';

export type { MessageSink };
export { MessageRejectedError } from '../chain/message-sink.ts';

export interface DevnetControl extends MessageSink {
    manifest(): Promise<DevnetManifest>;
    /** TON global-config JSON naming the devnet's liteserver; null when it runs none (or not on IPv4). */
    globalConfig(): Promise<string | null>;
    faucet(to: Address, amount: bigint): Promise<{ address: string; amount: bigint; messageHash: string; traceId: string }>;
    readonly faucetCap: bigint;
}

export interface ChainHeadInfo {
    source: string;
    live: boolean;
    head: () => Promise<{ workchain: number; shard: string; seqno: number; utime: number } | null>;
    /** Blocks and transactions indexed per second recently (over the last minute); null without a writer (an API worker asks its primary). */
    rate?: () => IngestRateView | null | Promise<IngestRateView | null>;
}

export interface IngestRateView {
    blocksPerSecond: number;
    transactionsPerSecond: number;
}

/** Everything the HTTP layer reads from or hands work to. Endpoints read the index only. */
export interface ApiServices {
    store: Store;
    chain: ChainHeadInfo;
    messages?: MessageSink;
    devnet?: DevnetControl;
    /** Emulation on the indexed chain state. */
    emulation?: EmulationService;
    /** Exchange rates for `currency` in wallet emulation; without it only the native coin is known. */
    rates?: RatesSource;
    /** Symbols and decimals of extra currencies (the previews of messages and actions that carry them); without it every currency shows by id only. */
    extraCurrencies?: ExtraCurrencyCatalog;
    /** Round rewards read from the chain (the devnet's state or a follower's liteservers); without it the endpoint answers 503. */
    rewards?: RoundRewardsProvider;
}
