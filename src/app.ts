import type { FastifyInstance } from 'fastify';
import type { Cell } from '@ton/core';
import { buildServer } from './api/server.ts';
import { loadApiKeyRing, reloadKeysWhileServing, serverAccessOptions } from './api/access/service-access.ts';
import { closeGracefully } from './api/graceful-close.ts';
import { ServiceMetrics, type MasterchainPoint } from './observability/metrics.ts';
import type { BackgroundLevel, LogSink } from './observability/logging.ts';
import type { IndexDb } from './store/schema.ts';
import type { ApiServices, DevnetControl } from './api/services.ts';
import type { RoundRewardsProvider } from './rewards/service.ts';
import type { ChainSource } from './chain/chain-source.ts';
import type { DevnetSource } from './chain/devnet/devnet-source.ts';
import type { ChainWriter, DevnetLiteserver } from './chain-writer.ts';
import type { Indexer } from './indexer/indexer.ts';
import { JettonMetadataFetcher } from './indexer/jetton-metadata.ts';
import { openStore, type Store } from './store/store.ts';
import { EmulationService } from './emulation/emulation-service.ts';
import { DEVNET_RATES_FILE, loadRatesSource } from './risk/rates.ts';
import { DEVNET_EXTRA_CURRENCIES_FILE } from './chain/devnet/extra-currency.ts';
import { ConfigError, type ServiceConfig } from './config/config.ts';
import { ExtraCurrencyTableError, loadExtraCurrencyTable, type ExtraCurrencyCatalog } from './ton/extra-currencies.ts';
import { acquireWriterLocks } from './store/locks/acquire-writer-locks.ts';
import type { WriterLock } from './store/locks/writer-lock.ts';
import { applyHeapSettings } from './heap-settings.ts';
import { formatBlockId } from './ton/block-id.ts';

export interface RunningService {
    config: ServiceConfig;
    store: Store;
    source: ChainSource | null;
    devnet: DevnetSource | null;
    indexer: Indexer | null;
    /** The devnet's liteserver, when it runs one. */
    liteserver: DevnetLiteserver | null;
    server: FastifyInstance;
    url: string;
    /** What `/metrics` serves. */
    metrics: ServiceMetrics;
    /** Resolves when the service answers on an index that has caught up: on a devnet, once its seed activity is indexed. */
    ready: Promise<void>;
    /**
     * Stops gracefully: no new connections, requests in flight finish (at most `shutdownTimeoutMs`),
     * then the chain source and the indexer stop (after the block being indexed commits) and the
     * store closes. Calling it again waits for the same stop.
     */
    stop(): Promise<void>;
}

export interface ServiceEvents {
    /** Something went wrong in the background (block production, indexing); the service keeps serving. */
    log?: (line: string, level: BackgroundLevel) => void;
    /**
     * Where the JSON log lines go (Fastify's logger, at `config.logLevel`), background lines among
     * them; without it the service writes no log lines.
     */
    logStream?: LogSink;
    /** Progress while a new devnet seeds, one line per step once it is indexed. */
    progress?: (line: string) => void;
}

/**
 * Wires one process: chain source → indexer → store → API. With `source: none` only the store and
 * the API run, over whatever the index already holds. The API listens first, answering from the
 * index; the chain source and the indexer start behind it (the devnet's own endpoints wait for
 * them), and the returned promise resolves once they have.
 */
export async function startService(config: ServiceConfig, events: ServiceEvents = {}): Promise<RunningService> {
    // An API-only process (no source) runs no chain writer: V8's and SQLite's settings for reading.
    const runsChainWriter = config.source !== 'none';
    // Before any thread starts: the devnet's and the reading threads' heaps follow it too.
    applyHeapSettings(config.heapGrowthPercent, runsChainWriter);
    let server: FastifyInstance | undefined;
    const log = (line: string, level: BackgroundLevel = 'warn') => {
        events.log?.(line, level);
        server?.log[level](line);
    };
    const metrics = new ServiceMetrics();
    const extraCurrencies = extraCurrencyTable(config);
    const apiKeys = loadApiKeyRing(config);
    // A writer takes its locks before it touches anything; an API-only process (no source) writes no chain or index.
    let writer: ChainWriter | undefined;
    const writerLock = await takeWriterLocks(config, () => writer, log);
    let store: Store | undefined;
    try {
        store = await openStore({ url: config.databaseUrl, dataDir: config.dataDir, mappedReads: !runsChainWriter });
        // The devnet serves its own token metadata on the service's (loopback) address.
        const allowPrivateFetch = config.allowPrivateFetch ?? config.source === 'devnet';
        const metadata = new JettonMetadataFetcher(store, { allowPrivate: allowPrivateFetch, log });
        let starting: Promise<ChainWriter> | undefined;
        const started = () => starting!;

        const services: ApiServices = {
            store,
            chain: {
                source: config.source,
                live: runsChainWriter,
                head: () => writer?.source.head() ?? Promise.resolve(null),
                rate: () => writer?.rate.perSecond() ?? null,
            },
            messages: runsChainWriter ? { sendExternalMessage: async (message: Cell) => (await started()).messages!.sendExternalMessage(message) } : undefined,
            devnet: config.source === 'devnet' ? waitingDevnetControl(started, config.faucetCap) : undefined,
            emulation: new EmulationService(store.db, { maxTransactions: config.emulationMaxTransactions, timeBudgetMs: config.emulationTimeoutMs }),
            rates: loadRatesSource(config.rates || (config.source === 'devnet' ? DEVNET_RATES_FILE : undefined), {
                onStaleRefresh: error => log(`rates: refresh failed, serving the previous table: ${error.message}`), allowPrivateFetch,
            }),
            extraCurrencies,
            rewards: runsChainWriter ? waitingRewards(started) : undefined,
        };
        if (store.poolUse) metrics.watchPool(store.poolUse);
        metrics.watchIngest({
            lastIndexed: () => lastMasterchainBlock(store!.db),
            sourceHead: runsChainWriter ? async () => (await writer?.source.head()) ?? null : undefined,
            rate: runsChainWriter ? () => writer?.rate.perSecond() ?? null : undefined,
        });
        server = await buildServer(services, {
            logLevel: events.logStream ? config.logLevel : 'silent', logRequests: config.logRequests, logStream: events.logStream, metrics,
            ...serverAccessOptions(config, apiKeys, log),
        });
        reloadKeysWhileServing(server, apiKeys, config.apiKeys, log);
        const url = await server.listen({ host: config.host, port: config.port });
        // Set before any request can run: handlers run on later turns of the event loop.
        if (runsChainWriter) starting = import('./chain-writer.ts').then(module => module.startChainWriter(config, store!, {
            log, progress: events.progress, indexed: (workchain, transactions) => metrics.countIndexed(workchain, transactions),
            renderFailed: (block, failures) => metrics.countRenderFailures(formatBlockId(block.id), failures, line => log(line, 'error')),
        }));
        writer = await starting;
        if (writer?.chainFallback) services.emulation!.useChainFallback(writer.chainFallback);
        metadata.start();

        let stopping: Promise<void> | undefined;
        const running: RunningService = {
            config, store, server, url, metrics,
            source: writer?.source ?? null,
            devnet: writer?.devnet ?? null,
            indexer: writer?.indexer ?? null,
            liteserver: writer?.liteserver ?? null,
            ready: writer?.ready ?? Promise.resolve(),
            stop() {
                stopping ??= (async () => {
                    const { forced } = await closeGracefully(server!, config.shutdownTimeoutMs);
                    if (forced) log(`shutdown: requests still in flight after ${config.shutdownTimeoutMs} ms were cut off`);
                    await writer?.stop();
                    await metadata.stop();
                    await store!.close();
                    await writerLock?.release();
                })();
                return stopping;
            },
        };
        return running;
    } catch (error) {
        await server?.close();
        await store?.close();
        await writerLock?.release();
        throw error;
    }
}

/** The devnet's operations for the API, each waiting for the chain writer to have started. */
export function waitingDevnetControl(started: () => Promise<ChainWriter>, faucetCap: bigint): DevnetControl {
    const control = async () => (await started()).devnetControl!;
    return {
        faucetCap,
        manifest: async () => (await control()).manifest(),
        globalConfig: async () => (await control()).globalConfig(),
        sendExternalMessage: async message => (await control()).sendExternalMessage(message),
        faucet: async (to, amount) => (await control()).faucet(to, amount),
    };
}

/** Round rewards once the chain writer has started (its chain reader is what they read). */
export function waitingRewards(started: () => Promise<ChainWriter>): RoundRewardsProvider {
    return { roundRewards: async (selector, options) => (await started()).rewards.roundRewards(selector, options) };
}

/** The configured extra currency table, else the devnet's on a devnet; read once, before anything starts (a bad table stops the start). */
export function extraCurrencyTable(config: ServiceConfig): ExtraCurrencyCatalog {
    try {
        return loadExtraCurrencyTable(config.extraCurrencies || (config.source === 'devnet' ? DEVNET_EXTRA_CURRENCIES_FILE : undefined));
    } catch (error) {
        if (error instanceof ExtraCurrencyTableError) throw new ConfigError(error.message);
        throw error;
    }
}

/**
 * A writer's locks (none for an API-only process), taken before it touches anything. Indexing pauses
 * while a lock is lost (the database away) and resumes from the last committed block once it is taken again.
 */
export async function takeWriterLocks(config: ServiceConfig, writer: () => ChainWriter | undefined, log: (line: string, level?: BackgroundLevel) => void): Promise<WriterLock | null> {
    if (config.source === 'none') return null;
    return acquireWriterLocks(config, 'serve', error => {
        log(`index writer lock lost (${error.message}); indexing pauses until the database is back and the lock is taken again`);
        void writer()?.indexer.stop();
    }, () => {
        const indexer = writer()?.indexer;
        if (!indexer) return;
        log('index writer lock taken again; indexing resumes from the last committed block', 'info');
        void indexer.stop().then(() => indexer.start()).catch(error => log(`indexer stopped: ${(error as Error).message}`));
    });
}

/** The last masterchain block in the index (for the ingest lag metrics). */
export async function lastMasterchainBlock(db: IndexDb): Promise<MasterchainPoint | null> {
    const row = await db.selectFrom('blocks').select(['seqno', 'utime']).where('workchain', '=', -1).orderBy('seqno', 'desc').limit(1).executeTakeFirst();
    return row ? { seqno: Number(row.seqno), utime: Number(row.utime) } : null;
}
