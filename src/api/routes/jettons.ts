import type { FastifyInstance } from 'fastify';
import { formatRawAddress } from '../../ton/address.ts';
import { parseAccountId } from '../../ton/input.ts';
import { jettonHistory, jettonMetadata } from '../../store/read/jettons.ts';
import { accountInterfaces } from '../../store/read/accounts.ts';
import type { JettonMetadata } from '../../ton/jetton/jetton-preview.ts';
import { LookupsAtGeneration } from '../answers/lookups-at-generation.ts';
import { presentJettonHistory } from '../../present/jetton-history.ts';
import { isCurrentOperationText } from '../../present/stored/jetton-operation-text.ts';
import type { ApiServices } from '../services.ts';
import { exactInt } from '../validation.ts';
import { operation } from './route.ts';

export function jettonRoutes(services: ApiServices) {
    const { db } = services.store;
    // A page's parties and jettons are mostly the same few from one request to the next.
    const interfaces = new LookupsAtGeneration<string[]>(accounts => accountInterfaces(db, accounts));
    const jettons = new LookupsAtGeneration<JettonMetadata>(masters => jettonMetadata(db, masters));
    return async (app: FastifyInstance) => {
        operation(app, 'getAccountJettonsHistory', async request => {
            const account = formatRawAddress(parseAccountId(request.params.account_id));
            const beforeLt = request.query.before_lt !== undefined ? exactInt(request.query.before_lt, "query parameter 'before_lt'") : undefined;
            const generation = await services.store.generation();
            return presentJettonHistory(await jettonHistory(db, account, beforeLt, Number(request.query.limit), {
                textUsable: isCurrentOperationText,
                interfaces: accounts => interfaces.read(accounts, generation),
                jettons: masters => jettons.read(masters, generation),
            }));
        });
    };
}
