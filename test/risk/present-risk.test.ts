import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseExactJson } from '../../src/json/exact-json.ts';
import { toJson } from '../../src/json/json.ts';
import { UnknownCurrencyError } from '../../src/risk/errors.ts';
import { presentRisk, resolveCurrency, type JettonPreviewJson, type RiskLookups } from '../../src/risk/present-risk.ts';
import { parseRateTable } from '../../src/risk/rates.ts';
import type { WalletRisk } from '../../src/risk/wallet-risk.ts';
import { assertSchemaMatches } from '../helpers/openapi-assert.ts';

const addr = (byte: string) => '0:' + byte.repeat(32);
const SIGNER = addr('01');
const USDT_WALLET = addr('a1');
const USDT_MASTER = addr('a2');
const DUSD_WALLET = addr('b1');
const DUSD_MASTER = addr('b2');
const UNKNOWN_WALLET = addr('c1');
const FOREIGN_WALLET = addr('d1');
const ORPHAN_WALLET = addr('e1');
const ORPHAN_MASTER = addr('e2');
const NFT = addr('f1');
const UNKNOWN_NFT = addr('f2');

function preview(master: string, symbol: string, decimals: number): JettonPreviewJson {
    return { address: master, name: symbol, symbol, decimals, image: '', verification: 'none', score: 0 };
}

const lookups: RiskLookups = {
    jettonWallet: address => ({
        [USDT_WALLET]: { master: USDT_MASTER, owner: SIGNER },
        [DUSD_WALLET]: { master: DUSD_MASTER, owner: SIGNER },
        [FOREIGN_WALLET]: { master: USDT_MASTER, owner: addr('99') },
        [ORPHAN_WALLET]: { master: ORPHAN_MASTER },
    })[address],
    jettonPreview: async master => ({ [USDT_MASTER]: preview(USDT_MASTER, 'USD₮', 6), [DUSD_MASTER]: preview(DUSD_MASTER, 'DUSD', 6) })[master],
    nftItem: address => (address === NFT ? {
        address, index: 3n, owner: { address: SIGNER, is_scam: false, is_wallet: true }, collection: { address: addr('fc'), name: '', description: '' },
        verified: false, metadata: {}, approved_by: [], trust: 'none',
    } : undefined),
    accountAddress: address => ({ address, is_scam: false, is_wallet: false }),
};

// 1 gram = 10 USD; USD₮ by address, DUSD by symbol; the orphan's master has no rate.
const rates = parseRateTable(JSON.stringify({
    currencies: { USD: '0.1', EUR: '0.125' },
    jettons: { [USDT_MASTER]: '0.1', DUSD: '0.2' },
}), 'test');

function risk(overrides: Partial<WalletRisk> = {}): WalletRisk {
    return { transferAllRemainingBalance: false, native: 100_000_000n, jettons: new Map(), nfts: [], ...overrides };
}

describe('risk presentation', () => {
    it('presents known jetton wallets and NFT items and skips unknown or foreign ones (schema-valid)', async () => {
        const result = await presentRisk(risk({
            jettons: new Map([[USDT_WALLET, 2_000_000n], [UNKNOWN_WALLET, 5n], [FOREIGN_WALLET, 7n], [ORPHAN_WALLET, 1n]]),
            nfts: [NFT, UNKNOWN_NFT],
        }), lookups, { wallet: SIGNER, walletBalance: 0n });
        assert.deepEqual(result.jettons.map(j => [j.wallet_address.address, j.quantity, j.jetton.address, j.jetton.decimals]), [
            [USDT_WALLET, '2000000', USDT_MASTER, 6],
            [ORPHAN_WALLET, '1', ORPHAN_MASTER, 9], // master not indexed: TEP-64 default decimals
        ]);
        assert.deepEqual(result.nfts.map(n => [n.address, n.index]), [[NFT, 3n]]);
        assert.equal(result.native, 100_000_000n);
        assert.equal(result.gram, 100_000_000n);
        assert.equal(result.total_equivalent, undefined);
        assertSchemaMatches('Risk', parseExactJson(toJson(result)));
    });

    it('total_equivalent is exact: 0.1 gram + 2 USD₮ × 0.1 gram, in USD (0.1 gram each) is exactly 3, not 4', async () => {
        // In floats (0.1 + 0.2) / 0.1 = 3.0000000000000004, which rounds up to 4.
        const result = await presentRisk(risk({ jettons: new Map([[USDT_WALLET, 2_000_000n]]) }), lookups,
            { walletBalance: 0n, currency: 'usd', rates });
        assert.equal(result.total_equivalent, 3n);
        assertSchemaMatches('Risk', parseExactJson(toJson(result)));
    });

    it('rounds a fractional total up, values jettons by symbol, and counts the balance on transfer-all', async () => {
        const jettons = new Map([[DUSD_WALLET, 1_500_000n]]); // 1.5 DUSD × 0.2 = 0.3 gram
        const base = await presentRisk(risk({ jettons }), lookups, { walletBalance: 50n * 1_000_000_000n, currency: 'EUR', rates });
        assert.equal(base.total_equivalent, 4n); // (0.1 + 0.3) / 0.125 = 3.2 → 4
        const all = await presentRisk(risk({ jettons, transferAllRemainingBalance: true }), lookups,
            { walletBalance: 50n * 1_000_000_000n, currency: 'EUR', rates });
        assert.equal(all.total_equivalent, 403n); // (50 + 0.3) / 0.125 = 402.4 → 403
        assert.equal(all.native, 100_000_000n, 'native stays the sum of the message values');
        const poor = await presentRisk(risk({ transferAllRemainingBalance: true }), lookups, { walletBalance: 1n, currency: 'GRAM', rates });
        assert.equal(poor.total_equivalent, 1n); // 0.1 gram → 1: a balance below the sent value does not lower it
    });

    it('amounts far above 2^53 stay exact', async () => {
        const native = 900_719_925_474_099_300_000_000_001n; // nanograms (more than int64 holds, to test the arithmetic alone)
        const result = await presentRisk(risk({ native }), lookups, { walletBalance: 0n, currency: 'USD', rates });
        assert.equal(result.total_equivalent, 9_007_199_254_740_993_001n); // 900719925474099300.000000001 × 10 → ceil
        assert.equal(result.gram, native);
    });

    it('an unknown currency is an UnknownCurrencyError (400) listing the supported ones', async () => {
        await assert.rejects(presentRisk(risk(), lookups, { walletBalance: 0n, currency: 'JPY', rates }), (error: unknown) => {
            assert.ok(error instanceof UnknownCurrencyError);
            assert.equal(error.statusCode, 400);
            assert.deepEqual(error.supported, ['EUR', 'GRAM', 'USD']);
            assert.match(error.message, /unknown currency "JPY"; supported: EUR, GRAM, USD/);
            return true;
        });
        assert.throws(() => resolveCurrency('USD', undefined), (error: unknown) =>
            error instanceof UnknownCurrencyError && error.supported.join() === 'GRAM');
        assert.equal(resolveCurrency(' gram ', undefined), 'GRAM');
    });
});
