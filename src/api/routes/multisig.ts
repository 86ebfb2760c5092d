import type { FastifyInstance } from 'fastify';
import { formatRawAddress } from '../../ton/address.ts';
import { parseAccountId } from '../../ton/input.ts';
import { notFound } from '../errors.ts';
import type { Answers } from '../answers/answers.ts';
import { operation } from './route.ts';

export function multisigRoutes({ accounts }: Answers) {
    return async (app: FastifyInstance) => {
        operation(app, 'getMultisigOrder', async request => {
            const address = formatRawAddress(parseAccountId(request.params.account_id));
            const order = await accounts.multisigOrder(address);
            if (!order) throw notFound(`no multisig order at ${address} in the index`);
            return order;
        });
    };
}
