import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

/** Connections of a database pool (PostgreSQL); SQLite has one connection and reports none. */
export interface PoolUse {
    total: number;
    idle: number;
    /** Queries waiting for a connection. */
    waiting: number;
    max: number;
}

/** A masterchain block: its seqno and generation time (unix seconds). */
export interface MasterchainPoint {
    seqno: number;
    utime: number;
}

export interface IngestView {
    /** The last masterchain block in the index. */
    lastIndexed(): Promise<MasterchainPoint | null>;
    /** The chain source's masterchain head; absent in a process without a chain source. */
    sourceHead?: () => Promise<MasterchainPoint | null>;
    /** Blocks and transactions indexed per second recently; absent without an indexer. */
    rate?: () => { blocksPerSecond: number; transactionsPerSecond: number } | null;
}

const LATENCY_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];

/**
 * The metrics of one service instance, in a registry of its own (several services can run in one
 * process, as tests do). Values read at scrape time (lag, rates, pool use) come from the sources
 * given to `watchIngest` and `watchPool`.
 */
export class ServiceMetrics {
    readonly registry = new Registry();
    private readonly requestDuration: Histogram<'operation' | 'method' | 'status'>;
    private readonly emulations: Counter<'endpoint' | 'outcome'>;
    private readonly blocks: Counter<'workchain'>;
    private readonly transactions: Counter;
    private readonly renderFailures: Counter;
    private renderFailureLogged = false;
    private ingestWatched = false;
    private poolWatched = false;

    constructor() {
        const registers = [this.registry];
        collectDefaultMetrics({ register: this.registry });
        this.requestDuration = new Histogram({
            name: 'http_request_duration_seconds',
            help: 'Time to answer an HTTP request, by operation (OpenAPI operationId, or the route of an undocumented one; "unmatched" when no route matched), method and status code',
            labelNames: ['operation', 'method', 'status'],
            buckets: LATENCY_BUCKETS,
            registers,
        });
        this.emulations = new Counter({
            name: 'emulations_total',
            help: 'Emulation requests by endpoint (operationId) and outcome: ok, an emulation failure kind (invalid_input, rejected, insufficient_funds, too_many_transactions, timeout, unavailable), invalid_request or error',
            labelNames: ['endpoint', 'outcome'],
            registers,
        });
        this.blocks = new Counter({ name: 'ingest_blocks_total', help: 'Blocks indexed by this process, by workchain', labelNames: ['workchain'], registers });
        this.transactions = new Counter({ name: 'ingest_transactions_total', help: 'Transactions indexed by this process', registers });
        this.renderFailures = new Counter({
            name: 'ingest_render_failures_total',
            help: 'Transactions indexed without their stored text because making it failed (a presenter bug: they are presented from their BOCs when read, more slowly)',
            registers,
        });
    }

    get contentType(): string {
        return this.registry.contentType;
    }

    /** The registry in the Prometheus text format. */
    text(): Promise<string> {
        return this.registry.metrics();
    }

    observeRequest(operation: string, method: string, status: number, seconds: number): void {
        this.requestDuration.observe({ operation, method, status: String(status) }, seconds);
    }

    countEmulation(endpoint: string, outcome: string): void {
        this.emulations.inc({ endpoint, outcome });
    }

    countIndexed(workchain: number, transactions: number): void {
        this.blocks.inc({ workchain: String(workchain) });
        if (transactions > 0) this.transactions.inc(transactions);
    }

    /**
     * Transactions of block `block` indexed without their stored text: counted, and the first such
     * failure of the process logged with its reason (the count tells how many followed).
     */
    countRenderFailures(block: string, failures: string[], log: (line: string) => void): void {
        this.renderFailures.inc(failures.length);
        if (this.renderFailureLogged) return;
        this.renderFailureLogged = true;
        log(`ingest: block ${block}: ${failures.length} transaction text(s) could not be made, first ${failures[0]}; `
            + 'they are served decoded from their BOCs; further failures are counted in ingest_render_failures_total, not logged');
    }

    /** Ingest lag and rates, read at each scrape. */
    watchIngest(view: IngestView): void {
        if (this.ingestWatched) throw new Error('ingest is already watched');
        this.ingestWatched = true;
        const registers = [this.registry];
        const lastIndexed = async () => {
            try {
                return await view.lastIndexed();
            } catch {
                return null;
            }
        };
        new Gauge({
            name: 'ingest_lag_seconds',
            help: 'Seconds since the generation time of the last masterchain block in the index (no sample while the index is empty)',
            registers,
            async collect() {
                const last = await lastIndexed();
                if (last) this.set(Math.max(0, Date.now() / 1000 - last.utime));
                else this.remove();
            },
        });
        new Gauge({
            name: 'ingest_last_indexed_masterchain_seqno',
            help: 'Seqno of the last masterchain block in the index (0 while it is empty)',
            registers,
            async collect() {
                this.set((await lastIndexed())?.seqno ?? 0);
            },
        });
        const sourceHead = view.sourceHead;
        if (sourceHead) {
            new Gauge({
                name: 'ingest_lag_blocks',
                help: 'Masterchain blocks the index is behind the chain source\'s head (no sample while either is unknown)',
                registers,
                async collect() {
                    const [head, last] = await Promise.all([sourceHead().catch(() => null), lastIndexed()]);
                    if (head && last) this.set(Math.max(0, head.seqno - last.seqno));
                    else this.remove();
                },
            });
        }
        const rate = view.rate;
        if (rate) {
            new Gauge({
                name: 'ingest_blocks_per_second',
                help: 'Blocks indexed per second over the last minute',
                registers,
                collect() {
                    this.set(rate()?.blocksPerSecond ?? 0);
                },
            });
            new Gauge({
                name: 'ingest_transactions_per_second',
                help: 'Transactions indexed per second over the last minute',
                registers,
                collect() {
                    this.set(rate()?.transactionsPerSecond ?? 0);
                },
            });
        }
    }

    /** Database pool gauges, read at each scrape. */
    watchPool(use: () => PoolUse): void {
        if (this.poolWatched) throw new Error('the pool is already watched');
        this.poolWatched = true;
        const registers = [this.registry];
        const gauge = (name: string, help: string, read: (pool: PoolUse) => number) => new Gauge({
            name, help, registers,
            collect() {
                this.set(read(use()));
            },
        });
        gauge('db_pool_connections', 'Open connections of the database pool', pool => pool.total);
        gauge('db_pool_idle_connections', 'Idle connections of the database pool', pool => pool.idle);
        gauge('db_pool_waiting_queries', 'Queries waiting for a connection of the database pool', pool => pool.waiting);
        gauge('db_pool_max_connections', 'Most connections the database pool opens', pool => pool.max);
    }
}
