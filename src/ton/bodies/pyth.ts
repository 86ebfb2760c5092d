import type { Address, Cell, Slice } from '@ton/core';
import { expectOp, fail, loadMsgAddressInt } from './common.ts';

// Pyth price oracle on TON (a Tolk contract).
export const OP_PYTH_PARSE_PRICE_FEED_UPDATES = 0x00000005;
export const OP_PYTH_PARSE_UNIQUE_PRICE_FEED_UPDATES = 0x00000006;
export const OP_PYTH_RESPONSE_SUCCESS = 0x00000005;

/** `bits` bits starting in `cursor.s`, going on in each next first ref once a cell runs out (Tolk's byte arrays). */
function loadUintSpilling(cursor: { s: Slice }, bits: number): bigint {
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

/** PriceFeedIdList: count:uint8 then count × price_id:uint256, spilling into refs. */
export function loadPythPriceIds(s: Slice): bigint[] {
    const cursor = { s };
    const count = cursor.s.loadUint(8);
    const ids: bigint[] = [];
    for (let i = 0; i < count; i++) ids.push(loadUintSpilling(cursor, 256));
    return ids;
}

/**
 * parse_price_feed_updates#00000005 update_data:^Cell price_ids:^PriceFeedIdList
 *   min_publish_time:uint64 max_publish_time:uint64 target_address:MsgAddressInt custom_payload:^Cell
 * parse_unique_price_feed_updates#00000006 update_data:^Cell price_ids:^PriceFeedIdList
 *   publish_time:uint64 max_staleness:uint64 target_address:MsgAddressInt custom_payload:^Cell
 */
export type PythPriceFeedRequest = {
    updateData: Cell;
    priceIds: bigint[];
    /** who gets the answer */
    targetAddress: Address;
    customPayload: Cell;
} & (
    | { kind: 'parse_price_feed_updates'; minPublishTime: bigint; maxPublishTime: bigint }
    | { kind: 'parse_unique_price_feed_updates'; publishTime: bigint; maxStaleness: bigint }
);

export function loadPythPriceFeedRequest(s: Slice): PythPriceFeedRequest {
    const op = s.loadUint(32);
    if (op !== OP_PYTH_PARSE_PRICE_FEED_UPDATES && op !== OP_PYTH_PARSE_UNIQUE_PRICE_FEED_UPDATES) fail(`op 0x${op.toString(16)} is not a Pyth price request`);
    const updateData = s.loadRef();
    const priceIds = loadPythPriceIds(s.loadRef().beginParse());
    const first = s.loadUintBig(64);
    const second = s.loadUintBig(64);
    const targetAddress = loadMsgAddressInt(s);
    const customPayload = s.loadRef();
    const common = { updateData, priceIds, targetAddress, customPayload };
    return op === OP_PYTH_PARSE_PRICE_FEED_UPDATES
        ? { ...common, kind: 'parse_price_feed_updates', minPublishTime: first, maxPublishTime: second }
        : { ...common, kind: 'parse_unique_price_feed_updates', publishTime: first, maxStaleness: second };
}

/** price_point#_ price:int64 conf:uint64 expo:int32 publish_time:uint64: the price is price × 10^expo. */
export interface PythPricePoint {
    price: bigint;
    conf: bigint;
    expo: number;
    publishTime: bigint;
}

export function loadPythPricePoint(s: Slice): PythPricePoint {
    const price = s.loadIntBig(64);
    const conf = s.loadUintBig(64);
    const expo = s.loadInt(32);
    const publishTime = s.loadUintBig(64);
    return { price, conf, expo, publishTime };
}

/** price_feed#_ price_id:uint256 ^[price:^PricePoint ema_price:^PricePoint] (a node of PriceFeedResponseList, the next node its second ref) */
export interface PythPriceFeed {
    id: bigint;
    price: PythPricePoint;
    emaPrice: PythPricePoint;
}

/**
 * response_success#00000005 price_feeds_count:uint8 price_feeds:^PriceFeedResponseList
 *   initial_sender:MsgAddressInt after_operation:^Cell
 * (oracle → target: the feeds asked for, as far as the list goes)
 */
export interface PythResponseSuccess {
    priceFeeds: PythPriceFeed[];
    /** who asked the oracle */
    initialSender: Address;
    afterOperation: Cell;
}

export function loadPythResponseSuccess(s: Slice): PythResponseSuccess {
    expectOp(s, OP_PYTH_RESPONSE_SUCCESS);
    const count = s.loadUint(8);
    let node: Cell | null = s.loadRef();
    const initialSender = loadMsgAddressInt(s);
    const afterOperation = s.loadRef();
    const priceFeeds: PythPriceFeed[] = [];
    for (let i = 0; i < count && node; i++) {
        const n = node.beginParse();
        const id = n.loadUintBig(256);
        const stored = n.loadRef().beginParse();
        const price = loadPythPricePoint(stored.loadRef().beginParse());
        const emaPrice = loadPythPricePoint(stored.loadRef().beginParse());
        priceFeeds.push({ id, price, emaPrice });
        node = n.remainingRefs > 0 ? n.loadRef() : null;
    }
    return { priceFeeds, initialSender, afterOperation };
}
