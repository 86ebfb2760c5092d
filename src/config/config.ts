import { availableParallelism } from 'node:os';
import { resolve } from 'node:path';
import { LOG_LEVELS, type LogLevel } from '../observability/logging.ts';
import { DEFAULT_HEAP_GROWTH_PERCENT } from '../heap-settings.ts';
import { DEFAULT_RECENT_ACCOUNTS, defaultReadingThreads, MAX_DEVNET_SHARDS } from './defaults.ts';

export type SourceKind = 'devnet' | 'lite' | 'none';

export interface ServiceConfig {
    host: string;
    port: number;
    dataDir: string;
    /** Empty = SQLite file in the data directory. */
    databaseUrl: string;
    source: SourceKind;
    /** `--source lite`: a TON global config (file or http(s) URL) naming the liteservers to follow. */
    liteservers: string;
    /** `--source lite`, new index: the masterchain seqno to start at (null: see fromUtime, else the head). */
    fromSeqno: number | null;
    /** `--source lite`, new index: start at the first masterchain block at or after this unix time. */
    fromUtime: number | null;
    /** The devnet's liteserver port (ADNL over TCP); null = no liteserver. */
    liteserverPort: number | null;
    blockIntervalMs: number;
    /** A new devnet's validator round in seconds (config param 15 of its genesis; a chain keeps its own). */
    roundSeconds: number;
    /** How many validators a new devnet has (its genesis keeps them; a chain keeps its own). */
    validators: number;
    /** About how many accounts the devnet keeps in memory (those used last; the rest are loaded from its chain log when used). */
    devnetRecentAccounts: number;
    /** How many basechain shards a new devnet has (a power of two; null: one, or an existing chain's own). */
    shards: number | null;
    /** Threads that read the devnet's blocks (parse them) ahead of the indexer; 0 = read in the indexer's own thread. */
    readingThreads: number;
    /**
     * Whether the block reader makes each transaction's text as the API shows it, stored with it, so
     * block lists, account pages and traces are put together without decoding (present/stored/transaction-template.ts).
     */
    transactionTexts: boolean;
    /** Finished rounds whose round-rewards answers are kept in memory (0 = none: every request reads the chain). */
    rewardsCacheRounds: number;
    /** Largest faucet transfer, nanograms. */
    faucetCap: bigint;
    logRequests: boolean;
    /** Structured (JSON) log lines at this level and above go to stderr; `--log` adds a line per request. */
    logLevel: LogLevel;
    /** On SIGTERM/SIGINT, how long requests in flight may take to finish before their connections are closed, ms. */
    shutdownTimeoutMs: number;
    /** `serve`: API worker processes sharing the port (the chain writer runs in the primary); 1 = one process doing both. */
    workers: number;
    /** `serve --workers N` (N > 1): the API workers' V8 semi-space, MB (their young generation); 0 = the primary's node flags. */
    workerSemiSpaceMb: number;
    /**
     * How far past its live objects each V8 heap of the process may grow, percent; 0 = V8's own; null =
     * the default cap in the process that runs the chain writer, V8's own in API-only processes (heap-settings.ts).
     */
    heapGrowthPercent: number | null;
    /** Most transactions one emulation may run. */
    emulationMaxTransactions: number;
    /** Wall-clock budget of one emulation, ms. */
    emulationTimeoutMs: number;
    /** Exchange rates for wallet emulation: a JSON file or an http(s) URL; empty = the devnet's example table on a devnet, else none. */
    rates: string;
    /** Extra currency table (symbols, names, decimals, images by currency id): a JSON file; empty = the devnet's table on a devnet, else none. */
    extraCurrencies: string;
    /** Outbound fetches (off-chain metadata, rates URL) may reach private, loopback and link-local addresses; null = only on a devnet (it serves its own metadata on loopback). */
    allowPrivateFetch: boolean | null;
    /** Where client commands (sign-transfer) find the running service; empty = this config's host and port. */
    apiUrl: string;
    /** `--api-keys`: a JSON file of `{key, name, rps}` (reloaded on SIGHUP); empty = no keys. */
    apiKeys: string;
    /** Requests per second per client address without an API key; 0 = a key is required; null = by source (see anonymousRps). */
    anonRps: number | null;
    /** Rate limit counters shared through this Redis (redis://…); empty = in this process's memory. */
    redisUrl: string;
    /** Origins browsers may call the API from; `['*']` = any. */
    corsOrigins: string[];
    /** Longest a request may run before it is answered 503, ms (emulations get at least their own budget and a second more). */
    requestTimeoutMs: number;
    /** Proxies whose X-Forwarded-For names the client (per-address limits): addresses/CIDRs, or a hop count; null = none. */
    trustProxy: string[] | number | null;
}

interface Setting<K extends keyof ServiceConfig> {
    key: K;
    flag: string;
    env: string;
    parse: (raw: string) => ServiceConfig[K];
    describe: string;
}

export class ConfigError extends Error {
    override readonly name = 'ConfigError';
}

function integer(name: string, min: number, max: number) {
    return (raw: string): number => {
        const value = Number(raw);
        if (!Number.isInteger(value) || value < min || value > max) throw new ConfigError(`${name} must be an integer from ${min} to ${max}, got '${raw}'`);
        return value;
    };
}

function shardCount(raw: string): number {
    const value = integer('shards', 1, MAX_DEVNET_SHARDS)(raw);
    if ((value & (value - 1)) !== 0) throw new ConfigError(`shards must be a power of two (1, 2, 4, 8 or 16), got '${raw}'`);
    return value;
}

function onOff(name: string) {
    return (raw: string): boolean => {
        const value = raw.trim().toLowerCase();
        if (value === 'on' || value === 'true' || value === '1') return true;
        if (value === 'off' || value === 'false' || value === '0') return false;
        throw new ConfigError(`${name} must be on or off, got '${raw}'`);
    };
}

/** Anonymous requests per second per address: a devnet is a developer's own, a public follower is shared. */
export const DEVNET_ANON_RPS = 10_000;
export const PUBLIC_ANON_RPS = 10;

export function anonymousRps(config: Pick<ServiceConfig, 'anonRps' | 'source'>): number {
    return config.anonRps ?? (config.source === 'devnet' ? DEVNET_ANON_RPS : PUBLIC_ANON_RPS);
}

function corsOrigins(raw: string): string[] {
    const origins = raw.split(',').map(o => o.trim()).filter(o => o !== '');
    if (origins.length === 0) throw new ConfigError('cors-origins must be * or a comma-separated list of origins such as https://explorer.example');
    for (const origin of origins) {
        if (origin !== '*' && !/^https?:\/\/[^/\s?#]+$/.test(origin)) throw new ConfigError(`cors-origins: '${origin}' is not an origin; write scheme and host (and port) only, e.g. https://explorer.example or http://localhost:3000`);
    }
    return origins.includes('*') ? ['*'] : origins;
}

function trustedProxies(raw: string): string[] | number {
    if (/^\d+$/.test(raw)) return integer('trust-proxy hop count', 1, 100)(raw);
    const proxies = raw.split(',').map(p => p.trim()).filter(p => p !== '');
    for (const proxy of proxies) {
        if (!/^[0-9a-fA-F.:]+(\/\d{1,3})?$/.test(proxy)) throw new ConfigError(`trust-proxy: '${proxy}' is not an IP address or CIDR; give e.g. 127.0.0.1,10.0.0.0/8, or a hop count`);
    }
    if (proxies.length === 0) throw new ConfigError('trust-proxy needs addresses, CIDRs or a hop count');
    return proxies;
}

const SETTINGS: Setting<keyof ServiceConfig>[] = [
    { key: 'host', flag: '--host', env: 'HOST', parse: String, describe: 'address to listen on (default 127.0.0.1)' },
    { key: 'port', flag: '--port', env: 'PORT', parse: integer('port', 0, 65535), describe: 'HTTP port (default 8081)' },
    { key: 'dataDir', flag: '--data-dir', env: 'DATA_DIR', parse: raw => resolve(raw), describe: 'data directory (default ./data)' },
    { key: 'databaseUrl', flag: '--db', env: 'DATABASE_URL', parse: String, describe: 'index database: a SQLite file path, or postgres://… (default <data dir>/index.sqlite)' },
    {
        key: 'source', flag: '--source', env: 'SOURCE', describe: 'chain source: devnet (default), lite (follow liteservers, see --liteservers) or none (serve an existing index)',
        parse: raw => {
            if (raw !== 'devnet' && raw !== 'lite' && raw !== 'none') throw new ConfigError(`source must be 'devnet', 'lite' or 'none', got '${raw}'`);
            return raw;
        },
    },
    { key: 'liteservers', flag: '--liteservers', env: 'LITESERVERS', parse: String, describe: 'for --source lite: a TON global config file or http(s) URL (e.g. https://ton.org/global-config.json)' },
    { key: 'fromSeqno', flag: '--from-seqno', env: 'FROM_SEQNO', parse: integer('from-seqno', 1, 2 ** 31 - 1), describe: 'for --source lite, a new index starts at this masterchain seqno (default: the head)' },
    { key: 'fromUtime', flag: '--from-utime', env: 'FROM_UTIME', parse: integer('from-utime', 1, 2 ** 32 - 1), describe: 'for --source lite, a new index starts at the first masterchain block at or after this unix time' },
    {
        key: 'liteserverPort', flag: '--liteserver-port', env: 'LITESERVER_PORT', describe: 'devnet liteserver port, ADNL over TCP on --host (default 8082; off = none)',
        parse: raw => (raw === 'off' ? null : integer('liteserver port', 0, 65535)(raw)),
    },
    { key: 'blockIntervalMs', flag: '--block-interval-ms', env: 'BLOCK_INTERVAL_MS', parse: integer('block interval', 10, 600_000), describe: 'devnet block interval in ms (default 1000)' },
    {
        key: 'roundSeconds', flag: '--round-seconds', env: 'ROUND_SECONDS', parse: integer('round length', 40, 10_000_000),
        describe: 'a new devnet\'s validator round in seconds: elections open half a round before its end, stakes return a quarter round after (default 120)',
    },
    {
        key: 'validators', flag: '--validators', env: 'VALIDATORS', parse: integer('validators', 3, 400),
        describe: 'how many validators a new devnet has: one staking through a nominator pool, one through a single-nominator pool, the rest from their wallets (default 3)',
    },
    {
        key: 'shards', flag: '--shards', env: 'SHARDS', parse: shardCount,
        describe: `basechain shards of a new devnet, a power of two from 1 to ${MAX_DEVNET_SHARDS}: it starts as one and splits into them in its first blocks; a chain keeps its own (default 1)`,
    },
    {
        key: 'devnetRecentAccounts', flag: '--devnet-recent-accounts', env: 'DEVNET_RECENT_ACCOUNTS', parse: integer('devnet recent accounts', 1, 100_000_000),
        describe: 'about how many accounts the devnet keeps in memory, those used last; the others are loaded from its chain log when a message reaches them (default 20000)',
    },
    {
        key: 'readingThreads', flag: '--reading-threads', env: 'READING_THREADS', parse: integer('reading threads', 0, 64),
        describe: 'threads that read (parse) the devnet\'s blocks ahead of the indexer (default: one a core, at most 4; 0 = in the indexer\'s thread)',
    },
    {
        key: 'transactionTexts', flag: '--transaction-texts', env: 'TRANSACTION_TEXTS', parse: onOff('transaction texts'),
        describe: 'on: store each transaction\'s text as the API shows it when its block is indexed, so block lists, account pages and traces are answered without decoding (~2.7 KB of index a devnet transaction, ~9 % of ingest, 9–18 % of the tx/s of a fully loaded devnet); off: decode them when read (default on)',
    },
    {
        key: 'rewardsCacheRounds', flag: '--rewards-cache-rounds', env: 'REWARDS_CACHE_ROUNDS', parse: integer('rewards cache rounds', 0, 10_000),
        describe: 'finished rounds whose round-rewards answers are kept in memory (default 32; 0 = none, every request reads the chain)',
    },
    {
        key: 'faucetCap', flag: '--faucet-cap', env: 'FAUCET_CAP', describe: 'largest devnet faucet transfer in nanograms (default 1000 gram)',
        parse: raw => {
            if (!/^\d{1,20}$/.test(raw)) throw new ConfigError(`faucet cap must be a whole number of nanograms, got '${raw}'`);
            return BigInt(raw);
        },
    },
    { key: 'emulationMaxTransactions', flag: '--emulation-max-transactions', env: 'EMULATION_MAX_TRANSACTIONS', parse: integer('emulation transaction limit', 1, 100_000), describe: 'most transactions one emulation may run (default 1000; more answers 413)' },
    { key: 'emulationTimeoutMs', flag: '--emulation-timeout-ms', env: 'EMULATION_TIMEOUT_MS', parse: integer('emulation timeout', 10, 600_000), describe: 'wall-clock budget of one emulation in ms (default 10000; more answers 504)' },
    { key: 'rates', flag: '--rates', env: 'RATES', parse: String, describe: 'exchange rates for wallet emulation: JSON file or http(s) URL (default: the example table on a devnet, none otherwise)' },
    {
        key: 'extraCurrencies', flag: '--extra-currencies', env: 'EXTRA_CURRENCIES', parse: String,
        describe: 'extra currency table: JSON file of symbol, name, decimals and image by currency id (default: the devnet\'s on a devnet, none otherwise)',
    },
    {
        key: 'apiUrl', flag: '--api', env: 'API_URL', describe: 'the running service, for sign-transfer (default http://<host>:<port>)',
        parse: raw => {
            if (!/^https?:\/\/[^/\s]+/.test(raw)) throw new ConfigError(`api must be an http(s) URL such as http://127.0.0.1:8081, got '${raw}'`);
            return raw.replace(/\/+$/, '');
        },
    },
    {
        key: 'allowPrivateFetch', flag: '--allow-private-fetch', env: 'ALLOW_PRIVATE_FETCH',
        parse: raw => {
            if (!/^(1|true|0|false)?$/.test(raw)) throw new ConfigError(`allow-private-fetch must be true or false, got '${raw}'`);
            return raw === '' || raw === '1' || raw === 'true';
        },
        describe: 'let off-chain metadata and rates URLs reach private, loopback and link-local addresses (default: on for a devnet, off otherwise; =false turns it off)',
    },
    {
        key: 'apiKeys', flag: '--api-keys', env: 'API_KEYS', parse: raw => resolve(raw),
        describe: 'JSON file of API keys, a list of {"key", "name", "rps"}; clients send Authorization: Bearer <key>; reloaded on SIGHUP (default: none, all clients anonymous)',
    },
    {
        key: 'anonRps', flag: '--anon-rps', env: 'ANON_RPS', parse: integer('anon-rps', 0, 1_000_000_000),
        describe: `requests per second per client address without an API key (default ${DEVNET_ANON_RPS} on a devnet, ${PUBLIC_ANON_RPS} otherwise; 0 = an API key is required)`,
    },
    {
        key: 'redisUrl', flag: '--redis', env: 'REDIS_URL', describe: 'share rate limits between API processes through this Redis, e.g. redis://127.0.0.1:6379 (default: limits in each process\'s memory)',
        parse: raw => {
            if (!/^rediss?:\/\/\S+$/.test(raw)) throw new ConfigError(`redis must be a redis:// or rediss:// URL such as redis://127.0.0.1:6379, got '${raw}'`);
            return raw;
        },
    },
    {
        key: 'corsOrigins', flag: '--cors-origins', env: 'CORS_ORIGINS', parse: corsOrigins,
        describe: 'origins browsers may call the API from: * (default) or a comma-separated list such as https://a.example,https://b.example',
    },
    {
        key: 'trustProxy', flag: '--trust-proxy', env: 'TRUST_PROXY', parse: trustedProxies,
        describe: 'reverse proxies whose X-Forwarded-For names the client, for per-address limits: comma-separated addresses or CIDRs (e.g. 127.0.0.1,10.0.0.0/8), or a hop count (default: none)',
    },
    {
        key: 'requestTimeoutMs', flag: '--request-timeout-ms', env: 'REQUEST_TIMEOUT_MS', parse: integer('request timeout', 100, 3_600_000),
        describe: 'longest a request may run before it is answered 503, in ms (default 30000; emulations always get --emulation-timeout-ms plus a second)',
    },
    { key: 'logRequests', flag: '--log', env: 'LOG_REQUESTS', parse: raw => raw === '' || raw === '1' || raw === 'true', describe: 'log every request (default off; also on at --log-level debug or trace)' },
    {
        key: 'logLevel', flag: '--log-level', env: 'LOG_LEVEL', describe: `JSON log lines on stderr at this level and above: ${LOG_LEVELS.join(', ')} (default info)`,
        parse: raw => {
            if (!(LOG_LEVELS as readonly string[]).includes(raw)) throw new ConfigError(`log level must be one of ${LOG_LEVELS.join(', ')}, got '${raw}'`);
            return raw as LogLevel;
        },
    },
    {
        key: 'shutdownTimeoutMs', flag: '--shutdown-timeout-ms', env: 'SHUTDOWN_TIMEOUT_MS', parse: integer('shutdown timeout', 0, 600_000),
        describe: 'on SIGTERM/SIGINT, how long requests in flight may take to finish before their connections are closed, in ms (default 10000)',
    },
    {
        key: 'workers', flag: '--workers', env: 'WORKERS', parse: integer('workers', 1, 1024),
        describe: `serve: API worker processes sharing the port, over the same index; the chain source and indexer run once, in the primary (default: the number of cores, ${availableParallelism()} here; 1 = one process)`,
    },
    {
        key: 'workerSemiSpaceMb', flag: '--worker-semi-space-mb', env: 'WORKER_SEMI_SPACE_MB', parse: integer('worker semi-space MB', 0, 1024),
        describe: 'serve --workers N: the API workers\' young-generation semi-space in MB: small, so that collections pause answers less (default 16; 0 = the node flags the primary runs with)',
    },
    {
        key: 'heapGrowthPercent', flag: '--heap-growth-percent', env: 'HEAP_GROWTH_PERCENT', parse: integer('heap growth percent', 0, 1000),
        describe: `how far past its live objects V8 lets each heap of a process grow before a full collection, in percent: lower keeps the devnet\'s and the indexer\'s memory near what they hold, at some CPU (default ${DEFAULT_HEAP_GROWTH_PERCENT} in the process running the chain source and indexer, V8\'s own in API-only processes, whose answers its full collections would pause; a value given applies to every process; 0 = V8\'s own choice, up to 4 times)`,
    },
];

export const DEFAULT_CONFIG: ServiceConfig = {
    host: '127.0.0.1',
    port: 8081,
    dataDir: resolve('data'),
    databaseUrl: '',
    source: 'devnet',
    liteservers: '',
    fromSeqno: null,
    fromUtime: null,
    liteserverPort: 8082,
    blockIntervalMs: 1000,
    roundSeconds: 120,
    validators: 3,
    devnetRecentAccounts: DEFAULT_RECENT_ACCOUNTS,
    shards: null,
    readingThreads: defaultReadingThreads(),
    transactionTexts: true,
    rewardsCacheRounds: 32,
    faucetCap: 1000n * 1_000_000_000n,
    logRequests: false,
    logLevel: 'info',
    shutdownTimeoutMs: 10_000,
    workers: availableParallelism(),
    workerSemiSpaceMb: 16,
    heapGrowthPercent: null,
    emulationMaxTransactions: 1000,
    emulationTimeoutMs: 10_000,
    rates: '',
    extraCurrencies: '',
    apiUrl: '',
    apiKeys: '',
    anonRps: null,
    redisUrl: '',
    corsOrigins: ['*'],
    requestTimeoutMs: 30_000,
    trustProxy: null,
    allowPrivateFetch: null,
};

/** Flags win over environment variables, which win over defaults. Returns the config and the non-flag arguments. */
export function loadConfig(argv: string[], env: NodeJS.ProcessEnv = process.env): { config: ServiceConfig; rest: string[] } {
    const config: ServiceConfig = { ...DEFAULT_CONFIG };
    const assign = <K extends keyof ServiceConfig>(setting: Setting<K>, raw: string) => {
        config[setting.key] = setting.parse(raw);
    };
    for (const setting of SETTINGS) {
        const raw = env[setting.env];
        if (raw !== undefined && raw !== '') assign(setting, raw);
    }
    const rest: string[] = [];
    for (let i = 0; i < argv.length; i++) {
        const arg = argv[i];
        const [name, inline] = arg.includes('=') ? [arg.slice(0, arg.indexOf('=')), arg.slice(arg.indexOf('=') + 1)] : [arg, undefined];
        const setting = SETTINGS.find(s => s.flag === name);
        if (!setting) {
            if (arg.startsWith('--') && arg !== '--bounce') throw new ConfigError(`unknown option ${name}; options: ${SETTINGS.map(s => s.flag).join(', ')}`);
            rest.push(arg);
            continue;
        }
        if ((setting.key === 'logRequests' || setting.key === 'allowPrivateFetch') && inline === undefined) {
            assign(setting, '1');
            continue;
        }
        const value = inline ?? argv[++i];
        if (value === undefined) throw new ConfigError(`option ${name} needs a value`);
        assign(setting, value);
    }
    if (config.apiUrl === '') config.apiUrl = `http://${clientHost(config.host)}:${config.port}`;
    if (config.source === 'lite' && config.liteservers === '') throw new ConfigError('--source lite needs --liteservers FILE|URL (a TON global config, e.g. https://ton.org/global-config.json for mainnet)');
    if (config.fromSeqno !== null && config.fromUtime !== null) throw new ConfigError('give --from-seqno or --from-utime, not both');
    return { config, rest };
}

/** The address a client on this machine reaches a server listening on `host` at. */
export function clientHost(host: string): string {
    if (host === '0.0.0.0' || host === '::' || host === '') return '127.0.0.1';
    return host.includes(':') ? `[${host}]` : host;
}

export function configHelp(): string {
    return SETTINGS.map(s => `  ${`${s.flag} / ${s.env}`.padEnd(38)} ${s.describe}`).join('\n');
}
