import type { FastifyInstance } from 'fastify';
import { buildAccountEvent, nftItemJson, pickLanguage, type PreviewLanguage } from '../../actions/index.ts';
import { EmulationFailure, type EmulationFailureKind } from '../../emulation/errors.ts';
import type { EmulationResult, WalletEmulationResult } from '../../emulation/emulation-service.ts';
import { presentRisk, resolveCurrency, type NftItemJson, type RiskLookups } from '../../risk/present-risk.ts';
import { RatesError, UnknownCurrencyError, UnsupportedWalletError, InvalidWalletBodyError } from '../../risk/errors.ts';
import { formatRawAddress } from '../../ton/address.ts';
import { parseAccountId } from '../../ton/input.ts';
import { ApiError } from '../errors.ts';
import { toJson } from '../json.ts';
import { AccountDirectory } from '../present/account-address.ts';
import { actionTraceOf, presentEmulatedTrace } from '../present/emulated-trace.ts';
import type { ApiServices } from '../services.ts';
import { operation } from './route.ts';

const STATUS_OF: Record<EmulationFailureKind, number> = {
    invalid_input: 400,
    rejected: 406,
    insufficient_funds: 409,
    too_many_transactions: 413,
    timeout: 504,
    unavailable: 503,
};

/** Error code of a wallet that lacks the native coin for what it sends (spec §7). */
const INSUFFICIENT_FUNDS_CODE = 50000;

export function emulationRoutes(services: ApiServices) {
    return async (app: FastifyInstance) => {
        operation(app, 'emulateMessageToAccountEvent', async (request, reply) => {
            const emulation = requireEmulation(services);
            const account = formatRawAddress(parseAccountId(request.params.account_id));
            const language = pickLanguage(request.headers['accept-language']);
            const result = await run(() => emulation.emulateMessage(request.body.boc, { ignoreSignatureCheck: request.query.ignore_signature_check === true }));
            const event = eventOf(result, directoryOf(result, services), { account, subjectOnly: false, language });
            reply.type('application/json; charset=utf-8');
            return toJson(event);
        });

        operation(app, 'emulateMessageToWallet', async (request, reply) => {
            const emulation = requireEmulation(services);
            const language = pickLanguage(request.headers['accept-language']);
            const rates = request.query.currency !== undefined ? await ratesFor(services, request.query.currency) : undefined;
            const addressOverride = request.body.address_override !== undefined ? parseAccountId(request.body.address_override, 'address_override') : undefined;
            const balances = new Map<string, bigint>();
            for (const item of (request.body.params ?? []) as Array<{ address: string; balance?: bigint | number }>) {
                if (item.balance === undefined) continue;
                balances.set(formatRawAddress(parseAccountId(item.address, 'params[].address')), BigInt(item.balance));
            }
            const result = await run(() => emulation.emulateWalletMessage({ boc: request.body.boc, addressOverride, balances }));
            const directory = directoryOf(result, services);
            // Risk is read from the message as signed, whatever address it is emulated at.
            const risk = await presentRisk(result.risk, riskLookups(result, directory), {
                wallet: result.wallet, walletBalance: result.balanceBefore, currency: request.query.currency, rates: rates?.table,
            });
            const event = eventOf(result, directory, { account: result.wallet, subjectOnly: true, language });
            reply.type('application/json; charset=utf-8');
            return toJson({ trace: presentEmulatedTrace(result.trace.root, directory), risk, event });
        });
    };
}

/** The AccountEvent of an emulated trace, seen from `account`. */
function eventOf(result: EmulationResult, directory: AccountDirectory, options: { account: string; subjectOnly: boolean; language: PreviewLanguage }) {
    return buildAccountEvent(actionTraceOf(result.trace.root, a => directory.interfaces(a)), result.inspected.facts, {
        ...options, accounts: a => directory.accountAddress(a), currencies: directory.currencies,
    });
}

function requireEmulation(services: ApiServices) {
    if (!services.emulation) throw new ApiError(503, 'emulation is not available in this service');
    return services.emulation;
}

async function run<T>(emulate: () => Promise<T>): Promise<T> {
    try {
        return await emulate();
    } catch (error) {
        if (error instanceof UnsupportedWalletError || error instanceof InvalidWalletBodyError) throw new ApiError(400, error.message);
        if (!(error instanceof EmulationFailure)) throw error;
        const status = STATUS_OF[error.kind];
        const code = error.kind === 'insufficient_funds' ? INSUFFICIENT_FUNDS_CODE : undefined;
        throw new ApiError(status, error.message, code, error.details);
    }
}

async function ratesFor(services: ApiServices, currency: string) {
    try {
        const table = services.rates ? await services.rates.rates() : undefined;
        resolveCurrency(currency, table);
        return { table };
    } catch (error) {
        if (error instanceof UnknownCurrencyError) throw new ApiError(400, error.message, undefined, { supported: error.supported });
        if (error instanceof RatesError) throw new ApiError(503, `exchange rates are unavailable: ${error.message}`);
        throw error;
    }
}

function directoryOf(result: EmulationResult, services: ApiServices): AccountDirectory {
    return new AccountDirectory(result.inspected.interfaces, services.extraCurrencies);
}

/** What risk needs to know of jetton wallets and NFT items, from the emulated trace's own inspection. */
function riskLookups(result: WalletEmulationResult, directory: AccountDirectory): RiskLookups {
    const { facts } = result.inspected;
    return {
        jettonWallet: address => facts.jettonWallets.get(address),
        jettonPreview: master => facts.jettons.get(master) as never,
        nftItem: address => facts.nftItems.has(address) ? nftItemJson(facts, address, raw => directory.accountAddress(raw)) as NftItemJson : undefined,
        accountAddress: address => directory.accountAddress(address),
    };
}
