import test from 'node:test';
import assert from 'node:assert/strict';
import { Cell, Dictionary, beginCell } from '@ton/core';
import { WalletContractV5Beta } from '@ton/ton';
import { readWalletData } from '../../../src/ton/interfaces/wallet-data.ts';
import { knownCode, knownCodeByHash, registerKnownCode } from '../../../src/ton/interfaces/known-code.ts';

const KEY = Buffer.from('5e'.repeat(32), 'hex');
const KEY_HEX = KEY.toString('hex');

test('wallet v5 beta (from @ton/ton): int33 seqno, 80-bit wallet id, key', () => {
    const w = WalletContractV5Beta.create({ walletId: { networkGlobalId: -3, workchain: 0, subwalletNumber: 17 }, publicKey: KEY });
    assert.deepEqual(readWalletData('v5_beta', w.init.data, 0), { seqno: 0, walletId: 17, publicKey: KEY_HEX });
    assert.deepEqual(knownCode(w.init.code)?.interfaces, ['wallet_v5_beta']);
});

test('highload v2: subwallet_id, last_cleaned, key, old queries', () => {
    const queries = Dictionary.empty(Dictionary.Keys.BigUint(64), Dictionary.Values.Cell());
    queries.set(1n, Cell.EMPTY);
    const data = beginCell().storeUint(698983191, 32).storeUint(1_700_000_000, 64).storeBuffer(KEY).storeDict(queries).endCell();
    assert.deepEqual(readWalletData('highload_v2', data, 0), { walletId: 698983191, publicKey: KEY_HEX });
});

test('highload v3: key, subwallet_id, queries, last clean time, timeout', () => {
    const data = beginCell()
        .storeBuffer(KEY)
        .storeUint(0x10ad, 32)
        .storeBit(false)
        .storeBit(false)
        .storeUint(1_700_000_000, 64)
        .storeUint(3600, 22)
        .endCell();
    assert.deepEqual(readWalletData('highload_v3', data, 0), { publicKey: KEY_HEX, walletId: 0x10ad });
});

test('data too short for the layout → null', () => {
    for (const layout of ['v1', 'v3', 'v4', 'v5_beta', 'v5r1', 'highload_v2', 'highload_v3'] as const) {
        assert.equal(readWalletData(layout, Cell.EMPTY, 0), null, layout);
        assert.equal(readWalletData(layout, beginCell().storeUint(1, 40).endCell(), 0), null, layout);
    }
    // v4 without the plugins bit (older data) still reads
    const v4 = beginCell().storeUint(1, 32).storeUint(2, 32).storeBuffer(KEY).endCell();
    assert.deepEqual(readWalletData('v4', v4, 0), { seqno: 1, walletId: 2, publicKey: KEY_HEX, plugins: [] });
});

test('registerKnownCode adds code hashes (e.g. the devnet’s own contracts)', () => {
    const hash = 'AB'.repeat(32);
    assert.equal(knownCodeByHash(hash), undefined);
    registerKnownCode(hash, { interfaces: ['jetton_wallet'] });
    assert.deepEqual(knownCodeByHash(hash.toLowerCase())?.interfaces, ['jetton_wallet']);
});
