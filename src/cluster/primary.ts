import cluster, { type Worker } from 'node:cluster';
import { createServer, type AddressInfo } from 'node:net';
import { Address, Cell } from '@ton/core';
import { AggregatorRegistry, type Registry } from 'prom-client';
import { loadApiKeyRing } from '../api/access/service-access.ts';
import { extraCurrencyTable, lastMasterchainBlock, takeWriterLocks, waitingDevnetControl, waitingRewards } from '../app.ts';
import type { ChainWriter, DevnetLiteserver } from '../chain-writer.ts';
import type { DevnetSource } from '../chain/devnet/devnet-source.ts';
import type { ServiceConfig } from '../config/config.ts';
import type { Indexer } from '../indexer/indexer.ts';
import { JettonMetadataFetcher } from '../indexer/jetton-metadata.ts';
import type { BackgroundLevel, LogSink } from '../observability/logging.ts';
import { ServiceMetrics } from '../observability/metrics.ts';
import type { RoundSelector } from '../rewards/service.ts';
import { openStore, type Store } from '../store/store.ts';
import { IpcChannel } from './ipc-channel.ts';
import { deserializeError, isClusterMessage, WORKER_PORT_ENV, type WriterMethod } from './ipc-protocol.ts';
import { primaryLogger, type PrimaryLogger } from './primary-log.ts';
import { applyHeapSettings } from '../heap-settings.ts';
import { formatBlockId } from '../ton/block-id.ts';

export interface RunningCluster {
    /** The API's base URL (every worker listens on its port). */
    url: string;
    devnet: DevnetSource | null;
    indexer: Indexer | null;
    liteserver: DevnetLiteserver | null;
    /** Resolves once the index has caught up (on a devnet, its seed activity is indexed). */
    ready: Promise<void>;
    logger: PrimaryLogger;
    /** Workers drain (requests in flight finish, at most `shutdownTimeoutMs`) and exit, then the writer stops and the store closes. */
    stop(): Promise<void>;
}

export interface ClusterEvents {
    logStream?: LogSink;
    progress?: (line: string) => void;
}

/** A worker that exits sooner than this after its start is restarted after a pause (it may fail again at once). */
const QUICK_EXIT_MS = 5_000;
const RESTART_PAUSE_MS = 1_000;
/** How long one worker may take to give its metrics for a scrape; a worker that does not is left out. */
const METRICS_TIMEOUT_MS = 1_500;

/**
 * `serve --workers N` (N > 1), the primary process: it takes the writer locks, migrates the index,
 * forks N API workers that share the HTTP port (node:cluster) and read the same index, and once they
 * listen runs the chain source and the indexer (and the devnet's liteserver). It answers the
 * workers' calls to the writer over IPC and restarts a worker that dies.
 */
export async function startCluster(config: ServiceConfig, events: ClusterEvents = {}): Promise<RunningCluster> {
    applyHeapSettings(config.heapGrowthPercent, config.source !== 'none');
    const logger = primaryLogger(config.logLevel, events.logStream);
    const log = (line: string, level: BackgroundLevel = 'warn') => logger[level](line);
    // What would stop every worker's start stops the primary's first, once, with the single process's message.
    extraCurrencyTable(config);
    loadApiKeyRing(config);

    let writer: ChainWriter | undefined;
    const writerLock = await takeWriterLocks(config, () => writer, log);
    let store: Store | undefined;
    const workers = new WorkerSet(logger, config.workerSemiSpaceMb);
    let writerStart: Promise<ChainWriter | undefined> = Promise.resolve(undefined);
    try {
        store = await openStore({ url: config.databaseUrl, dataDir: config.dataDir });
        const writes = config.source !== 'none';
        const metrics = new ServiceMetrics();
        if (store.poolUse) metrics.watchPool(store.poolUse);
        metrics.watchIngest({
            lastIndexed: () => lastMasterchainBlock(store!.db),
            sourceHead: writes ? async () => (await writer?.source.head()) ?? null : undefined,
            rate: writes ? () => writer?.rate.perSecond() ?? null : undefined,
        });
        const metadata = new JettonMetadataFetcher(store, { allowPrivate: config.allowPrivateFetch ?? config.source === 'devnet', log });

        // Workers' calls arrive as soon as the first one listens; those for the writer wait for it to start.
        let writerStarted!: (writer: Promise<ChainWriter>) => void;
        const starting = new Promise<ChainWriter>(resolve => {
            writerStarted = resolve;
        });
        starting.catch(() => undefined);
        workers.handlers = writerHandlers(config, () => writer, () => starting, metrics, workers);
        // Port 0: one free port, chosen here, for every worker and every replacement (one that listened
        // on 0 would get a new port if it started while no other worker held the old one).
        const port = config.port === 0 ? await freePort(config.host) : config.port;
        // As in one process: the API answers from the index first, then the writer starts behind it.
        const url = await workers.start(config.workers, port);
        if (writes) {
            writerStart = import('../chain-writer.ts').then(module => module.startChainWriter(config, store!, {
                log, progress: events.progress, indexed: (workchain, transactions) => metrics.countIndexed(workchain, transactions),
            renderFailed: (block, failures) => metrics.countRenderFailures(formatBlockId(block.id), failures, line => log(line, 'error')),
            }));
            writerStarted(writerStart as Promise<ChainWriter>);
        }
        writer = await writerStart;
        metadata.start();
        // SIGHUP rereads the API keys in each worker (without keys it ends the process, as it does a single one).
        const reloadKeys = () => workers.signal('SIGHUP');
        if (config.apiKeys !== '') process.on('SIGHUP', reloadKeys);
        let stopping: Promise<void> | undefined;
        return {
            url,
            devnet: writer?.devnet ?? null,
            indexer: writer?.indexer ?? null,
            liteserver: writer?.liteserver ?? null,
            ready: writer?.ready ?? Promise.resolve(),
            logger,
            stop() {
                stopping ??= (async () => {
                    await workers.stopAll(config.shutdownTimeoutMs);
                    process.off('SIGHUP', reloadKeys);
                    await writer?.stop();
                    await metadata.stop();
                    await store!.close();
                    await writerLock?.release();
                })();
                return stopping;
            },
        };
    } catch (error) {
        await workers.stopAll(0);
        await (await writerStart.catch(() => undefined))?.stop().catch(() => undefined);
        await store?.close();
        await writerLock?.release();
        throw error;
    }
}

/** A port free on `host` right now (the workers listen on it next). */
function freePort(host: string): Promise<number> {
    return new Promise((resolve, reject) => {
        const server = createServer();
        server.once('error', reject);
        server.listen({ host, port: 0 }, () => {
            const { port } = server.address() as AddressInfo;
            server.close(() => resolve(port));
        });
    });
}

type MetricsJson = Awaited<ReturnType<Registry['getMetricsAsJSON']>>;
type Handlers = Record<WriterMethod, (...args: any[]) => unknown>;

/** The primary's answers to the workers: the writer's parts of `ApiServices`, and the cluster's metrics. */
function writerHandlers(config: ServiceConfig, current: () => ChainWriter | undefined, started: () => Promise<ChainWriter>, metrics: ServiceMetrics, workers: WorkerSet): Handlers {
    const devnet = waitingDevnetControl(started, config.faucetCap);
    const rewards = waitingRewards(started);
    const message = (boc: Buffer) => Cell.fromBoc(boc)[0];
    return {
        'chain.head': () => current()?.source.head() ?? null,
        'chain.rate': () => current()?.rate.perSecond() ?? null,
        'messages.send': async (boc: Buffer) => {
            const sent = await (await started()).messages!.sendExternalMessage(message(boc));
            return { messageHash: sent.messageHash, traceId: sent.traceId };
        },
        'devnet.manifest': () => devnet.manifest(),
        'devnet.globalConfig': () => devnet.globalConfig(),
        'devnet.send': async (boc: Buffer) => {
            const sent = await devnet.sendExternalMessage(message(boc));
            return { messageHash: sent.messageHash, traceId: sent.traceId };
        },
        'devnet.faucet': async (to: string, amount: bigint) => {
            const sent = await devnet.faucet(Address.parseRaw(to), amount);
            return { address: sent.address, amount: sent.amount, messageHash: sent.messageHash, traceId: sent.traceId };
        },
        'rewards.round': (selector: RoundSelector, options?: { shallow?: boolean }) => rewards.roundRewards(selector, options),
        'fallback.account': async (address: string) => (await started()).chainFallback?.account(address),
        'fallback.libraries': async (hashes: string[]) => (await started()).chainFallback?.libraries(hashes) ?? new Map(),
        'metrics.cluster': async () => {
            const parts: MetricsJson[] = [await metrics.registry.getMetricsAsJSON()];
            for (const part of await workers.localMetrics()) if (part) parts.push(part);
            return AggregatorRegistry.aggregate(parts).metrics();
        },
    };
}

interface RunningWorker {
    worker: Worker;
    channel: IpcChannel;
    startedAt: number;
    /** Set once it listens: a worker still starting has no metrics to give yet. */
    listening: boolean;
}

/** The API workers: forked, watched, restarted when one dies, drained on stop. */
class WorkerSet {
    handlers: Handlers | undefined;
    private readonly running = new Map<number, RunningWorker>();
    private stopping = false;
    private port = 0;

    constructor(private readonly logger: PrimaryLogger, semiSpaceMb: number) {
        // BigInt, Buffer and Map cross the channel as they are (the default JSON would lose them).
        cluster.setupPrimary({ serialization: 'advanced', execArgv: workerExecArgv(process.execArgv, semiSpaceMb) });
    }

    /** Forks `count` workers; resolves with the URL they listen on once every one does, rejects if one fails first. */
    start(count: number, port: number): Promise<string> {
        this.port = port;
        return new Promise((resolve, reject) => {
            let listening = 0;
            let settled = false;
            for (let i = 0; i < count; i++) {
                this.fork({
                    listening: url => {
                        if (settled || ++listening < count) return;
                        settled = true;
                        resolve(url);
                    },
                    failed: error => {
                        if (settled) return;
                        settled = true;
                        reject(error);
                    },
                });
            }
        });
    }

    /** Every running worker's own metrics (null for one that does not answer in time). */
    localMetrics(): Promise<Array<MetricsJson | null>> {
        return Promise.all([...this.running.values()].filter(entry => entry.listening).map(({ channel }) =>
            channel.request<MetricsJson>('metrics.local', [], METRICS_TIMEOUT_MS).catch(() => null)));
    }

    /** Tells every worker to drain and waits for all to exit; one still running `timeoutMs` + 5 s later is killed. */
    async stopAll(timeoutMs: number): Promise<void> {
        this.stopping = true;
        const exits = [...this.running.values()].map(({ worker, listening }) => new Promise<void>(resolve => {
            if (worker.isDead()) return resolve();
            worker.once('exit', () => resolve());
            if (timeoutMs === 0 || !worker.isConnected()) {
                worker.process.kill('SIGKILL');
                return;
            }
            // One still starting may not read messages yet; its SIGTERM handler (or SIGTERM's default) stops it.
            if (listening) worker.send({ ne: 'shutdown' });
            else worker.process.kill('SIGTERM');
            const timer = setTimeout(() => worker.process.kill('SIGKILL'), timeoutMs + 5_000);
            worker.once('exit', () => clearTimeout(timer));
        }));
        await Promise.all(exits);
    }

    /** Sends a signal to every worker (SIGHUP: reread the API keys). */
    signal(name: NodeJS.Signals): void {
        for (const { worker } of this.running.values()) worker.process.kill(name);
    }

    private fork(startup?: { listening(url: string): void; failed(error: Error): void }): void {
        const worker = cluster.fork({ [WORKER_PORT_ENV]: String(this.port) });
        const channel = new IpcChannel({ send: message => worker.send(message), connected: () => worker.isConnected() }, `API worker ${worker.id}`);
        for (const [method, handler] of Object.entries(this.handlers!)) channel.handle(method, handler);
        const entry: RunningWorker = { worker, channel, startedAt: Date.now(), listening: false };
        this.running.set(worker.id, entry);
        worker.on('message', message => {
            if (channel.receive(message) || !isClusterMessage(message)) return;
            if (message.ne === 'listening') {
                entry.listening = true;
                startup?.listening(message.url);
            } else if (message.ne === 'failed') {
                startup?.failed(deserializeError(message.error));
            }
        });
        worker.on('disconnect', () => channel.disconnected());
        worker.on('exit', (code, signal) => {
            channel.disconnected();
            this.running.delete(worker.id);
            if (this.stopping) return;
            if (!entry.listening && startup) {
                startup.failed(new Error(`API worker ${worker.id} exited (${signal ?? `code ${code}`}) before it listened`));
                return;
            }
            const quick = Date.now() - entry.startedAt < QUICK_EXIT_MS;
            this.logger.warn({ worker: worker.id, pid: worker.process.pid, code, signal },
                `API worker ${worker.id} (pid ${worker.process.pid}) exited (${signal ?? `code ${code}`}); starting another${quick ? ` in ${RESTART_PAUSE_MS} ms` : ''}`);
            const restart = () => {
                if (!this.stopping) this.fork();
            };
            if (quick) setTimeout(restart, RESTART_PAUSE_MS);
            else restart();
        });
    }
}

/**
 * The node flags API workers run with: the primary's, with the young generation's semi-space set
 * to `semiSpaceMb` (0 keeps the primary's). The primary may be started with a large one for its
 * indexer; an API worker's scavenges copy the answers' survivors, and with 64 MB they paused answers
 * by 8–13 ms: traces built from the index had a p99 of 11–17 ms, against 7–8 ms with 16 MB.
 */
export function workerExecArgv(primary: string[], semiSpaceMb: number): string[] {
    if (semiSpaceMb === 0) return primary;
    const flags: string[] = [];
    for (let i = 0; i < primary.length; i++) {
        const name = primary[i].split('=')[0].replaceAll('_', '-');
        if (name !== '--max-semi-space-size') flags.push(primary[i]);
        else if (!primary[i].includes('=')) i++;
    }
    return [...flags, `--max-semi-space-size=${semiSpaceMb}`];
}
