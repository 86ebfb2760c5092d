import test from 'node:test';
import assert from 'node:assert/strict';
import { Cell, beginCell } from '@ton/core';
import {
    decodeBody,
    formatOpCode,
    loadBounce,
    loadTextComment,
    parseBody,
    readOpCode,
    tryLoad,
} from '../../../src/ton/bodies/index.ts';
import { comment, jettonTransfer, ALICE, BOB } from './builders.ts';

test('formatOpCode / readOpCode', () => {
    assert.equal(formatOpCode(0x0f8a7ea5), '0x0f8a7ea5');
    assert.equal(formatOpCode(0), '0x00000000');
    assert.equal(formatOpCode(0xffffffff), '0xffffffff');
    assert.equal(formatOpCode(-1), '0xffffffff');
    assert.equal(readOpCode(beginCell().storeUint(0x7362d09c, 32).endCell()), 0x7362d09c);
    assert.equal(readOpCode(beginCell().storeUint(0xd53276db, 32).storeUint(5, 64).endCell()), 0xd53276db);
    assert.equal(readOpCode(beginCell().storeUint(1, 31).endCell()), undefined);
    assert.equal(readOpCode(Cell.EMPTY), undefined);
});

test('short text comment', () => {
    const d = decodeBody(comment('Hello, TON!'));
    assert.deepEqual(d, { name: 'text_comment', opCode: 0, value: { text: 'Hello, TON!' } });
});

test('long multi-byte comment snaked across refs', () => {
    const text = 'Привет, мир! 💎 '.repeat(40); // well over one cell, multi-byte chars split across cells
    const body = comment(text);
    assert.ok(body.refs.length === 1 && body.refs[0].refs.length === 1, 'the builder really made a snake');
    const d = decodeBody(body);
    assert.equal(d?.name, 'text_comment');
    assert.deepEqual(d?.value, { text });
    assert.equal(tryLoad(loadTextComment, body)?.text, text);
});

test('empty comment (op 0 only)', () => {
    assert.deepEqual(decodeBody(beginCell().storeUint(0, 32).endCell())?.value, { text: '' });
});

test('comment with invalid UTF-8 or broken layout is not decoded', () => {
    const badUtf8 = beginCell().storeUint(0, 32).storeBuffer(Buffer.from([0x68, 0xc3, 0x28])).endCell();
    assert.equal(decodeBody(badUtf8), null);
    const oddBits = beginCell().storeUint(0, 32).storeUint(0x41, 8).storeBit(1).endCell();
    assert.equal(decodeBody(oddBits), null);
    const twoRefs = beginCell().storeUint(0, 32).storeRef(Cell.EMPTY).storeRef(Cell.EMPTY).endCell();
    assert.equal(decodeBody(twoRefs), null);
});

test('encrypted comment gives the cipher text as hex', () => {
    const cipher = Buffer.alloc(200);
    for (let i = 0; i < cipher.length; i++) cipher[i] = (i * 37 + 11) & 0xff;
    // 0x2167da4b then snake bytes: first cell holds 123 bytes after the op, the rest in a ref
    const tail = beginCell().storeBuffer(cipher.subarray(123)).endCell();
    const body = beginCell().storeUint(0x2167da4b, 32).storeBuffer(cipher.subarray(0, 123)).storeRef(tail).endCell();
    const d = decodeBody(body);
    assert.equal(d?.name, 'encrypted_text_comment');
    assert.equal(d?.opCode, 0x2167da4b);
    assert.deepEqual(d?.value, { cipher_text: cipher.toString('hex') });
});

test('bounced jetton transfer: 0xffffffff + the first 256 bits of the original body', () => {
    const original = jettonTransfer({
        queryId: 0x1122334455667788n,
        amount: 10n ** 9n,
        destination: BOB,
        response: ALICE,
        forwardTon: 1n,
    });
    const first256 = original.bits.substring(0, 256);
    const body = beginCell().storeUint(0xffffffff, 32).storeBits(first256).endCell();
    const d = decodeBody(body);
    assert.equal(d?.name, 'bounce');
    assert.equal(d?.opCode, 0xffffffff);
    const v = d?.value as Record<string, string>;
    assert.equal(v.original_op_code, '0x0f8a7ea5');
    assert.equal(v.original_query_id, String(0x1122334455667788n));
    const payload = Cell.fromBoc(Buffer.from(v.payload, 'hex'))[0];
    assert.ok(payload.bits.equals(first256));

    const typed = tryLoad(loadBounce, body);
    assert.equal(typed?.originalOpCode, 0x0f8a7ea5);

    // a bounce of a short body: no original op
    const short = decodeBody(beginCell().storeUint(0xffffffff, 32).storeUint(3, 8).endCell());
    assert.equal(short?.name, 'bounce');
    assert.equal((short?.value as Record<string, unknown>).original_op_code, undefined);
});

test('decoded values are JSON-safe', () => {
    const d = decodeBody(comment('json'));
    assert.doesNotThrow(() => JSON.stringify(d));
    const p = parseBody(comment('typed'));
    assert.equal(p?.name, 'text_comment');
    if (p?.name === 'text_comment') assert.equal(p.value.text, 'typed');
});

test('unknown op gives null', () => {
    assert.equal(decodeBody(beginCell().storeUint(0xdeadbeef, 32).storeUint(1, 64).endCell()), null);
    assert.equal(decodeBody(Cell.EMPTY), null);
});
