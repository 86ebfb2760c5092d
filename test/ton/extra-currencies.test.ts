import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { beginCell, internal, loadCurrencyCollection, storeMessageRelaxed, loadMessageRelaxed } from '@ton/core';
import { DEVNET_EXTRA_CURRENCY_ID, devnetExtraCurrencies } from '../../src/chain/devnet/extra-currency.ts';
import {
    ExtraCurrencyCatalog, ExtraCurrencyTableError, decodeExtraBalance, encodeExtraBalance, extraCurrencyAmounts, extraCurrencyDict,
    loadExtraCurrencyTable, parseExtraCurrencyTable,
} from '../../src/ton/extra-currencies.ts';

describe('extra currency table', () => {
    it('reads id, symbol, name, decimals and image; name defaults to the symbol, image to none', () => {
        const catalog = parseExtraCurrencyTable(JSON.stringify({
            extra_currencies: [
                { id: 239, symbol: 'FMS', name: 'Famous', decimals: 5, image: 'https://example.invalid/fms.png' },
                { id: 7, symbol: 'SVN', decimals: 0 },
            ],
        }), 'test');
        assert.deepEqual(catalog.list(), [
            { id: 7, symbol: 'SVN', name: 'SVN', decimals: 0, image: '' },
            { id: 239, symbol: 'FMS', name: 'Famous', decimals: 5, image: 'https://example.invalid/fms.png' },
        ]);
        assert.deepEqual(catalog.preview(239), { id: 239, symbol: 'FMS', decimals: 5, image: 'https://example.invalid/fms.png' });
        assert.equal(catalog.label(7), 'SVN');
    });

    it('shows a currency it does not list by id: empty symbol, 9 decimals, no image; #id in text', () => {
        const catalog = parseExtraCurrencyTable('{"extra_currencies": []}', 'test');
        assert.deepEqual(catalog.preview(42), { id: 42, symbol: '', decimals: 9, image: '' });
        assert.equal(catalog.label(42), '#42');
        assert.deepEqual(ExtraCurrencyCatalog.EMPTY.preview(100), { id: 100, symbol: '', decimals: 9, image: '' });
        assert.deepEqual(parseExtraCurrencyTable('{}', 'test').list(), []);
    });

    it('rejects a table with mistakes, naming where the mistake is', () => {
        const cases: Array<[unknown, RegExp]> = [
            [[], /JSON object/],
            [{ currencies: [] }, /unknown member "currencies"/],
            [{ extra_currencies: {} }, /must be an array/],
            [{ extra_currencies: [{ id: -1, symbol: 'X', decimals: 0 }] }, /extra_currencies\[0\]\.id/],
            [{ extra_currencies: [{ id: 2 ** 32, symbol: 'X', decimals: 0 }] }, /\.id/],
            [{ extra_currencies: [{ id: 1, symbol: 'X', decimals: 0 }, { id: 1, symbol: 'Y', decimals: 0 }] }, /currency 1 appears twice/],
            [{ extra_currencies: [{ id: 1, symbol: '', decimals: 0 }] }, /symbol/],
            [{ extra_currencies: [{ id: 1, symbol: 'X', decimals: 1.5 }] }, /decimals/],
            [{ extra_currencies: [{ id: 1, symbol: 'X' }] }, /decimals/],
            [{ extra_currencies: [{ id: 1, symbol: 'X', decimals: 2, url: '' }] }, /unknown member "url"/],
            [{ extra_currencies: [{ id: 1, symbol: 'X', decimals: 2, image: 5 }] }, /image/],
        ];
        for (const [document, message] of cases) {
            assert.throws(() => parseExtraCurrencyTable(JSON.stringify(document), 'my-table.json'), (error: Error) => {
                assert.ok(error instanceof ExtraCurrencyTableError);
                assert.match(error.message, /my-table\.json/);
                assert.match(error.message, message);
                return true;
            }, JSON.stringify(document));
        }
        assert.throws(() => parseExtraCurrencyTable('{', 'x'), /not JSON/);
        assert.throws(() => loadExtraCurrencyTable('/nonexistent/table.json'), /\/nonexistent\/table\.json/);
        assert.equal(loadExtraCurrencyTable(undefined), ExtraCurrencyCatalog.EMPTY);
    });

    it('the devnet table describes the currency its genesis mints', () => {
        assert.deepEqual(devnetExtraCurrencies().get(DEVNET_EXTRA_CURRENCY_ID), { id: 100, symbol: 'DGEM', name: 'Devnet Gem', decimals: 6, image: '' });
    });
});

describe('extra currency amounts', () => {
    it('round-trip through a message value, the store encoding and back', () => {
        const amounts = new Map([[100, 25_500_000n], [7, 2n ** 70n]]);
        const message = internal({ to: '0:' + '11'.repeat(32), value: 1n, extracurrency: Object.fromEntries(amounts) });
        const cell = beginCell().store(storeMessageRelaxed(message)).endCell();
        const parsed = loadMessageRelaxed(cell.beginParse());
        assert.equal(parsed.info.type, 'internal');
        const carried = extraCurrencyAmounts(parsed.info.type === 'internal' ? parsed.info.value.other : undefined);
        assert.deepEqual([...carried], [[7, 2n ** 70n], [100, 25_500_000n]], 'in id order');

        const text = encodeExtraBalance(carried);
        assert.equal(text, `{"7":"${2n ** 70n}","100":"25500000"}`);
        assert.deepEqual(decodeExtraBalance(text), carried);
        assert.equal(encodeExtraBalance(new Map()), null);
        assert.deepEqual(decodeExtraBalance(null), new Map());

        const dict = extraCurrencyDict(carried)!;
        const collection = loadCurrencyCollection(beginCell().storeCoins(5n).storeDict(dict).endCell().beginParse());
        assert.deepEqual(extraCurrencyAmounts(collection.other), carried);
        assert.equal(extraCurrencyDict(new Map()), undefined);
    });
});
