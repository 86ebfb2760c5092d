import type { Store } from '../../store/store.ts';
import { indexHeads, type IndexHead } from '../../store/read/blocks.ts';
import type { ChainHeadInfo } from '../services.ts';
import { GenerationCache } from './generation-cache.ts';

/** The service's own state (spec: status): the index heads beside the chain's. */
export class ServiceAnswers {
    // The heads move only with a block written, which moves the index generation.
    private readonly heads: GenerationCache<IndexHead[]>;

    constructor(private readonly store: Store, private readonly chain: ChainHeadInfo) {
        this.heads = new GenerationCache(async () => new Map([[HEADS, await indexHeads(store.db)]]));
    }

    async status() {
        const heads = (await this.heads.value(HEADS, await this.store.generation()))!;
        const chainHead = this.chain.live ? await this.chain.head() : null;
        const master = heads.find(h => h.workchain === -1) ?? heads[0];
        return {
            source: this.chain.source,
            heads: heads.map(h => {
                const sameShard = chainHead && chainHead.workchain === h.workchain && chainHead.shard === h.shard;
                return {
                    workchain_id: h.workchain,
                    shard: h.shard,
                    seqno: h.seqno,
                    utime: h.utime,
                    chain_seqno: sameShard ? chainHead.seqno : undefined,
                    lag_blocks: sameShard ? Math.max(0, chainHead.seqno - h.seqno) : undefined,
                };
            }),
            lag_seconds: chainHead && master ? Math.max(0, chainHead.utime - master.utime) : undefined,
            ...ingestRate((await this.chain.rate?.()) ?? null),
        };
    }
}

const HEADS = 'heads';

/** Rounded to 0.1 (a rate over the last minute; more digits say nothing). */
function ingestRate(rate: { blocksPerSecond: number; transactionsPerSecond: number } | null) {
    if (!rate) return {};
    return { blocks_per_second: Math.round(rate.blocksPerSecond * 10) / 10, transactions_per_second: Math.round(rate.transactionsPerSecond * 10) / 10 };
}
