/**
 * Runs test files, each in a process of its own (`node --import tsx --test FILE`), several at a time,
 * and prints each file's output whole once it ends, then the files that failed and the slowest.
 *
 *   npx tsx scripts/run-tests.ts [--jobs N] [--quick] [FILE…]
 *
 *   --jobs N   files at a time (default: the number of cores, at least 2)
 *   --quick    the quick tier: units of ton/, actions/, risk/, the presenters, JSON writing, store
 *              reads (QUICK below) instead of every file under test/
 *   FILE…      these files instead
 *
 * Every test listens on a port of its own choosing (port 0) and makes databases of its own, so files
 * may share the machine. A few cannot: they hold a devnet to wall-clock deadlines that a loaded machine
 * misses (a validation round's elections, SIGKILLs timed against the load). Those run one at a time
 * after the others, with only short unit files beside them (ALONE). The longest files start first, so
 * that the last to end is a short one.
 *
 * It builds the package first (`npm run build`): tests that start the service as a process run the
 * built command, as users do (test/helpers/built-command.ts).
 */
import { execFileSync, spawn } from 'node:child_process';
import { availableParallelism } from 'node:os';
import { readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

/** Files that run after the rest, one at a time, with only the quick tier's units beside them. */
const ALONE = [
    'test/api/round-rewards-devnet-round.test.ts',
    'test/chaos/kill-loop.test.ts',
];

/** Files that take most of a minute or more, in that order: started first. */
const LONG = [
    'test/chain/devnet-elections.test.ts',
    'test/chain/lite/follower-crash.test.ts',
    'test/cluster/workers.test.ts',
    'test/app/cli.test.ts',
    'test/api/cache-freshness.test.ts',
    'test/app/graceful-shutdown.test.ts',
    'test/indexer/crash-safety.test.ts',
    'test/api/emulation.test.ts',
    'test/fuzz/api-fuzz.test.ts',
    'test/api/extra-currency.test.ts',
    'test/chain/lite/follower.test.ts',
];

/** The quick tier: everything under these folders, and these files. */
const QUICK = [
    'test/ton', 'test/actions', 'test/risk', 'test/json', 'test/present',
    'test/store/read.test.ts', 'test/rewards/round-rewards-compute.test.ts',
    'test/api/answers', 'test/api/thin-routes.test.ts', 'test/api/int64.test.ts',
    'test/api/openapi-document.test.ts', 'test/api/multisig-order.test.ts', 'test/api/round-rewards.test.ts',
];

function testFiles(path: string): string[] {
    const full = join(ROOT, path);
    if (!statSync(full, { throwIfNoEntry: false })) return [];
    if (!statSync(full).isDirectory()) return [path];
    return readdirSync(full).sort().flatMap(name => {
        const child = `${path}/${name}`;
        return statSync(join(ROOT, child)).isDirectory() ? testFiles(child) : name.endsWith('.test.ts') ? [child] : [];
    });
}

interface Options { jobs: number; files: string[] }

function parseArgs(argv: string[]): Options {
    let jobs = Math.max(2, availableParallelism());
    let quick = false;
    const named: string[] = [];
    for (let i = 0; i < argv.length; i++) {
        const arg = argv[i];
        if (arg === '--jobs') {
            jobs = Number(argv[++i]);
            if (!Number.isInteger(jobs) || jobs < 1) throw new Error('--jobs takes a whole number of at least 1');
        } else if (arg === '--quick') quick = true;
        else if (arg.startsWith('--')) throw new Error(`unknown option ${arg}; options: --jobs N, --quick, FILE…`);
        else named.push(relative(ROOT, join(process.cwd(), arg)));
    }
    const files = named.length > 0 ? named.flatMap(testFiles) : (quick ? QUICK : ['test']).flatMap(testFiles);
    return { jobs, files: [...new Set(files)] };
}

interface Outcome { file: string; code: number | null; seconds: number; output: string }

function runFile(file: string): Promise<Outcome> {
    const started = performance.now();
    return new Promise(resolve => {
        const child = spawn(process.execPath, ['--import', 'tsx', '--test', '--test-reporter=spec', file], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
        let output = '';
        child.stdout.setEncoding('utf8').on('data', (chunk: string) => { output += chunk; });
        child.stderr.setEncoding('utf8').on('data', (chunk: string) => { output += chunk; });
        child.on('close', code => resolve({ file, code, seconds: (performance.now() - started) / 1000, output }));
    });
}

async function runPool(files: string[], jobs: number, done: (outcome: Outcome) => void): Promise<void> {
    const queue = [...files];
    const worker = async () => {
        for (let file = queue.shift(); file !== undefined; file = queue.shift()) done(await runFile(file));
    };
    await Promise.all(Array.from({ length: Math.min(jobs, files.length) }, worker));
}

/** LONG files first, in their order; then the rest as listed. */
function rank(file: string): number {
    const at = LONG.indexOf(file);
    return at < 0 ? LONG.length : at;
}

async function main(): Promise<void> {
    const { jobs, files } = parseArgs(process.argv.slice(2));
    execFileSync('npm', ['run', '--silent', 'build'], { cwd: ROOT, stdio: 'inherit' });
    const alone = files.filter(file => ALONE.includes(file));
    const quick = new Set(QUICK.flatMap(testFiles));
    const units = files.filter(file => quick.has(file) && !ALONE.includes(file));
    const rest = files.filter(file => !ALONE.includes(file) && !quick.has(file));
    rest.sort((a, b) => rank(a) - rank(b));
    const started = performance.now();
    const outcomes: Outcome[] = [];
    const done = (outcome: Outcome) => {
        outcomes.push(outcome);
        const mark = outcome.code === 0 ? 'ok' : `FAILED (exit ${outcome.code})`;
        process.stdout.write(`\n=== ${outcome.file}: ${mark} in ${outcome.seconds.toFixed(1)} s\n${outcome.output}`);
    };
    process.stdout.write(`${files.length} test files, ${jobs} at a time (${alone.length} of them alone, after the rest)\n`);
    if (alone.length === 0) await runPool([...rest, ...units], jobs, done);
    else {
        await runPool(rest, jobs, done);
        // The units beside the lone files, in the other slots.
        await Promise.all([runPool(alone, 1, done), runPool(units, Math.max(1, jobs - 1), done)]);
    }

    const failed = outcomes.filter(outcome => outcome.code !== 0);
    const slowest = [...outcomes].sort((a, b) => b.seconds - a.seconds).slice(0, 10);
    process.stdout.write(`\n${outcomes.length} files in ${((performance.now() - started) / 1000).toFixed(0)} s; slowest:\n`);
    for (const outcome of slowest) process.stdout.write(`  ${outcome.seconds.toFixed(1).padStart(7)} s  ${outcome.file}\n`);
    if (failed.length > 0) {
        process.stdout.write(`\n${failed.length} failed:\n${failed.map(outcome => `  ${outcome.file}\n`).join('')}`);
        process.exitCode = 1;
    } else process.stdout.write('\nall passed\n');
}

await main();
