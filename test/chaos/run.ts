/**
 * `npm run chaos -- [--kills N] [--db sqlite|postgres|both] [--seed S] [--pg URL]`: the chaos kill
 * loop (test/chaos/kill-loop.ts), by default 100 SIGKILLs on SQLite and 100 on PostgreSQL (a fresh
 * database on the server of --pg / TEST_PG_URL / postgres://postgres@127.0.0.1:5432/test, when it
 * answers), then the figures. Exits 1 if a check fails; the seed printed first replays a run.
 */
import pg from 'pg';
import { runChaos, type ChaosBackend, type ChaosFigures } from './kill-loop.ts';

const DEFAULT_PG = 'postgres://postgres@127.0.0.1:5432/test';

function parseArgs(argv: string[]): { kills: number; db: 'sqlite' | 'postgres' | 'both'; seed: number; pg: string; explicitDb: boolean } {
    const options = { kills: 100, db: 'both' as 'sqlite' | 'postgres' | 'both', seed: Math.floor(Math.random() * 2 ** 31), pg: process.env.TEST_PG_URL || DEFAULT_PG, explicitDb: false };
    for (let i = 0; i < argv.length; i++) {
        const value = argv[i + 1];
        switch (argv[i]) {
            case '--kills': options.kills = Number(value); i++; break;
            case '--seed': options.seed = Number(value); i++; break;
            case '--pg': options.pg = value; i++; break;
            case '--db':
                if (value !== 'sqlite' && value !== 'postgres' && value !== 'both') throw new Error('--db takes sqlite, postgres or both');
                options.db = value;
                options.explicitDb = true;
                i++;
                break;
            default: throw new Error(`unknown option ${argv[i]}; options: --kills N, --db sqlite|postgres|both, --seed S, --pg URL`);
        }
    }
    if (!Number.isInteger(options.kills) || options.kills < 0) throw new Error('--kills takes a whole number');
    if (!Number.isInteger(options.seed)) throw new Error('--seed takes a whole number');
    return options;
}

async function postgresAnswers(url: string): Promise<string | null> {
    const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 3000 });
    try {
        await client.connect();
        await client.query('SELECT 1');
        return null;
    } catch (error) {
        return (error as Error).message;
    } finally {
        await client.end().catch(() => undefined);
    }
}

function report(f: ChaosFigures): string {
    const inIndexWrite = f.kills.filter(k => k.inIndexWrite).length;
    const inChainWrite = f.kills.filter(k => k.inChainWrite).length;
    const withBacklog = f.kills.filter(k => k.backlog > 0).length;
    const midIngest = f.kills.filter(k => k.indexedInRun > 0 || k.inIndexWrite).length;
    return [
        `chaos ${f.backend} (seed ${f.seed}): ${f.kills.length} SIGKILLs, ${f.survived} restarts survived, in ${f.seconds.toFixed(0)} s`,
        `  kills: ${inIndexWrite} inside an open index write transaction, ${inChainWrite} inside an open chain log write transaction, ${withBacklog} with committed chain blocks not indexed yet, ${midIngest} in runs that indexed blocks`,
        `  load: ${f.load.accepted} transfers accepted, ${f.load.rejected} rejected, ${f.load.cutOff} cut off by kills`,
        `  checked: ${f.summary.blocksPerWorkchain} masterchain + ${f.summary.blocksPerWorkchain} basechain blocks (chain continuous from the zerostates), ${f.summary.transactions} transactions, ${f.summary.messages} messages, ${f.summary.traces} traces (${f.summary.multiTxTraces} with several transactions), ${f.summary.accounts} accounts`,
        `  equal to a reference index built without crashes: ${f.reference.tables} tables, ${f.reference.rows} rows (jetton, NFT, wallet, multisig and staking rows included)`,
        `  lost blocks ${f.lostBlocks}, duplicated blocks ${f.duplicatedBlocks}, half-written blocks ${f.halfWrittenBlocks}`,
    ].join('\n');
}

async function main(): Promise<number> {
    const options = parseArgs(process.argv.slice(2));
    const backends: ChaosBackend[] = options.db === 'both' ? ['sqlite', 'postgres'] : [options.db];
    if (backends.includes('postgres')) {
        const why = await postgresAnswers(options.pg);
        if (why) {
            if (options.explicitDb) throw new Error(`PostgreSQL at ${options.pg} does not answer: ${why}`);
            process.stdout.write(`PostgreSQL at ${options.pg} does not answer (${why}): SQLite only\n`);
            backends.splice(backends.indexOf('postgres'), 1);
        }
    }
    const results: ChaosFigures[] = [];
    for (const backend of backends) {
        const figures = await runChaos({ backend, kills: options.kills, seed: options.seed, postgresServerUrl: options.pg, log: line => process.stdout.write(`${line}\n`) });
        process.stdout.write(`${report(figures)}\n`);
        results.push(figures);
    }
    if (results.length > 1) process.stdout.write(`\n${results.map(report).join('\n')}\n`);
    return 0;
}

main().then(code => process.exit(code), error => {
    process.stderr.write(`chaos: ${(error as Error).stack ?? error}\n`);
    process.exit(1);
});
