import test from 'node:test';
import assert from 'node:assert/strict';
import { Cell, TupleReader, beginCell, contractAddress, type TupleItem } from '@ton/core';
import { formatRawAddress } from '../../../src/ton/address.ts';
import { detectInterfaces } from '../../../src/ton/interfaces/detect.ts';
import { GetMethodRunner, type GetMethodResult } from '../../../src/ton/interfaces/get-method-runner.ts';
import { decodeMultisigData } from '../../../src/ton/interfaces/standard-getters.ts';
import { multisigData, multisigSignersCell, multisigAddressDict } from '../../../src/chain/devnet/contracts/multisig-v2.ts';
import { compileTolk, testAddress } from './helpers.ts';

const [alice, bob, carol, dave] = [0xa1, 0xb0, 0xc2, 0xd3].map(seed => testAddress(seed));

function success(stack: TupleItem[]): GetMethodResult {
    return { ok: true, exitCode: 0, gasUsed: 0n, stack, reader: () => new TupleReader(stack) };
}

const dictCell = (entries: Array<[number, typeof alice]>) => {
    const dict = multisigAddressDict([]);
    for (const [key, address] of entries) dict.set(key, address);
    return beginCell().storeDictDirect(dict).endCell();
};

test('get_multisig_data: seqno, threshold, signers and proposers in key order; arbitrary-seqno mode answers -1', () => {
    const stack: TupleItem[] = [
        { type: 'int', value: 5n }, { type: 'int', value: 2n },
        { type: 'cell', cell: multisigSignersCell([alice, bob, carol]) }, { type: 'cell', cell: multisigSignersCell([dave]) },
    ];
    const data = decodeMultisigData(success(stack))!;
    assert.equal(data.nextOrderSeqno, 5n);
    assert.equal(data.threshold, 2);
    assert.deepEqual(data.signers.map(formatRawAddress), [alice, bob, carol].map(formatRawAddress));
    assert.deepEqual(data.proposers.map(formatRawAddress), [formatRawAddress(dave)]);

    const arbitrary = decodeMultisigData(success([{ type: 'int', value: -1n }, stack[1], stack[2], { type: 'null' }]))!;
    assert.equal(arbitrary.nextOrderSeqno, null);
    assert.deepEqual(arbitrary.proposers, []);
});

test('get_multisig_data answers that are not a multisig\'s are refused', () => {
    const signers = { type: 'cell', cell: multisigSignersCell([alice, bob]) } as const;
    const broken: Array<[string, TupleItem[]]> = [
        ['threshold above the signers', [{ type: 'int', value: 0n }, { type: 'int', value: 3n }, signers, { type: 'null' }]],
        ['threshold 0', [{ type: 'int', value: 0n }, { type: 'int', value: 0n }, signers, { type: 'null' }]],
        ['a gap in the signers\' keys', [{ type: 'int', value: 0n }, { type: 'int', value: 1n }, { type: 'cell', cell: dictCell([[0, alice], [2, bob]]) }, { type: 'null' }]],
        ['signers that are not a dictionary', [{ type: 'int', value: 0n }, { type: 'int', value: 1n }, { type: 'cell', cell: Cell.EMPTY }, { type: 'null' }]],
        ['proposers of another type', [{ type: 'int', value: 0n }, { type: 'int', value: 1n }, signers, { type: 'int', value: 1n }]],
        ['a seqno below -1', [{ type: 'int', value: -2n }, { type: 'int', value: 1n }, signers, { type: 'null' }]],
        ['three values', [{ type: 'int', value: 0n }, { type: 'int', value: 1n }, signers]],
    ];
    for (const [what, stack] of broken) assert.equal(decodeMultisigData(success(stack)), null, what);
    assert.equal(decodeMultisigData({ ok: false, exitCode: 11, gasUsed: 0n, error: 'no method' }), null);
});

/** A stand-in with its own code hash that keeps the multisig's storage and answers get_multisig_data from it. */
const PROBED_MULTISIG = `tolk 1.3

struct Storage {
    nextOrderSeqno: uint256
    threshold: uint8
    signers: cell
    signersNum: uint8
    proposers: dict
    allowArbitrary: bool
}

fun onInternalMessage(in: InMessage) {
}

get fun get_multisig_data(): (int, int, cell, cell?) {
    val st = Storage.fromCell(contract.getData());
    return (st.allowArbitrary ? -1 : st.nextOrderSeqno, st.threshold, st.signers, st.proposers);
}
`;

test('probing: a contract answering get_multisig_data with the layout is a multisig_v2', async () => {
    const runner = await GetMethodRunner.create();
    const code = await compileTolk(PROBED_MULTISIG);
    const data = multisigData({ threshold: 2, signers: [alice, bob, carol], proposers: [dave], allowArbitrarySeqno: false, nextOrderSeqno: 3n });
    const detected = await detectInterfaces({ address: contractAddress(0, { code, data }), code, data, balance: 10n ** 9n }, runner);
    assert.deepEqual(detected.interfaces, ['multisig_v2']);
    // over data its getter cannot read (a threshold above its signers), no multisig
    const bad = multisigData({ threshold: 2, signers: [alice, bob], proposers: [], allowArbitrarySeqno: false });
    const forged = beginCell().storeUint(0, 256).storeUint(9, 8).storeRef(bad.refs[0]).storeUint(2, 8).storeBit(false).storeBit(false).endCell();
    const other = await detectInterfaces({ address: testAddress(9), code, data: forged, balance: 1n }, runner);
    assert.deepEqual(other.interfaces, []);
});
