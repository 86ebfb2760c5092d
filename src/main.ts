import { ConfigError, configHelp, loadConfig } from './config/config.ts';
import { startService } from './app.ts';
import { importBlockFiles } from './chain/files/import-blocks.ts';

const USAGE = `Usage: native-explorer <command> [options]

Commands:
  serve                    run the chain source (devnet by default), the indexer and the API
  import-blocks FILE...    index raw block BOC files (block#11ef55aa) into the index
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
        case 'serve': {
            const service = await startService(config, line => process.stderr.write(`${line}\n`));
            const base = service.url.replace(/\/$/, '');
            const lines = [
                `native-explorer: serving ${base}/v2 (OpenAPI ${base}/v2/openapi.json, docs ${base}/docs)`,
                `source: ${config.source}; index: ${config.databaseUrl || `${config.dataDir}/index.sqlite`}`,
            ];
            if (service.devnet) {
                lines.push(`devnet: a block every ${config.blockIntervalMs} ms; manifest ${config.dataDir}/devnet.json; seeded wallets:`);
                for (const a of service.devnet.manifest().accounts) lines.push(`  ${a.name.padEnd(12)} ${a.kind.padEnd(12)} ${a.address}  ${a.friendly_address}`);
            }
            process.stdout.write(`${lines.join('\n')}\n`);
            await new Promise<void>(resolve => {
                const shutdown = () => resolve();
                process.once('SIGINT', shutdown);
                process.once('SIGTERM', shutdown);
            });
            await service.stop();
            return 0;
        }
        case 'import-blocks': {
            if (rest.length === 0) throw new ConfigError('import-blocks needs at least one block file');
            const summary = await importBlockFiles(config, rest, line => process.stdout.write(`${line}\n`));
            process.stdout.write(`indexed ${summary.inserted} new block(s) with ${summary.transactions} transaction(s); ${summary.skipped} already in the index\n`);
            return 0;
        }
        default:
            process.stderr.write(`unknown command '${command}'\n\n${USAGE}`);
            return 2;
    }
}

main(process.argv.slice(2)).then(
    code => process.exit(code),
    error => {
        process.stderr.write(`${error instanceof ConfigError ? '' : 'error: '}${(error as Error).message}\n`);
        process.exit(error instanceof ConfigError ? 2 : 1);
    },
);
