import type { FastifyInstance } from 'fastify';
import { parseAccountId } from '../../ton/input.ts';
import { ApiError, badRequest } from '../errors.ts';
import { METADATA_DOCUMENTS } from '../../chain/devnet/token-seed.ts';
import type { ApiServices } from '../services.ts';
import type { Answers } from '../answers/answers.ts';
import { exactInt } from '../validation.ts';
import { operation } from './route.ts';

export function devnetRoutes(services: ApiServices, { accounts }: Answers) {
    const devnetOnly = () => {
        if (!services.devnet) throw new ApiError(404, 'this instance does not run a devnet (devnet endpoints exist only with --source devnet)');
        return services.devnet;
    };
    return async (app: FastifyInstance) => {
        operation(app, 'getDevnetManifest', async () => {
            return accounts.devnetManifest(await devnetOnly().manifest());
        });

        operation(app, 'getDevnetGlobalConfig', async (_request, reply) => {
            const config = await devnetOnly().globalConfig();
            if (!config) throw new ApiError(404, 'this devnet runs no liteserver (started with --liteserver-port off, or on a host that is not IPv4)');
            // sent as written: the zero state's shard is a 64-bit integer a JavaScript number cannot hold
            return reply.type('application/json; charset=utf-8').serializer(String).send(config);
        });

        operation(app, 'getDevnetMetadata', async request => {
            devnetOnly();
            const name = String(request.params.document);
            // Own keys only: a name such as `constructor` or `__proto__` is not a document.
            const document = Object.hasOwn(METADATA_DOCUMENTS, name) ? METADATA_DOCUMENTS[name] : undefined;
            if (!document) throw new ApiError(404, `no devnet metadata document '${name}'; documents: ${Object.keys(METADATA_DOCUMENTS).join(', ')}`);
            return document;
        });

        operation(app, 'devnetFaucet', async request => {
            const devnet = devnetOnly();
            const to = parseAccountId(String(request.body.address), 'address');
            // The chain has only these two; a transfer elsewhere fails in the faucet's action phase and delivers nothing.
            if (to.workChain !== 0 && to.workChain !== -1) throw badRequest(`address '${request.body.address}' is in workchain ${to.workChain}; the devnet has only workchains 0 and -1`);
            const amount = exactInt(request.body.amount);
            if (amount <= 0n) throw badRequest('amount must be a positive number of nanograms');
            if (amount > devnet.faucetCap) throw badRequest(`amount ${amount} exceeds the faucet cap of ${devnet.faucetCap} nanograms per request`);
            const sent = await devnet.faucet(to, amount);
            return { address: sent.address, amount: sent.amount, message_hash: sent.messageHash, trace_id: sent.traceId };
        });
    };
}
