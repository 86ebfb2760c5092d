import type { FastifyInstance } from 'fastify';
import { formatRawAddress } from '../../ton/address.ts';
import { parseAccountId } from '../../ton/input.ts';
import type { Answers } from '../answers/answers.ts';
import { exactInt } from '../validation.ts';
import { operation } from './route.ts';

export function jettonRoutes({ jettons }: Answers) {
    return async (app: FastifyInstance) => {
        operation(app, 'getAccountJettonsHistory', async request => {
            const account = formatRawAddress(parseAccountId(request.params.account_id));
            const beforeLt = request.query.before_lt !== undefined ? exactInt(request.query.before_lt, "query parameter 'before_lt'") : undefined;
            return jettons.history(account, beforeLt, Number(request.query.limit));
        });
    };
}
