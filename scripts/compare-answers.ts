/**
 * Proves that a change left the API's read answers as they were: the base commit is built beside this
 * checkout, both versions index the same blocks, each serves its own index, and every request of a
 * broad list derived from the indexed data is sent to both and must be answered byte for byte alike.
 *
 *   npx tsx scripts/compare-answers.ts --base <git ref> [--head <dir or git ref>] [--pg [URL]]
 *       [--only mainnet|devnet] [--devnet-seconds N] [--check-export] [--changed REGEX] [--show N] [--keep]
 *
 *   --base REF         the version answers must not have moved from (any commit-ish)
 *   --head DIR|REF     the version under test: a directory holding a checkout, or a ref (default: the
 *                      working tree this script is in, uncommitted changes included)
 *   --pg [URL]         index into PostgreSQL instead of SQLite: two temporary databases a dataset on the
 *                      server of URL (default postgres://postgres@127.0.0.1:5432), dropped afterwards
 *   --only NAME        mainnet, or devnet (the devnet's blocks imported, and its own index)
 *   --devnet-seconds N how long the devnet runs with transfers after its seed (default 30)
 *   --check-export     also compare the devnet's own index (as `serve` wrote it) with the head's import of
 *                      the exported blocks, both served by the head: whether export/import reproduces it
 *                      (reported apart; its differences do not change the exit status)
 *   --changed REGEX    paths (e.g. '^/(v2/openapi|docs/(json|yaml))') whose answers the change meant to
 *                      change: compared and their differences counted apart ("changed as meant"), not
 *                      failing the run
 *   --show N           print the first N differences in full (default 5)
 *   --keep             keep the temporary directory (trees, block files, indexes, logs) and databases
 *
 * What it does:
 * 1. Trees. A ref is extracted with `git archive` into a temporary directory (the repository is only
 *    read: no worktree is registered). It runs on this checkout's node_modules, linked, when its
 *    package-lock.json is this checkout's, else on its own `npm ci`. Every command runs from the
 *    sources: `node --import tsx src/main.ts …` in the tree's own directory.
 * 2. Inputs, the same for both versions.
 *    - mainnet: the real mainnet blocks in ../shared/fixtures/mainnet/blocks beside the repository, the
 *      ones the project's tests read (block-1, -2, -4, -5, -6; block-3 and block-7 are kept there for an
 *      independent check and are not read), and the real signed wallet messages of risk/ for emulation.
 *    - devnet: the head's devnet (`serve` on a temporary data dir and index, a free port, no liteserver, one
 *      process, 100 ms blocks, 40 s validation rounds) runs its seed (jettons, NFTs, DNS, multisigs v1 and
 *      v2 with orders, staking pools, elections, an extra currency), then for --devnet-seconds gets faucet
 *      transfers to seeded wallets and to new basechain and masterchain addresses, and transfers signed
 *      with `sign-transfer` and sent through POST /v2/blockchain/message (comments, bounces). Before it
 *      stops, a few more transfers are signed and kept unsent for emulation, and its manifest is saved.
 *      `export-blocks` writes its blocks.
 *    Each version then indexes them with its own `import-blocks` into an index of its own.
 *    - devnet-served: a copy, for each version, of the index the head's devnet wrote as it ran. An
 *      import of the exported blocks is not that index: import-blocks runs no get-methods, so it has no
 *      wallets by public key, no jetton wallets (hence no jetton history, no jettons in multisig
 *      orders' risk) and no interfaces for library-coded contracts (--check-export shows each such
 *      answer); the copy brings those answers into the comparison. The base's copy is first taken down
 *      (the head's `down` steps) to the last migration the base knows, so each reads its own schema.
 * 3. Each version serves its index API-only (`serve --source none --workers 1`) on a free loopback port,
 *    with the devnet's extra currency table and exchange rates of the head's tree on the devnet
 *    dataset. Both processes (and the imports) run with Date.now pinned to one instant (a preload
 *    module written to the temporary directory): emulation takes "now" from the clock.
 *    Before the first request, off-chain jetton metadata the API process fetches by itself must be
 *    settled in both indexes (no master `pending`), so that no answer races it.
 * 4. Requests, derived from the indexed data (the base's answers, and public keys and multisig orders
 *    read from the base's index):
 *    - GET /v2/blockchain/blocks/{id}/transactions for every block (and the blocks the reduced blocks
 *      name as parents or shard blocks), a shard in capitals, HEAD requests, unknown and malformed ids;
 *    - GET /v2/blockchain/reduced/blocks: windows covering every indexed second, one-second windows,
 *      empty windows, and bad ranges;
 *    - for every account that has a transaction or sends or receives a message: its transactions with
 *      the default limit, limit=1, pages of 4 followed through before_lt (up to 6 pages); its jetton
 *      history with limit=100 and pages of 2 followed through next_from (up to 6 pages); GET
 *      /v2/multisig/order/{id}; for every seventh account the same first pages by user-friendly ids
 *      (bounceable, non-bounceable, standard base64) and by the raw id in capitals; malformed ids and
 *      limits, unknown accounts;
 *    - GET /v2/traces/{id} by every transaction hash, every message hash, base64url hashes (a sample),
 *      unknown and malformed ids;
 *    - POST /v2/pubkeys/wallets/_bulk for every key alone (the devnet manifest's, and the wallets'
 *      keys in the index), all of them in one request (by hundreds), duplicates, unknown keys, and bad bodies;
 *    - GET /v2/multisig/order/{id} for every order in the index and in the manifest;
 *    - POST /v2/wallet/emulate and /v2/accounts/{id}/events/emulate with the kept devnet transfers and
 *      the mainnet wallet messages (with ?currency, Accept-Language: ru, balance overrides,
 *      address_override, ignore_signature_check, and refusals);
 *    - GET /v2/status, /v2/openapi.json, /v2/openapi.yml, /docs and its static files, /, unknown routes
 *      (404), wrong methods (405), a CORS preflight, unsupported content types (415), and the
 *      endpoints an API-only process refuses (round rewards 503 and 400, devnet 404, sending 503).
 * 5. Each request goes to both servers with the same X-Request-Id; the status, every response header
 *    but those listed below, and the body bytes must be equal. Prints requests per endpoint, the
 *    differences and the first of them with a short diff; exits 0 when every answer was the same,
 *    1 on any difference, 2 when it could not compare (bad usage, an install, import or start that failed).
 *
 * Not compared, because they depend on time or on the process rather than on the index:
 * - GET /metrics (process counters, timings, memory);
 * - the headers `date`, `connection`, `keep-alive`, and the rate limit's `x-ratelimit-remaining` and
 *   `x-ratelimit-reset` (they follow the limit's one-second windows; `x-ratelimit-limit` is compared);
 * - GET /v2/status under a live chain source (chain_seqno, lag_blocks, lag_seconds and the ingest rates
 *   move with time): API-only processes answer it without those fields, and that answer is compared;
 * - the successful answers of round rewards, the devnet endpoints (manifest, global config, metadata,
 *   faucet) and sending messages: they need a live chain, which an API-only process does not have (their
 *   refusals are compared).
 * What the inputs cannot exercise: on the mainnet blocks, jetton history, wallets by public key and
 * multisig orders answer empty lists and 404s (the imports run no get-methods, and the blocks hold no
 * orders), and emulating the fixture messages is refused alike by both (their wallet is not in the
 * blocks). The devnet datasets exercise them, devnet-served being the one whose index holds wallets and
 * jetton wallets.
 */
import { spawn, execFileSync, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import { createWriteStream, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Address, Cell, loadMessage } from '@ton/core';
import Database from 'better-sqlite3';
import pg from 'pg';

const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const MAINNET_DIR = resolve(REPO_ROOT, '..', 'shared', 'fixtures', 'mainnet');
/** The mainnet blocks the project's tests read (test/helpers/fixtures.ts); the others there are kept for an independent check. */
const MAINNET_BLOCKS = ['block-1', 'block-2', 'block-4', 'block-5', 'block-6'];
const DEFAULT_PG_SERVER = 'postgres://postgres@127.0.0.1:5432';
/** Headers that follow the clock or the connection, not the index. */
const UNCOMPARED_HEADERS = new Set(['date', 'connection', 'keep-alive', 'x-ratelimit-remaining', 'x-ratelimit-reset']);
/** Headers of the documentation's static files that follow the files' modification times (each tree extracted anew). */
const FILE_TIME_HEADERS = new Set(['etag', 'last-modified']);
const CONCURRENCY = 8;
/** --changed: paths whose answers the change meant to change. */
let changedPaths: RegExp | null = null;
const PAGES_FOLLOWED = 6;

// ---------------------------------------------------------------------------------------------------
// Options

interface Options {
    base: string;
    head: string | null;
    pg: string | null;
    only: 'mainnet' | 'devnet' | null;
    devnetSeconds: number;
    checkExport: boolean;
    show: number;
    keep: boolean;
    changed: RegExp | null;
}

class UsageError extends Error {}

function parseOptions(argv: string[]): Options {
    const options: Options = { base: '', head: null, pg: null, only: null, devnetSeconds: 30, checkExport: false, show: 5, keep: false, changed: null };
    for (let i = 0; i < argv.length; i++) {
        const arg = argv[i];
        const value = () => {
            const next = argv[++i];
            if (next === undefined || next.startsWith('--')) throw new UsageError(`${arg} needs a value`);
            return next;
        };
        switch (arg) {
            case '--base': options.base = value(); break;
            case '--head': options.head = value(); break;
            case '--pg':
                options.pg = argv[i + 1] !== undefined && !argv[i + 1].startsWith('--') ? argv[++i] : DEFAULT_PG_SERVER;
                break;
            case '--only': {
                const name = value();
                if (name !== 'mainnet' && name !== 'devnet') throw new UsageError('--only takes mainnet or devnet');
                options.only = name;
                break;
            }
            case '--devnet-seconds': options.devnetSeconds = Number(value()); break;
            case '--check-export': options.checkExport = true; break;
            case '--show': options.show = Number(value()); break;
            case '--changed': options.changed = new RegExp(value()); break;
            case '--keep': options.keep = true; break;
            case '--help': case '-h':
                throw new UsageError('');
            default: throw new UsageError(`unknown option ${arg}`);
        }
    }
    if (!options.base) throw new UsageError('--base <git ref> is required');
    if (!Number.isInteger(options.devnetSeconds) || options.devnetSeconds < 0) throw new UsageError('--devnet-seconds takes a whole number of seconds');
    if (!Number.isInteger(options.show) || options.show < 0) throw new UsageError('--show takes a whole number');
    return options;
}

const USAGE = 'usage: npx tsx scripts/compare-answers.ts --base <git ref> [--head <dir or git ref>] [--pg [URL]] [--only mainnet|devnet] '
    + '[--devnet-seconds N] [--check-export] [--changed REGEX] [--show N] [--keep]';

// ---------------------------------------------------------------------------------------------------
// Output, temporary files, cleanup

const started = Date.now();
const say = (line: string) => process.stdout.write(`[${((Date.now() - started) / 1000).toFixed(1).padStart(6)} s] ${line}\n`);

const cleanups: Array<() => Promise<void> | void> = [];
const children = new Set<ChildProcess>();

async function cleanUp(): Promise<void> {
    for (const child of children) child.kill('SIGKILL');
    while (cleanups.length > 0) {
        try {
            await cleanups.pop()!();
        } catch (error) {
            process.stderr.write(`cleanup: ${(error as Error).message}\n`);
        }
    }
}

let interrupted = false;
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.on(signal, () => {
        if (interrupted) process.exit(130);
        interrupted = true;
        process.stderr.write(`\n${signal}: stopping the processes and removing the temporary files\n`);
        void cleanUp().finally(() => process.exit(130));
    });
}

// ---------------------------------------------------------------------------------------------------
// Trees: the two versions

interface Tree {
    label: 'base' | 'head';
    dir: string;
    describe: string;
    /** The options its CLI knows (from its `help`). */
    flags: Set<string>;
}

function git(args: string[], cwd = REPO_ROOT): string {
    return execFileSync('git', args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }).trim();
}

async function prepareTree(label: 'base' | 'head', spec: string | null, tmp: string): Promise<Tree> {
    let dir: string;
    let describe: string;
    if (spec === null || existsSync(spec)) {
        dir = resolve(spec ?? REPO_ROOT);
        if (!existsSync(join(dir, 'src', 'main.ts'))) throw new UsageError(`${dir} holds no checkout of this project (no src/main.ts)`);
        let commit = 'no git';
        try {
            commit = git(['rev-parse', '--short', 'HEAD'], dir);
            if (git(['status', '--porcelain', '--untracked-files=no'], dir) !== '') commit += ' with uncommitted changes';
        } catch { /* not a git checkout: described by its directory */ }
        describe = `${dir} (${commit})`;
    } else {
        let commit: string;
        try {
            commit = git(['rev-parse', '--verify', '--quiet', `${spec}^{commit}`]);
        } catch {
            throw new UsageError(`'${spec}' is neither a directory nor a commit of ${REPO_ROOT}`);
        }
        dir = join(tmp, label);
        mkdirSync(dir);
        const tar = join(tmp, `${label}.tar`);
        git(['archive', '--format=tar', '-o', tar, commit]);
        execFileSync('tar', ['-xf', tar, '-C', dir]);
        rmSync(tar);
        describe = `${spec} = ${commit.slice(0, 12)} (${git(['log', '-1', '--format=%s', commit]).slice(0, 72)})`;
    }
    if (!existsSync(join(dir, 'node_modules'))) await provideNodeModules(label, dir, tmp);
    const help = await runNode({ label, dir, describe, flags: new Set() }, ['help'], { log: join(tmp, 'logs', `${label}-help.log`) });
    return { label, dir, describe, flags: new Set(help.match(/--[a-z][a-z-]*/g) ?? []) };
}

async function provideNodeModules(label: string, dir: string, tmp: string): Promise<void> {
    const ours = join(REPO_ROOT, 'node_modules');
    const sameLock = existsSync(ours) && readFileSync(join(dir, 'package-lock.json')).equals(readFileSync(join(REPO_ROOT, 'package-lock.json')));
    if (sameLock) {
        symlinkSync(realpathSync(ours), join(dir, 'node_modules'));
        return;
    }
    say(`${label}: its package-lock.json differs from this checkout's: npm ci there (log in ${tmp}/logs/${label}-npm-ci.log)`);
    await run('npm', ['ci', '--no-audit', '--no-fund'], { cwd: dir, log: join(tmp, 'logs', `${label}-npm-ci.log`) });
}

// ---------------------------------------------------------------------------------------------------
// Processes

interface RunOptions {
    cwd?: string;
    log: string;
    env?: NodeJS.ProcessEnv;
}

/** Runs a command to its end; its output goes to the log; resolves with its stdout, rejects on a non-zero exit. */
function run(command: string, args: string[], options: RunOptions): Promise<string> {
    return new Promise((resolvePromise, reject) => {
        const child = spawn(command, args, { cwd: options.cwd, env: options.env ?? process.env, stdio: ['ignore', 'pipe', 'pipe'] });
        children.add(child);
        const log = createWriteStream(options.log, { flags: 'a' });
        log.write(`$ ${command} ${args.length > 12 ? [...args.slice(0, 12), `… (${args.length} arguments)`].join(' ') : args.join(' ')}\n`);
        const out: Buffer[] = [];
        const err: Buffer[] = [];
        child.stdout!.on('data', (chunk: Buffer) => { out.push(chunk); log.write(chunk); });
        child.stderr!.on('data', (chunk: Buffer) => { err.push(chunk); log.write(chunk); });
        child.on('error', reject);
        child.on('close', code => {
            children.delete(child);
            log.end();
            if (code === 0) resolvePromise(Buffer.concat(out).toString('utf8'));
            else reject(new Error(`${command} ${args.slice(0, 4).join(' ')} … exited ${code}: ${Buffer.concat(err).toString('utf8').trim().split('\n').slice(-5).join(' | ')} (log ${options.log})`));
        });
    });
}

let pinnedClock: { module: string; nowMs: number } | null = null;

/** `node [--import <pinned clock>] --import tsx src/main.ts ARGS` in the tree. */
function runNode(tree: Tree, args: string[], options: { log: string; pinned?: boolean }): Promise<string> {
    return run(process.execPath, [...nodeFlags(options.pinned ?? false), 'src/main.ts', ...args], { cwd: tree.dir, log: options.log, env: childEnv(options.pinned ?? false) });
}

function nodeFlags(pinned: boolean): string[] {
    return [...(pinned && pinnedClock ? ['--import', pathToFileURL(pinnedClock.module).href] : []), '--import', 'tsx'];
}

function childEnv(pinned: boolean): NodeJS.ProcessEnv {
    const env: NodeJS.ProcessEnv = { ...process.env, MALLOC_ARENA_MAX: '2' };
    // Settings must come from the flags alone, as they do in both versions.
    for (const name of ['DATABASE_URL', 'DATA_DIR', 'SOURCE', 'PORT', 'HOST', 'API_KEYS', 'ANON_RPS', 'REDIS_URL', 'WORKERS', 'RATES', 'EXTRA_CURRENCIES', 'LOG_LEVEL', 'LOG_REQUESTS', 'TRANSACTION_TEXTS', 'CORS_ORIGINS', 'TRUST_PROXY', 'REQUEST_TIMEOUT_MS']) delete env[name];
    if (pinned && pinnedClock) env.COMPARE_ANSWERS_NOW_MS = String(pinnedClock.nowMs);
    return env;
}

function writePinnedClock(tmp: string): void {
    const module = join(tmp, 'pinned-clock.mjs');
    writeFileSync(module, [
        '// Written by scripts/compare-answers.ts: Date.now answers one instant, so that what is computed from "now"',
        '// (emulation\'s time) is the same in the two versions compared.',
        'const pinned = Number(process.env.COMPARE_ANSWERS_NOW_MS);',
        'if (Number.isFinite(pinned) && pinned > 0) Date.now = () => pinned;',
        '',
    ].join('\n'));
    pinnedClock = { module, nowMs: Math.floor(Date.now() / 1000) * 1000 };
}

interface Served {
    url: string;
    child: ChildProcess;
    /** Resolves when a stdout line matches. */
    waitFor(pattern: RegExp, timeoutMs: number): Promise<RegExpMatchArray>;
    stop(): Promise<void>;
}

/** Starts `serve ARGS` of the tree and waits for the URL it serves. */
async function startServe(tree: Tree, args: string[], log: string, pinned: boolean): Promise<Served> {
    const child = spawn(process.execPath, [...nodeFlags(pinned), 'src/main.ts', 'serve', ...args], { cwd: tree.dir, env: childEnv(pinned), stdio: ['ignore', 'pipe', 'pipe'] });
    children.add(child);
    const logStream = createWriteStream(log, { flags: 'a' });
    logStream.write(`$ serve ${args.join(' ')}\n`);
    const lines: string[] = [];
    const waiters: Array<{ pattern: RegExp; found: (match: RegExpMatchArray) => void }> = [];
    let partial = '';
    let exited: number | null | undefined;
    const exit = new Promise<void>(resolvePromise => child.on('exit', code => {
        exited = code;
        children.delete(child);
        logStream.end();
        resolvePromise();
    }));
    child.stderr!.on('data', (chunk: Buffer) => logStream.write(chunk));
    child.stdout!.on('data', (chunk: Buffer) => {
        logStream.write(chunk);
        partial += chunk.toString('utf8');
        const complete = partial.split('\n');
        partial = complete.pop()!;
        for (const line of complete) {
            lines.push(line);
            for (const waiter of [...waiters]) {
                const match = line.match(waiter.pattern);
                if (match) {
                    waiters.splice(waiters.indexOf(waiter), 1);
                    waiter.found(match);
                }
            }
        }
    });
    const waitFor = (pattern: RegExp, timeoutMs: number) => new Promise<RegExpMatchArray>((resolvePromise, reject) => {
        for (const line of lines) {
            const match = line.match(pattern);
            if (match) return resolvePromise(match);
        }
        const timer = setTimeout(() => reject(new Error(`serve (${tree.label}) did not print ${pattern} within ${timeoutMs / 1000} s (log ${log})`)), timeoutMs);
        void exit.then(() => {
            clearTimeout(timer);
            reject(new Error(`serve (${tree.label}) exited (${exited}) before printing ${pattern} (log ${log})`));
        });
        waiters.push({ pattern, found: match => { clearTimeout(timer); resolvePromise(match); } });
    });
    const stop = async () => {
        if (exited !== undefined) return;
        child.kill('SIGTERM');
        const killer = setTimeout(() => child.kill('SIGKILL'), 30_000);
        await exit;
        clearTimeout(killer);
    };
    const url = (await waitFor(/serving (http:\/\/\S+?)\/v2 /, 180_000).catch(async error => {
        await stop();
        throw error;
    }))[1];
    return { url, child, waitFor, stop };
}

// ---------------------------------------------------------------------------------------------------
// Indexes

interface IndexTarget {
    label: string;
    dataDir: string;
    /** A PostgreSQL URL; undefined = the SQLite file in the data dir. */
    db?: string;
}

function indexArgs(target: IndexTarget): string[] {
    return ['--data-dir', target.dataDir, ...(target.db ? ['--db', target.db] : [])];
}

/** The migrations a tree's store applies, in order (the keys of its migrations/index.ts). */
function migrationsOf(tree: Tree): string[] {
    const index = readFileSync(join(tree.dir, 'src', 'store', 'migrations', 'index.ts'), 'utf8');
    return [...index.matchAll(/^\s*'(\d{4}-[\w-]+)':/gm)].map(match => match[1]);
}

/**
 * An index the head wrote, copied for the base, taken down (the head's own `down` steps) to the last
 * migration the base knows: the base reads the schema it was written for. Returns the migrations undone.
 */
async function alignSchema(base: Tree, head: Tree, target: IndexTarget, log: string): Promise<string[]> {
    const known = migrationsOf(base);
    const extra = migrationsOf(head).filter(name => !known.includes(name));
    if (extra.length === 0) return [];
    const script = [
        `import { Migrator } from 'kysely';`,
        `import { openStore } from './src/store/store.ts';`,
        `import { migrationProvider } from './src/store/migrations/index.ts';`,
        `const store = await openStore({ dataDir: ${JSON.stringify(target.dataDir)}, url: ${JSON.stringify(target.db ?? '')}, migrate: false });`,
        `const { error } = await new Migrator({ db: store.db, provider: migrationProvider(store.dialect) }).migrateTo(${JSON.stringify(known[known.length - 1])});`,
        'await store.close();',
        'if (error) throw error;',
    ].join('\n');
    await run(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { cwd: head.dir, log, env: childEnv(false) });
    return extra;
}

/** Creates the databases (copies of `template` when given) on the server; they are dropped at the end unless kept. */
async function createDatabases(server: string, names: string[], keep: boolean, template?: string): Promise<string[]> {
    const admin = new URL(server);
    admin.pathname = '/postgres';
    const client = new pg.Client({ connectionString: admin.href, connectionTimeoutMillis: 5000 });
    await client.connect();
    try {
        for (const name of names) {
            await client.query(`DROP DATABASE IF EXISTS ${name}`);
            await client.query(`CREATE DATABASE ${name}${template ? ` TEMPLATE ${template}` : ''}`);
        }
    } finally {
        await client.end();
    }
    if (!keep) {
        cleanups.push(async () => {
            const dropper = new pg.Client({ connectionString: admin.href, connectionTimeoutMillis: 5000 });
            await dropper.connect();
            try {
                for (const name of names) await dropper.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
            } finally {
                await dropper.end();
            }
        });
    }
    return names.map(name => {
        const url = new URL(server);
        url.pathname = `/${name}`;
        return url.href;
    });
}

/** Rows of a query on an index; none when the index has no such table (another schema). */
async function readIndex<T>(target: IndexTarget, sql: string): Promise<T[]> {
    try {
        if (target.db) {
            const client = new pg.Client({ connectionString: target.db, connectionTimeoutMillis: 5000 });
            await client.connect();
            try {
                return (await client.query(sql)).rows as T[];
            } finally {
                await client.end();
            }
        }
        const db = new Database(join(target.dataDir, 'index.sqlite'), { readonly: true, fileMustExist: true });
        try {
            return db.prepare(sql).all() as T[];
        } finally {
            db.close();
        }
    } catch {
        return [];
    }
}

/** Waits until neither index has a jetton master whose off-chain metadata the API process is still fetching. */
async function settleMetadata(targets: IndexTarget[]): Promise<void> {
    const deadline = Date.now() + 90_000;
    let pending = 0;
    do {
        pending = 0;
        for (const target of targets) {
            const rows = await readIndex<{ n: number | string }>(target, "SELECT COUNT(*) AS n FROM jetton_masters WHERE metadata_status = 'pending'");
            pending += Number(rows[0]?.n ?? 0);
        }
        if (pending === 0) return;
        await new Promise(resolvePromise => setTimeout(resolvePromise, 250));
    } while (Date.now() < deadline);
    throw new Error(`${pending} jetton master(s) still wait for their off-chain metadata after 90 s`);
}

// ---------------------------------------------------------------------------------------------------
// HTTP

interface Server {
    label: string;
    host: string;
    port: number;
    agent: http.Agent;
}

interface Answer {
    status: number;
    /** Lowercase names, sorted, the uncompared ones left out. */
    headers: Array<[string, string]>;
    body: Buffer;
    /** The request failed (no answer). */
    error?: string;
}

interface Probe {
    /** The route, for the summary: `GET /v2/traces/{trace_id}`. */
    endpoint: string;
    method: string;
    path: string;
    body?: string;
    headers?: Record<string, string>;
}

function server(label: string, url: string): Server {
    const parsed = new URL(url);
    return { label, host: parsed.hostname, port: Number(parsed.port), agent: new http.Agent({ keepAlive: true, maxSockets: CONCURRENCY }) };
}

function send(to: Server, probe: Probe, requestId: string): Promise<Answer> {
    return new Promise(resolvePromise => {
        const headers: Record<string, string> = { 'x-request-id': requestId, ...probe.headers };
        if (probe.body !== undefined) {
            headers['content-type'] ??= 'application/json';
            headers['content-length'] = String(Buffer.byteLength(probe.body));
        }
        const request = http.request({ host: to.host, port: to.port, method: probe.method, path: probe.path, headers, agent: to.agent, timeout: 60_000 }, response => {
            const chunks: Buffer[] = [];
            response.on('data', (chunk: Buffer) => chunks.push(chunk));
            response.on('end', () => {
                const headerList: Array<[string, string]> = [];
                for (let i = 0; i < response.rawHeaders.length; i += 2) {
                    const name = response.rawHeaders[i].toLowerCase();
                    if (UNCOMPARED_HEADERS.has(name) || (probe.path.startsWith('/docs/static/') && FILE_TIME_HEADERS.has(name))) continue;
                    headerList.push([name, response.rawHeaders[i + 1]]);
                }
                headerList.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : a[1] < b[1] ? -1 : a[1] > b[1] ? 1 : 0));
                resolvePromise({ status: response.statusCode ?? 0, headers: headerList, body: Buffer.concat(chunks) });
            });
            response.on('error', error => resolvePromise({ status: 0, headers: [], body: Buffer.alloc(0), error: error.message }));
        });
        request.on('timeout', () => request.destroy(new Error('no answer within 60 s')));
        request.on('error', error => resolvePromise({ status: 0, headers: [], body: Buffer.alloc(0), error: error.message }));
        if (probe.body !== undefined) request.write(probe.body);
        request.end();
    });
}

// ---------------------------------------------------------------------------------------------------
// Comparison

interface EndpointStats {
    requests: number;
    differences: number;
    byClass: Record<'2xx' | '3xx' | '4xx' | '5xx' | 'none', number>;
}

interface Difference {
    probe: Probe;
    a: Answer;
    b: Answer;
}

class Comparison {
    readonly endpoints = new Map<string, EndpointStats>();
    readonly differences: Difference[] = [];
    differenceCount = 0;
    /** Differences on --changed paths: meant, not counted as differences. */
    readonly changedAsMeant = new Set<string>();
    requests = 0;
    private readonly seen = new Set<string>();
    private next = 0;

    /** `informational`: not base against head (--check-export); its differences do not fail the run. */
    constructor(readonly name: string, readonly a: Server, readonly b: Server, readonly informational = false) {}

    /** Sends the request to both servers and compares; answers the first server's answer. Repeats are sent once. */
    async probe(probe: Probe): Promise<Answer | null> {
        const key = `${probe.method} ${probe.path} ${probe.body ?? ''} ${JSON.stringify(probe.headers ?? {})}`;
        if (this.seen.has(key)) return null;
        this.seen.add(key);
        const requestId = `compare-${++this.next}`;
        const [a, b] = await Promise.all([send(this.a, probe, requestId), send(this.b, probe, requestId)]);
        this.requests++;
        let stats = this.endpoints.get(probe.endpoint);
        if (!stats) this.endpoints.set(probe.endpoint, stats = { requests: 0, differences: 0, byClass: { '2xx': 0, '3xx': 0, '4xx': 0, '5xx': 0, none: 0 } });
        stats.requests++;
        stats.byClass[a.error || a.status === 0 ? 'none' : `${Math.floor(a.status / 100)}xx` as '2xx']++;
        if (!sameAnswer(a, b) && changedPaths?.test(probe.path) && !a.error && !b.error) this.changedAsMeant.add(`${probe.method} ${probe.path}`);
        else if (!sameAnswer(a, b)) {
            stats.differences++;
            this.differenceCount++;
            if (this.differences.length < 200) this.differences.push({ probe, a, b });
        }
        return a;
    }

    /** The first server's answer as JSON when it is a 200, else null. */
    async json<T>(probe: Probe): Promise<T | null> {
        const answer = await this.probe(probe);
        if (!answer || answer.status !== 200) return null;
        try {
            return JSON.parse(answer.body.toString('utf8')) as T;
        } catch {
            return null;
        }
    }
}

function sameAnswer(a: Answer, b: Answer): boolean {
    if (a.error || b.error) return false;
    if (a.status !== b.status || !a.body.equals(b.body) || a.headers.length !== b.headers.length) return false;
    return a.headers.every(([name, value], i) => b.headers[i][0] === name && b.headers[i][1] === value);
}

async function eachLimit<T>(items: Iterable<T>, limit: number, work: (item: T) => Promise<void>): Promise<void> {
    const iterator = items[Symbol.iterator]();
    const runner = async () => {
        for (let next = iterator.next(); !next.done; next = iterator.next()) await work(next.value);
    };
    await Promise.all(Array.from({ length: limit }, runner));
}

// ---------------------------------------------------------------------------------------------------
// Datasets and the requests derived from them

interface Dataset {
    name: string;
    /** Where each version's index comes from: its own import-blocks of `files`, or a copy of the index the head's devnet wrote. */
    source: { kind: 'import' } | { kind: 'copy'; from: IndexTarget };
    /** Block files, in order. */
    files: string[];
    /** `(wc,shard,seqno)` of every block the files hold. */
    blockIds: string[];
    /** Block times known without the index (blocks without transactions have none to tell it). */
    utimes: number[];
    /** Public keys known without the index (the devnet's manifest). */
    keys: string[];
    /** Multisig order addresses known without the index. */
    orders: string[];
    emulations: EmulationCase[];
    /** Extra `serve` flags, the same for both versions. */
    serveArgs: string[];
    note: string;
}

interface EmulationCase {
    name: string;
    boc: string;
    wallet?: string;
    destination?: string;
    otherWallet?: string;
}

interface TransactionView {
    hash: string;
    lt: number;
    utime: number;
    account: { address: string };
    in_msg?: MessageView;
    out_msgs: MessageView[];
    block: string;
}

interface MessageView {
    hash: string;
    source?: { address: string };
    destination?: { address: string };
}

const get = (endpoint: string, path: string, headers?: Record<string, string>): Probe => ({ endpoint: `GET ${endpoint}`, method: 'GET', path, headers });
const post = (endpoint: string, path: string, body: unknown, headers?: Record<string, string>): Probe => ({
    endpoint: `POST ${endpoint}`, method: 'POST', path, body: typeof body === 'string' ? body : JSON.stringify(body), headers,
});

const BLOCK_TXS = '/v2/blockchain/blocks/{block_id}/transactions';
const ACCOUNT_TXS = '/v2/blockchain/accounts/{account_id}/transactions';
const JETTON_HISTORY = '/v2/accounts/{account_id}/jettons/history';
const TRACE = '/v2/traces/{trace_id}';
const REDUCED = '/v2/blockchain/reduced/blocks';
const BULK = '/v2/pubkeys/wallets/_bulk';
const ORDER = '/v2/multisig/order/{account_id}';
const WALLET_EMULATE = '/v2/wallet/emulate';
const EVENT_EMULATE = '/v2/accounts/{account_id}/events/emulate';

function unknownHex(seed: string): string {
    return createHash('sha256').update(`compare-answers ${seed}`).digest('hex');
}

function friendlyForms(raw: string): string[] {
    try {
        const address = Address.parseRaw(raw);
        return [
            address.toString({ urlSafe: true, bounceable: true }),
            address.toString({ urlSafe: true, bounceable: false, testOnly: true }),
            address.toString({ urlSafe: false, bounceable: true }),
        ];
    } catch {
        return [];
    }
}

/** Every request of the dataset, sent to both servers. */
async function compareDataset(cmp: Comparison, dataset: Dataset, baseIndex: IndexTarget): Promise<void> {
    const enc = encodeURIComponent;
    const unknown = unknownHex(dataset.name);

    // The service's own routes, the refusals of an API-only process, and routing errors.
    const fixed: Probe[] = [
        get('/v2/status', '/v2/status'),
        get('/v2/openapi.json', '/v2/openapi.json'),
        get('/v2/openapi.yml', '/v2/openapi.yml'),
        get('/', '/'),
        get('/docs', '/docs'),
        get('/docs', '/docs/'),
        get('/docs/json', '/docs/json'),
        get('/docs/yaml', '/docs/yaml'),
        get('/docs/static/*', '/docs/static/swagger-initializer.js'),
        get('/docs/static/*', '/docs/static/index.css'),
        get('/docs/static/*', '/docs/static/no-such-file.js'),
        get('/v2/rewards/round-rewards', '/v2/rewards/round-rewards'),
        get('/v2/rewards/round-rewards', '/v2/rewards/round-rewards?election_id=1700000000&shallow=true'),
        get('/v2/rewards/round-rewards', '/v2/rewards/round-rewards?election_id=1&block=2'),
        get('/v2/rewards/round-rewards', '/v2/rewards/round-rewards?election_id=-5'),
        get('/v2/rewards/round-rewards', '/v2/rewards/round-rewards?unixtime=abc'),
        get('/v2/devnet/manifest', '/v2/devnet/manifest'),
        get('/v2/devnet/global-config', '/v2/devnet/global-config'),
        get('/v2/devnet/metadata/{document}', '/v2/devnet/metadata/points.json'),
        get('/v2/devnet/metadata/{document}', '/v2/devnet/metadata/__proto__'),
        post('/v2/devnet/faucet', '/v2/devnet/faucet', { address: `0:${unknown}`, amount: 1000 }),
        post('/v2/devnet/faucet', '/v2/devnet/faucet', { address: 'nope', amount: 1000 }),
        post('/v2/blockchain/message', '/v2/blockchain/message', { boc: 'x' }),
        post('/v2/blockchain/message', '/v2/blockchain/message', { boc: 'te6cckEBAQEAAgAAAEysuc0=' }),
        post('/v2/blockchain/message', '/v2/blockchain/message', '{"boc": '),
        get('(unknown route)', '/v2/no/such/route'),
        get('(unknown route)', '/v2/'),
        get('(unknown route)', '/v2/traces/'),
        get('(unknown route)', '/v2/blockchain/accounts//transactions'),
        get('(unknown route)', '/v2/traces/%E0%A4%A'),
        { endpoint: 'DELETE /v2/status', method: 'DELETE', path: '/v2/status' },
        { endpoint: 'PUT /v2/traces/{trace_id}', method: 'PUT', path: `/v2/traces/${unknown}` },
        get(BULK, BULK),
        { endpoint: `HEAD /v2/status`, method: 'HEAD', path: '/v2/status' },
        { endpoint: `HEAD /v2/openapi.json`, method: 'HEAD', path: '/v2/openapi.json' },
        { endpoint: 'OPTIONS (CORS preflight)', method: 'OPTIONS', path: '/v2/pubkeys/wallets/_bulk', headers: { origin: 'https://example.org', 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type' } },
        get('/v2/status', '/v2/status', { origin: 'https://example.org' }),
        post(BULK, BULK, 'public_keys=1', { 'content-type': 'application/x-www-form-urlencoded' }),
        post(BULK, BULK, '{"public_keys": ["00"]}', { 'content-type': 'text/plain' }),
        post(BULK, BULK, '', { 'content-type': 'application/json' }),
        post(BULK, BULK, '{"public_keys": [', { 'content-type': 'application/json' }),
        post(BULK, BULK, { public_keys: [] }),
        post(BULK, BULK, { public_keys: ['xyz'] }),
        post(BULK, BULK, { keys: [unknown] }),
        post(BULK, BULK, { public_keys: Array.from({ length: 101 }, (_, i) => unknownHex(`key ${i}`)) }),
        post(BULK, BULK, { public_keys: [unknown, unknown.toUpperCase()] }),
        get(REDUCED, REDUCED),
        get(REDUCED, `${REDUCED}?from=10`),
        get(REDUCED, `${REDUCED}?from=20&to=10`),
        get(REDUCED, `${REDUCED}?from=0&to=601`),
        get(REDUCED, `${REDUCED}?from=0&to=600`),
        get(REDUCED, `${REDUCED}?from=abc&to=1`),
        get(REDUCED, `${REDUCED}?from=-600&to=0`),
        get(REDUCED, `${REDUCED}?from=9223372036854775807&to=9223372036854775807`),
        get(REDUCED, `${REDUCED}?from=9223372036854775808&to=9223372036854775808`),
        get(BLOCK_TXS, `/v2/blockchain/blocks/${enc('(0,8000000000000000)')}/transactions`),
        get(BLOCK_TXS, `/v2/blockchain/blocks/${enc('(0,80,1)')}/transactions`),
        get(BLOCK_TXS, `/v2/blockchain/blocks/${enc('(0,8000000000000000,4294967296)')}/transactions`),
        get(BLOCK_TXS, `/v2/blockchain/blocks/${enc('(0,8000000000000000,4294967295)')}/transactions`),
        get(BLOCK_TXS, `/v2/blockchain/blocks/${enc('(7,8000000000000000,1)')}/transactions`),
        get(BLOCK_TXS, '/v2/blockchain/blocks/latest/transactions'),
        get(ACCOUNT_TXS, '/v2/blockchain/accounts/not-an-address/transactions'),
        get(ACCOUNT_TXS, `/v2/blockchain/accounts/0:${unknown}/transactions`),
        get(ACCOUNT_TXS, `/v2/blockchain/accounts/0:${unknown}/transactions?limit=0`),
        get(ACCOUNT_TXS, `/v2/blockchain/accounts/0:${unknown}/transactions?limit=1001`),
        get(ACCOUNT_TXS, `/v2/blockchain/accounts/0:${unknown}/transactions?limit=x`),
        get(ACCOUNT_TXS, `/v2/blockchain/accounts/0:${unknown}/transactions?before_lt=-1`),
        get(ACCOUNT_TXS, `/v2/blockchain/accounts/0:${unknown}/transactions?before_lt=18446744073709551616`),
        get(ACCOUNT_TXS, `/v2/blockchain/accounts/0:${unknown.slice(2)}/transactions`),
        get(ACCOUNT_TXS, `/v2/blockchain/accounts/-1:${unknown}/transactions?limit=5&before_lt=0`),
        get(JETTON_HISTORY, `/v2/accounts/0:${unknown}/jettons/history`),
        get(JETTON_HISTORY, `/v2/accounts/0:${unknown}/jettons/history?limit=10`),
        get(JETTON_HISTORY, `/v2/accounts/0:${unknown}/jettons/history?limit=0`),
        get(JETTON_HISTORY, `/v2/accounts/0:${unknown}/jettons/history?limit=1001`),
        get(JETTON_HISTORY, `/v2/accounts/0:${unknown}/jettons/history?limit=10&before_lt=x`),
        get(JETTON_HISTORY, '/v2/accounts/bad/jettons/history?limit=10'),
        get(TRACE, `/v2/traces/${unknown}`),
        get(TRACE, `/v2/traces/${unknown.slice(1)}`),
        get(TRACE, '/v2/traces/zz'),
        get(TRACE, `/v2/traces/0x${unknown}`),
        get(ORDER, '/v2/multisig/order/bad'),
        get(ORDER, `/v2/multisig/order/0:${unknown}`),
        post(WALLET_EMULATE, WALLET_EMULATE, { boc: 'x' }),
        post(WALLET_EMULATE, WALLET_EMULATE, {}),
        post(WALLET_EMULATE, WALLET_EMULATE, { boc: 'te6cckEBAQEAAgAAAEysuc0=' }),
        post(WALLET_EMULATE, WALLET_EMULATE, '{"boc":"te6cckEBAQEAAgAAAEysuc0="}', { 'content-type': 'text/plain' }),
        post(EVENT_EMULATE, `/v2/accounts/0:${unknown}/events/emulate`, { boc: 'te6cckEBAQEAAgAAAEysuc0=' }),
        post(EVENT_EMULATE, '/v2/accounts/bad/events/emulate', { boc: 'te6cckEBAQEAAgAAAEysuc0=' }),
    ];
    await eachLimit(fixed, CONCURRENCY, async probe => { await cmp.probe(probe); });

    // Every block's transactions; they name the accounts, messages and times asked about next.
    const transactions: TransactionView[] = [];
    const blockPath = (id: string) => `/v2/blockchain/blocks/${enc(id)}/transactions`;
    await eachLimit(dataset.blockIds, CONCURRENCY, async id => {
        const answer = await cmp.json<{ transactions: TransactionView[] }>(get(BLOCK_TXS, blockPath(id)));
        if (answer) transactions.push(...answer.transactions);
    });
    transactions.sort((x, y) => x.lt - y.lt || (x.hash < y.hash ? -1 : 1));
    const sample = <T>(items: T[], every: number) => items.filter((_, i) => i % every === 0);
    const variants: Probe[] = [];
    for (const id of sample(dataset.blockIds, 25)) {
        variants.push(get(BLOCK_TXS, blockPath(id.toUpperCase())));
        variants.push({ endpoint: `HEAD ${BLOCK_TXS}`, method: 'HEAD', path: blockPath(id) });
        variants.push(get(BLOCK_TXS, `/v2/blockchain/blocks/${id}/transactions`));
        const [wc, shard, seqno] = id.slice(1, -1).split(',');
        variants.push(get(BLOCK_TXS, blockPath(`(${wc},${shard},${Number(seqno) + 1_000_000})`)));
        variants.push(get(BLOCK_TXS, blockPath(`( ${wc},${shard},${seqno})`)));
    }
    await eachLimit(variants, CONCURRENCY, async probe => { await cmp.probe(probe); });

    // Reduced blocks: windows over every indexed second, each second alone, and the edges.
    const utimes = [...new Set([...dataset.utimes, ...transactions.map(t => t.utime)])].sort((x, y) => x - y);
    const windows: Array<[number, number]> = [];
    if (utimes.length > 0) {
        const first = utimes[0];
        const last = utimes[utimes.length - 1];
        if (last - first < 24 * 3600) {
            for (let from = first - 600; from <= last + 600; from += 300) windows.push([from, from + 600]);
            for (let second = first - 2; second <= last + 2; second++) windows.push([second, second]);
        }
        for (const utime of sample(utimes, 1)) windows.push([utime - 600, utime], [utime, utime + 600], [utime - 1, utime + 1]);
    }
    const reducedIds = new Set<string>();
    await eachLimit(windows, CONCURRENCY, async ([from, to]) => {
        const answer = await cmp.json<{ blocks: Array<{ workchain_id: number; shard: string; seqno: number; shards_blocks?: string[]; parent?: string[] }> }>(
            get(REDUCED, `${REDUCED}?from=${from}&to=${to}`));
        for (const block of answer?.blocks ?? []) {
            reducedIds.add(`(${block.workchain_id},${block.shard},${block.seqno})`);
            for (const id of [...block.shards_blocks ?? [], ...block.parent ?? []]) reducedIds.add(id);
        }
    });
    const asked = new Set(dataset.blockIds);
    await eachLimit([...reducedIds].filter(id => !asked.has(id)), CONCURRENCY, async id => { await cmp.probe(get(BLOCK_TXS, blockPath(id))); });

    // Accounts: every one with a transaction, every message's source and destination.
    const accounts = new Set<string>();
    const messageHashes = new Set<string>();
    for (const tx of transactions) {
        accounts.add(tx.account.address);
        for (const message of [tx.in_msg, ...tx.out_msgs]) {
            if (!message) continue;
            messageHashes.add(message.hash);
            if (message.source?.address) accounts.add(message.source.address);
            if (message.destination?.address) accounts.add(message.destination.address);
        }
    }
    for (const emulation of dataset.emulations) for (const address of [emulation.wallet, emulation.destination]) if (address) accounts.add(address);
    const accountList = [...accounts].sort();
    await eachLimit(accountList.map((account, i) => ({ account, i })), CONCURRENCY, async ({ account, i }) => {
        const ids = [account, ...(i % 7 === 0 ? [...friendlyForms(account), account.toUpperCase()] : [])];
        for (const [n, id] of ids.entries()) {
            const path = `/v2/blockchain/accounts/${enc(id)}/transactions`;
            await cmp.probe(get(ACCOUNT_TXS, path));
            await cmp.probe(get(ACCOUNT_TXS, `${path}?limit=1`));
            await cmp.probe(get(JETTON_HISTORY, `/v2/accounts/${enc(id)}/jettons/history?limit=100`));
            await cmp.probe(get(ORDER, `/v2/multisig/order/${enc(id)}`));
            if (n > 0) continue;
            // Pages followed to their end (or PAGES_FOLLOWED), by before_lt and by next_from.
            let beforeLt: number | undefined;
            for (let page = 0; page < PAGES_FOLLOWED; page++) {
                const answer = await cmp.json<{ transactions: Array<{ lt: number }> }>(get(ACCOUNT_TXS, `${path}?limit=4${beforeLt !== undefined ? `&before_lt=${beforeLt}` : ''}`));
                if (!answer || answer.transactions.length < 4) break;
                beforeLt = answer.transactions[answer.transactions.length - 1].lt;
            }
            let nextFrom: number | undefined;
            for (let page = 0; page < PAGES_FOLLOWED; page++) {
                const answer = await cmp.json<{ operations: unknown[]; next_from?: number }>(
                    get(JETTON_HISTORY, `/v2/accounts/${enc(id)}/jettons/history?limit=2${nextFrom !== undefined ? `&before_lt=${nextFrom}` : ''}`));
                if (!answer?.next_from) break;
                nextFrom = answer.next_from;
            }
        }
    });

    // Traces: by every transaction hash, every message hash, and base64url forms of a sample.
    const traceIds = [...transactions.map(t => t.hash), ...[...messageHashes].sort()];
    const base64 = sample(transactions, 20).map(t => Buffer.from(t.hash, 'hex').toString('base64url'));
    const upper = sample(transactions, 40).map(t => t.hash.toUpperCase());
    await eachLimit([...traceIds, ...base64, ...upper], CONCURRENCY, async id => { await cmp.probe(get(TRACE, `/v2/traces/${enc(id)}`)); });

    // Wallets by public key: the manifest's keys and the wallets' keys in the index.
    const indexKeys = (await readIndex<{ public_key: string }>(baseIndex, 'SELECT DISTINCT public_key FROM wallets ORDER BY public_key')).map(r => r.public_key);
    const keys = [...new Set([...dataset.keys, ...indexKeys])];
    const bulk: Probe[] = keys.map(key => post(BULK, BULK, { public_keys: [key] }));
    for (let i = 0; i < keys.length; i += 100) bulk.push(post(BULK, BULK, { public_keys: keys.slice(i, i + 100) }));
    if (keys.length > 0) {
        bulk.push(post(BULK, BULK, { public_keys: [keys[0], unknown, keys[0], keys[keys.length - 1]] }));
        bulk.push(post(BULK, BULK, { public_keys: [...keys].reverse().slice(0, 100) }));
    }
    await eachLimit(bulk, CONCURRENCY, async probe => { await cmp.probe(probe); });

    // Multisig orders: those the index and the manifest know (every account above was asked too).
    const indexOrders = (await readIndex<{ address: string }>(baseIndex, 'SELECT address FROM multisig_orders ORDER BY address')).map(r => r.address);
    const orders = [...new Set([...dataset.orders, ...indexOrders])];
    await eachLimit(orders.flatMap(order => [order, ...friendlyForms(order).slice(0, 1)]), CONCURRENCY, async id => {
        await cmp.probe(get(ORDER, `/v2/multisig/order/${enc(id)}`));
    });

    // Emulation, on the indexed state at the pinned time; one at a time (each is a TVM run).
    const emulations: Probe[] = [];
    for (const e of dataset.emulations) {
        emulations.push(post(WALLET_EMULATE, WALLET_EMULATE, { boc: e.boc }));
        emulations.push(post(WALLET_EMULATE, `${WALLET_EMULATE}?currency=usd`, { boc: e.boc }, { 'accept-language': 'ru' }));
        emulations.push(post(WALLET_EMULATE, WALLET_EMULATE, { boc: Buffer.from(e.boc, 'base64').toString('hex') }));
        if (e.wallet) {
            emulations.push(post(WALLET_EMULATE, `${WALLET_EMULATE}?currency=eur`, { boc: e.boc, params: [{ address: e.wallet, balance: 5_000_000_000_000 }] }));
            emulations.push(post(EVENT_EMULATE, `/v2/accounts/${e.wallet}/events/emulate`, { boc: e.boc }));
            emulations.push(post(EVENT_EMULATE, `/v2/accounts/${e.wallet}/events/emulate?ignore_signature_check=true`, { boc: e.boc }, { 'accept-language': 'ru-RU,ru;q=0.9' }));
        }
        if (e.destination) emulations.push(post(EVENT_EMULATE, `/v2/accounts/${e.destination}/events/emulate`, { boc: e.boc }));
        if (e.otherWallet) emulations.push(post(WALLET_EMULATE, WALLET_EMULATE, { boc: e.boc, address_override: e.otherWallet }));
    }
    await eachLimit(emulations, 1, async probe => { await cmp.probe(probe); });
}

// ---------------------------------------------------------------------------------------------------
// The inputs

function mainnetDataset(): Dataset {
    const blocksDir = join(MAINNET_DIR, 'blocks');
    const files: string[] = [];
    const blockIds: string[] = [];
    const utimes: number[] = [];
    for (const name of MAINNET_BLOCKS) {
        const summary = JSON.parse(readFileSync(join(blocksDir, `${name}.summary.json`), 'utf8')) as { workchain: number; shard: string; seqno: number; utime: number };
        files.push(join(blocksDir, `${name}.boc`));
        blockIds.push(`(${summary.workchain},${summary.shard},${summary.seqno})`);
        utimes.push(summary.utime);
    }
    const emulations: EmulationCase[] = [];
    const messagesFile = join(MAINNET_DIR, 'risk', 'wallet-v4-messages.json');
    if (existsSync(messagesFile)) {
        const { cases } = JSON.parse(readFileSync(messagesFile, 'utf8')) as { cases: Array<{ name: string; boc_base64: string }> };
        for (const c of cases) {
            emulations.push({ name: c.name, boc: c.boc_base64, wallet: walletOfExternal(c.boc_base64) });
        }
    }
    return { name: 'mainnet', source: { kind: 'import' }, files, blockIds, utimes, keys: [], orders: [], emulations, serveArgs: [], note: `${files.length} blocks of ${blocksDir}` };
}

/** The destination of an external message (the signing wallet), raw; undefined when it does not read. */
function walletOfExternal(boc: string): string | undefined {
    try {
        const message = loadMessage(Cell.fromBase64(boc).beginParse());
        return message.info.dest instanceof Address ? message.info.dest.toRawString() : undefined;
    } catch {
        return undefined;
    }
}

interface ManifestAccount {
    name: string;
    kind: string;
    address: string;
    public_key?: string;
    secret_key?: string;
    seqno?: number;
}

async function httpJson<T>(url: string, init?: { method: string; body: unknown }): Promise<T> {
    const response = await fetch(url, init ? { method: init.method, headers: { 'content-type': 'application/json' }, body: JSON.stringify(init.body) } : undefined);
    const text = await response.text();
    if (!response.ok) throw new Error(`${init?.method ?? 'GET'} ${url}: ${response.status} ${text.slice(0, 300)}`);
    return JSON.parse(text) as T;
}

/** Runs the head's devnet with activity into `own` (its index), stops it and exports its blocks. */
async function devnetDataset(head: Tree, tmp: string, seconds: number, own: IndexTarget): Promise<Dataset> {
    const log = join(tmp, 'logs', 'devnet.log');
    const optional = (flag: string, value: string) => (head.flags.has(flag) ? [flag, value] : []);
    const devnet = await startServe(head, [
        ...indexArgs(own), '--port', '0', '--liteserver-port', 'off', '--workers', '1', '--block-interval-ms', '100',
        ...optional('--round-seconds', '40'), ...optional('--anon-rps', '1000000000'), '--log-level', 'warn',
    ], log, false);
    const stopDevnet = () => devnet.stop();
    cleanups.push(stopDevnet);
    const api = `${devnet.url}/v2`;
    say(`devnet: serving ${api}; waiting for its seed`);
    await devnet.waitFor(/^devnet ready/, 240_000);
    const manifest = async () => (await httpJson<{ accounts: ManifestAccount[] }>(`${api}/devnet/manifest`)).accounts;
    let accounts = await manifest();
    const named = (name: string) => {
        const account = accounts.find(a => a.name === name);
        if (!account) throw new Error(`the devnet's manifest has no ${name}`);
        return account;
    };
    const fresh = (n: number, workchain = 0) => `${workchain}:${unknownHex(`fresh ${n}`)}`;
    const signTransfer = (from: string, to: string, amount: bigint, comment: string, bounce: boolean) =>
        runNode(head, ['sign-transfer', from, to, String(amount), comment, ...(bounce ? ['--bounce'] : []), '--api', devnet.url], { log }).then(out => out.trim());
    const waitForSeqno = async (name: string, above: number) => {
        const deadline = Date.now() + 30_000;
        while (Date.now() < deadline) {
            accounts = await manifest();
            if ((named(name).seqno ?? 0) > above) return;
            await new Promise(resolvePromise => setTimeout(resolvePromise, 150));
        }
        throw new Error(`${name}'s transfer was not indexed within 30 s`);
    };

    const senders = ['alice-v3r2', 'bob-v4r2', 'bob-v5r1'];
    const deadline = Date.now() + seconds * 1000;
    let faucets = 0;
    let signed = 0;
    for (let i = 0; Date.now() < deadline; i++) {
        await httpJson(`${api}/devnet/faucet`, { method: 'POST', body: { address: fresh(i), amount: 100_000_000 * (i + 1) } });
        await httpJson(`${api}/devnet/faucet`, { method: 'POST', body: { address: named(senders[(i + 1) % 3]).address, amount: 2_000_000_000 } });
        faucets += 2;
        if (i % 3 === 0) {
            await httpJson(`${api}/devnet/faucet`, { method: 'POST', body: { address: fresh(1000 + i, -1), amount: 1_500_000_000 } });
            faucets++;
        }
        const from = senders[i % 3];
        const seqno = named(from).seqno ?? 0;
        const to = [named(senders[(i + 1) % 3]).address, fresh(i), fresh(500 + i), named('devnet-nft').address][i % 4];
        const boc = await signTransfer(from, to, BigInt(10_000_000 * (i + 1)), `compare ${i}`, i % 4 >= 2);
        await httpJson(`${api}/blockchain/message`, { method: 'POST', body: { boc } });
        signed++;
        await waitForSeqno(from, seqno);
    }
    // Signed but not sent: emulated on the index, whose seqnos they carry.
    const alice = named('alice-v3r2');
    const bob4 = named('bob-v4r2');
    const bob5 = named('bob-v5r1');
    const emulations: EmulationCase[] = [
        { name: 'alice pays bob', boc: await signTransfer('alice-v3r2', bob4.address, 1_500_000_000n, 'lunch', false), wallet: alice.address, destination: bob4.address, otherWallet: bob5.address },
        { name: 'bob pays nobody, bounced', boc: await signTransfer('bob-v5r1', fresh(9999), 300_000_000n, 'to nobody', true), wallet: bob5.address, destination: fresh(9999) },
        { name: 'more than bob has', boc: await signTransfer('bob-v4r2', alice.address, 10n ** 15n, 'too much', false), wallet: bob4.address, destination: alice.address },
    ];
    accounts = await manifest();
    const blocksDir = join(tmp, 'devnet-blocks');
    await devnet.stop();
    cleanups.splice(cleanups.indexOf(stopDevnet), 1);
    say(`devnet: ${faucets} faucet transfers and ${signed} signed transfers sent; stopped; exporting its blocks`);
    await runNode(head, ['export-blocks', blocksDir, '--data-dir', own.dataDir], { log });
    // A devnet stopped between producing a block and indexing it leaves that block out of its index (the
    // next start would index it): such blocks are left out here too, so that the imports hold what its index holds.
    const indexed = new Map((await readIndex<{ workchain: number; seqno: number | string }>(own, 'SELECT workchain, MAX(seqno) AS seqno FROM blocks GROUP BY workchain'))
        .map(row => [Number(row.workchain), Number(row.seqno)]));
    const exported = readdirSync(blocksDir).filter(name => name.endsWith('.boc') && !name.endsWith('.states.boc')).sort().map(name => {
        const match = /^\d+-(-?\d+)_([0-9a-f]{16})_(\d+)\.boc$/.exec(name);
        if (!match) throw new Error(`export-blocks wrote a file named ${name}, not NNNNNNNN-wc_shard_seqno.boc`);
        return { name, workchain: Number(match[1]), seqno: Number(match[3]), id: `(${match[1]},${match[2]},${match[3]})` };
    });
    const kept = exported.filter(block => block.seqno <= (indexed.get(block.workchain) ?? Infinity));
    if (kept.length < exported.length) say(`devnet: ${exported.length - kept.length} block(s) it made after the last it indexed are left out`);
    const files = kept.map(block => block.name);
    const blockIds = kept.map(block => block.id);
    const serveArgs: string[] = [];
    const currencies = join(head.dir, 'src', 'chain', 'devnet', 'extra-currencies.json');
    const rates = join(head.dir, 'src', 'risk', 'devnet-rates.json');
    if (existsSync(currencies)) serveArgs.push('--extra-currencies', currencies);
    if (existsSync(rates)) serveArgs.push('--rates', rates);
    return {
        name: 'devnet',
        source: { kind: 'import' },
        files: files.map(name => join(blocksDir, name)),
        blockIds,
        utimes: [],
        keys: accounts.flatMap(a => (a.public_key ? [a.public_key] : [])),
        orders: accounts.filter(a => a.kind.startsWith('multisig_order')).map(a => a.address),
        emulations,
        serveArgs,
        note: `${files.length} blocks the devnet made (its seed, then ${seconds} s of transfers)`,
    };
}

// ---------------------------------------------------------------------------------------------------
// Reports

function printComparison(cmp: Comparison, show: number): void {
    const rows = [...cmp.endpoints.entries()].sort((x, y) => (x[0] < y[0] ? -1 : 1));
    const width = Math.max(8, ...rows.map(([endpoint]) => endpoint.length));
    const lines = [
        `${cmp.name}: ${cmp.requests} requests compared, ${cmp.differenceCount} with a difference`,
        `  ${'endpoint'.padEnd(width)}  requests    2xx   3xx   4xx   5xx  differ`,
        ...rows.map(([endpoint, s]) => `  ${endpoint.padEnd(width)}  ${String(s.requests).padStart(8)} ${String(s.byClass['2xx']).padStart(6)}${String(s.byClass['3xx']).padStart(6)}`
            + `${String(s.byClass['4xx']).padStart(6)}${String(s.byClass['5xx']).padStart(6)}${String(s.differences).padStart(8)}${s.byClass.none ? `  (${s.byClass.none} unanswered)` : ''}`),
    ];
    process.stdout.write(`\n${lines.join('\n')}\n`);
    const fives = rows.reduce((n, [, s]) => n + s.byClass['5xx'], 0);
    if (cmp.changedAsMeant.size > 0) process.stdout.write(`  changed as meant (--changed): ${[...cmp.changedAsMeant].join(', ')}\n`);
    if (fives > 0) process.stdout.write(`  note: ${fives} request(s) answered 5xx by ${cmp.a.label} (equal on both sides, so not differences)\n`);
    for (const [i, d] of cmp.differences.slice(0, show).entries()) process.stdout.write(`\n${describeDifference(i + 1, cmp, d)}\n`);
    if (cmp.differenceCount > show) process.stdout.write(`\n  … ${cmp.differenceCount - Math.min(show, cmp.differenceCount)} more difference(s) not shown (--show N)\n`);
}

function describeDifference(n: number, cmp: Comparison, d: Difference): string {
    const [la, lb] = [cmp.a.label, cmp.b.label];
    const out = [`difference ${n} (${cmp.name}): ${d.probe.method} ${d.probe.path}${d.probe.body !== undefined ? ` with body ${clip(d.probe.body, 120)}` : ''}`];
    if (d.a.error || d.b.error) {
        out.push(`  ${la}: ${d.a.error ?? `answered ${d.a.status}`}`, `  ${lb}: ${d.b.error ?? `answered ${d.b.status}`}`);
        return out.join('\n');
    }
    if (d.a.status !== d.b.status) out.push(`  status: ${la} ${d.a.status}, ${lb} ${d.b.status}`);
    const ha = new Map<string, string[]>();
    const hb = new Map<string, string[]>();
    for (const [name, value] of d.a.headers) ha.set(name, [...ha.get(name) ?? [], value]);
    for (const [name, value] of d.b.headers) hb.set(name, [...hb.get(name) ?? [], value]);
    for (const name of [...new Set([...ha.keys(), ...hb.keys()])].sort()) {
        const va = ha.get(name)?.join(', ');
        const vb = hb.get(name)?.join(', ');
        if (va !== vb) out.push(`  header ${name}: ${la} ${va === undefined ? '(absent)' : JSON.stringify(va)}, ${lb} ${vb === undefined ? '(absent)' : JSON.stringify(vb)}`);
    }
    if (!d.a.body.equals(d.b.body)) {
        let at = 0;
        while (at < d.a.body.length && at < d.b.body.length && d.a.body[at] === d.b.body[at]) at++;
        out.push(`  body: ${la} ${d.a.body.length} bytes, ${lb} ${d.b.body.length} bytes; first difference at byte ${at}`);
        const context = (body: Buffer) => {
            const from = Math.max(0, at - 60);
            return `${from > 0 ? '…' : ''}${body.subarray(from, Math.min(body.length, at + 80)).toString('utf8')}${at + 80 < body.length ? '…' : ''}`;
        };
        out.push(`    ${la}: ${JSON.stringify(context(d.a.body))}`, `    ${lb}: ${JSON.stringify(context(d.b.body))}`);
        try {
            const paths = jsonDifferences(JSON.parse(d.a.body.toString('utf8')), JSON.parse(d.b.body.toString('utf8')), '$', [], 4);
            for (const p of paths) out.push(`    json ${p}`);
        } catch { /* not JSON on one side: the bytes above say it */ }
    }
    return out.join('\n');
}

/** The first few places where two JSON values differ, key order included. */
function jsonDifferences(a: unknown, b: unknown, path: string, found: string[], max: number): string[] {
    if (found.length >= max) return found;
    const kind = (v: unknown) => (v === null ? 'null' : Array.isArray(v) ? 'array' : typeof v);
    if (kind(a) !== kind(b)) {
        found.push(`${path}: ${kind(a)} ${clip(JSON.stringify(a), 60)} vs ${kind(b)} ${clip(JSON.stringify(b), 60)}`);
    } else if (Array.isArray(a) && Array.isArray(b)) {
        if (a.length !== b.length) found.push(`${path}: ${a.length} items vs ${b.length}`);
        for (let i = 0; i < Math.min(a.length, b.length) && found.length < max; i++) jsonDifferences(a[i], b[i], `${path}[${i}]`, found, max);
    } else if (kind(a) === 'object') {
        const ka = Object.keys(a as object);
        const kb = Object.keys(b as object);
        if (ka.join('\u0000') !== kb.join('\u0000')) {
            const sorted = (keys: string[]) => [...keys].sort().join('\u0000');
            found.push(sorted(ka) === sorted(kb)
                ? `${path}: the same keys in another order: ${clip(ka.join(','), 100)} vs ${clip(kb.join(','), 100)}`
                : `${path}: keys ${clip(ka.filter(k => !kb.includes(k)).join(',') || '(none)', 80)} only in the first, ${clip(kb.filter(k => !ka.includes(k)).join(',') || '(none)', 80)} only in the second`);
        }
        for (const key of ka) {
            if (found.length >= max) break;
            if (Object.hasOwn(b as object, key)) jsonDifferences((a as Record<string, unknown>)[key], (b as Record<string, unknown>)[key], `${path}.${key}`, found, max);
        }
    } else if (a !== b) {
        found.push(`${path}: ${clip(JSON.stringify(a), 80)} vs ${clip(JSON.stringify(b), 80)}`);
    }
    return found;
}

function clip(text: string, length: number): string {
    return text.length > length ? `${text.slice(0, length)}…` : text;
}

// ---------------------------------------------------------------------------------------------------
// Main

async function compareIndexes(name: string, trees: [Tree, Tree], targets: [IndexTarget, IndexTarget], dataset: Dataset, tmp: string, labels: [string, string], informational = false): Promise<Comparison> {
    const shared = (flag: string) => trees.every(tree => tree.flags.has(flag));
    const args = (target: IndexTarget) => [
        '--source', 'none', ...indexArgs(target), '--port', '0', '--workers', '1', '--log-level', 'warn',
        ...(shared('--anon-rps') ? ['--anon-rps', '1000000000'] : []),
        ...dataset.serveArgs.flatMap((value, i, all) => (i % 2 === 0 ? (shared(value) ? [value, all[i + 1]] : []) : [])),
    ];
    const served: Served[] = [];
    const stopAll = async () => { await Promise.all(served.map(s => s.stop())); };
    cleanups.push(stopAll);
    try {
        served.push(...await Promise.all(trees.map((tree, i) => startServe(tree, args(targets[i]), join(tmp, 'logs', `${name.replace(/\W+/g, '-')}-${labels[i]}-serve.log`), true))));
        await settleMetadata(targets);
        const cmp = new Comparison(name, server(labels[0], served[0].url), server(labels[1], served[1].url), informational);
        say(`${name}: ${labels[0]} on ${served[0].url}, ${labels[1]} on ${served[1].url}; comparing`);
        await compareDataset(cmp, dataset, targets[0]);
        say(`${name}: ${cmp.requests} requests compared, ${cmp.differenceCount} with a difference`);
        cmp.a.agent.destroy();
        cmp.b.agent.destroy();
        return cmp;
    } finally {
        await stopAll();
        cleanups.splice(cleanups.indexOf(stopAll), 1);
    }
}

async function main(): Promise<number> {
    let options: Options;
    try {
        options = parseOptions(process.argv.slice(2));
    } catch (error) {
        if (error instanceof UsageError) {
            process.stderr.write(`${error.message ? `${error.message}\n` : ''}${USAGE}\n`);
            return 2;
        }
        throw error;
    }
    changedPaths = options.changed;
    const tmp = mkdtempSync(join(os.tmpdir(), 'compare-answers-'));
    mkdirSync(join(tmp, 'logs'));
    if (options.keep) say(`temporary files kept in ${tmp}`);
    else cleanups.push(() => rmSync(tmp, { recursive: true, force: true }));
    writePinnedClock(tmp);

    const [base, head] = await Promise.all([prepareTree('base', options.base, tmp), prepareTree('head', options.head, tmp)]);
    say(`base: ${base.describe}`);
    say(`head: ${head.describe}`);
    say(`indexes: ${options.pg ? `PostgreSQL on ${options.pg}` : 'SQLite'}; Date.now pinned at ${new Date(pinnedClock!.nowMs).toISOString()} in the imports and API processes`);
    if (options.pg && options.keep) say(`the PostgreSQL databases compare_answers_${process.pid}_* are kept`);

    const backend = options.pg ? 'postgresql' : 'sqlite';
    const databaseName = (what: string) => `compare_answers_${process.pid}_${what}`;
    const datasets: Dataset[] = [];
    if (options.only !== 'devnet') {
        if (existsSync(join(MAINNET_DIR, 'blocks'))) datasets.push(mainnetDataset());
        else if (options.only === 'mainnet') throw new Error(`the mainnet fixtures are not beside this checkout (${MAINNET_DIR})`);
        else say(`mainnet: skipped, the fixtures are not beside this checkout (${MAINNET_DIR})`);
    }
    let devnetOwn: IndexTarget | undefined;
    if (options.only !== 'mainnet') {
        devnetOwn = { label: 'devnet-own', dataDir: join(tmp, 'devnet-own') };
        if (options.pg) devnetOwn.db = (await createDatabases(options.pg, [databaseName('devnet_own')], options.keep))[0];
        const devnet = await devnetDataset(head, tmp, options.devnetSeconds, devnetOwn);
        datasets.push(devnet, {
            ...devnet,
            name: 'devnet-served',
            source: { kind: 'copy', from: devnetOwn },
            note: `the index the head's devnet wrote as it ran (${backend}), a copy for each version`,
        });
    }

    const comparisons: Comparison[] = [];
    for (const dataset of datasets) {
        const targets = ['base', 'head'].map((side): IndexTarget => {
            const dataDir = join(tmp, `${dataset.name}-${side}`);
            mkdirSync(dataDir);
            return { label: side, dataDir };
        }) as [IndexTarget, IndexTarget];
        const source = dataset.source;
        if (options.pg) {
            const template = source.kind === 'copy' ? new URL(source.from.db!).pathname.slice(1) : undefined;
            const urls = await createDatabases(options.pg, ['base', 'head'].map(side => databaseName(`${dataset.name.replace(/\W/g, '_')}_${side}`)), options.keep, template);
            targets[0].db = urls[0];
            targets[1].db = urls[1];
        } else if (source.kind === 'copy') {
            const from = new Database(join(source.from.dataDir, 'index.sqlite'), { readonly: true, fileMustExist: true });
            try {
                for (const target of targets) await from.backup(join(target.dataDir, 'index.sqlite'));
            } finally {
                from.close();
            }
        }
        if (source.kind === 'import') {
            say(`${dataset.name}: ${dataset.note}; each version imports them (${backend})`);
            const importStarted = Date.now();
            const outputs = await Promise.all([base, head].map((tree, i) => runNode(tree, ['import-blocks', ...indexArgs(targets[i]), '--log-level', 'warn', ...dataset.files], {
                log: join(tmp, 'logs', `${dataset.name}-${tree.label}-import.log`), pinned: true,
            })));
            const lastLine = (text: string) => text.trim().split('\n').pop() ?? '';
            say(`${dataset.name}: imported in ${((Date.now() - importStarted) / 1000).toFixed(1)} s: base ${lastLine(outputs[0])}; head ${lastLine(outputs[1])}`);
        } else {
            say(`${dataset.name}: ${dataset.note}`);
            const undone = await alignSchema(base, head, targets[0], join(tmp, 'logs', `${dataset.name}-base-schema.log`));
            if (undone.length > 0) say(`${dataset.name}: the base's copy migrated down past the head's ${undone.join(', ')} (the base does not know them)`);
        }
        comparisons.push(await compareIndexes(`${dataset.name} (${backend})`, [base, head], targets, dataset, tmp, ['base', 'head']));
        if (dataset.name === 'devnet' && devnetOwn && options.checkExport) {
            comparisons.push(await compareIndexes(`devnet: its own index vs the head's import (${backend})`, [head, head], [devnetOwn, targets[1]], dataset, tmp, ['own', 'imported'], true));
        }
    }

    for (const cmp of comparisons) printComparison(cmp, options.show);
    const decisive = comparisons.filter(c => !c.informational);
    const total = decisive.reduce((n, c) => n + c.requests, 0);
    const differing = decisive.reduce((n, c) => n + c.differenceCount, 0);
    const exported = comparisons.find(c => c.informational);
    if (exported) process.stdout.write(`\nexport/import check: ${exported.differenceCount} of ${exported.requests} answers of the devnet's own index differ from the head's import of its blocks (not counted below)\n`);
    process.stdout.write(`\n${differing === 0 ? 'SAME' : 'DIFFERENT'}: ${total} requests compared between base and head in ${decisive.length} comparison(s), ${differing} with a difference; `
        + `${((Date.now() - started) / 1000).toFixed(0)} s in all\n`);
    return differing === 0 ? 0 : 1;
}

main().then(
    async code => {
        await cleanUp();
        process.exit(code);
    },
    async error => {
        process.stderr.write(`compare-answers: ${error instanceof Error ? error.message : String(error)}\n`);
        await cleanUp();
        process.exit(2);
    },
);
