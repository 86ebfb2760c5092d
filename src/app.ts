import './ton/fast-hash.ts';
import type { FastifyInstance } from 'fastify';
import { buildServer } from './api/server.ts';
import type { ApiServices, DevnetControl } from './api/services.ts';
import type { ChainSource } from './chain/chain-source.ts';
import { DevnetSource } from './chain/devnet/devnet-source.ts';
import { Indexer } from './indexer/indexer.ts';
import { AccountInspector } from './indexer/inspect-accounts.ts';
import { JettonMetadataFetcher } from './indexer/jetton-metadata.ts';
import { openStore, type Store } from './store/store.ts';
import { EmulationService } from './emulation/emulation-service.ts';
import { DEVNET_RATES_FILE, loadRatesSource } from './risk/rates.ts';
import { DEVNET_EXTRA_CURRENCIES_FILE } from './chain/devnet/extra-currency.ts';
import { ConfigError, clientHost, type ServiceConfig } from './config/config.ts';
import { ExtraCurrencyTableError, loadExtraCurrencyTable, type ExtraCurrencyCatalog } from './ton/extra-currencies.ts';
import { acquireWriterLocks } from './store/locks/acquire-writer-locks.ts';
import type { WriterLock } from './store/locks/writer-lock.ts';

export interface RunningService {
    config: ServiceConfig;
    store: Store;
    source: ChainSource | null;
    devnet: DevnetSource | null;
    indexer: Indexer | null;
    server: FastifyInstance;
    url: string;
    /** Resolves when the service answers on an index that has caught up: on a devnet, once its seed activity is indexed. */
    ready: Promise<void>;
    stop(): Promise<void>;
}

export interface ServiceEvents {
    /** Something went wrong in the background (block production, indexing); the service keeps serving. */
    log?: (line: string) => void;
    /** Progress while a new devnet seeds, one line per step once it is indexed. */
    progress?: (line: string) => void;
}

/**
 * Wires one process: chain source → indexer → store → API. With `source: none` only the store and
 * the API run, over whatever the index already holds.
 */
export async function startService(config: ServiceConfig, events: ServiceEvents = {}): Promise<RunningService> {
    const log = events.log ?? (() => undefined);
    const extraCurrencies = extraCurrencyTable(config);
    // A writer takes its locks before it touches anything; an API-only process (no source) writes no chain or index.
    let running: RunningService | undefined;
    const writerLock: WriterLock | null = config.source === 'none' ? null : await acquireWriterLocks(config, 'serve', error => {
        log(`index writer lock lost (${error.message}); indexing stops, restart the service`);
        void running?.indexer?.stop();
    });
    try {
        running = await wireService(config, extraCurrencies, writerLock, log, events.progress);
        return running;
    } catch (error) {
        await writerLock?.release();
        throw error;
    }
}

async function wireService(
    config: ServiceConfig, extraCurrencies: ExtraCurrencyCatalog, writerLock: WriterLock | null,
    log: (line: string) => void, progress: ((line: string) => void) | undefined,
): Promise<RunningService> {
    const store = await openStore({ url: config.databaseUrl, dataDir: config.dataDir });
    const devnet = config.source === 'devnet'
        ? new DevnetSource({ dataDir: config.dataDir, blockIntervalMs: config.blockIntervalMs, faucetCap: config.faucetCap, metadataBaseUrl: metadataBaseUrl(config) })
        : null;
    const source: ChainSource | null = devnet;
    const indexer = source ? new Indexer(store, source, { inspector: await AccountInspector.create() }) : null;
    const metadata = new JettonMetadataFetcher(store);

    if (source) await source.start();
    // Registered before the first block can be produced (the devnet's timer fires a block interval after start).
    const ready = devnet && indexer ? seedIndexed(devnet, indexer, progress) : Promise.resolve();
    devnet?.onFailure(error => log(`devnet: block production failed: ${error.message}`));
    const indexing = indexer?.start().catch(error => log(`indexer stopped: ${(error as Error).message}`));
    metadata.start();

    const services: ApiServices = {
        store,
        chain: {
            source: source?.name ?? 'none',
            live: source?.live ?? false,
            head: () => source?.head() ?? Promise.resolve(null),
        },
        messages: devnet && indexer ? indexedSink(devnet, indexer) : undefined,
        devnet: devnet && indexer ? devnetControl(devnet, indexer) : undefined,
        emulation: new EmulationService(store.db, { maxTransactions: config.emulationMaxTransactions, timeBudgetMs: config.emulationTimeoutMs }),
        rates: loadRatesSource(config.rates || (devnet ? DEVNET_RATES_FILE : undefined), { onStaleRefresh: error => log(`rates: refresh failed, serving the previous table: ${error.message}`) }),
        extraCurrencies,
    };
    const server = await buildServer(services, { logger: config.logRequests });
    const address = await server.listen({ host: config.host, port: config.port });

    return {
        config, store, source, devnet, indexer, server,
        url: address,
        ready,
        async stop() {
            await server.close();
            await indexer?.stop();
            await indexing;
            await metadata.stop();
            await source?.stop();
            await store.close();
            await writerLock?.release();
        },
    };
}

/** Reports each seed step once its block is indexed; resolves when the whole seed is (at once on a chain seeded before). */
function seedIndexed(devnet: DevnetSource, indexer: Indexer, progress?: (line: string) => void): Promise<void> {
    return new Promise(resolve => {
        if (devnet.seeded) {
            void devnet.head().then(head => (head ? waitIndexedMaster(indexer, head.seqno) : undefined)).then(resolve);
            return;
        }
        devnet.onSeedProgress(step => {
            void waitIndexed(indexer, step.cursor).then(() => {
                progress?.(`seeding ${step.step}/${step.total}: ${step.label}`);
                if (step.step === step.total) resolve();
            });
        });
    });
}

/** Waits until the indexer has committed masterchain block `seqno` (or a later one). */
function waitIndexedMaster(indexer: Indexer, seqno: number): Promise<void> {
    return waitIndexer(indexer, last => last.block.id.workchain === -1 && last.block.id.seqno >= seqno);
}

/** The configured extra currency table, else the devnet's on a devnet; read once, before anything starts (a bad table stops the start). */
function extraCurrencyTable(config: ServiceConfig): ExtraCurrencyCatalog {
    try {
        return loadExtraCurrencyTable(config.extraCurrencies || (config.source === 'devnet' ? DEVNET_EXTRA_CURRENCIES_FILE : undefined));
    } catch (error) {
        if (error instanceof ExtraCurrencyTableError) throw new ConfigError(error.message);
        throw error;
    }
}

/**
 * The devnet's metadata documents are served by this API; a chain created while listening on a
 * fixed port points its tokens there (with port 0 the address is not known in advance).
 */
function metadataBaseUrl(config: ServiceConfig): string | undefined {
    if (config.port === 0) return undefined;
    return `http://${clientHost(config.host)}:${config.port}/v2/devnet/metadata/`;
}

/** Waits until the indexer has committed the block at `cursor`, so a client's next read finds it. */
function waitIndexed(indexer: Indexer, cursor: string): Promise<void> {
    return waitIndexer(indexer, last => Number(last.cursor) >= Number(cursor));
}

/** Resolves once the indexer's last committed block satisfies `reached`. */
function waitIndexer(indexer: Indexer, reached: (last: NonNullable<Indexer['lastIndexed']>) => boolean): Promise<void> {
    const done = () => {
        const last = indexer.lastIndexed;
        return last !== null && reached(last);
    };
    if (done()) return Promise.resolve();
    return new Promise(resolve => {
        const onBlock = () => {
            if (!done()) return;
            indexer.off('block', onBlock);
            resolve();
        };
        indexer.on('block', onBlock);
    });
}

function indexedSink(devnet: DevnetSource, indexer: Indexer) {
    return {
        async sendExternalMessage(message: import('@ton/core').Cell) {
            const sent = await devnet.sendExternalMessage(message);
            await waitIndexed(indexer, sent.cursor);
            return sent;
        },
    };
}

function devnetControl(devnet: DevnetSource, indexer: Indexer): DevnetControl {
    const sink = indexedSink(devnet, indexer);
    return {
        faucetCap: devnet.faucetCap,
        manifest: () => devnet.manifest(),
        sendExternalMessage: message => sink.sendExternalMessage(message),
        async faucet(to, amount) {
            const sent = await devnet.faucet(to, amount);
            await waitIndexed(indexer, sent.cursor);
            return sent;
        },
    };
}
