import type { ServiceConfig } from '../config/config.ts';

/** `serve`: the chain source, the indexer and the API (or, with --workers N, their cluster) until SIGINT or SIGTERM. */
export async function serve(config: ServiceConfig): Promise<number> {
    const out = (line: string) => process.stdout.write(`${line}\n`);
    const started = Date.now();
    // With --workers N > 1 this process is the primary (chain writer, no HTTP), or one of its API workers (src/cluster).
    if (config.workers > 1 && (await import('node:cluster')).default.isWorker) return (await import('../cluster/api-worker.ts')).runApiWorker(config);
    // Log lines are JSON on stderr; stdout keeps the lines for people (and the scripts that wait for "serving …").
    const events = { logStream: process.stderr, progress: out };
    const service = config.workers > 1
        ? await (await import('../cluster/primary.ts')).startCluster(config, events)
        : await (await import('../app.ts')).startService(config, events);
    const base = service.url.replace(/\/$/, '');
    out(`native-explorer: serving ${base}/v2 (OpenAPI ${base}/v2/openapi.json, docs ${base}/docs)`);
    out(`source: ${config.source}; index: ${config.databaseUrl || `${config.dataDir}/index.sqlite`}`);
    if (config.source === 'lite') out(`following the liteservers of ${config.liteservers}; progress every 10 s`);
    if (service.devnet) {
        out(`devnet: a block every ${config.blockIntervalMs} ms; manifest ${config.dataDir}/devnet.json; seeded wallets:`);
        const accounts = service.devnet.manifest().accounts;
        const nameWidth = Math.max(...accounts.map(a => a.name.length));
        const kindWidth = Math.max(...accounts.map(a => a.kind.length));
        for (const a of accounts) out(`  ${a.name.padEnd(nameWidth)}  ${a.kind.padEnd(kindWidth)}  ${a.address}  ${a.friendly_address}`);
        const lite = service.liteserver;
        if (lite) out(`liteserver: ${lite.host}:${lite.port}, key ${lite.publicKey.toString('base64')}${lite.globalConfig ? `; global config ${config.dataDir}/devnet-global.config.json (also ${base}/v2/devnet/global-config)` : ''}`);
        void service.ready.then(async () => {
            const head = await service.devnet!.head();
            out(`devnet ready: seed activity indexed up to masterchain block ${head?.seqno ?? 0} (${((Date.now() - started) / 1000).toFixed(1)} s after start)`);
        });
    }
    const signal = await new Promise<NodeJS.Signals>(resolve => {
        const received = (name: NodeJS.Signals) => {
            process.off('SIGINT', received);
            process.off('SIGTERM', received);
            resolve(name);
        };
        process.on('SIGINT', received);
        process.on('SIGTERM', received);
    });
    // A second signal ends the process at once: no handler is left, so Node's default applies.
    const logger = 'logger' in service ? service.logger : service.server.log;
    logger.info({ signal, timeoutMs: config.shutdownTimeoutMs }, 'shutting down: finishing requests in flight, then stopping the indexer after its current block');
    await service.stop();
    const last = service.indexer?.lastIndexed?.block.id;
    out(`native-explorer: stopped${last ? `; index at ${last.workchain === -1 ? 'masterchain' : 'basechain'} block ${last.seqno}` : ''}`);
    return 0;
}
