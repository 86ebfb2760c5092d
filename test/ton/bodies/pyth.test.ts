import test from 'node:test';
import assert from 'node:assert/strict';
import { beginCell, type Cell } from '@ton/core';
import { loadPythPriceFeedRequest, loadPythResponseSuccess, tryLoad } from '../../../src/ton/bodies/index.ts';
import { ALICE, BOB, plain } from './builders.ts';

const TON_USD = BigInt('0x8963217838ab4cf5cadc172203c1f0b763fbaa45f346d8ee50ba994bbcac3026');
const TSTON_TON = BigInt('0x3d1784128eeab5961ec60648fe497d3901eebd211b7f51e4bb0db9f024977d25');
const idsCell = (ids: bigint[]) => ids.reduce((b, id) => b.storeUint(id, 256), beginCell().storeUint(ids.length, 8)).endCell();
const request = (op: number, ids: Cell) => beginCell().storeUint(op, 32).storeRef(beginCell().storeUint(0x504e4155, 32).endCell()).storeRef(ids)
    .storeUint(100, 64).storeUint(200, 64).storeAddress(BOB).storeRef(beginCell().endCell()).endCell();

test('parse_price_feed_updates#5 and parse_unique_price_feed_updates#6: ids, times, target', () => {
    const r5 = tryLoad(loadPythPriceFeedRequest, request(5, idsCell([TON_USD, TSTON_TON])))!;
    assert.equal(r5.kind, 'parse_price_feed_updates');
    assert.deepEqual(r5.priceIds, [TON_USD, TSTON_TON]);
    assert.ok(r5.targetAddress.equals(BOB));
    assert.ok(r5.kind === 'parse_price_feed_updates' && r5.minPublishTime === 100n && r5.maxPublishTime === 200n);
    const r6 = tryLoad(loadPythPriceFeedRequest, request(6, idsCell([TON_USD])))!;
    assert.ok(r6.kind === 'parse_unique_price_feed_updates' && r6.publishTime === 100n && r6.maxStaleness === 200n);
    assert.equal(tryLoad(loadPythPriceFeedRequest, request(7, idsCell([TON_USD]))), null);
});

test('price ids spilling into a second cell (4 × uint256 past 1023 bits)', () => {
    const ids = [TON_USD, TSTON_TON, BigInt('0x' + 'ab'.repeat(32)), BigInt('0x' + '0c'.repeat(32))];
    const all = ids.reduce((v, id) => (v << 256n) | id, 0n);
    // 8 + 3·256 + 200 bits in the first cell, the last 56 bits of the fourth id in its ref
    const tail = 56n;
    const cell = beginCell().storeUint(4, 8).storeUint(all >> tail, 1024 - 56).storeRef(beginCell().storeUint(all & ((1n << tail) - 1n), 56).endCell()).endCell();
    assert.deepEqual(plain(tryLoad(loadPythPriceFeedRequest, request(5, cell))?.priceIds), plain(ids));
});

test('response_success#5: feeds as far as the list goes, the initial sender', () => {
    const point = (price: bigint, expo: number) => beginCell().storeInt(price, 64).storeUint(1000n, 64).storeInt(expo, 32).storeUint(1_751_461_300, 64).endCell();
    const second = beginCell().storeUint(TSTON_TON, 256).storeRef(beginCell().storeRef(point(110n, -2)).storeRef(point(111n, -2))).endCell();
    const first = beginCell().storeUint(TON_USD, 256).storeRef(beginCell().storeRef(point(-130n, -8)).storeRef(point(131n, -8))).storeRef(second).endCell();
    const body = (count: number) => beginCell().storeUint(5, 32).storeUint(count, 8).storeRef(first).storeAddress(ALICE).storeRef(beginCell().endCell()).endCell();
    const response = tryLoad(loadPythResponseSuccess, body(2))!;
    assert.ok(response.initialSender.equals(ALICE));
    assert.deepEqual(response.priceFeeds.map((f) => [f.id, f.price.price, f.price.expo, f.emaPrice.price]), [[TON_USD, -130n, -8, 131n], [TSTON_TON, 110n, -2, 111n]]);
    assert.equal(tryLoad(loadPythResponseSuccess, body(1))!.priceFeeds.length, 1, 'the count bounds the list');
    assert.equal(tryLoad(loadPythResponseSuccess, body(5))!.priceFeeds.length, 2, 'and so does the list');
});
