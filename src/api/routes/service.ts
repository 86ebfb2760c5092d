import type { FastifyInstance } from 'fastify';
import { indexHeads, type IndexHead } from '../../store/read/blocks.ts';
import { openapiDocument, openapiYaml } from '../openapi/document.ts';
import type { ApiServices } from '../services.ts';
import { operation } from './route.ts';

export function serviceRoutes(services: ApiServices) {
    return async (app: FastifyInstance) => {
        operation(app, 'getOpenapiJson', async () => openapiDocument);
        operation(app, 'getOpenapiYml', async (_request, reply) => reply.type('application/yaml; charset=utf-8').serializer(String).send(openapiYaml));

        // The heads move only with a block written, which moves the index generation.
        let kept: { generation: bigint; heads: Promise<IndexHead[]> } | null = null;
        const indexHeadsNow = async () => {
            const generation = await services.store.generation();
            if (kept?.generation !== generation) {
                const heads = indexHeads(services.store.db);
                kept = { generation, heads };
                heads.catch(() => {
                    if (kept?.heads === heads) kept = null;
                });
            }
            return kept.heads;
        };

        operation(app, 'getStatus', async () => {
            const heads = await indexHeadsNow();
            const chainHead = services.chain.live ? await services.chain.head() : null;
            const master = heads.find(h => h.workchain === -1) ?? heads[0];
            return {
                source: services.chain.source,
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
                ...ingestRate((await services.chain.rate?.()) ?? null),
            };
        });
    };
}

/** Rounded to 0.1 (a rate over the last minute; more digits say nothing). */
function ingestRate(rate: { blocksPerSecond: number; transactionsPerSecond: number } | null) {
    if (!rate) return {};
    return { blocks_per_second: Math.round(rate.blocksPerSecond * 10) / 10, transactions_per_second: Math.round(rate.transactionsPerSecond * 10) / 10 };
}
