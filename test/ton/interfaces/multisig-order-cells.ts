import { Address, Cell, Dictionary, beginCell, internal, storeMessageRelaxed, type MessageRelaxed } from '@ton/core';
import { compileTolk } from './helpers.ts';

/**
 * Multisig v2 order cells built from the layouts of ton-blockchain/multisig-contract-v2
 * (`order.func`, `multisig.tlb`), for tests of the loaders, the indexer and the API.
 */

export const OP_SEND_MESSAGE = 0xf1381e5b;
export const OP_UPDATE_PARAMS = 0x1d0cfbd3;
export const OP_INIT = 0x9c73fba2;

/** `Hashmap 8 MsgAddressInt` with keys 0..n-1 (null when empty: HashmapE's empty form). */
export function addressDict(addresses: Address[]): Dictionary<number, Address> {
    const dict = Dictionary.empty(Dictionary.Keys.Uint(8), Dictionary.Values.Address());
    addresses.forEach((address, i) => dict.set(i, address));
    return dict;
}

export function signersCell(signers: Address[]): Cell {
    return beginCell().storeDictDirect(addressDict(signers)).endCell();
}

/** send_message#f1381e5b mode:uint8 message:^MessageRelaxed */
export function sendMessageAction(mode: number, message: MessageRelaxed): Cell {
    return beginCell().storeUint(OP_SEND_MESSAGE, 32).storeUint(mode, 8).storeRef(beginCell().store(storeMessageRelaxed(message))).endCell();
}

/** A plain transfer as a send_message action. */
export function transferAction(to: Address, value: bigint, mode = 3, body?: Cell): Cell {
    return sendMessageAction(mode, internal({ to, value, bounce: true, body }));
}

/** update_multisig_params#1d0cfbd3 threshold:uint8 signers:^(Hashmap 8 MsgAddressInt) proposers:(HashmapE 8 MsgAddressInt) */
export function updateParamsAction(threshold: number, signers: Address[], proposers: Address[]): Cell {
    return beginCell().storeUint(OP_UPDATE_PARAMS, 32).storeUint(threshold, 8).storeRef(signersCell(signers))
        .storeDict(proposers.length > 0 ? addressDict(proposers) : null).endCell();
}

/** `_ actions:(Hashmap 8 ^Action) = Order;` the dictionary's root; `keys` default 0..n-1. */
export function orderCell(actions: Cell[], keys: number[] = actions.map((_, i) => i)): Cell {
    const dict = Dictionary.empty(Dictionary.Keys.Uint(8), Dictionary.Values.Cell());
    actions.forEach((action, i) => dict.set(keys[i], action));
    return beginCell().storeDictDirect(dict).endCell();
}

export interface OrderFields {
    multisig: Address;
    orderSeqno: bigint;
    threshold: number;
    sentForExecution: boolean;
    signers: Address[];
    approvalsMask: bigint;
    approvalsNum: number;
    expirationDate: number;
    order: Cell;
}

/** The order's data before its init: multisig_address and order_seqno only (its StateInit data). */
export function uninitialisedOrderData(multisig: Address, orderSeqno: bigint): Cell {
    return beginCell().storeAddress(multisig).storeUint(orderSeqno, 256).endCell();
}

/** order_storage$_ as order.func's save_data writes it. */
export function orderData(f: OrderFields): Cell {
    return beginCell().storeAddress(f.multisig).storeUint(f.orderSeqno, 256)
        .storeUint(f.threshold, 8).storeBit(f.sentForExecution).storeRef(signersCell(f.signers))
        .storeUint(f.approvalsMask, 256).storeUint(f.approvalsNum, 8).storeUint(f.expirationDate, 48).storeRef(f.order)
        .endCell();
}

/** The approvals mask of these signer indexes. */
export function maskOf(indexes: number[]): bigint {
    return indexes.reduce((mask, i) => mask | (1n << BigInt(i)), 0n);
}

/**
 * An order contract of our own with the reference get_order_data but NOT the reference data layout
 * (order_seqno before the multisig address): it is an order only by probing, and its state can only
 * be read from what the get-method answers.
 */
const PROBED_ORDER = `tolk 1.3

struct Storage {
    orderSeqno: uint256
    multisig: address
    threshold: uint8
    sent: bool
    signers: cell
    mask: uint256
    count: uint8
    expiration: uint48
    order: cell
}

fun onInternalMessage(in: InMessage) {
}

get fun get_order_data(): (address, int, int, bool, cell, int, int, int, cell) {
    val st = Storage.fromCell(contract.getData());
    return (st.multisig, st.orderSeqno, st.threshold, st.sent, st.signers, st.mask, st.count, st.expiration, st.order);
}
`;

export async function probedOrderCode(): Promise<Cell> {
    return compileTolk(PROBED_ORDER);
}

/** The probed order's data for these fields. */
export function probedOrderData(f: OrderFields): Cell {
    return beginCell().storeUint(f.orderSeqno, 256).storeAddress(f.multisig)
        .storeUint(f.threshold, 8).storeBit(f.sentForExecution).storeRef(signersCell(f.signers))
        .storeUint(f.approvalsMask, 256).storeUint(f.approvalsNum, 8).storeUint(f.expirationDate, 48).storeRef(f.order)
        .endCell();
}
