import { addressJson, bigJson, bufferJson, cellJson, currencyJson, stateInitJson } from '../json.ts';
import {
    OP_WALLET_V5_EXTENSION_ACTION, OP_WALLET_V5_SIGNED_EXTERNAL, OP_WALLET_V5_SIGNED_INTERNAL, type WalletOutMessage, type WalletV4Body,
    type WalletV5Body, type WalletV5ExtendedAction, loadHighloadWalletV3Body, loadWalletV3Body, loadWalletV4Body, loadWalletV5Body,
} from '../wallet.ts';
import { WALLET_HIGHLOAD_V3, WALLET_V3_INTERFACES, WALLET_V4_INTERFACES } from '../wallet-interfaces.ts';
import { type JsonContext, externalBody, internalBody, signedRequest } from './entry.ts';

/** A message a wallet is asked to send, as tongo's MessageRelaxed sum type. */
export function walletMessageJson(m: WalletOutMessage, ctx: JsonContext): Record<string, unknown> {
    const { info, init, body } = m.message;
    const bodyJson = { is_right: m.bodyIsRight, value: ctx.payload(body) };
    if (info.type === 'internal') {
        return {
            sum_type: 'MessageInternal',
            message_internal: {
                ihr_disabled: info.ihrDisabled,
                bounce: info.bounce,
                bounced: info.bounced,
                src: addressJson(info.src),
                dest: addressJson(info.dest),
                value: currencyJson(info.value),
                ihr_fee: bigJson(info.ihrFee),
                fwd_fee: bigJson(info.forwardFee),
                created_lt: bigJson(info.createdLt),
                created_at: info.createdAt,
                init: stateInitJson(init),
                body: bodyJson,
            },
        };
    }
    return {
        sum_type: 'MessageExtOut',
        message_ext_out: {
            src: addressJson(info.src),
            dest: addressJson(info.dest),
            created_lt: bigJson(info.createdLt),
            created_at: info.createdAt,
            init: stateInitJson(init),
            body: bodyJson,
        },
    };
}

function sendListJson(messages: WalletOutMessage[], ctx: JsonContext): unknown[] {
    return messages.map((m) => ({ mode: m.mode, message: walletMessageJson(m, ctx) }));
}

function extendedJson(a: WalletV5ExtendedAction): Record<string, unknown> {
    switch (a.type) {
        case 'add_extension':
            return { sum_type: 'AddExtension', addr: addressJson(a.address) };
        case 'remove_extension':
            return { sum_type: 'RemoveExtension', addr: addressJson(a.address) };
        case 'set_signature_allowed':
            return { sum_type: 'SetSignatureAllowed', allowed: a.allowed };
    }
}

function v5Json(v: WalletV5Body, ctx: JsonContext): Record<string, unknown> {
    const actions = v.actions === null ? null : v.actions.map((a) => ({ mode: a.mode, msg: walletMessageJson(a.message, ctx) }));
    const extended = v.extended === null ? null : v.extended.map(extendedJson);
    if (v.kind === 'extension_action') {
        return { query_id: bigJson(v.queryId ?? 0n), actions, extended };
    }
    return {
        wallet_id: v.walletId,
        valid_until: v.validUntil,
        seqno: v.seqno,
        actions,
        extended,
        signature: v.signature ? bufferJson(v.signature) : null,
    };
}

function v4PluginJson(v: WalletV4Body): Record<string, unknown> | null {
    const p = v.plugin;
    if (!p) return null;
    if (p.type === 'deploy_and_install_plugin') {
        return {
            type: p.type,
            workchain: p.workchain,
            balance: bigJson(p.balance),
            state_init: cellJson(p.stateInit),
            body: cellJson(p.body),
        };
    }
    return { type: p.type, address: addressJson(p.address), amount: bigJson(p.amount), query_id: bigJson(p.queryId) };
}

/**
 * Signed wallet requests: v5r1 by op (external, internal, from an extension); v4, v3 and highload v3
 * carry no op and are told apart by the wallet's interfaces, tried in this order.
 */
export const WALLET_BODIES = [
    internalBody(OP_WALLET_V5_SIGNED_INTERNAL, 'wallet_signed_internal_v5_r1', loadWalletV5Body, v5Json),
    internalBody(OP_WALLET_V5_EXTENSION_ACTION, 'wallet_extension_action_v5_r1', loadWalletV5Body, v5Json),
    externalBody(OP_WALLET_V5_SIGNED_EXTERNAL, 'wallet_signed_external_v5_r1', loadWalletV5Body, v5Json),
    signedRequest(WALLET_V4_INTERFACES, 'wallet_signed_v4', loadWalletV4Body, (v, ctx) => {
        const out: Record<string, unknown> = {
            signature: bufferJson(v.signature),
            subwallet_id: v.subwalletId,
            valid_until: v.validUntil,
            seqno: v.seqno,
            op: v.op,
            payload: sendListJson(v.messages, ctx),
        };
        const plugin = v4PluginJson(v);
        if (plugin) out.plugin = plugin;
        return out;
    }),
    signedRequest(WALLET_V3_INTERFACES, 'wallet_signed_v3', loadWalletV3Body, (v, ctx) => ({
        signature: bufferJson(v.signature),
        subwallet_id: v.subwalletId,
        valid_until: v.validUntil,
        seqno: v.seqno,
        payload: sendListJson(v.messages, ctx),
    })),
    signedRequest([WALLET_HIGHLOAD_V3], 'highload_wallet_signed_v3', loadHighloadWalletV3Body, (v, ctx) => ({
        signature: bufferJson(v.signature),
        msg: {
            subwallet_id: v.subwalletId,
            message_to_send: walletMessageJson(v.message, ctx),
            send_mode: v.sendMode,
            query_id: { shift: v.queryId.shift, bit_number: v.queryId.bitNumber },
            created_at: bigJson(v.createdAt),
            timeout: v.timeout,
        },
    })),
] as const;
