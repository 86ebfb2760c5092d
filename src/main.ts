import { ConfigError, configHelp, loadConfig } from './config/config.ts';
import { startService } from './app.ts';
import { importBlockFiles } from './chain/files/import-blocks.ts';
import { signedTransfer } from './chain/devnet/signed-transfer.ts';
import { openStore } from './store/store.ts';
import { parseAccountId } from './ton/input.ts';

const USAGE = `Usage: native-explorer <command> [options]

Commands:
  serve                    run the chain source (devnet by default), the indexer and the API
  import-blocks FILE...    index raw block BOC files (block#11ef55aa) into the index
  sign-transfer FROM TO AMOUNT [COMMENT] [--bounce]
                           print a base64 external message: a transfer of AMOUNT nanograms from the
                           seeded devnet wallet FROM (e.g. alice-v3r2) to address TO, signed with the
                           wallet's key from <data dir>/devnet.json, for POST /v2/blockchain/message
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
        case 'sign-transfer': {
            const bounce = rest.includes('--bounce');
            const [from, to, amount, text] = rest.filter(a => a !== '--bounce');
            if (!from || !to || !amount || !/^\d+$/.test(amount)) throw new ConfigError('usage: sign-transfer FROM TO AMOUNT_NANOGRAMS [COMMENT] [--bounce]');
            const store = await openStore({ url: config.databaseUrl, dataDir: config.dataDir });
            try {
                const message = await signedTransfer(config.dataDir, store, { from, to: parseAccountId(to), amount: BigInt(amount), comment: text, bounce });
                process.stdout.write(`${message.toBoc().toString('base64')}\n`);
            } finally {
                await store.close();
            }
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
