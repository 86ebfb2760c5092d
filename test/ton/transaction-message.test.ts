import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import {
    Address, beginCell, Cell, Dictionary, ExternalAddress, loadMessage, storeMessage, storeStateInit, type Message, type StateInit,
} from '@ton/core';
import { readBoc } from '../../src/ton/boc/boc-reader.ts';
import { describeMessage } from '../../src/ton/transaction.ts';

const alice = Address.parse('0:' + 'ab'.repeat(32));
const bob = Address.parse('-1:' + '01'.repeat(32));
const code = beginCell().storeUint(0xc0de, 16).endCell();
const data = beginCell().storeUint(7, 64).storeRef(beginCell().storeUint(1, 1).endCell()).endCell();
const init: StateInit = { code, data };

function internal(body: Cell, withInit?: StateInit, other?: Dictionary<number, bigint>): Message {
    return {
        info: {
            type: 'internal', ihrDisabled: false, bounce: true, bounced: false, src: alice, dest: bob,
            value: { coins: 123_456_789_012n, other }, ihrFee: 5n, forwardFee: 777n, createdLt: 2n ** 63n + 9n, createdAt: 1_700_000_000,
        },
        init: withInit,
        body,
    };
}

/** The message written as @ton/core writes it (`forceRef` puts init and body in refs), then read back as the index reads it. */
function roundTrip(message: Message, forceRef = false) {
    const cell = beginCell().store(storeMessage(message, { forceRef })).endCell();
    return { cell, described: describeMessage(readBoc(cell.toBoc())[0]) };
}

function assertSameTail(cell: Cell, described: ReturnType<typeof describeMessage>) {
    const expected = loadMessage(cell.beginParse());
    assert.ok(described.body.equals(expected.body), 'body');
    if (expected.init) {
        assert.ok(described.init, 'init');
        const built = (i: StateInit) => beginCell().store(storeStateInit(i)).endCell();
        assert.ok(built(described.init).equals(built(expected.init)), 'init');
    } else {
        assert.equal(described.init, undefined);
    }
    assert.equal(described.hash, cell.hash().toString('hex'));
}

describe('describeMessage', () => {
    const comment = beginCell().storeUint(0, 32).storeStringTail('hello').endCell();

    for (const [name, message, forceRef] of [
        ['an inline body', internal(comment), false],
        ['a body in a ref', internal(comment), true],
        ['an inline StateInit', internal(comment, init), false],
        ['a StateInit and body in refs', internal(comment, init), true],
        ['an empty body', internal(Cell.EMPTY), false],
    ] as const) {
        it(`reads an internal message with ${name} as @ton/core's loadMessage does`, () => {
            const { cell, described } = roundTrip(message, forceRef);
            assert.equal(described.msgType, 'int_msg');
            assert.equal(described.ihrDisabled, false);
            assert.equal(described.bounce, true);
            assert.equal(described.bounced, false);
            assert.equal(described.source, `0:${'ab'.repeat(32)}`);
            assert.equal(described.destination, `-1:${'01'.repeat(32)}`);
            assert.equal(described.value, 123_456_789_012n);
            assert.equal(described.ihrFee, 5n);
            assert.equal(described.forwardFee, 777n);
            assert.equal(described.createdLt, 2n ** 63n + 9n);
            assert.equal(described.createdAt, 1_700_000_000);
            assert.equal(described.extraCurrencies, null);
            assert.equal(described.opCode, message.body.bits.length >= 32 ? 0 : null);
            assertSameTail(cell, described);
        });
    }

    it('keeps the extra currencies dictionary of an internal message', () => {
        const other = Dictionary.empty(Dictionary.Keys.Uint(32), Dictionary.Values.BigVarUint(5));
        other.set(239, 1000n);
        const { cell, described } = roundTrip(internal(comment, undefined, other));
        assert.ok(described.extraCurrencies);
        const info = described.message.info;
        assert.equal(info.type === 'internal' ? info.value.other?.get(239) : undefined, 1000n);
        assertSameTail(cell, described);
    });

    it('reads external messages in and out', () => {
        const inbound = roundTrip({
            info: { type: 'external-in', src: new ExternalAddress(5n, 8), dest: alice, importFee: 42n },
            init,
            body: comment,
        });
        assert.equal(inbound.described.msgType, 'ext_in_msg');
        assert.equal(inbound.described.importFee, 42n);
        assert.equal(inbound.described.createdAt, 0);
        assert.equal(inbound.described.source, null);
        assertSameTail(inbound.cell, inbound.described);

        const outbound = roundTrip({
            info: { type: 'external-out', src: bob, dest: null, createdLt: 99n, createdAt: 1234 },
            body: beginCell().storeUint(0xfeed, 32).endCell(),
        }, true);
        assert.equal(outbound.described.msgType, 'ext_out_msg');
        assert.equal(outbound.described.createdLt, 99n);
        assert.equal(outbound.described.createdAt, 1234);
        assert.equal(outbound.described.opCode, 0xfeed);
        assert.equal(outbound.described.importFee, 0n);
        assertSameTail(outbound.cell, outbound.described);
    });
});
