import { Counter, Gauge } from 'prom-client';
import { ServiceMetrics } from '../observability/metrics.ts';

/**
 * An API worker's metrics. Its own series (requests, emulations, its process and pool) are what it
 * gives the primary for aggregation; `/metrics`, on whichever worker it lands, answers the primary's
 * sum over every worker and the primary itself. Two series keep the workers apart:
 * `api_worker_requests_total{worker}` and `api_worker_info{worker,pid}`.
 */
export class WorkerMetrics extends ServiceMetrics {
    private readonly answered: Counter<'worker'>;

    constructor(private readonly worker: string, private readonly clusterText: () => Promise<string>) {
        super();
        const registers = [this.registry];
        this.answered = new Counter({
            name: 'api_worker_requests_total',
            help: 'HTTP requests answered by each API worker process (serve --workers), by cluster worker id; a restarted worker gets a new id',
            labelNames: ['worker'],
            registers,
        });
        this.answered.inc({ worker }, 0);
        new Gauge({ name: 'api_worker_info', help: 'One sample per running API worker process: its cluster worker id and process id', labelNames: ['worker', 'pid'], registers })
            .set({ worker, pid: String(process.pid) }, 1);
    }

    override observeRequest(operation: string, method: string, status: number, seconds: number): void {
        super.observeRequest(operation, method, status, seconds);
        this.answered.inc({ worker: this.worker });
    }

    /** What `/metrics` serves: the whole cluster's, aggregated by the primary. */
    override text(): Promise<string> {
        return this.clusterText();
    }
}
