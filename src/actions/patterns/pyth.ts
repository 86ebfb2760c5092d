import { Address, type Cell, type Slice } from '@ton/core';
import { formatRawAddress } from '../../ton/address.ts';
import { tryLoad } from '../../ton/bodies/index.ts';
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

/** `bits` bits starting in `s`, continuing in each next first ref once a cell runs out (Tolk's byte arrays). */
function loadUintDeep(cursor: { s: Slice }, bits: number): bigint {
    let value = 0n;
    let need = bits;
    while (need > 0) {
        if (cursor.s.remainingBits === 0) cursor.s = cursor.s.loadRef().beginParse();
        const take = Math.min(need, cursor.s.remainingBits);
        value = (value << BigInt(take)) | cursor.s.loadUintBig(take);
        need -= take;
    }
    return value;
}

/** PriceFeedIdList: count:uint8 then count × uint256, spilling into refs. */
function loadPriceIds(cell: Cell): string[] {
    const cursor = { s: cell.beginParse() };
    const count = cursor.s.loadUint(8);
    const ids: string[] = [];
    for (let i = 0; i < count; i++) ids.push(feedId(loadUintDeep(cursor, 256)));
    return ids;
}

interface PriceRequest {
    ids: string[];
    target: string;
}

/**
 * parse_price_feed_updates#00000005 update_data:^Cell price_ids:^PriceFeedIdList
 *   min_publish_time:uint64 max_publish_time:uint64 target_address:MsgAddress custom_payload:^Cell
 * (parse_unique_price_feed_updates#00000006: publish_time:uint64 max_staleness:uint64 in their place)
 */
export function loadPriceRequest(body: Cell | null): PriceRequest | null {
    if (!body) return null;
    return tryLoad((s) => {
        const op = s.loadUint(32);
        if (op !== OP.pythParsePriceFeedUpdates && op !== OP.pythParseUniquePriceFeedUpdates) return null;
        s.loadRef();
        const ids = loadPriceIds(s.loadRef());
        s.skip(64 + 64);
        const target = s.loadAddressAny();
        if (!Address.isAddress(target)) return null;
        return { ids, target: formatRawAddress(target) };
    }, body);
}

interface PriceResponse {
    initialSender: string;
    /** rate by feed id */
    rates: Map<string, number>;
}

/** PricePoint: price:int64 conf:uint64 expo:int32 publish_time:uint64, as price × 10^expo. */
function loadRate(point: Cell): number {
    const s = point.beginParse();
    const price = s.loadIntBig(64);
    s.skip(64);
    const expo = s.loadInt(32);
    return Number(`${price}e${expo}`);
}

/**
 * response_success#00000005 feeds_count:uint8 price_feeds:^PriceFeedResponseList initial_sender:address after_operation:^Cell
 * where each list node is price_id:uint256, ^StoredPriceFeed (^price ^ema_price) and the next node as a second ref.
 */
export function loadPriceResponse(body: Cell | null): PriceResponse | null {
    if (!body) return null;
    return tryLoad((s) => {
        if (s.loadUint(32) !== OP.pythResponseSuccess) return null;
        const count = s.loadUint(8);
        let node: Cell | null = s.loadRef();
        const initialSender = s.loadAddress();
        const rates = new Map<string, number>();
        for (let i = 0; i < count && node; i++) {
            const n = node.beginParse();
            const id = feedId(n.loadUintBig(256));
            const stored = n.loadRef().beginParse();
            rates.set(id, loadRate(stored.loadRef()));
            node = n.remainingRefs > 0 ? n.loadRef() : null;
        }
        return { initialSender: formatRawAddress(initialSender), rates };
    }, body);
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
    const request = loadPriceRequest(t.body);
    if (!request) return false;
    const response = responseOf(b);
    if (!response) return true;
    const rt = txOf(response)!;
    const answer = loadPriceResponse(rt.body);
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
            const request = loadPriceRequest(t.body)!;
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
                const answer = loadPriceResponse(t.body);
                d.success = t.success && answer !== null;
                for (const feed of d.priceFeeds) {
                    const rate = answer?.rates.get(feed.id);
                    if (rate !== undefined) feed.rate = rate;
                }
            },
        },
    },
};
