import { Address, Cell, Dictionary, beginCell, contractAddress, storeMessageRelaxed, type MessageRelaxed, type StateInit } from '@ton/core';
import { libraryCell } from '../../../ton/libraries.ts';
import { contractCode } from './artifacts.ts';
import { commentCell, storeQueryId } from './payload.ts';
import { DictKeys } from '../../../ton/cells/dict-keys.ts';

/**
 * The devnet's multisig v2 (contracts/multisig-v2.tolk, contracts/multisig-order-v2.tolk),
 * wire-compatible with mainnet's multisig v2: data layouts, StateInits, order addresses, the
 * `Order` actions dictionary and message bodies. Orders are deployed with a library cell pointing
 * at the order code, which must therefore be a public library of the chain (or, in tests, in the
 * emulator's `libs`).
 */

export const MULTISIG_OP = {
    /** new_order#f718510f query_id:uint64 order_seqno:uint256 signer:(## 1) index:uint8 expiration_date:uint48 order:^Order */
    newOrder: 0xf718510f,
    /** execute#75097f5d query_id:uint64 order_seqno:uint256 expiration_date:uint48 approvals_num:uint8 signers_hash:bits256 order:^Order */
    execute: 0x75097f5d,
    /** execute_internal#a32c59bf query_id:uint64 order:^Order */
    executeInternal: 0xa32c59bf,
    /** init#9c73fba2 query_id:uint64 threshold:uint8 signers:^Cell expiration_date:uint48 order:^Order approve_on_init:(## 1) signer_index:approve_on_init?uint8 */
    init: 0x9c73fba2,
    /** approve#a762230f query_id:uint64 signer_index:uint8 */
    approve: 0xa762230f,
    /** approve_accepted#82609bf6 query_id:uint64 */
    approveAccepted: 0x82609bf6,
    /** approve_rejected#afaf283e query_id:uint64 exit_code:uint32 */
    approveRejected: 0xafaf283e,
} as const;

/** Order actions (values of the `Order` dictionary). */
export const MULTISIG_ACTION = {
    /** send_message#f1381e5b mode:uint8 message:^MessageRelaxed */
    sendMessage: 0xf1381e5b,
    /** update_multisig_params#1d0cfbd3 threshold:uint8 signers:^(Hashmap 8 MsgAddressInt) proposers:(HashmapE 8 MsgAddressInt) */
    updateMultisigParams: 0x1d0cfbd3,
} as const;

/** Compute-phase exit codes of the multisig and its orders (contracts/common/multisig.tolk, mainnet's numbering). */
export const MULTISIG_EXIT = {
    notEnoughTon: 100,
    unauthorizedExecute: 101,
    signersOutdated: 102,
    invalidDictionarySequence: 103,
    unauthorizedInit: 104,
    alreadyInited: 105,
    unauthorizedSign: 106,
    alreadyApproved: 107,
    inconsistentData: 108,
    invalidThreshold: 109,
    invalidSigners: 110,
    expired: 111,
    alreadyExecuted: 112,
    unauthorizedNewOrder: 1007,
    invalidNewOrder: 1008,
    unknownOp: 0xffff,
} as const;

/** order_seqno 2^256-1 in new_order: "the multisig's next seqno". */
export const MULTISIG_NEXT_ORDER_SEQNO = (1n << 256n) - 1n;

/** Most actions in one `Order` dictionary (keys are uint8; mainnet's wrapper chains larger orders). */
export const MULTISIG_MAX_ACTIONS = 255;

export function multisigCode(): Cell {
    return contractCode('multisig-v2');
}

/** The order's real code: what the public library holds. */
export function multisigOrderCode(): Cell {
    return contractCode('multisig-order-v2');
}

/** The library cell (exotic type 2 + the order code's hash) orders are deployed with: an order account's code. */
export function multisigOrderLibraryCell(): Cell {
    return libraryCell(multisigOrderCode());
}

export interface MultisigConfig {
    threshold: number;
    /** Signers, index = position (at least one, at most 255). */
    signers: Address[];
    /** Proposers (may only propose), index = position. */
    proposers: Address[];
    /** When set, new_order takes any order_seqno and the counter never moves. */
    allowArbitrarySeqno: boolean;
    /** next_order_seqno at deploy (0). */
    nextOrderSeqno?: bigint;
}

/** `Hashmap 8 MsgAddressInt` with keys 0..n-1. */
export function multisigAddressDict(addresses: readonly Address[]): Dictionary<number, Address> {
    if (addresses.length > 255) throw new Error('at most 255 addresses');
    const dict = Dictionary.empty(DictKeys.Uint(8), Dictionary.Values.Address());
    addresses.forEach((a, i) => dict.set(i, a));
    return dict;
}

/** The signers dictionary's root cell (non-empty `Hashmap 8 MsgAddressInt`), as stored and as hashed by execute. */
export function multisigSignersCell(signers: readonly Address[]): Cell {
    if (signers.length === 0) throw new Error('a multisig needs at least one signer');
    return beginCell().storeDictDirect(multisigAddressDict(signers)).endCell();
}

function checkConfig(threshold: number, signers: readonly Address[]): void {
    if (signers.length < 1 || signers.length > 255) throw new Error(`a multisig has 1..255 signers, not ${signers.length}`);
    if (!Number.isInteger(threshold) || threshold < 1 || threshold > signers.length) {
        throw new Error(`threshold ${threshold} is not within 1..${signers.length}`);
    }
}

/** multisig_storage: next_order_seqno threshold ^signers signers_num proposers allow_arbitrary_order_seqno */
export function multisigData(config: MultisigConfig): Cell {
    checkConfig(config.threshold, config.signers);
    return beginCell()
        .storeUint(config.nextOrderSeqno ?? 0n, 256)
        .storeUint(config.threshold, 8)
        .storeRef(multisigSignersCell(config.signers))
        .storeUint(config.signers.length, 8)
        .storeDict(multisigAddressDict(config.proposers))
        .storeBit(config.allowArbitrarySeqno)
        .endCell();
}

export function multisigStateInit(config: MultisigConfig): StateInit {
    return { code: multisigCode(), data: multisigData(config) };
}

export function multisigAddress(config: MultisigConfig, workchain = 0): Address {
    return contractAddress(workchain, multisigStateInit(config));
}

/** The order's StateInit: code = the order library cell, data = multisig_address order_seqno:uint256. */
export function multisigOrderStateInit(multisig: Address, orderSeqno: bigint): StateInit {
    return {
        code: multisigOrderLibraryCell(),
        data: beginCell().storeAddress(multisig).storeUint(orderSeqno, 256).endCell(),
    };
}

/** The order of `orderSeqno` (always in the basechain), as the multisig's get_order_address computes it. */
export function multisigOrderAddress(multisig: Address, orderSeqno: bigint): Address {
    return contractAddress(0, multisigOrderStateInit(multisig, orderSeqno));
}

export type MultisigAction =
    /** Sends `message` from the multisig with `mode` (send_raw_message). */
    | { type: 'send_message'; mode: number; message: MessageRelaxed | Cell }
    /** Replaces the multisig's threshold, signers and proposers. */
    | { type: 'update_multisig_params'; threshold: number; signers: Address[]; proposers: Address[] };

/** One action's cell (the `Order` dictionary holds a reference to it). */
export function multisigActionCell(action: MultisigAction): Cell {
    if (action.type === 'send_message') {
        const message = action.message instanceof Cell ? action.message : beginCell().store(storeMessageRelaxed(action.message)).endCell();
        return beginCell().storeUint(MULTISIG_ACTION.sendMessage, 32).storeUint(action.mode, 8).storeRef(message).endCell();
    }
    checkConfig(action.threshold, action.signers);
    return beginCell()
        .storeUint(MULTISIG_ACTION.updateMultisigParams, 32)
        .storeUint(action.threshold, 8)
        .storeRef(multisigSignersCell(action.signers))
        .storeDict(multisigAddressDict(action.proposers))
        .endCell();
}

/** `Order`: the root of a non-empty `Hashmap 8 ^Action`, keys = action indexes 0..n-1. */
export function multisigOrderCell(actions: readonly MultisigAction[]): Cell {
    if (actions.length === 0) throw new Error('an order has at least one action');
    if (actions.length > MULTISIG_MAX_ACTIONS) throw new Error(`an order has at most ${MULTISIG_MAX_ACTIONS} actions`);
    const dict = Dictionary.empty(DictKeys.Uint(8), Dictionary.Values.Cell());
    actions.forEach((action, i) => dict.set(i, multisigActionCell(action)));
    return beginCell().storeDictDirect(dict).endCell();
}

export interface NewOrder {
    /** The order's seqno; by default 2^256-1 ("the next one"). */
    orderSeqno?: bigint;
    /** Whether `index` is a signer's (the proposal then counts as its approval) or a proposer's. */
    isSigner: boolean;
    index: number;
    /** Unix time (uint48) after which the order can no longer be created or executed. */
    expirationDate: number;
    order: Cell | readonly MultisigAction[];
    queryId?: bigint;
}

export function multisigNewOrderBody(o: NewOrder): Cell {
    const order = o.order instanceof Cell ? o.order : multisigOrderCell(o.order);
    return storeQueryId(beginCell().storeUint(MULTISIG_OP.newOrder, 32), o.queryId)
        .storeUint(o.orderSeqno ?? MULTISIG_NEXT_ORDER_SEQNO, 256)
        .storeBit(o.isSigner)
        .storeUint(o.index, 8)
        .storeUint(o.expirationDate, 48)
        .storeRef(order)
        .endCell();
}

/** approve#a762230f, sent to the order by signers[signerIndex]. */
export function multisigApproveBody(signerIndex: number, queryId?: bigint): Cell {
    return storeQueryId(beginCell().storeUint(MULTISIG_OP.approve, 32), queryId).storeUint(signerIndex, 8).endCell();
}

/** The text comment "approve" (what wallets without multisig support send to an order). */
export function multisigTextApproveBody(): Cell {
    return commentCell('approve');
}

/** The libraries dictionary (`HashmapE 256 ^Cell`, root) that lets an emulator run orders: order code hash → code. */
export function multisigOrderLibraries(): Cell {
    const dict = Dictionary.empty(DictKeys.Buffer(32), Dictionary.Values.Cell());
    dict.set(multisigOrderCode().hash(), multisigOrderCode());
    return beginCell().storeDictDirect(dict).endCell();
}
