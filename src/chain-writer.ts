import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Address, Cell } from '@ton/core';
import type { DevnetControl, MessageSink } from './api/services.ts';
import type { DevnetLiteServer as DevnetLiteMethods } from './liteserver/devnet/devnet-lite-methods.ts';
import type { RoundRewardsProvider } from './rewards/service.ts';
import type { BlockRecord, ChainSource } from './chain/chain-source.ts';
import { ChainLog } from './chain/devnet/chain-log.ts';
import { DevnetSource } from './chain/devnet/devnet-source.ts';
import type { LiteSource } from './chain/lite/lite-source.ts';
import { sleep } from './sleep.ts';
import type { ServiceConfig } from './config/config.ts';
import type { BackgroundLevel } from './observability/logging.ts';
import { clientHost, ConfigError } from './config/config.ts';
import { IngestRate } from './indexer/ingest-rate.ts';
import { EmulationFailure } from './emulation/errors.ts';
import type { ChainStateFallback } from './emulation/store-chain-state.ts';
import { Indexer } from './indexer/indexer.ts';
import { logIndexerStalls } from './indexer/stall-log.ts';
import { AccountInspector } from './indexer/inspect-accounts.ts';
import type { Store } from './store/store.ts';

/**
 * The writing half of a process: the chain source and the indexer that writes what it yields into
 * the store. `app.ts` loads this module only when the process writes, after its API is up (the
 * chain source and the TVM take most of a start).
 */
export interface ChainWriter {
    source: ChainSource;
    devnet: DevnetSource | null;
    indexer: Indexer;
    /** Blocks and transactions indexed per second, recently. */
    rate: IngestRate;
    /** Messages to the chain (the devnet answers once the block that executed them is indexed). */
    messages: MessageSink | undefined;
    /** The devnet's own operations (faucet, manifest), likewise answered once indexed. */
    devnetControl: Omit<DevnetControl, 'faucetCap'> | undefined;
    /** The devnet's liteserver, when it runs one. */
    liteserver: DevnetLiteserver | null;
    /** A follower's chain, where emulation finds accounts and libraries its index has not seen. */
    chainFallback?: ChainStateFallback;
    /** Resolves once the devnet's seed activity is indexed (at once for a chain seeded before). */
    ready: Promise<void>;
    /** Round rewards, read through the lite API (the follower's liteservers, the devnet's own method table). */
    rewards: RoundRewardsProvider;
    stop(): Promise<void>;
}

export interface DevnetLiteserver {
    host: string;
    port: number;
    publicKey: Buffer;
    /** TON global-config JSON naming it (also written to `<data dir>/devnet-global.config.json`); null when the host is not IPv4. */
    globalConfig: string | null;
}

export interface WriterEvents {
    /** A background line: a failure (`warn` unless said) or, at `info`, the follower's progress. */
    log: (line: string, level?: BackgroundLevel) => void;
    /** Each block once committed to the index, with its transaction count. */
    indexed?: (workchain: number, transactions: number) => void;
    /** Transactions of an indexed block whose stored text could not be made (`BlockRecord.renderFailures`). */
    renderFailed?: (block: BlockRecord, failures: string[]) => void;
    progress?: (line: string) => void;
}

export async function startChainWriter(config: ServiceConfig, store: Store, events: WriterEvents): Promise<ChainWriter> {
    return config.source === 'lite' ? startLiteWriter(config, store, events) : startDevnetWriter(config, store, events);
}

/**
 * Follows liteservers: the chain is read block by block after the index's cursor, messages are sent
 * through them, and libraries the index lacks are asked of them. Logs progress every 10 s.
 */
async function startLiteWriter(config: ServiceConfig, store: Store, events: WriterEvents): Promise<ChainWriter> {
    const [{ loadLiteServers, GlobalConfigError }, { LitePool }, { LiteSource }, { LiteClientConnection }] = await Promise.all([
        import('./chain/lite/global-config.ts'), import('./chain/lite/lite-pool.ts'), import('./chain/lite/lite-source.ts'), import('./liteserver/lite-client.ts'),
    ]);
    let servers;
    try {
        servers = await loadLiteServers(config.liteservers);
    } catch (error) {
        if (error instanceof GlobalConfigError) throw new ConfigError(error.message);
        throw error;
    }
    const pool = new LitePool(servers, server => new LiteClientConnection(server));
    const source = new LiteSource({ pool, fromSeqno: config.fromSeqno ?? undefined, fromUtime: config.fromUtime ?? undefined, transactionTexts: config.transactionTexts, log: events.log });
    const stopped = new AbortController();
    // A block waits while no server can give a library its accounts use: indexing it without would detect less.
    const chainLibraries = async (hashes: string[]) => {
        for (let attempt = 0; ; attempt++) {
            try {
                return await source.libraries(hashes);
            } catch (error) {
                if (stopped.signal.aborted) throw error;
                events.log(`lite: getLibraries failed (${(error as Error).message}); retrying`);
                await sleep(Math.min(30_000, 500 * 2 ** Math.min(attempt, 6)), stopped.signal);
            }
        }
    };
    const indexer = new Indexer(store, source, { inspector: await AccountInspector.create({ chainLibraries }) });
    const rate = new IngestRate();
    indexer.on('block', (item, transactions) => {
        rate.add(item.block);
        events.indexed?.(item.block.id.workchain, transactions);
        if (item.block.renderFailures) events.renderFailed?.(item.block, item.block.renderFailures);
    });
    await source.start();
    const progress = setInterval(() => events.log(liteProgressLine(rate, source), 'info'), 10_000);
    progress.unref();
    logIndexerStalls(indexer, events.log);
    const indexing = indexer.start().catch(error => events.log(`indexer stopped: ${(error as Error).message}`));
    const { RoundChainReader, litePoolTransport } = await import('./rewards/chain-reader.ts');
    const { RoundRewardsService } = await import('./rewards/service.ts');
    const rewards = new RoundRewardsService(new RoundChainReader(litePoolTransport(pool)), {
        sourceName: 'the configured liteservers', cacheSize: config.rewardsCacheRounds,
        historyHint: 'rounds older than a liteserver keeps states for need an archive liteserver in --liteservers',
    });
    return {
        source,
        devnet: null,
        rewards,
        indexer,
        rate,
        messages: source,
        devnetControl: undefined,
        liteserver: null,
        chainFallback: {
            account: address => unavailableOnFailure(() => source.accountAtHead(address)),
            libraries: hashes => unavailableOnFailure(() => source.libraries(hashes)),
        },
        ready: Promise.resolve(),
        async stop() {
            clearInterval(progress);
            stopped.abort();
            await indexer.stop();
            await indexing;
            await source.stop();
        },
    };
}

/** A liteserver failure during emulation is the chain being unavailable (503), not a bug. */
async function unavailableOnFailure<T>(read: () => Promise<T>): Promise<T> {
    try {
        return await read();
    } catch (error) {
        throw new EmulationFailure('unavailable', `the liteservers did not give the chain state emulation needs: ${(error as Error).message}`);
    }
}

function liteProgressLine(rate: IngestRate, source: LiteSource): string {
    const { blocksPerSecond, transactionsPerSecond, lastBlock } = rate.perSecond();
    const head = source.knownHead;
    const lag = head && lastBlock ? `, head ${head.seqno}, lag ${Math.max(0, head.seqno - lastBlock.seqno)} blocks / ${Math.max(0, head.utime - lastBlock.utime)} s` : '';
    const servers = source.servers();
    const up = servers.filter(s => s.available).length;
    return `lite: indexed masterchain ${lastBlock?.seqno ?? '-'}${lag}; ${blocksPerSecond.toFixed(1)} blocks/s, ${transactionsPerSecond.toFixed(0)} tx/s; ${up}/${servers.length} liteservers up`;
}

async function startDevnetWriter(config: ServiceConfig, store: Store, events: WriterEvents): Promise<ChainWriter> {
    const devnet = new DevnetSource({ dataDir: config.dataDir, blockIntervalMs: config.blockIntervalMs, faucetCap: config.faucetCap, metadataBaseUrl: metadataBaseUrl(config), roundSeconds: config.roundSeconds, validators: config.validators, recentAccounts: config.devnetRecentAccounts, shards: config.shards ?? undefined }, { readingThreads: config.readingThreads, transactionTexts: config.transactionTexts });
    const indexer = new Indexer(store, devnet, { inspector: await AccountInspector.create() });
    devnetLiteModule = await import('./liteserver/devnet/devnet-lite-methods.ts');
    await devnet.start();
    // Registered before the first block can be produced (the devnet's timer fires a block interval after start).
    const ready = seedIndexed(devnet, indexer, events.progress);
    devnet.onFailure(error => events.log(`devnet: block production failed: ${error.message}`));
    devnet.onWarning(message => events.log(`devnet: ${message}`));
    const rate = new IngestRate();
    indexer.on('block', (item, transactions) => {
        rate.add(item.block);
        events.indexed?.(item.block.id.workchain, transactions);
        if (item.block.renderFailures) events.renderFailed?.(item.block, item.block.renderFailures);
    });
    logIndexerStalls(indexer, events.log);
    const indexing = indexer.start().catch(error => events.log(`indexer stopped: ${(error as Error).message}`));
    const sink = indexedSink(devnet, indexer);
    let lite: Awaited<ReturnType<typeof startDevnetLiteserver>> | null = null;
    try {
        lite = config.liteserverPort === null ? null : await startDevnetLiteserver(config, devnet, events);
    } catch (error) {
        await indexer.stop();
        await devnet.stop();
        throw error;
    }
    // Rewards read the devnet through its lite method table: the liteserver's, or (--liteserver-port off)
    // one made on the first rewards request.
    let ownMethods: DevnetLiteMethods | null = null;
    const methods = (): DevnetLiteMethods => {
        if (lite) return lite.lite;
        if (!ownMethods) ownMethods = createDevnetMethods(config, devnet);
        return ownMethods;
    };
    const { RoundChainReader, methodTableTransport } = await import('./rewards/chain-reader.ts');
    const { RoundRewardsService } = await import('./rewards/service.ts');
    // Accounts are read from the devnet's state directly: the proofs getAccountState builds are for remote clients.
    const reader = new RoundChainReader(methodTableTransport(() => methods().methods), {
        accountCell: (id, workchain, accountId) => methods().accountCell(id, { kind: 'liteServer.accountId', workchain, id: accountId }),
    });
    const rewards = new RoundRewardsService(reader, { sourceName: 'the devnet', cacheSize: config.rewardsCacheRounds });
    return {
        source: devnet,
        devnet,
        indexer,
        rate,
        rewards,
        liteserver: lite?.info ?? null,
        messages: sink,
        devnetControl: {
            manifest: async () => devnet.manifest(),
            globalConfig: async () => lite?.info.globalConfig ?? null,
            sendExternalMessage: message => sink.sendExternalMessage(message),
            async faucet(to: Address, amount: bigint) {
                const sent = await devnet.faucet(to, amount);
                await waitIndexed(indexer, sent.cursor);
                return sent;
            },
        },
        ready,
        async stop() {
            await lite?.close();
            ownMethods?.close();
            await indexer.stop();
            await indexing;
            await devnet.stop();
        },
    };
}

/**
 * The devnet as a liteserver (ADNL over TCP on --host:--liteserver-port) with its key in the data
 * directory, and a TON global config naming it for other tools.
 */
async function startDevnetLiteserver(config: ServiceConfig, devnet: DevnetSource, events: WriterEvents) {
    const [{ createDevnetLiteMethods }, { startLiteServer }, { globalConfigJson }] = await Promise.all([
        import('./liteserver/devnet/devnet-lite-methods.ts'), import('./liteserver/lite-server.ts'), import('./chain/lite/global-config.ts'),
    ]);
    const lite = createDevnetLiteMethods({ dataDir: config.dataDir, sink: devnet });
    let server;
    try {
        server = await startLiteServer({
            keyDir: join(config.dataDir, 'devnet'), host: config.host, port: config.liteserverPort!,
            methods: lite.methods, waitForMasterchainSeqno: lite.waitForMasterchainSeqno,
            onError: (error, method) => events.log(`liteserver: ${method ?? 'connection'}: ${(error as Error).message}`),
        });
    } catch (error) {
        lite.close();
        const reason = (error as NodeJS.ErrnoException).code === 'EADDRINUSE' ? `port ${config.liteserverPort} is in use; choose another with --liteserver-port (or off)` : (error as Error).message;
        throw new ConfigError(`the devnet's liteserver cannot listen: ${reason}`);
    }
    const zero = new ChainLog(join(config.dataDir, 'devnet', 'chain.sqlite'), { readonly: true });
    const zeroState = zero.zerostate(-1);
    zero.close();
    let globalConfig: string | null = null;
    try {
        globalConfig = globalConfigJson([{ host: clientHost(config.host), port: server.port, publicKey: server.publicKey }],
            zeroState ? { workchain: -1, rootHash: Buffer.from(zeroState.rootHash, 'hex'), fileHash: Buffer.from(zeroState.fileHash, 'hex') } : undefined);
        writeFileSync(join(config.dataDir, 'devnet-global.config.json'), globalConfig);
    } catch (error) {
        events.log(`liteserver: no global config written: ${(error as Error).message}`);
    }
    return {
        lite,
        info: { host: server.host, port: server.port, publicKey: server.publicKey, globalConfig },
        async close() {
            await server.close();
            lite.close();
        },
    };
}

/** The devnet's lite method table without a liteserver (for round rewards when --liteserver-port is off). */
function createDevnetMethods(config: ServiceConfig, devnet: DevnetSource): DevnetLiteMethods {
    // loaded with the writer already (startDevnetLiteserver imports it too); a static import would load it for the lite writer as well
    return devnetLiteModule!.createDevnetLiteMethods({ dataDir: config.dataDir, sink: devnet });
}

let devnetLiteModule: typeof import('./liteserver/devnet/devnet-lite-methods.ts') | null = null;

/**
 * The devnet's metadata documents are served by this API; a chain created while listening on a
 * fixed port points its tokens there (with port 0 the address is not known in advance).
 */
function metadataBaseUrl(config: ServiceConfig): string | undefined {
    if (config.port === 0) return undefined;
    return `http://${clientHost(config.host)}:${config.port}/v2/devnet/metadata/`;
}

/** Reports each seed step once its block is indexed; resolves when the whole seed is (at once on a chain seeded before). */
function seedIndexed(devnet: DevnetSource, indexer: Indexer, progress?: (line: string) => void): Promise<void> {
    return new Promise(resolve => {
        if (devnet.seeded) {
            void devnet.head().then(head => (head ? waitIndexer(indexer, last => last.block.id.workchain === -1 && last.block.id.seqno >= head.seqno) : undefined)).then(resolve);
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

function indexedSink(devnet: DevnetSource, indexer: Indexer): MessageSink {
    return {
        async sendExternalMessage(message: Cell) {
            const sent = await devnet.sendExternalMessage(message);
            await waitIndexed(indexer, sent.cursor);
            return sent;
        },
    };
}
