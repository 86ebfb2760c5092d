import type { FastifyInstance } from 'fastify';
import { parsePublicKey } from '../../ton/input.ts';
import { walletsByPublicKeys } from '../../store/read/wallets.ts';
import { presentWalletsByPublicKeys } from '../../present/wallets.ts';
import type { ApiServices } from '../services.ts';
import { operation } from './route.ts';

export function walletRoutes(services: ApiServices) {
    const { db } = services.store;
    return async (app: FastifyInstance) => {
        operation(app, 'getWalletsByPublicKeyBulk', async request => {
            const keys = (request.body.public_keys as string[]).map(parsePublicKey);
            return presentWalletsByPublicKeys(keys, await walletsByPublicKeys(db, keys));
        });
    };
}
