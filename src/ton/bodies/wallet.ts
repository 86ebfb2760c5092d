import {
    Address,
    Cell,
    MessageRelaxed,
    Slice,
    StateInit,
    beginCell,
    loadCommonMessageInfoRelaxed,
    loadStateInit,
} from '@ton/core';
import { expectOp, fail, loadEitherCell, loadMsgAddressInt, loadQueryId } from './common.ts';

// Wallet v5r1 ops (the v3/v4/highload-v3 external bodies have no op).
export const OP_WALLET_V5_SIGNED_EXTERNAL = 0x7369676e; // "sign"
export const OP_WALLET_V5_SIGNED_INTERNAL = 0x73696e74; // "sint"
export const OP_WALLET_V5_EXTENSION_ACTION = 0x6578746e; // "extn"
/** action_send_msg#0ec3c86d mode:(## 8) out_msg:^(MessageRelaxed Any) */
export const OP_ACTION_SEND_MSG = 0x0ec3c86d;

/** A message a wallet is asked to send: send mode + MessageRelaxed (from its own ref). */
export interface WalletOutMessage {
    mode: number;
    message: MessageRelaxed;
    /** whether the message's body was stored in a ref (`Either X ^X` right branch) */
    bodyIsRight: boolean;
    /** the MessageRelaxed cell itself */
    cell: Cell;
}

/** MessageRelaxed that remembers how its body was stored. */
export function loadWalletOutMessage(mode: number, cell: Cell): WalletOutMessage {
    const s = cell.beginParse();
    const info = loadCommonMessageInfoRelaxed(s);
    let init: StateInit | null = null;
    if (s.loadBit()) {
        init = s.loadBit() ? loadStateInit(s.loadRef().beginParse()) : loadStateInit(s);
    }
    const body = loadEitherCell(s);
    return { mode, message: { info, init, body: body.value }, bodyIsRight: body.isRight, cell };
}

/**
 * wallet_signed_v3: signature:bits512 subwallet_id:uint32 valid_until:uint32 seqno:uint32
 *   then up to 4 × (mode:uint8 message:^MessageRelaxed).  (wallet v3r1, v3r2)
 */
export interface WalletV3Body {
    signature: Buffer;
    subwalletId: number;
    validUntil: number;
    seqno: number;
    messages: WalletOutMessage[];
}

export type WalletV4PluginAction =
    | {
          /** op 1: deploy and install plugin: workchain:int8 balance:Coins state_init:^Cell body:^Cell */
          type: 'deploy_and_install_plugin';
          workchain: number;
          balance: bigint;
          stateInit: Cell;
          body: Cell;
      }
    | {
          /** op 2 install / op 3 remove: workchain:int8 addr_hash:uint256 amount:Coins query_id:uint64 */
          type: 'install_plugin' | 'remove_plugin';
          address: Address;
          amount: bigint;
          queryId: bigint;
      };

/** wallet_signed_v4: the v3 layout with an op byte before the messages.  (wallet v4r1, v4r2) */
export interface WalletV4Body extends WalletV3Body {
    /** 0 simple send, 1 deploy+install plugin, 2 install plugin, 3 remove plugin */
    op: number;
    plugin: WalletV4PluginAction | null;
}

export interface WalletV5SendMsgAction {
    mode: number;
    message: WalletOutMessage;
}

export type WalletV5ExtendedAction =
    /** action_add_ext#02 addr:MsgAddressInt */
    | { type: 'add_extension'; address: Address }
    /** action_delete_ext#03 addr:MsgAddressInt */
    | { type: 'remove_extension'; address: Address }
    /** action_set_signature_auth_allowed#04 allowed:(## 1) */
    | { type: 'set_signature_allowed'; allowed: boolean };

/**
 * Wallet v5r1 request: signed_external#7369676e / signed_internal#73696e74
 *   wallet_id:uint32 valid_until:uint32 seqno:uint32 inner:InnerRequest signature:bits512,
 * or extension_action#6578746e query_id:uint64 inner:InnerRequest.
 * InnerRequest = out_actions:(Maybe ^OutList) has_other_actions:(## 1) other_actions:ExtendedActions
 */
export interface WalletV5Body {
    kind: 'signed_external' | 'signed_internal' | 'extension_action';
    opCode: number;
    walletId?: number;
    validUntil?: number;
    seqno?: number;
    signature?: Buffer;
    queryId?: bigint;
    /** send_msg actions in execution order (the OutList's deepest entry first); null when out_actions is absent */
    actions: WalletV5SendMsgAction[] | null;
    /** null when has_other_actions is 0 */
    extended: WalletV5ExtendedAction[] | null;
}

/**
 * highload_wallet_signed_v3: signature:bits512 msg:^(subwallet_id:uint32 message_to_send:^MessageRelaxed
 *   send_mode:uint8 query_id:(shift:uint13 bit_number:uint10) created_at:uint64 timeout:uint22)
 */
export interface HighloadWalletV3Body {
    signature: Buffer;
    subwalletId: number;
    message: WalletOutMessage;
    sendMode: number;
    queryId: { shift: number; bitNumber: number };
    createdAt: bigint;
    timeout: number;
}

function loadSignedPrefix(s: Slice): Omit<WalletV3Body, 'messages'> {
    if (s.remainingBits < 512 + 96) fail('wallet body too short');
    const signature = s.loadBuffer(64);
    const subwalletId = s.loadUint(32);
    const validUntil = s.loadUint(32);
    const seqno = s.loadUint(32);
    return { signature, subwalletId, validUntil, seqno };
}

/** mode:uint8 ^MessageRelaxed repeated until the refs end; nothing may be left over. */
function loadWalletMessages(s: Slice): WalletOutMessage[] {
    const out: WalletOutMessage[] = [];
    while (s.remainingRefs > 0) {
        if (s.remainingBits < 8) fail('wallet message without a send mode');
        const mode = s.loadUint(8);
        out.push(loadWalletOutMessage(mode, s.loadRef()));
    }
    if (s.remainingBits !== 0) fail('trailing bits after the wallet messages');
    return out;
}

export function loadWalletV3Body(s: Slice): WalletV3Body {
    const prefix = loadSignedPrefix(s);
    return { ...prefix, messages: loadWalletMessages(s) };
}

export function loadWalletV4Body(s: Slice): WalletV4Body {
    const prefix = loadSignedPrefix(s);
    const op = s.loadUint(8);
    switch (op) {
        case 0:
            return { ...prefix, op, plugin: null, messages: loadWalletMessages(s) };
        case 1: {
            const workchain = s.loadInt(8);
            const balance = s.loadCoins();
            const stateInit = s.loadRef();
            const body = s.loadRef();
            return { ...prefix, op, messages: [], plugin: { type: 'deploy_and_install_plugin', workchain, balance, stateInit, body } };
        }
        case 2:
        case 3: {
            const workchain = s.loadInt(8);
            const hash = s.loadBuffer(32);
            const amount = s.loadCoins();
            const queryId = loadQueryId(s);
            return {
                ...prefix,
                op,
                messages: [],
                plugin: {
                    type: op === 2 ? 'install_plugin' : 'remove_plugin',
                    address: new Address(workchain, hash),
                    amount,
                    queryId,
                },
            };
        }
        default:
            fail(`unknown wallet v4 op ${op}`);
    }
}

const MAX_LIST = 255;

/** out_list$_ prev:^OutList action:OutAction, only action_send_msg allowed (as in wallet v5r1). */
function loadV5OutList(cell: Cell): WalletV5SendMsgAction[] {
    const reversed: WalletV5SendMsgAction[] = [];
    let s = cell.beginParse();
    for (let n = 0; ; n++) {
        if (s.remainingBits === 0 && s.remainingRefs === 0) break;
        if (n >= MAX_LIST) fail('out list too long');
        const prev = s.loadRef();
        expectOp(s, OP_ACTION_SEND_MSG);
        const mode = s.loadUint(8);
        const message = loadWalletOutMessage(mode, s.loadRef());
        if (s.remainingBits !== 0 || s.remainingRefs !== 0) fail('malformed out list entry');
        reversed.push({ mode, message });
        s = prev.beginParse();
    }
    return reversed.reverse();
}

function loadV5ExtendedAction(s: Slice): WalletV5ExtendedAction {
    const tag = s.loadUint(8);
    switch (tag) {
        case 0x02:
            return { type: 'add_extension', address: loadMsgAddressInt(s) };
        case 0x03:
            return { type: 'remove_extension', address: loadMsgAddressInt(s) };
        case 0x04:
            return { type: 'set_signature_allowed', allowed: s.loadBit() };
        default:
            fail(`unknown wallet v5 extended action 0x${tag.toString(16)}`);
    }
}

function loadV5InnerRequest(s: Slice): Pick<WalletV5Body, 'actions' | 'extended'> {
    const outList = s.loadMaybeRef();
    const actions = outList === null ? null : loadV5OutList(outList);
    let extended: WalletV5ExtendedAction[] | null = null;
    if (s.loadBit()) {
        extended = [];
        let cur = s;
        for (let n = 0; ; n++) {
            if (n >= MAX_LIST) fail('extended action list too long');
            extended.push(loadV5ExtendedAction(cur));
            if (cur.remainingRefs === 0) break;
            cur = cur.loadRef().beginParse();
        }
    }
    return { actions, extended };
}

export function loadWalletV5Body(s: Slice): WalletV5Body {
    if (s.remainingBits < 32) fail('body shorter than an op code');
    const opCode = s.loadUint(32);
    if (opCode === OP_WALLET_V5_EXTENSION_ACTION) {
        const queryId = loadQueryId(s);
        return { kind: 'extension_action', opCode, queryId, ...loadV5InnerRequest(s) };
    }
    if (opCode !== OP_WALLET_V5_SIGNED_EXTERNAL && opCode !== OP_WALLET_V5_SIGNED_INTERNAL) {
        fail(`op 0x${opCode.toString(16)} is not a wallet v5 op`);
    }
    const walletId = s.loadUint(32);
    const validUntil = s.loadUint(32);
    const seqno = s.loadUint(32);
    // The signature is the last 512 bits of the root cell; the inner request sits between.
    if (s.remainingBits < 512 + 2) fail('wallet v5 body too short');
    const inner = beginCell().storeBits(s.loadBits(s.remainingBits - 512));
    while (s.remainingRefs > 0) inner.storeRef(s.loadRef());
    const signature = s.loadBuffer(64);
    const request = loadV5InnerRequest(inner.endCell().beginParse());
    return {
        kind: opCode === OP_WALLET_V5_SIGNED_EXTERNAL ? 'signed_external' : 'signed_internal',
        opCode,
        walletId,
        validUntil,
        seqno,
        signature,
        ...request,
    };
}

export function loadHighloadWalletV3Body(s: Slice): HighloadWalletV3Body {
    if (s.remainingBits !== 512 || s.remainingRefs !== 1) fail('not a highload v3 external body');
    const signature = s.loadBuffer(64);
    const m = s.loadRef().beginParse();
    const subwalletId = m.loadUint(32);
    const msgCell = m.loadRef();
    const sendMode = m.loadUint(8);
    const shift = m.loadUint(13);
    const bitNumber = m.loadUint(10);
    const createdAt = m.loadUintBig(64);
    const timeout = m.loadUint(22);
    if (m.remainingBits !== 0 || m.remainingRefs !== 0) fail('trailing data in highload v3 request');
    return {
        signature,
        subwalletId,
        message: loadWalletOutMessage(sendMode, msgCell),
        sendMode,
        queryId: { shift, bitNumber },
        createdAt,
        timeout,
    };
}
