import { Dictionary, loadMessageRelaxed, type Address, type Cell, type DictionaryValue, type MessageRelaxed, type Slice } from '@ton/core';
import { expectOp, fail, loadMsgAddressInt } from '../bodies/common.ts';
import { DictKeys } from '../cells/dict-keys.ts';

/**
 * A multisig v2 order (ton-blockchain/multisig-contract-v2 `order.func`, `multisig.tlb`): its data
 * cell and the actions it would have its multisig execute.
 */

export const OP_MULTISIG_SEND_MESSAGE = 0xf1381e5b;
export const OP_MULTISIG_UPDATE_PARAMS = 0x1d0cfbd3;
/** init#9c73fba2: multisig → order, deploying it or (arbitrary-seqno mode) approving it again. */
export const OP_MULTISIG_ORDER_INIT = 0x9c73fba2;

/** send_message#f1381e5b mode:uint8 message:^MessageRelaxed = Action; */
export interface MultisigSendMessage {
    type: 'send_message';
    mode: number;
    message: MessageRelaxed;
}

/**
 * update_multisig_params#1d0cfbd3 threshold:uint8 signers:^(Hashmap 8 MsgAddressInt)
 *   proposers:(HashmapE 8 MsgAddressInt) = Action;
 */
export interface MultisigUpdateParams {
    type: 'update_multisig_params';
    threshold: number;
    /** Dictionary values in key order. */
    signers: Address[];
    proposers: Address[];
}

/** An action with another op or a body that does not parse: the multisig would refuse it, it moves nothing. */
export interface MultisigUnknownAction {
    type: 'unknown';
    cell: Cell;
}

export type MultisigAction = MultisigSendMessage | MultisigUpdateParams | MultisigUnknownAction;

/** What an initialised order holds besides its multisig and seqno. */
export interface MultisigOrderParams {
    /** Copied from the multisig at init, never refreshed. */
    threshold: number;
    sentForExecution: boolean;
    /** The order's copy of the signers, by index. */
    signers: ReadonlyMap<number, Address>;
    approvalsMask: bigint;
    approvalsNum: number;
    /** Unix seconds (uint48). */
    expirationDate: number;
    /** The `order` cell as stored: the actions dictionary's root. */
    order: Cell;
    /** Actions by ascending index. */
    actions: MultisigAction[];
}

/**
 * order_storage$_ multisig_address:MsgAddressInt order_seqno:uint256
 *   -- nothing more until initialised --
 *   threshold:uint8 sent_for_execution:Bool signers:^(Hashmap 8 MsgAddressInt)
 *   approvals_mask:uint256 approvals_num:uint8 expiration_date:uint48 order:^Order = OrderStorage;
 */
export interface MultisigOrderState {
    multisig: Address;
    orderSeqno: bigint;
    /** Null before the order's init. */
    params: MultisigOrderParams | null;
}

/** The signers dictionaries' values: addr_std written inline. */
const SIGNER: DictionaryValue<Address> = {
    serialize() {
        throw new Error('multisig signers are only read');
    },
    parse: loadMsgAddressInt,
};

/** An `Order` value: a reference to the action's cell, parsed (leniently: see MultisigUnknownAction). */
const ACTION: DictionaryValue<MultisigAction> = {
    serialize() {
        throw new Error('multisig actions are only read');
    },
    parse(s: Slice) {
        const cell = s.loadRef();
        try {
            return loadMultisigAction(cell.beginParse());
        } catch {
            return { type: 'unknown', cell };
        }
    },
};

export function loadMultisigOrderState(s: Slice): MultisigOrderState {
    const multisig = loadMsgAddressInt(s);
    const orderSeqno = s.loadUintBig(256);
    if (s.remainingBits === 0 && s.remainingRefs === 0) return { multisig, orderSeqno, params: null };
    const threshold = s.loadUint(8);
    const sentForExecution = s.loadBit();
    const signers = loadSigners(s.loadRef());
    const approvalsMask = s.loadUintBig(256);
    const approvalsNum = s.loadUint(8);
    const expirationDate = s.loadUint(48);
    const order = s.loadRef();
    return {
        multisig,
        orderSeqno,
        params: checkApprovals({ threshold, sentForExecution, signers, approvalsMask, approvalsNum, expirationDate, order, actions: loadMultisigOrderActions(order) }),
    };
}

/** `_ actions:(Hashmap 8 ^Action) = Order;` — the dictionary's root cell (never empty), actions by ascending index. */
export function loadMultisigOrderActions(order: Cell): MultisigAction[] {
    const dict = Dictionary.loadDirect(DictKeys.Uint(8), ACTION, order);
    return [...dict].sort(([a], [b]) => a - b).map(([, action]) => action);
}

/** A `Hashmap 8 MsgAddressInt` root cell (signers, also as a get-method returns it). */
export function loadSigners(root: Cell): Map<number, Address> {
    const dict = Dictionary.loadDirect(DictKeys.Uint(8), SIGNER, root);
    return new Map([...dict].sort(([a], [b]) => a - b));
}

/** send_message#f1381e5b | update_multisig_params#1d0cfbd3 (see the types above). */
export function loadMultisigAction(s: Slice): MultisigSendMessage | MultisigUpdateParams {
    if (s.remainingBits < 32) fail('action shorter than an op code');
    if (s.preloadUint(32) === OP_MULTISIG_SEND_MESSAGE) {
        expectOp(s, OP_MULTISIG_SEND_MESSAGE);
        const mode = s.loadUint(8);
        return { type: 'send_message', mode, message: loadMessageRelaxed(s.loadRef().beginParse()) };
    }
    expectOp(s, OP_MULTISIG_UPDATE_PARAMS);
    const threshold = s.loadUint(8);
    const signers = [...loadSigners(s.loadRef()).values()];
    const proposers = s.loadDict(DictKeys.Uint(8), SIGNER);
    return { type: 'update_multisig_params', threshold, signers, proposers: [...proposers].sort(([a], [b]) => a - b).map(([, address]) => address) };
}

/**
 * The signers whose bit is set in the approvals mask (bit i = signer i), ascending. The order sets a
 * bit only for an existing signer and counts each once, so there are `approvalsNum` of them.
 */
export function approvedSigners(params: Pick<MultisigOrderParams, 'signers' | 'approvalsMask'>): Address[] {
    const approved: Address[] = [];
    for (const [index, signer] of params.signers) {
        if ((params.approvalsMask >> BigInt(index)) & 1n) approved.push(signer);
    }
    return approved;
}

/** The last update_multisig_params action: the parameters the order would give its multisig. */
export function changingParameters(actions: readonly MultisigAction[]): MultisigUpdateParams | undefined {
    return actions.filter((a): a is MultisigUpdateParams => a.type === 'update_multisig_params').at(-1);
}

/** The messages the order would have its multisig send, with their send modes, in action order. */
export function sentMessages(actions: readonly MultisigAction[]): Array<{ mode: number; message: MessageRelaxed }> {
    return actions.filter((a): a is MultisigSendMessage => a.type === 'send_message').map(({ mode, message }) => ({ mode, message }));
}

/** Refuses params whose mask names a signer the order does not have, or disagrees with approvals_num. */
export function checkApprovals(params: MultisigOrderParams): MultisigOrderParams {
    const bits = countBits(params.approvalsMask);
    if (bits !== params.approvalsNum) fail(`approvals_mask has ${bits} bits set, approvals_num says ${params.approvalsNum}`);
    if (approvedSigners(params).length !== bits) fail('approvals_mask names a signer the order does not have');
    return params;
}

function countBits(value: bigint): number {
    let count = 0;
    for (let v = value; v > 0n; v >>= 1n) count += Number(v & 1n);
    return count;
}
