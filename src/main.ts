import { ConfigError, configHelp, loadConfig, type ServiceConfig } from './config/config.ts';

// Every command loads only what it needs (`help` loads nothing else), so the CLI starts fast.

const USAGE = `Usage: native-explorer <command> [options]

Commands:
  serve                    run the chain source (devnet by default), the indexer and the API
  import-blocks FILE...    index raw block BOC files (block#11ef55aa) into the index
  export-blocks OUT_DIR    write the devnet's blocks (of --data-dir) as block files, with the account
                           states beside each that import-blocks needs to give the devnet's own index
  sign-transfer FROM TO AMOUNT [COMMENT] [--bounce]
                           print a base64 external message: a transfer of AMOUNT nanograms from the
                           seeded devnet wallet FROM (e.g. alice-v3r2) to address TO, signed with the
                           wallet's key and its current seqno, both read from the running service
                           (--api), for POST /v2/blockchain/message
  help                     show this text

Options (flag / environment variable):
${configHelp()}
`;

async function main(argv: string[]): Promise<number> {
    const [command = 'serve', ...args] = argv;
    if (command === 'help' || command === '--help' || command === '-h') {
        process.stdout.write(USAGE);
        return 0;
    }
    const { config, rest } = loadConfig(args);
    switch (command) {
        case 'serve':
            return serve(config);
        case 'import-blocks': {
            if (rest.length === 0) throw new ConfigError('import-blocks needs at least one block file');
            const { importBlockFiles } = await import('./chain/files/import-blocks.ts');
            const summary = await importBlockFiles(config, rest, line => process.stdout.write(`${line}\n`));
            process.stdout.write(`indexed ${summary.inserted} new block(s) with ${summary.transactions} transaction(s); ${summary.skipped} already in the index\n`);
            return 0;
        }
        case 'export-blocks': {
            if (rest.length !== 1) throw new ConfigError('usage: export-blocks OUT_DIR [--data-dir DIR]');
            const { exportDevnetBlocks } = await import('./chain/devnet/export-blocks.ts');
            const { blocks } = exportDevnetBlocks(config.dataDir, rest[0]);
            process.stdout.write(`wrote ${blocks} block file(s) to ${rest[0]}\n`);
            return 0;
        }
        case 'sign-transfer': {
            const bounce = rest.includes('--bounce');
            const [from, to, amount, text] = rest.filter(a => a !== '--bounce');
            if (!from || !to || !amount || !/^\d+$/.test(amount)) throw new ConfigError('usage: sign-transfer FROM TO AMOUNT_NANOGRAMS [COMMENT] [--bounce] [--api URL]');
            const { signTransferThroughApi } = await import('./chain/devnet/signed-transfer.ts');
            const message = await signTransferThroughApi(config.apiUrl, { from, to, amount: BigInt(amount), comment: text, bounce });
            process.stdout.write(`${message.toBoc().toString('base64')}\n`);
            return 0;
        }
        default:
            process.stderr.write(`unknown command '${command}'\n\n${USAGE}`);
            return 2;
    }
}

async function serve(config: ServiceConfig): Promise<number> {
    const out = (line: string) => process.stdout.write(`${line}\n`);
    const started = Date.now();
    // With --workers N > 1 this process is the primary (chain writer, no HTTP), or one of its API workers (src/cluster).
    if (config.workers > 1 && (await import('node:cluster')).default.isWorker) return (await import('./cluster/api-worker.ts')).runApiWorker(config);
    // Log lines are JSON on stderr; stdout keeps the lines for people (and the scripts that wait for "serving …").
    const events = { logStream: process.stderr, progress: out };
    const service = config.workers > 1
        ? await (await import('./cluster/primary.ts')).startCluster(config, events)
        : await (await import('./app.ts')).startService(config, events);
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

main(process.argv.slice(2)).then(
    code => process.exit(code),
    error => {
        const known = error instanceof ConfigError || (error as Error).name === 'WriterLockHeldError' || (error as Error).name === 'DevnetApiError';
        process.stderr.write(`${known ? '' : 'error: '}${(error as Error).message}\n`);
        process.exit(error instanceof ConfigError ? 2 : 1);
    },
);
