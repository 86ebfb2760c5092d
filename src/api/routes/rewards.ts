import type { FastifyInstance } from 'fastify';
import { RoundRewardsError, type RoundSelector } from '../../rewards/service.ts';
import { ApiError, badRequest } from '../errors.ts';
import type { ApiServices } from '../services.ts';
import { operation } from './route.ts';

const STATUS = { bad_request: 400, not_found: 404, not_finished: 409, unavailable: 503 } as const;
const MAX_UINT32 = 0xffffffff;

/** GET /v2/rewards/round-rewards: the reward distribution of a finished validation round (src/rewards). */
export function rewardsRoutes(services: ApiServices) {
    return async (app: FastifyInstance) => {
        operation(app, 'getRoundRewards', async request => {
            const started = performance.now();
            const selector = roundSelector(request.query);
            if (!services.rewards) {
                throw new ApiError(503, 'round rewards are computed from the elector and pool states of a chain, and this process reads no chain (--source none); '
                    + 'run the service with --source devnet or --source lite');
            }
            try {
                const result = await services.rewards.roundRewards(selector, { shallow: request.query.shallow === true });
                return { response_time_ms: Math.floor(performance.now() - started), ...result };
            } catch (error) {
                if (error instanceof RoundRewardsError) throw new ApiError(STATUS[error.kind], error.message);
                throw error;
            }
        });
    };
}

function roundSelector(query: Record<string, unknown>): RoundSelector {
    const given = (['election_id', 'block', 'unixtime'] as const).filter(name => query[name] !== undefined);
    if (given.length > 1) {
        throw badRequest(`election_id, block and unixtime are mutually exclusive: give one of them (or none for the last finished round); got ${given.join(', ')}`);
    }
    if (query.election_id !== undefined) {
        const id = Number(query.election_id);
        if (!Number.isSafeInteger(id) || id < 0 || id > MAX_UINT32) throw badRequest(`query parameter 'election_id' must be a unix time (0 to ${MAX_UINT32}); got ${String(query.election_id)}`);
        return { electionId: id };
    }
    if (query.block !== undefined) return { block: Number(query.block) };
    if (query.unixtime !== undefined) return { unixtime: Number(query.unixtime) };
    return { last: true };
}
