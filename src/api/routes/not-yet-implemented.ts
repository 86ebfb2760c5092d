import type { FastifyInstance } from 'fastify';
import { ApiError, badRequest } from '../errors.ts';
import { operation } from './route.ts';

/**
 * Operations the document describes that this service cannot answer yet. They are real routes:
 * their input is validated like any other operation's (a bad value stays a 400), and then they
 * answer 501 with the error body instead of the router's 404 "no such endpoint".
 */
export function notYetImplementedRoutes() {
    return async (app: FastifyInstance) => {
        operation(app, 'getRoundRewards', async (request) => {
            const selectors = ['election_id', 'block', 'unixtime'].filter(name => request.query[name] !== undefined);
            if (selectors.length !== 1) {
                throw badRequest(`give exactly one of the query parameters election_id, block and unixtime to select the round${selectors.length > 1 ? `; got ${selectors.join(', ')}` : ''}`);
            }
            throw notImplemented('round rewards (GET /v2/rewards/round-rewards) are not implemented yet in this service');
        });
    };
}

function notImplemented(message: string): ApiError {
    return new ApiError(501, message);
}
