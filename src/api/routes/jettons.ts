import type { FastifyInstance } from 'fastify';
import { formatRawAddress } from '../../ton/address.ts';
import { parseAccountId } from '../../ton/input.ts';
import { jettonHistory } from '../../store/read/jettons.ts';
import { isCurrentOperationText, presentJettonHistory } from '../present/jetton-history.ts';
import type { ApiServices } from '../services.ts';
import { exactInt } from '../validation.ts';
import { operation } from './route.ts';

export function jettonRoutes(services: ApiServices) {
    const { db } = services.store;
    return async (app: FastifyInstance) => {
        operation(app, 'getAccountJettonsHistory', async request => {
            const account = formatRawAddress(parseAccountId(request.params.account_id));
            const beforeLt = request.query.before_lt !== undefined ? exactInt(request.query.before_lt, "query parameter 'before_lt'") : undefined;
            return presentJettonHistory(await jettonHistory(db, account, beforeLt, Number(request.query.limit), isCurrentOperationText));
        });
    };
}
