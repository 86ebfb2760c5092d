import cluster from 'node:cluster';
import type { Address, Cell } from '@ton/core';
import type { FastifyInstance } from 'fastify';
import { buildServer } from '../api/server.ts';
import { loadApiKeyRing, reloadKeysWhileServing, serverAccessOptions } from '../api/access/service-access.ts';
import { closeGracefully } from '../api/graceful-close.ts';
import type { ApiServices, DevnetControl } from '../api/services.ts';
import { extraCurrencyTable } from '../app.ts';
import { DEVNET_RATES_FILE, loadRatesSource } from '../risk/rates.ts';
import { EmulationService } from '../emulation/emulation-service.ts';
import type { ServiceConfig } from '../config/config.ts';
import type { BackgroundLevel } from '../observability/logging.ts';
import { openStore, type Store } from '../store/store.ts';
import { IpcChannel } from './ipc-channel.ts';
import { serializeError, WORKER_PORT_ENV, type ClusterMessage, type WriterMethod } from './ipc-protocol.ts';
import { WorkerMetrics } from './worker-metrics.ts';
import { applyHeapSettings } from '../heap-settings.ts';

/**
 * PostgreSQL connections of each worker's pool: about 32 over all workers, at least 4 each (the
 * primary keeps its own pool of 10 for the indexer).
 */
export function workerPoolSize(workers: number): number {
    return Math.max(4, Math.ceil(32 / workers));
}

/**
 * One API worker of `serve --workers N`: the HTTP API on the shared port over the index the
 * primary writes (opened without migrations, which the primary ran). Whatever the chain writer
 * owns (the chain's head, messages, the devnet's faucet and manifest, round rewards, a follower's
 * chain reads for emulation) is asked of the primary. Resolves with the exit code once the primary
 * says to stop (or SIGTERM) and the requests in flight have finished.
 */
export async function runApiWorker(config: ServiceConfig): Promise<number> {
    applyHeapSettings(config.heapGrowthPercent, false);
    const send = (message: ClusterMessage) => process.send!(message);
    const channel = new IpcChannel({ send, connected: () => process.connected }, 'the service\'s primary process (the chain writer)');
    const workerId = String(cluster.worker?.id ?? process.pid);
    let server: FastifyInstance | undefined;
    let store: Store | undefined;
    const log = (line: string, level: BackgroundLevel = 'warn') => server?.log[level](line);
    const stopped = new Promise<'shutdown'>(resolve => {
        process.on('message', message => {
            if (channel.receive(message)) return;
            if ((message as ClusterMessage | undefined)?.ne === 'shutdown') resolve('shutdown');
        });
        // The primary stops the workers itself; a terminal's Ctrl-C reaches the whole process group.
        process.on('SIGINT', () => undefined);
        process.on('SIGTERM', () => resolve('shutdown'));
    });
    process.on('disconnect', () => channel.disconnected());
    try {
        store = await openStore({ url: config.databaseUrl, dataDir: config.dataDir, migrate: false, maxConnections: workerPoolSize(config.workers), mappedReads: true });
        // Long enough for any writer call a request makes (a devnet message waits for its block to be indexed); the request's own timeout comes first.
        const timeoutMs = Math.max(config.requestTimeoutMs, config.emulationTimeoutMs + 1000) + 1000;
        const call = <T>(method: WriterMethod, ...args: unknown[]) => channel.request<T>(method, args, timeoutMs);
        const services = remoteServices(config, store, call, log);
        const metrics = new WorkerMetrics(workerId, () => call<string>('metrics.cluster'));
        if (store.poolUse) metrics.watchPool(store.poolUse);
        channel.handle('metrics.local', () => metrics.registry.getMetricsAsJSON());
        const apiKeys = loadApiKeyRing(config);
        const access = serverAccessOptions(config, apiKeys, log);
        server = await buildServer(services, {
            logLevel: config.logLevel, logRequests: config.logRequests, logStream: process.stderr, metrics,
            ...access,
            access: { ...access.access!, inMemoryShares: config.workers },
        });
        reloadKeysWhileServing(server, apiKeys, config.apiKeys, log);
        const url = await server.listen({ host: config.host, port: Number(process.env[WORKER_PORT_ENV] ?? config.port) });
        send({ ne: 'listening', url });
    } catch (error) {
        await server?.close().catch(() => undefined);
        await store?.close().catch(() => undefined);
        if (process.connected) send({ ne: 'failed', error: serializeError(error) });
        return 1;
    }
    await stopped;
    const { forced } = await closeGracefully(server, config.shutdownTimeoutMs);
    if (forced) log(`shutdown: requests still in flight after ${config.shutdownTimeoutMs} ms were cut off`);
    await store.close();
    return 0;
}

type WriterCall = <T>(method: WriterMethod, ...args: unknown[]) => Promise<T>;

/** The services of a single process, with the writer's parts answered by the primary. */
function remoteServices(config: ServiceConfig, store: Store, call: WriterCall, log: (line: string, level?: BackgroundLevel) => void): ApiServices {
    const writes = config.source !== 'none';
    const boc = (message: Cell) => message.toBoc({ idx: false });
    const devnet: DevnetControl | undefined = config.source === 'devnet' ? {
        faucetCap: config.faucetCap,
        manifest: () => call('devnet.manifest'),
        globalConfig: () => call('devnet.globalConfig'),
        sendExternalMessage: message => call('devnet.send', boc(message)),
        faucet: (to: Address, amount: bigint) => call('devnet.faucet', to.toRawString(), amount),
    } : undefined;
    const emulation = new EmulationService(store.db, { maxTransactions: config.emulationMaxTransactions, timeBudgetMs: config.emulationTimeoutMs });
    if (config.source === 'lite') {
        emulation.useChainFallback({
            account: address => call('fallback.account', address),
            libraries: hashes => call('fallback.libraries', hashes),
        });
    }
    const allowPrivateFetch = config.allowPrivateFetch ?? config.source === 'devnet';
    return {
        store,
        chain: {
            source: config.source,
            live: writes,
            head: () => call('chain.head'),
            rate: () => (writes ? call('chain.rate') : null),
        },
        messages: writes ? { sendExternalMessage: message => call('messages.send', boc(message)) } : undefined,
        devnet,
        emulation,
        rates: loadRatesSource(config.rates || (config.source === 'devnet' ? DEVNET_RATES_FILE : undefined), {
            onStaleRefresh: error => log(`rates: refresh failed, serving the previous table: ${error.message}`), allowPrivateFetch,
        }),
        extraCurrencies: extraCurrencyTable(config),
        rewards: writes ? { roundRewards: (selector, options) => call('rewards.round', selector, options) } : undefined,
    };
}

