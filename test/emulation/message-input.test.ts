import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Address, beginCell, Cell, crc32c, external, internal, storeMessage, storeMessageRelaxed, toNano } from '@ton/core';
import { parseRootMessage, requireChainWorkchain } from '../../src/emulation/message-input.ts';
import { ParsedCells } from '../../src/emulation/parsed-cells.ts';
import { InputFormatError, parseBocInput, parseMessageCell } from '../../src/ton/input.ts';

/** The root message as it was read before the fast path: @ton/core's BOC reader, then the TL-B and workchain checks. */
function readWithTonCore(boc: string): Cell {
    const cell = parseBocInput(boc);
    const info = parseMessageCell(cell).info;
    if (info.type !== 'external-out') requireChainWorkchain(info.dest, "the message's destination");
    return cell;
}

/** What a reader gives for an input: the root's hash, or the error's message. */
function outcome(read: () => Cell): string {
    try {
        return `cell ${read().hash().toString('hex')}`;
    } catch (error) {
        return `error ${(error as Error).message}`;
    }
}

const destination = Address.parseRaw(`0:${'ab'.repeat(32)}`);
const body = beginCell().storeUint(0x12345678, 32).storeRef(beginCell().store(storeMessageRelaxed(internal({ to: destination, value: toNano('1'), body: 'hi' }))).endCell()).endCell();
const message = beginCell().store(storeMessage(external({ to: destination, body }))).endCell();

/**
 * An external message whose body hangs by a ref and continues as a chain of one-byte cells, `depth`
 * cells deep in all, serialized by hand (@ton/core's BOC writer recurses and cannot write deep chains).
 */
function deepMessageBoc(depth: number): string {
    const root = beginCell().store(storeMessage(external({ to: destination, body: beginCell().storeUint(7, 8).endCell() }), { forceRef: true })).endCell();
    const cellData = (bits: { length: number; at(i: number): boolean }, refs: number[]) => {
        const bytes = Buffer.alloc(Math.ceil(bits.length / 8));
        for (let i = 0; i < bits.length; i++) if (bits.at(i)) bytes[i >> 3] |= 0x80 >> (i & 7);
        if (bits.length % 8 !== 0) bytes[bits.length >> 3] |= 0x80 >> (bits.length % 8);
        const refBytes = Buffer.alloc(refs.length * 4);
        refs.forEach((ref, i) => refBytes.writeUInt32BE(ref, i * 4));
        return Buffer.concat([Buffer.from([refs.length, Math.ceil(bits.length / 8) + Math.floor(bits.length / 8)]), bytes, refBytes]);
    };
    const cells = [cellData(root.bits, [1])];
    for (let i = 1; i <= depth; i++) cells.push(cellData({ length: 8, at: (bit) => ((i % 256) & (0x80 >> bit)) !== 0 }, i < depth ? [i + 1] : []));
    const body = Buffer.concat(cells);
    const header = Buffer.alloc(6 + 4 * 4 + 4);
    header.writeUInt32BE(0xb5ee9c72, 0);
    header[4] = 4; // no index, no CRC, 4-byte cell references
    header[5] = 4; // 4-byte offsets
    header.writeUInt32BE(cells.length, 6);
    header.writeUInt32BE(1, 10);
    header.writeUInt32BE(0, 14);
    header.writeUInt32BE(body.length, 18);
    header.writeUInt32BE(0, 22);
    return Buffer.concat([header, body]).toString('base64');
}

describe('emulation: reading the root message', () => {
    it('reads BOCs with and without CRC, index, in hex or base64, as @ton/core does', () => {
        const bocs = [
            message.toBoc().toString('base64'),
            message.toBoc({ idx: false, crc32: false }).toString('base64'),
            message.toBoc({ idx: true, crc32: true }).toString('hex'),
            `  ${message.toBoc({ idx: true, crc32: false }).toString('base64')}\n`,
        ];
        for (const boc of bocs) {
            const root = parseRootMessage(boc);
            assert.equal(root.cell.hash().toString('hex'), message.hash().toString('hex'));
            assert.equal(root.message.info.dest?.toString(), destination.toString());
        }
    });

    it('refuses messages deeper than the emulator runs (288, below its WASM stack\'s limit), however deep, naming the limit and the depth sent', () => {
        for (const depth of [289, 301, 436, 512, 513, 20_000]) {
            assert.throws(() => parseRootMessage(deepMessageBoc(depth)),
                (error: Error) => error instanceof InputFormatError && error.message.startsWith(`boc is ${depth} cells deep; the emulator runs messages at most 288 cells deep`));
        }
        assert.equal(parseRootMessage(deepMessageBoc(288)).cell.depth(), 288);
    });

    it('accepts and refuses damaged BOCs exactly as @ton/core does', () => {
        const original = message.toBoc();
        let seed = 7;
        const random = (n: number) => {
            seed = (seed * 1103515245 + 12345) % 2 ** 31;
            return seed % n;
        };
        for (let i = 0; i < 3000; i++) {
            const damaged = Buffer.from(original);
            damaged[random(damaged.length)] = random(256);
            // Half of them with a CRC that matches again, so that the fast path is the one deciding.
            if (i % 2 === 0) crc32c(damaged.subarray(0, damaged.length - 4)).copy(damaged, damaged.length - 4);
            const boc = damaged.subarray(0, damaged.length - (i % 7 === 0 ? random(8) : 0)).toString('base64');
            assert.equal(outcome(() => parseRootMessage(boc).cell), outcome(() => readWithTonCore(boc)), boc);
        }
    });
});

describe('emulation: cells kept by their bytes', () => {
    it('reuses a cell only while the bytes are the same', () => {
        const cells = new ParsedCells(10);
        const a = beginCell().storeUint(1, 8).endCell();
        const b = beginCell().storeUint(2, 8).endCell();
        const first = cells.read('x', a.toBoc());
        assert.equal(cells.read('x', a.toBoc()), first);
        const changed = cells.read('x', b.toBoc());
        assert.notEqual(changed, first);
        assert.equal(changed.hash().toString('hex'), b.hash().toString('hex'));
    });
});
