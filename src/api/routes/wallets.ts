import type { FastifyInstance } from 'fastify';
import { parsePublicKey } from '../../ton/input.ts';
import type { Answers } from '../answers/answers.ts';
import { operation } from './route.ts';

export function walletRoutes({ accounts }: Answers) {
    return async (app: FastifyInstance) => {
        operation(app, 'getWalletsByPublicKeyBulk', async request => {
            const keys = (request.body.public_keys as string[]).map(parsePublicKey);
            return accounts.walletsByPublicKeys(keys);
        });
    };
}
