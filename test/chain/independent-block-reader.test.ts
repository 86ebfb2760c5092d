import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { beginCell, Cell, crc32c } from '@ton/core';
import { parseBlockFile } from '../../src/ton/block/block-file.ts';
import { compareWithProjectParser } from '../helpers/compare-block-readers.ts';
import { FIXTURE_BLOCKS, MAINNET_BLOCKS_DIR, mainnetSkip, readBlockBoc, readSummary } from '../helpers/fixtures.ts';
import {
    type IndependentBlock,
    readBlockIndependently,
    readStateUpdateSides,
    VALUE_FLOW_FIELDS,
} from '../helpers/independent-block-reader.ts';

const MASTERCHAIN_FIXTURE = 'block-5';

function transactionsOf(block: IndependentBlock) {
    return block.transactions.map(({ account, lt, hash }) => ({ account, lt: lt.toString(), hash }));
}

describe('independent block reader (only @ton/core) against the mainnet fixtures', { skip: mainnetSkip }, () => {
    for (const name of FIXTURE_BLOCKS) {
        describe(name, () => {
            const boc = readBlockBoc(name);

            test('agrees with the summary JSON: header and every transaction', () => {
                const block = readBlockIndependently(boc);
                const summary = readSummary(name);
                const { info } = block;
                assert.deepEqual(
                    {
                        workchain: info.workchain, shard: info.shard, seqno: info.seqno, utime: info.genUtime,
                        master: !info.notMaster, key_block: info.keyBlock, start_lt: info.startLt.toString(),
                        end_lt: info.endLt.toString(), root_hash: block.rootHash, tx_quantity: block.transactions.length,
                    },
                    {
                        workchain: summary.workchain, shard: summary.shard, seqno: summary.seqno, utime: summary.utime,
                        master: summary.master, key_block: summary.key_block, start_lt: summary.start_lt,
                        end_lt: summary.end_lt, root_hash: summary.root_hash, tx_quantity: summary.tx_quantity,
                    },
                );
                assert.deepEqual(transactionsOf(block), summary.transactions);
            });

            test("agrees with the project's parser (parseBlockFile), and the block is self-consistent", () => {
                compareWithProjectParser(boc);
            });

            test('value flow balances (grams and extra currencies)', () => {
                const block = readBlockIndependently(boc);
                assert.ok(block.valueFlowBalanced, JSON.stringify(block.valueFlow, (_k, v) => (typeof v === 'bigint' ? `${v}` : v)));
                assert.ok(block.extraCurrenciesBalanced);
            });

            test('MERKLE_UPDATE old/new hashes and depths are those of its two sides', () => {
                const { stateUpdate } = readBlockIndependently(boc);
                const sides = readStateUpdateSides(boc);
                assert.deepEqual(stateUpdate, sides);
                assert.notEqual(stateUpdate.oldHash, stateUpdate.newHash);
            });

            const expectedFile = `${MAINNET_BLOCKS_DIR}${name}.expected.json`;
            test('agrees with the other library decoding (expected.json): value flow and descriptor sizes', { skip: !existsSync(expectedFile) }, () => {
                const expected = JSON.parse(readFileSync(expectedFile, 'utf8'));
                const block = readBlockIndependently(boc);
                for (const field of VALUE_FLOW_FIELDS) {
                    const other = expected.ValueFlow[field[0].toUpperCase() + field.slice(1)];
                    assert.equal(block.valueFlow[field], BigInt(other?.Grams ?? 0), field);
                    const extras = block.valueFlowExtraCurrencies.filter((e) => e.field === field);
                    assert.deepEqual(
                        Object.fromEntries(extras.map((e) => [String(e.currencyId), String(e.amount)])),
                        other?.Other ?? {},
                        `${field} extra currencies`,
                    );
                }
                assert.equal(block.valueFlowVersion, expected.ValueFlow.Burned === null ? 1 : 2);
                assert.equal(block.inMsgCount, expected.InMsgDescrLength);
                assert.equal(block.outMsgCount, expected.OutMsgDescrLength);
                if (expected.TxHashes) {
                    assert.deepEqual(block.transactions.map((t) => t.hash).sort(), [...expected.TxHashes].sort());
                }
            });
        });
    }

    test(`${MASTERCHAIN_FIXTURE} (masterchain): shard hashes equal parseBlockFile's shard tops`, () => {
        const boc = readBlockBoc(MASTERCHAIN_FIXTURE);
        const block = readBlockIndependently(boc);
        assert.equal(block.info.workchain, -1);
        assert.ok(block.shardHashes && block.shardHashes.length > 0);
        const tops = parseBlockFile(boc).shardTops;
        assert.deepEqual(
            block.shardHashes.map(({ feesCollected: _fees, genUtime, ...rest }) => ({ ...rest, utime: genUtime })),
            tops,
        );
        // The shard fees the masterchain imports are those its new shard blocks collected.
        assert.equal(block.shardFees?.fees, block.shardHashes.reduce((sum, s) => sum + s.feesCollected, 0n));
    });
});

describe('the cross-check can fail', { skip: mainnetSkip }, () => {
    const original = readBlockBoc(MASTERCHAIN_FIXTURE);

    /** A copy with one byte flipped; optionally with the BOC's CRC32C recomputed so it still deserializes. */
    function flipped(at: number, fixCrc: boolean): Buffer {
        const copy = Buffer.from(original);
        copy[at] ^= 0xff;
        if (fixCrc) {
            crc32c(copy.subarray(0, copy.length - 4)).copy(copy, copy.length - 4);
        }
        return copy;
    }

    // bytes spread over the whole file: header, index, cell data (stored hashes, state update, transactions...)
    const positions = Array.from({ length: 120 }, (_, i) => Math.floor(((i + 0.5) * (original.length - 4)) / 120));

    test('a flipped byte is rejected', () => {
        for (const at of positions) {
            assert.throws(() => compareWithProjectParser(flipped(at, false)), Error, `byte ${at}`);
        }
    });

    test('a flipped byte behind a valid CRC is rejected by a reader, the comparison, or the summary', () => {
        const summary = readSummary(MASTERCHAIN_FIXTURE);
        for (const at of positions) {
            let block: IndependentBlock;
            try {
                block = compareWithProjectParser(flipped(at, true));
            } catch {
                continue;
            }
            const same = block.rootHash === summary.root_hash
                && JSON.stringify(transactionsOf(block)) === JSON.stringify(summary.transactions);
            assert.ok(!same, `byte ${at}: the corruption went unnoticed`);
        }
    });

    test('an unbalanced value flow is reported', () => {
        // The same block with to_next_blk raised by one nanogram, serialized again.
        const root = Cell.fromBoc(original)[0];
        const [info, valueFlow, stateUpdate, extra] = root.refs;
        const s = valueFlow.refs[0].beginParse();
        const fromPrev = [s.loadCoins(), s.loadMaybeRef()] as const;
        const toNext = [s.loadCoins(), s.loadMaybeRef()] as const;
        const first = beginCell()
            .storeCoins(fromPrev[0]).storeMaybeRef(fromPrev[1])
            .storeCoins(toNext[0] + 1n).storeMaybeRef(toNext[1])
            .storeSlice(s)
            .endCell();
        const vf = beginCell().storeBits(valueFlow.bits).storeRef(first);
        valueFlow.refs.slice(1).forEach((r) => vf.storeRef(r));
        const block = beginCell().storeBits(root.bits).storeRef(info).storeRef(vf.endCell()).storeRef(stateUpdate).storeRef(extra).endCell();
        const boc = block.toBoc({ idx: false, crc32: true });

        assert.equal(readBlockIndependently(boc).valueFlowBalanced, false);
        assert.throws(() => compareWithProjectParser(boc), /value flow does not balance/);
    });
});
