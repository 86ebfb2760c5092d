import type { Cell } from '@ton/core';
import { formatRawAddress } from '../../ton/address.ts';
import { loadPythPriceFeedRequest, loadPythResponseSuccess, tryLoad } from '../../ton/bodies/index.ts';
import type { OraclePriceFeed, OracleRequestDraft } from '../action.ts';
import { txOf, type Bubble } from '../bubble.ts';
import { accountIs, anyOf, hasInterface, hasOp, isTx, txWhere } from '../checks.ts';
import { UNKNOWN_ADDRESS } from '../facts.ts';
import { OP } from '../protocol-ops.ts';
import type { Pattern } from '../straw.ts';
import { tx } from './tx.ts';

/**
 * Pyth price oracle on TON (a Tolk contract, interface pyth_oracle): a contract asks the oracle to
 * parse signed price updates for a list of feeds; the oracle answers the target with the prices.
 */

/** The Pyth oracle of the TON mainnet. */
export const PYTH_ORACLE_MAINNET = '0:3934fca37d9ced0e6f237130704c053d346b20244930d7dcfad7279c5f44e5b1';

/** Display symbols of well-known feeds (Pyth's own attributes), by feed id. */
const FEED_SYMBOLS = new Map<string, string>([
    ['8963217838ab4cf5cadc172203c1f0b763fbaa45f346d8ee50ba994bbcac3026', 'TON/USD'],
    ['3d1784128eeab5961ec60648fe497d3901eebd211b7f51e4bb0db9f024977d25', 'TSTON/TON'],
    ['2817b78438c769357182c04346fddaad1178c82f4048828fe0997c3c64624e14', 'SPYX/USD'],
    ['e62df6c8b4a85fe1a67db44dc12de5db330f7ac66b72dc658afedf0f4a415b43', 'BTC/USD'],
    ['ff61491a931112ddf1bd8147cd1b641375f79f5825126d665480874634fd0ace', 'ETH/USD'],
    ['2b89b9dc8fdf9f34709a5b106b472f0f39bb6ca9ce04b0fd7f2e971688e2e53b', 'USDT/USD'],
    ['eaa020c61cc479712813461ce153894a96a6c00b21ed0cfc2798d1f9a9e9c94a', 'USDC/USD'],
]);

export function feedSymbol(id: string): string {
    return FEED_SYMBOLS.get(id) ?? '';
}

const feedId = (v: bigint) => v.toString(16).padStart(64, '0');

interface PriceRequest {
    ids: string[];
    target: string;
}

/** The feeds a parse_price_feed_updates (or its unique variant) asks for, and who gets the answer. */
function priceRequestOf(body: Cell | null): PriceRequest | null {
    const request = body ? tryLoad(loadPythPriceFeedRequest, body) : null;
    return request ? { ids: request.priceIds.map(feedId), target: formatRawAddress(request.targetAddress) } : null;
}

interface PriceResponse {
    initialSender: string;
    /** rate by feed id */
    rates: Map<string, number>;
}

/** The prices a response_success#5 carries (price × 10^expo by feed id), and who asked for them. */
function priceResponseOf(body: Cell | null): PriceResponse | null {
    const response = body ? tryLoad(loadPythResponseSuccess, body) : null;
    if (!response) return null;
    const rates = new Map(response.priceFeeds.map((f): [string, number] => [feedId(f.id), Number(`${f.price.price}e${f.price.expo}`)]));
    return { initialSender: formatRawAddress(response.initialSender), rates };
}

/** The first child of the request that looks like the oracle's answer (a response_success#5). */
function responseOf(b: Bubble): Bubble | undefined {
    return b.children.find((c) => txOf(c)?.opCode === OP.pythResponseSuccess);
}

/**
 * The answer, when there is one, must come to the request's target and name the requester as its
 * initial sender: anything else is not this request's answer.
 */
const answersItsRequester = txWhere((t, b) => {
    const request = priceRequestOf(t.body);
    if (!request) return false;
    const response = responseOf(b);
    if (!response) return true;
    const rt = txOf(response)!;
    const answer = priceResponseOf(rt.body);
    return rt.account === request.target && answer !== null && answer.initialSender === t.inputFrom;
});

export const PythOracleRequest: Pattern<OracleRequestDraft> = {
    name: 'PythOracleRequest',
    create: () => ({ type: 'OracleRequest', success: false, requester: UNKNOWN_ADDRESS, oracle: UNKNOWN_ADDRESS, responseTo: UNKNOWN_ADDRESS, priceFeeds: [] }),
    root: {
        checks: [
            isTx, hasOp(OP.pythParsePriceFeedUpdates, OP.pythParseUniquePriceFeedUpdates),
            anyOf([hasInterface('pyth_oracle')], [accountIs(PYTH_ORACLE_MAINNET)]), answersItsRequester,
        ],
        build: (d, b) => {
            const t = tx(b);
            const request = priceRequestOf(t.body)!;
            d.requester = t.inputFrom ?? UNKNOWN_ADDRESS;
            d.oracle = t.account;
            d.responseTo = request.target;
            d.priceFeeds = request.ids.map((id): OraclePriceFeed => ({ id, displaySymbol: feedSymbol(id) }));
            // Without the answer the request did not get its prices: failed.
            d.success = false;
        },
        singleChild: {
            checks: [isTx, hasOp(OP.pythResponseSuccess)],
            optional: true,
            build: (d, b) => {
                const t = tx(b);
                const answer = priceResponseOf(t.body);
                d.success = t.success && answer !== null;
                for (const feed of d.priceFeeds) {
                    const rate = answer?.rates.get(feed.id);
                    if (rate !== undefined) feed.rate = rate;
                }
            },
        },
    },
};
