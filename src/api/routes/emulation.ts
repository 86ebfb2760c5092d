import type { FastifyInstance } from 'fastify';
import { pickLanguage } from '../../actions/index.ts';
import { messageAccountEvent, walletMessageConsequences } from '../../emulation/message-consequences.ts';
import { formatRawAddress } from '../../ton/address.ts';
import { parseAccountId } from '../../ton/input.ts';
import { ApiError } from '../errors.ts';
import { toJson } from '../../json/json.ts';
import { AccountDirectory } from '../../present/account-address.ts';
import { presentMessageConsequences } from '../../present/emulated-trace.ts';
import type { ApiServices } from '../services.ts';
import { operation } from './route.ts';

/** Emulation failures become responses in the error hook (server.ts). */
export function emulationRoutes(services: ApiServices) {
    const accounts = (interfaces: Map<string, string[]>) => new AccountDirectory(interfaces, services.extraCurrencies);
    return async (app: FastifyInstance) => {
        operation(app, 'emulateMessageToAccountEvent', async (request, reply) => {
            const event = await messageAccountEvent(requireEmulation(services), {
                boc: request.body.boc,
                ignoreSignatureCheck: request.query.ignore_signature_check === true,
                account: formatRawAddress(parseAccountId(request.params.account_id)),
                language: pickLanguage(request.headers['accept-language']),
            }, { accounts });
            reply.type('application/json; charset=utf-8');
            return toJson(event);
        });

        operation(app, 'emulateMessageToWallet', async (request, reply) => {
            const consequences = await walletMessageConsequences(requireEmulation(services), {
                boc: request.body.boc,
                addressOverride: request.body.address_override !== undefined ? parseAccountId(request.body.address_override, 'address_override') : undefined,
                balances: balanceOverrides(request.body.params),
                currency: request.query.currency,
                language: pickLanguage(request.headers['accept-language']),
            }, { accounts, rates: services.rates });
            reply.type('application/json; charset=utf-8');
            return toJson(presentMessageConsequences(consequences));
        });
    };
}

function requireEmulation(services: ApiServices) {
    if (!services.emulation) throw new ApiError(503, 'emulation is not available in this service');
    return services.emulation;
}

/** `params`: balances to emulate with instead of the indexed ones, by raw address. */
function balanceOverrides(params: Array<{ address: string; balance?: bigint | number }> = []): Map<string, bigint> {
    const balances = new Map<string, bigint>();
    for (const item of params) {
        if (item.balance !== undefined) balances.set(formatRawAddress(parseAccountId(item.address, 'params[].address')), BigInt(item.balance));
    }
    return balances;
}
