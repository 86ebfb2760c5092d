import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { BitBuilder, BitReader, BitString, Builder, Cell, CellType, Slice, beginCell } from '@ton/core';
import { bitsView, builderContents, builtCell, cellBuilder, fastSlice, levelMask, loadHex256, makeCell, ownBytes, paddedBytes, prunedBranch } from '../../../src/ton/cells/core-cells.ts';
import { readBoc } from '../../../src/ton/boc/boc-reader.ts';
import { writeBoc } from '../../../src/ton/boc/boc-writer.ts';
import { seededRandom } from '../../helpers/seeded-random.ts';

const random = seededRandom(0x5eed_ce11);
console.log(`# core-cells: seed ${random.seed} (TEST_SEED replays another)`);
const int = (below: number) => Math.floor(random.next() * below);

/** The reading @ton/core does, bit by bit, as the reference. */
function reference(data: Buffer, start: number, bits: number): bigint {
    let result = 0n;
    for (let i = 0; i < bits; i++) {
        const at = start + i;
        if ((data[at >> 3] >> (7 - (at & 7))) & 1) result |= 1n << BigInt(bits - 1 - i);
    }
    return result;
}

/** A random tree of ordinary cells built with @ton/core alone. */
function coreTree(depth: number): Cell {
    const width = int(8);
    const builder = beginCell().storeBuffer(random.bytes(int(100))).storeUint(int(1 << width), width);
    if (depth > 0) for (let i = int(4); i > 0; i--) builder.storeRef(coreTree(depth - 1));
    return builder.endCell();
}

describe('@ton/core as published, and the internals our cells rely on', () => {
    test('@ton/core is pinned to the exact version whose internals these tests check', () => {
        const pinned = (JSON.parse(readFileSync(new URL('../../../package.json', import.meta.url), 'utf8')) as { dependencies: Record<string, string> }).dependencies['@ton/core'];
        assert.match(pinned, /^\d+\.\d+\.\d+$/, 'an exact version, no range');
        const installed = (createRequire(import.meta.url)('@ton/core/package.json') as { version: string }).version;
        assert.equal(installed, pinned);
    });

    test('its own cells, slices and readers are untouched', () => {
        const cell = beginCell().storeUint(0xabcdef, 24).endCell();
        const slice = cell.beginParse() as unknown as { _reader: object };
        assert.equal(Object.getPrototypeOf(slice._reader), BitReader.prototype, "a @ton/core cell reads with @ton/core's own reader");
        assert.deepEqual(Object.keys(cell).sort(), ['_depths', '_hashes', 'beginParse', 'bits', 'depth', 'equals', 'hash', 'level', 'mask', 'refs', 'type']);
    });

    test('the fields we read: BitString, Builder and a level mask', () => {
        const data = random.bytes(8);
        assert.deepEqual(bitsView(new BitString(data, 3, 40)), { data, offset: 3, length: 40 });
        const ref = beginCell().storeUint(1, 1).endCell();
        const contents = builderContents(beginCell().storeUint(5, 3).storeRef(ref));
        assert.equal(contents.bits.toString(), new BitString(Buffer.from([0xa0]), 0, 3).toString());
        assert.deepEqual(contents.refs, [ref]);
        assert.deepEqual(Object.keys(new Builder()).sort(), ['_bits', '_refs']);
        assert.deepEqual(Object.keys(new BitBuilder()).sort(), ['_buffer', '_length']);
        const slice = beginCell().storeUint(1, 2).storeRef(ref).endCell().beginParse();
        assert.deepEqual(Object.keys(slice).filter(key => key.startsWith('_')).sort(), ['_reader', '_refs', '_refsOffset']);
        assert.ok((slice as unknown as { _reader: unknown })._reader instanceof BitReader);
        const mask = levelMask(5);
        assert.equal(mask.value, 5);
        assert.equal(mask.level, 3);
        assert.equal(Object.getPrototypeOf(mask), Object.getPrototypeOf(beginCell().endCell().mask), "the class of @ton/core's own cells' masks");
    });

    test('our cells hash, serialize and compare as @ton/core cells of the same content', () => {
        for (let round = 0; round < 20; round++) {
            const core = coreTree(3);
            const [read] = readBoc(core.toBoc());
            assert.ok(read instanceof Cell);
            assert.ok(read.hash().equals(core.hash()));
            assert.equal(read.depth(), core.depth());
            assert.ok(read.equals(core) && core.equals(read));
            assert.ok(read.toBoc().equals(core.toBoc()), "@ton/core's own writer takes our cells");
            assert.ok(writeBoc(read).equals(writeBoc(core)));
            const built = builtCell(beginCell().storeSlice(core.beginParse()).storeRef(read));
            assert.ok(built.hash().equals(beginCell().storeSlice(core.beginParse()).storeRef(core).endCell().hash()));
            assert.ok(ownBytes(read), 'a read cell keeps its serialized bytes');
        }
        const made = makeCell(CellType.Ordinary, Buffer.alloc(0), 0, [], 0);
        assert.ok(made.hash().equals(beginCell().endCell().hash()));
        assert.throws(() => { (made as unknown as { extra: number }).extra = 1; }, 'sealed');
    });
});

describe('cellBuilder', () => {
    test("bits copied at any offset into any position build the cell @ton/core's builder builds; a copy past 1023 bits fails as @ton/core's does", () => {
        for (let round = 0; round < 2000; round++) {
            const data = random.bytes(40);
            const offset = int(16);
            const length = int(40 * 8 - offset + 1);
            const bits = new BitString(data, offset, length);
            const before = int(Math.min(1023 - length, 700) + 1);
            const prefix = random.bytes(Math.ceil(before / 8));
            const ours = cellBuilder().storeBits(new BitString(prefix, 0, before)).storeBits(bits).storeUint(1, 1);
            const theirs = beginCell().storeBits(new BitString(prefix, 0, before)).storeBits(bits).storeUint(1, 1);
            assert.ok(ours.endCell().hash().equals(theirs.endCell().hash()), `${length} bits from ${offset} after ${before}`);
        }
        const full = new BitString(Buffer.alloc(128, 0xff), 0, 1000);
        assert.throws(() => beginCell().storeBits(full).storeBits(full), /overflow|Overflow/);
        assert.throws(() => cellBuilder().storeBits(full).storeBits(full), /overflow|Overflow/);
        const sliced = beginCell().storeUint(5, 3).storeRef(beginCell().endCell()).endCell().beginParse();
        assert.ok(cellBuilder().storeSlice(sliced).endCell().hash().equals(beginCell().storeSlice(sliced).endCell().hash()));
    });
});

describe('fastSlice', () => {
    test('unsigned reads of any width at any offset give what reading bit by bit gives', () => {
        for (let round = 0; round < 3000; round++) {
            const data = random.bytes(40);
            const stringOffset = int(16);
            const length = int(Math.min(1023, 40 * 8 - stringOffset) + 1);
            const slice = fastSlice(new Cell({ bits: new BitString(data, stringOffset, length) }));
            const skip = int(length + 1);
            const bits = int(length - skip + 1);
            slice.skip(skip);
            assert.equal(slice.loadUintBig(bits), reference(data, stringOffset + skip, bits), `width ${bits} at ${stringOffset + skip}`);
        }
    });

    test('signed reads and coins decode, a read past the end fails as @ton/core fails, exotic cells need allowExotic', () => {
        const data = Buffer.from('ffffffffffffffff0123456789abcdef', 'hex');
        const slice = fastSlice(new Cell({ bits: new BitString(data, 0, 128) }));
        assert.equal(slice.loadInt(64), -1);
        assert.equal(slice.loadUintBig(64), 0x0123456789abcdefn);
        assert.throws(() => fastSlice(new Cell({ bits: new BitString(data, 0, 10) })).loadUint(11), /out of bounds/);
        const coins = beginCell().storeCoins(123456789012345678901234n).endCell();
        assert.equal(fastSlice(coins).loadCoins(), 123456789012345678901234n);
        const pruned = prunedBranch(coreTree(1));
        assert.throws(() => fastSlice(pruned), /Exotic/);
        assert.equal(fastSlice(pruned, true).loadUint(8), 1);
    });

    test("the cells a slice makes of itself are ours, equal to @ton/core's; its clones read on where it stands (or from the start)", () => {
        for (let round = 0; round < 50; round++) {
            const core = coreTree(2);
            const [read] = readBoc(core.toBoc());
            const slice = read.beginParse();
            const skip = int(core.bits.length + 1);
            slice.skip(skip);
            const skipRefs = int(core.refs.length + 1);
            for (let i = 0; i < skipRefs; i++) slice.loadRef();
            const expected = core.beginParse().skip(skip);
            for (let i = 0; i < skipRefs; i++) expected.loadRef();
            assert.ok(slice instanceof Slice);
            const own = slice.asCell();
            assert.ok(ownBytes(own) === undefined && !Object.prototype.hasOwnProperty.call(own, 'hash'), 'a cell of ours: methods on its prototype, not closures of its own');
            assert.ok(own.hash().equals(expected.asCell().hash()));
            assert.ok(slice.asBuilder().endCell().hash().equals(own.hash()));
            assert.ok(slice.clone().asCell().hash().equals(own.hash()));
            assert.ok(slice.clone(true).asCell().hash().equals(core.hash()));
            assert.equal(slice.clone().remainingRefs, slice.remainingRefs);
        }
    });

    test('cells read from a BOC parse with it, their refs too', () => {
        const [read] = readBoc(beginCell().storeRef(beginCell().storeUint(7, 3)).endCell().toBoc());
        const reader = (cell: Cell) => Object.getPrototypeOf((cell.beginParse() as unknown as { _reader: object })._reader);
        assert.notEqual(reader(read), BitReader.prototype);
        assert.equal(reader(read), reader(read.refs[0]));
        assert.equal(Object.getPrototypeOf((read.beginParse().clone() as unknown as { _reader: object })._reader), reader(read), 'a clone keeps reading fast');
        assert.equal(read.beginParse().loadRef().beginParse().loadUint(3), 7);
    });
});

test('loadHex256 reads 256 bits at any offset as the hex of those bytes, and moves the slice past them', () => {
    for (let offset = 0; offset < 16; offset++) {
        for (let round = 0; round < 20; round++) {
            const hash = random.bytes(32);
            const slice = beginCell().storeUint(int(1 << 16) & ((1 << offset) - 1), offset).storeBuffer(hash).storeUint(5, 3).endCell().beginParse();
            slice.skip(offset);
            assert.equal(loadHex256(slice), hash.toString('hex'));
            assert.equal(slice.loadUint(3), 5);
        }
    }
    const short = beginCell().storeBuffer(random.bytes(31)).endCell().beginParse();
    assert.throws(() => loadHex256(short), /out of bounds/);
    assert.equal(short.remainingBits, 248, 'a failed read leaves the slice where it was');
});

test('paddedBytes pads with the completion tag at any offset', () => {
    for (let round = 0; round < 500; round++) {
        const data = random.bytes(20);
        const offset = int(8);
        const length = int(20 * 8 - offset + 1);
        const expected = Buffer.alloc(Math.ceil(length / 8));
        for (let i = 0; i < length; i++) if ((data[(offset + i) >> 3] >> (7 - ((offset + i) & 7))) & 1) expected[i >> 3] |= 0x80 >> (i & 7);
        if (length % 8 !== 0) expected[length >> 3] |= 0x80 >> (length % 8);
        assert.ok(paddedBytes(new BitString(data, offset, length)).equals(expected), `${length} bits from ${offset}`);
    }
});
