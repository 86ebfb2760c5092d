import test from 'node:test';
import assert from 'node:assert/strict';
import { beginCell } from '@ton/core';
import { loadInvoicePayload, tryLoad } from '../../../src/ton/bodies/index.ts';
import { plain } from './builders.ts';

test('invoice_payload#7aa23eb5: the 16-byte id', () => {
    const id = Buffer.from('0123456789abcdef0123456789abcdef', 'hex');
    assert.deepEqual(plain(tryLoad(loadInvoicePayload, beginCell().storeUint(0x7aa23eb5, 32).storeBuffer(id).endCell())), plain({ id }));
    assert.equal(tryLoad(loadInvoicePayload, beginCell().storeUint(0x7aa23eb5, 32).storeBuffer(id.subarray(0, 15)).endCell()), null);
});
