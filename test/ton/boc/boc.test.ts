import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { beginCell, BitString, Cell, loadTransaction } from '@ton/core';
import { readBoc } from '../../../src/ton/boc/boc-reader.ts';
import { builtCell, paddedBytes, prunedBranch } from '../../../src/ton/cells/core-cells.ts';
import { randomBytes } from 'node:crypto';
import { writeBoc } from '../../../src/ton/boc/boc-writer.ts';
import { FIXTURE_BLOCKS, mainnetSkip, readBlockBoc, readSummary } from '../../helpers/fixtures.ts';

/** Every cell of both trees, level by level: hashes, depths, type, mask, bits, refs. */
function assertSameTree(expected: Cell, actual: Cell): number {
    const seen = new Set<string>();
    const walk = (e: Cell, a: Cell) => {
        const key = e.hash().toString('hex');
        if (seen.has(key)) return;
        seen.add(key);
        for (let level = 0; level < 4; level++) {
            assert.ok(e.hash(level).equals(a.hash(level)), `hash at level ${level} of ${key}`);
            assert.equal(a.depth(level), e.depth(level), `depth at level ${level} of ${key}`);
        }
        assert.equal(a.type, e.type);
        assert.equal(a.mask.value, e.mask.value);
        assert.equal(a.level(), e.level());
        assert.ok(a.bits.equals(e.bits), `bits of ${key}`);
        assert.equal(a.refs.length, e.refs.length);
        e.refs.forEach((ref, i) => walk(ref, a.refs[i]));
    };
    walk(expected, actual);
    return seen.size;
}

describe('readBoc', { skip: mainnetSkip }, () => {
    for (const name of FIXTURE_BLOCKS) {
        it(`reads mainnet ${name} exactly as @ton/core does, Merkle update and pruned branches included`, () => {
            const boc = readBlockBoc(name);
            const ours = readBoc(boc);
            assert.equal(ours.length, 1);
            assert.equal(ours[0].hash().toString('hex'), readSummary(name).root_hash);
            const cells = assertSameTree(Cell.fromBoc(boc)[0], ours[0]);
            assert.ok(cells > 20);
        });
    }

    it('gives cells every @ton/core function accepts', () => {
        const cell = readBoc(beginCell().storeUint(0xdeadbeef, 32).storeRef(beginCell().storeStringTail('hi').endCell()).endCell().toBoc())[0];
        assert.ok(cell instanceof Cell);
        const slice = cell.beginParse();
        assert.equal(slice.loadUint(32), 0xdeadbeef);
        assert.equal(slice.loadRef().beginParse().loadStringTail(), 'hi');
        assert.ok(cell.equals(Cell.fromBoc(cell.toBoc())[0]));
        assert.match(cell.toString(), /^x\{DEADBEEF\}/);
    });

    it('hashes an ordinary cell when first asked, and only the cells below it', () => {
        const leaf = beginCell().storeUint(1, 8).endCell();
        const left = beginCell().storeUint(2, 8).storeRef(leaf).endCell();
        const right = beginCell().storeUint(3, 8).endCell();
        const root = beginCell().storeUint(4, 8).storeRef(left).storeRef(right).endCell();
        const [ours] = readBoc(root.toBoc());
        const pending = (cell: Cell) => (cell as unknown as { _hashes: Buffer[] })._hashes.length === 0;
        assert.ok(pending(ours) && pending(ours.refs[0]) && pending(ours.refs[1]));
        assert.ok(ours.refs[0].hash().equals(left.hash()));
        assert.equal(ours.refs[0].depth(), 1);
        assert.ok(!pending(ours.refs[0]) && !pending(ours.refs[0].refs[0]), 'the asked cell and its subtree are hashed');
        assert.ok(pending(ours) && pending(ours.refs[1]), 'the root and its other child wait');
        assert.equal(ours.depth(), 2);
        assert.ok(ours.hash().equals(root.hash()) && !pending(ours.refs[1]));
    });

    it('hashes a chain of cells deeper than the call stack would allow recursion for, and writes it back', () => {
        let expected = beginCell().storeUint(0, 16).endCell();
        for (let i = 1; i < 20_000; i++) expected = beginCell().storeUint(i, 16).storeRef(expected).endCell();
        const [ours] = readBoc(writeBoc(expected));
        assert.equal(ours.depth(), 19_999);
        assert.ok(ours.hash().equals(expected.hash()));
    });

    it('rejects damaged input instead of building wrong cells', () => {
        const boc = readBlockBoc('block-5');
        assert.throws(() => readBoc(boc.subarray(0, boc.length - 400)));
        const badRef = beginCell().storeRef(beginCell().endCell()).endCell().toBoc({ idx: false, crc32: false });
        badRef[badRef.length - 3] = 0; // the root's ref now points at itself
        assert.throws(() => readBoc(badRef));
    });
});

describe('builtCell', () => {
    it('makes the cell endCell() makes (hash, depth, bits, refs) without closures of its own', () => {
        const leaf = beginCell().storeUint(7, 3).endCell();
        const builders = [
            () => beginCell(),
            () => beginCell().storeUint(0xdeadbeef, 32).storeBit(true),
            () => beginCell().storeBuffer(Buffer.alloc(127, 0xab)).storeUint(1, 7).storeRef(leaf).storeRef(beginCell().storeRef(leaf).endCell()),
            // refs made by builtCell, and a level-1 ref (a pruned branch), as the devnet's dictionary edges hold
            () => beginCell().storeUint(1, 1).storeRef(builtCell(beginCell().storeRef(leaf))).storeRef(prunedBranch(leaf)),
        ];
        for (const make of builders) {
            const expected = make().endCell();
            const cell = builtCell(make());
            assert.ok(cell instanceof Cell);
            assert.equal(cell.level(), expected.level());
            for (let level = 0; level <= 3; level++) {
                assert.equal(cell.hash(level).toString('hex'), expected.hash(level).toString('hex'));
                assert.equal(cell.depth(level), expected.depth(level));
            }
            assert.ok(cell.bits.equals(expected.bits));
            assert.equal(cell.refs.length, expected.refs.length);
            assert.equal(Object.hasOwn(cell, 'hash'), false);
            assert.ok(Object.hasOwn(expected, 'hash'), '@ton/core cells carry their own closures (what builtCell saves)');
        }
    });

    it('pads data as TON defines it, for every length and for bit strings that start inside a byte', () => {
        // The definition, bit by bit: the bits, then a 1 and zeros to the end of the byte when the length is not a multiple of 8.
        const bitsToPaddedBuffer = (bits: BitString) => {
            const out = Buffer.alloc(Math.ceil(bits.length / 8));
            for (let i = 0; i < bits.length; i++) if (bits.at(i)) out[i >> 3] |= 0x80 >> (i & 7);
            if (bits.length % 8) out[bits.length >> 3] |= 0x80 >> (bits.length & 7);
            return out;
        };
        for (let length = 0; length <= 1023; length++) {
            // A builder's bits (byte-aligned, the copy path), with ones after them in its buffer's last byte cleared.
            const builder = beginCell().storeBuffer(randomBytes(length >> 3));
            if (length % 8) builder.storeUint(randomBytes(1)[0] >> (8 - (length % 8)), length % 8);
            const bits = builder.endCell().bits;
            assert.deepEqual(paddedBytes(bits), bitsToPaddedBuffer(bits), `length ${length}`);
            // A bit string cut from a longer one: its first bit inside a byte, and bits after its end that are set.
            const wide = new BitString(Buffer.alloc(130, 0xff), 0, 1040);
            for (const offset of [0, 3, 8]) {
                const part = wide.substring(offset, Math.min(length, 1040 - offset));
                assert.deepEqual(paddedBytes(part), bitsToPaddedBuffer(part), `length ${part.length} at offset ${offset}`);
            }
        }
    });
});

describe('writeBoc', { skip: mainnetSkip }, () => {
    it('writes each transaction of a mainnet block as a BOC that @ton/core reads back to the same transaction', () => {
        const root = readBoc(readBlockBoc('block-2'))[0];
        const summary = readSummary('block-2');
        const byHash = new Map<string, Cell>();
        const walk = (cell: Cell) => {
            byHash.set(cell.hash().toString('hex'), cell);
            cell.refs.forEach(walk);
        };
        walk(root);
        for (const tx of summary.transactions.slice(0, 60)) {
            const cell = byHash.get(tx.hash)!;
            const written = writeBoc(cell);
            const back = Cell.fromBoc(written)[0];
            assert.equal(back.hash().toString('hex'), tx.hash);
            assert.equal(loadTransaction(back.beginParse()).lt, BigInt(tx.lt));
            assert.ok(written.length <= cell.toBoc({ idx: false, crc32: false }).length);
        }
    });

    it('encodes cells it did not read itself, at every bit length', () => {
        for (let length = 0; length <= 1023; length += 7) {
            const builder = beginCell();
            for (let i = 0; i < length; i++) builder.storeBit((i * 31 + length) % 3 === 0);
            if (length % 2 === 0) builder.storeRef(beginCell().storeStringTail(`ref ${length}`).endCell());
            const cell = builder.endCell();
            const back = Cell.fromBoc(writeBoc(cell))[0];
            assert.ok(back.equals(cell), `a cell of ${length} bits`);
            assert.equal(back.bits.length, length);
        }
    });
});
