import type { FastifyInstance } from 'fastify';
import { formatRawAddress } from '../../ton/address.ts';
import { parseAccountId } from '../../ton/input.ts';
import { multisigOrder } from '../../store/read/multisig-orders.ts';
import { notFound } from '../errors.ts';
import { presentMultisigOrder } from '../../present/multisig-order.ts';
import type { ApiServices } from '../services.ts';
import { operation } from './route.ts';

export function multisigRoutes(services: ApiServices) {
    const { db } = services.store;
    return async (app: FastifyInstance) => {
        operation(app, 'getMultisigOrder', async request => {
            const address = formatRawAddress(parseAccountId(request.params.account_id));
            const order = await multisigOrder(db, address);
            if (!order) throw notFound(`no multisig order at ${address} in the index`);
            return presentMultisigOrder(order);
        });
    };
}
