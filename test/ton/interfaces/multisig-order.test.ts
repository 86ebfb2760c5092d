import test from 'node:test';
import assert from 'node:assert/strict';
import { Address, Cell, TupleReader, beginCell, contractAddress, internal, type TupleItem } from '@ton/core';
import { formatRawAddress } from '../../../src/ton/address.ts';
import { detectInterfaces } from '../../../src/ton/interfaces/detect.ts';
import { GetMethodRunner, type GetMethodResult } from '../../../src/ton/interfaces/get-method-runner.ts';
import {
    approvedSigners, changingParameters, loadMultisigAction, loadMultisigOrderActions, loadMultisigOrderState, sentMessages,
    type MultisigOrderState,
} from '../../../src/ton/interfaces/multisig-order.ts';
import { decodeMultisigOrderData } from '../../../src/ton/interfaces/standard-getters.ts';
import { testAddress } from './helpers.ts';
import {
    maskOf, orderCell, orderData, probedOrderCode, probedOrderData, sendMessageAction, signersCell, transferAction,
    uninitialisedOrderData, updateParamsAction, type OrderFields,
} from './multisig-order-cells.ts';

const multisig = testAddress(0x77);
const [alice, bob, carol, dave] = [0xa1, 0xb0, 0xc2, 0xd3].map(seed => testAddress(seed));
const destination = testAddress(0x42);
const raw = (addresses: Address[]) => addresses.map(formatRawAddress);

function fields(overrides: Partial<OrderFields> = {}): OrderFields {
    return {
        multisig, orderSeqno: 7n, threshold: 2, sentForExecution: false, signers: [alice, bob, carol],
        approvalsMask: maskOf([1]), approvalsNum: 1, expirationDate: 1_760_086_400,
        order: orderCell([transferAction(destination, 1_500_000_000n)]), ...overrides,
    };
}

const load = (data: Cell) => loadMultisigOrderState(data.beginParse());

test('an order before its init holds only its multisig and seqno', () => {
    const seqno = (1n << 256n) - 2n;
    const state = load(uninitialisedOrderData(multisig, seqno));
    assert.equal(formatRawAddress(state.multisig), formatRawAddress(multisig));
    assert.equal(state.orderSeqno, seqno);
    assert.equal(state.params, null);
});

test('an initialised order: its copy of the signers and threshold, approvals, expiration and actions', () => {
    const message = internal({ to: destination, value: 2_000_000_000n, bounce: false, body: beginCell().storeUint(0, 32).storeStringTail('rent').endCell() });
    const order = orderCell([sendMessageAction(1, message), updateParamsAction(3, [alice, dave, carol], [bob])]);
    const state = load(orderData(fields({ approvalsMask: maskOf([0, 2]), approvalsNum: 2, order })));
    const params = state.params!;
    assert.equal(state.orderSeqno, 7n);
    assert.equal(params.threshold, 2);
    assert.equal(params.sentForExecution, false);
    assert.deepEqual(raw([...params.signers.values()]), raw([alice, bob, carol]));
    assert.deepEqual([...params.signers.keys()], [0, 1, 2]);
    assert.equal(params.approvalsMask, 5n);
    assert.equal(params.approvalsNum, 2);
    assert.equal(params.expirationDate, 1_760_086_400);
    assert.ok(params.order.equals(order));
    assert.deepEqual(raw(approvedSigners(params)), raw([alice, carol]), 'bits 0 and 2: signers 0 and 2, ascending');

    const [send, update] = params.actions;
    assert.equal(send.type, 'send_message');
    assert.equal(send.type === 'send_message' && send.mode, 1);
    assert.equal(send.type === 'send_message' && send.message.info.type === 'internal' && send.message.info.value.coins, 2_000_000_000n);
    assert.deepEqual(sentMessages(params.actions).map(m => m.mode), [1]);
    const changing = changingParameters(params.actions)!;
    assert.equal(changing.threshold, 3);
    assert.deepEqual(raw(changing.signers), raw([alice, dave, carol]));
    assert.deepEqual(raw(changing.proposers), raw([bob]));
    assert.equal(update, changing);
});

test('actions come by ascending index; the last update_multisig_params is the one that counts; empty proposers are []', () => {
    const actions = loadMultisigOrderActions(orderCell(
        [updateParamsAction(1, [dave], []), transferAction(destination, 1n), updateParamsAction(2, [alice, bob], [])],
        [200, 3, 17],
    ));
    assert.deepEqual(actions.map(a => a.type), ['send_message', 'update_multisig_params', 'update_multisig_params']);
    const changing = changingParameters(actions)!;
    assert.equal(changing.threshold, 1, 'index 200 comes last');
    assert.deepEqual(changing.proposers, []);
    assert.equal(changingParameters(loadMultisigOrderActions(orderCell([transferAction(destination, 1n)]))), undefined);
});

test('an action with another op is kept as unknown and moves nothing', () => {
    const junk = beginCell().storeUint(0xdeadbeef, 32).endCell();
    const actions = loadMultisigOrderActions(orderCell([junk, transferAction(destination, 5n)]));
    assert.deepEqual(actions.map(a => a.type), ['unknown', 'send_message']);
    assert.deepEqual(sentMessages(actions).length, 1);
    assert.throws(() => loadMultisigAction(junk.beginParse()), /op 0xdeadbeef/);
});

test('approvals that contradict approvals_num or name a missing signer are refused', () => {
    assert.throws(() => load(orderData(fields({ approvalsMask: maskOf([0, 1]), approvalsNum: 1 }))), /approvals_num/);
    assert.throws(() => load(orderData(fields({ approvalsMask: maskOf([5]), approvalsNum: 1 }))), /signer the order does not have/);
    // bit 254: the highest signer index a uint8 count allows
    const signers = Array.from({ length: 255 }, (_, i) => testAddress(i));
    const state = load(orderData(fields({ signers, approvalsMask: maskOf([0, 254]), approvalsNum: 2 })));
    assert.deepEqual(raw(approvedSigners(state.params!)), raw([signers[0], signers[254]]));
});

// ---- get_order_data ----

function success(stack: TupleItem[]): GetMethodResult {
    return { ok: true, exitCode: 0, gasUsed: 0n, stack, reader: () => new TupleReader(stack) };
}

function orderStack(f: OrderFields): TupleItem[] {
    return [
        { type: 'slice', cell: beginCell().storeAddress(f.multisig).endCell() },
        { type: 'int', value: f.orderSeqno },
        { type: 'int', value: BigInt(f.threshold) },
        { type: 'int', value: f.sentForExecution ? -1n : 0n },
        { type: 'cell', cell: signersCell(f.signers) },
        { type: 'int', value: f.approvalsMask },
        { type: 'int', value: BigInt(f.approvalsNum) },
        { type: 'int', value: BigInt(f.expirationDate) },
        { type: 'cell', cell: f.order },
    ];
}

function comparable(state: MultisigOrderState | null) {
    if (!state) return state;
    const p = state.params;
    return {
        multisig: formatRawAddress(state.multisig), orderSeqno: state.orderSeqno,
        params: p && { ...p, signers: raw([...p.signers.values()]), order: p.order.hash().toString('hex'), actions: p.actions.map(a => a.type) },
    };
}

test('get_order_data: the stack of section 6 gives the same state as the data cell', () => {
    const f = fields({ sentForExecution: true, approvalsMask: maskOf([0, 1]), approvalsNum: 2 });
    assert.deepEqual(comparable(decodeMultisigOrderData(success(orderStack(f)))), comparable(load(orderData(f))));
    const before = orderStack(f).map((item, i) => (i >= 2 ? { type: 'null' as const } : item));
    assert.deepEqual(comparable(decodeMultisigOrderData(success(before))), { multisig: formatRawAddress(multisig), orderSeqno: 7n, params: null });
});

test('get_order_data answers of another shape are not an order', () => {
    const good = orderStack(fields());
    const broken: Array<[string, TupleItem[]]> = [
        ['too few values', good.slice(0, 8)],
        ['an int where the address goes', [{ type: 'int', value: 1n }, ...good.slice(1)]],
        ['a cell where the threshold goes', [...good.slice(0, 2), { type: 'cell', cell: Cell.EMPTY }, ...good.slice(3)]],
        ['half initialised', [...good.slice(0, 3), { type: 'null' }, ...good.slice(4)]],
        ['signers that are not a dictionary', [...good.slice(0, 4), { type: 'cell', cell: Cell.EMPTY }, ...good.slice(5)]],
        ['a mask disagreeing with the count', [...good.slice(0, 6), { type: 'int', value: 3n }, ...good.slice(7)]],
        ['a negative seqno', [good[0], { type: 'int', value: -1n }, ...good.slice(2)]],
    ];
    for (const [what, stack] of broken) assert.equal(decodeMultisigOrderData(success(stack)), null, what);
    assert.equal(decodeMultisigOrderData({ ok: false, exitCode: 11, gasUsed: 0n, error: 'no method' }), null);
});

test('probing: a contract answering get_order_data with the layout is a multisig_order_v2, read from its answer', async () => {
    const runner = await GetMethodRunner.create();
    const code = await probedOrderCode();
    const f = fields({ approvalsMask: maskOf([2]), order: orderCell([transferAction(destination, 3n, 128), updateParamsAction(1, [bob], [])]) });
    const data = probedOrderData(f);
    const detected = await detectInterfaces({ address: contractAddress(0, { code, data }), code, data, balance: 10n ** 9n }, runner);
    assert.deepEqual(detected.interfaces, ['multisig_order_v2']);
    assert.ok(detected.getMethods.includes('get_order_data'));
    assert.deepEqual(comparable(detected.multisigOrder ?? null), comparable(load(orderData(f))));
    // its data is not the reference layout: only the get-method tells its state
    assert.throws(() => load(data));

    // the same code over data it cannot read: get_order_data fails, so no order
    const other = await detectInterfaces({ address: testAddress(9), code, data: Cell.EMPTY, balance: 1n }, runner);
    assert.deepEqual(other.interfaces, [], 'a get_order_data that fails is no order');
});
