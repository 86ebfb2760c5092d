import test from 'node:test';
import assert from 'node:assert/strict';
import { Cell, beginCell } from '@ton/core';
import { bocDeeperThan } from '../../../src/ton/tvm-executor.ts';
import { bocRootDepth } from '../../../src/ton/boc/boc-reader.ts';
import { FIXTURE_BLOCKS, mainnetSkip, readBlockBoc } from '../../helpers/fixtures.ts';

function chain(cells: number): Cell {
    let cell = beginCell().storeUint(0, 8).endCell();
    for (let i = 1; i < cells; i++) cell = beginCell().storeUint(i % 256, 8).storeRef(cell).endCell();
    return cell;
}

test('the depth read from serialized cells is the depth of the cells (mainnet blocks, with Merkle updates and pruned branches)', { skip: mainnetSkip }, () => {
    for (const name of FIXTURE_BLOCKS) {
        const boc = readBlockBoc(name);
        assert.equal(bocRootDepth(boc), Cell.fromBoc(boc)[0].depth(), name);
    }
});

test('chains, shared children, wide trees, index and CRC, and one root of several', () => {
    const shared = chain(40);
    const wide = beginCell().storeRef(chain(3)).storeRef(shared).storeRef(beginCell().storeRef(shared).endCell()).storeRef(chain(77)).endCell();
    for (const cell of [beginCell().endCell(), chain(2), chain(305), chain(1000), wide]) {
        for (const options of [{}, { idx: true }, { idx: true, crc32: true }]) {
            assert.equal(bocRootDepth(cell.toBoc(options)), cell.depth(), `depth ${cell.depth()} ${JSON.stringify(options)}`);
        }
        assert.equal(bocDeeperThan(cell.toBoc().toString('base64'), 303), cell.depth() > 303);
    }
});

test('a bag cut short or referring backwards is refused, as reading it would be', () => {
    const boc = chain(10).toBoc();
    assert.throws(() => bocRootDepth(boc.subarray(0, boc.length - 8)), /truncated/, 'cut short inside the cells (the last 4 bytes are its CRC)');
    assert.throws(() => bocRootDepth(Buffer.from('not a bag of cells')));
    // root cell 1 refers to cell 0 (b5ee9c72, size 1, offsets 1, 2 cells, 1 root, 0 absent, 5 data bytes, root 1)
    const backwards = Buffer.from('b5ee9c7201010201000501' + '0000' + '010000', 'hex');
    assert.throws(() => bocRootDepth(backwards), /topologically/);
});
