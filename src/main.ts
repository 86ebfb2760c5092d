import { ConfigError, configHelp, loadConfig } from './config/config.ts';

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
            return (await import('./commands/serve.ts')).serve(config);
        case 'import-blocks': {
            if (rest.length === 0) throw new ConfigError('import-blocks needs at least one block file');
            const { importBlockFiles } = await import('./commands/import-blocks.ts');
            const summary = await importBlockFiles(config, rest, line => process.stdout.write(`${line}\n`));
            process.stdout.write(`indexed ${summary.inserted} new block(s) with ${summary.transactions} transaction(s); ${summary.skipped} already in the index\n`);
            return 0;
        }
        case 'export-blocks': {
            if (rest.length !== 1) throw new ConfigError('usage: export-blocks OUT_DIR [--data-dir DIR]');
            const { exportDevnetBlocks } = await import('./commands/export-blocks.ts');
            const { blocks } = exportDevnetBlocks(config.dataDir, rest[0]);
            process.stdout.write(`wrote ${blocks} block file(s) to ${rest[0]}\n`);
            return 0;
        }
        case 'sign-transfer': {
            const bounce = rest.includes('--bounce');
            const [from, to, amount, text] = rest.filter(a => a !== '--bounce');
            if (!from || !to || !amount || !/^\d+$/.test(amount)) throw new ConfigError('usage: sign-transfer FROM TO AMOUNT_NANOGRAMS [COMMENT] [--bounce] [--api URL]');
            const { signTransferThroughApi } = await import('./commands/sign-transfer.ts');
            const message = await signTransferThroughApi(config.apiUrl, { from, to, amount: BigInt(amount), comment: text, bounce });
            process.stdout.write(`${message.toBoc().toString('base64')}\n`);
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
        const known = error instanceof ConfigError || (error as Error).name === 'WriterLockHeldError' || (error as Error).name === 'DevnetApiError';
        process.stderr.write(`${known ? '' : 'error: '}${(error as Error).message}\n`);
        process.exit(error instanceof ConfigError ? 2 : 1);
    },
);
