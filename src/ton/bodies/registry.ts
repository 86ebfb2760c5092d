import { Cell, Slice } from '@ton/core';
import { Bounce, OP_BOUNCE, loadBounce } from './bounce.ts';
import {
    EncryptedTextComment,
    OP_ENCRYPTED_TEXT_COMMENT,
    OP_TEXT_COMMENT,
    TextComment,
    loadEncryptedTextComment,
    loadTextComment,
} from './comment.ts';
import { EitherPayload, peekOp } from './common.ts';
import {
    Excess,
    JettonBurn,
    JettonBurnNotification,
    JettonInternalTransfer,
    JettonMint,
    JettonNotify,
    JettonTransfer,
    OP_EXCESS,
    OP_JETTON_BURN,
    OP_JETTON_BURN_NOTIFICATION,
    OP_JETTON_INTERNAL_TRANSFER,
    OP_JETTON_MINT,
    OP_JETTON_MINT_LEGACY,
    OP_JETTON_NOTIFY,
    OP_JETTON_TRANSFER,
    OP_PROVIDE_WALLET_ADDRESS,
    OP_TAKE_WALLET_ADDRESS,
    ProvideWalletAddress,
    TakeWalletAddress,
    loadExcess,
    loadJettonBurn,
    loadJettonBurnNotification,
    loadJettonInternalTransfer,
    loadJettonMint,
    loadJettonMintLegacy,
    loadJettonNotify,
    loadJettonTransfer,
    loadProvideWalletAddress,
    loadTakeWalletAddress,
} from './jetton.ts';
import {
    addressJson,
    bigJson,
    bufferJson,
    cellJson,
    currencyJson,
    pascalName,
    stateInitJson,
} from './json.ts';
import {
    GetRoyaltyParams,
    GetStaticData,
    NftOwnershipAssigned,
    NftTransfer,
    OP_GET_ROYALTY_PARAMS,
    OP_GET_STATIC_DATA,
    OP_NFT_OWNERSHIP_ASSIGNED,
    OP_NFT_TRANSFER,
    OP_REPORT_ROYALTY_PARAMS,
    OP_REPORT_STATIC_DATA,
    ReportRoyaltyParams,
    ReportStaticData,
    loadGetRoyaltyParams,
    loadGetStaticData,
    loadNftOwnershipAssigned,
    loadNftTransfer,
    loadReportRoyaltyParams,
    loadReportStaticData,
} from './nft.ts';
import {
    HighloadWalletV3Body,
    OP_WALLET_V5_EXTENSION_ACTION,
    OP_WALLET_V5_SIGNED_EXTERNAL,
    OP_WALLET_V5_SIGNED_INTERNAL,
    WalletOutMessage,
    WalletV3Body,
    WalletV4Body,
    WalletV5Body,
    WalletV5ExtendedAction,
    loadHighloadWalletV3Body,
    loadWalletV3Body,
    loadWalletV4Body,
    loadWalletV5Body,
} from './wallet.ts';
import { WALLET_HIGHLOAD_V3, WALLET_V3_INTERFACES, WALLET_V4_INTERFACES } from './wallet-interfaces.ts';

export interface BodyHint {
    /** interfaces of the message's destination account, e.g. ['wallet_v4r2'] (see wallet-interfaces.ts) */
    destinationInterfaces?: string[];
    /** true for an inbound external message; false for an internal one; undefined when unknown */
    external?: boolean;
}

export interface DecodedBody {
    /** first 32 bits, when present */
    opCode?: number;
    name: string;
    /** JSON-safe: no bigint, no Buffer */
    value: unknown;
}

/** Body names (TonAPI's decoded_op_name: tongo's message names in snake case). */
export const BODY_NAMES = {
    TEXT_COMMENT: 'text_comment',
    ENCRYPTED_TEXT_COMMENT: 'encrypted_text_comment',
    JETTON_TRANSFER: 'jetton_transfer',
    JETTON_INTERNAL_TRANSFER: 'jetton_internal_transfer',
    JETTON_NOTIFY: 'jetton_notify',
    EXCESS: 'excess',
    JETTON_BURN: 'jetton_burn',
    JETTON_BURN_NOTIFICATION: 'jetton_burn_notification',
    JETTON_MINT: 'jetton_mint',
    PROVIDE_WALLET_ADDRESS: 'provide_wallet_address',
    TAKE_WALLET_ADDRESS: 'take_wallet_address',
    NFT_TRANSFER: 'nft_transfer',
    NFT_OWNERSHIP_ASSIGNED: 'nft_ownership_assigned',
    GET_STATIC_DATA: 'get_static_data',
    REPORT_STATIC_DATA: 'report_static_data',
    GET_ROYALTY_PARAMS: 'get_royalty_params',
    REPORT_ROYALTY_PARAMS: 'report_royalty_params',
    BOUNCE: 'bounce',
    WALLET_SIGNED_V3: 'wallet_signed_v3',
    WALLET_SIGNED_V4: 'wallet_signed_v4',
    WALLET_SIGNED_EXTERNAL_V5_R1: 'wallet_signed_external_v5_r1',
    WALLET_SIGNED_INTERNAL_V5_R1: 'wallet_signed_internal_v5_r1',
    WALLET_EXTENSION_ACTION_V5_R1: 'wallet_extension_action_v5_r1',
    HIGHLOAD_WALLET_SIGNED_V3: 'highload_wallet_signed_v3',
} as const;

export type BodyName = (typeof BODY_NAMES)[keyof typeof BODY_NAMES];

/** A known body, parsed into its typed form (bigint amounts, @ton/core Address values). */
export type ParsedBody = { opCode?: number } & (
    | { name: 'text_comment'; value: TextComment }
    | { name: 'encrypted_text_comment'; value: EncryptedTextComment }
    | { name: 'jetton_transfer'; value: JettonTransfer }
    | { name: 'jetton_internal_transfer'; value: JettonInternalTransfer }
    | { name: 'jetton_notify'; value: JettonNotify }
    | { name: 'excess'; value: Excess }
    | { name: 'jetton_burn'; value: JettonBurn }
    | { name: 'jetton_burn_notification'; value: JettonBurnNotification }
    | { name: 'jetton_mint'; value: JettonMint }
    | { name: 'provide_wallet_address'; value: ProvideWalletAddress }
    | { name: 'take_wallet_address'; value: TakeWalletAddress }
    | { name: 'nft_transfer'; value: NftTransfer }
    | { name: 'nft_ownership_assigned'; value: NftOwnershipAssigned }
    | { name: 'get_static_data'; value: GetStaticData }
    | { name: 'report_static_data'; value: ReportStaticData }
    | { name: 'get_royalty_params'; value: GetRoyaltyParams }
    | { name: 'report_royalty_params'; value: ReportRoyaltyParams }
    | { name: 'bounce'; value: Bounce }
    | { name: 'wallet_signed_v3'; value: WalletV3Body }
    | { name: 'wallet_signed_v4'; value: WalletV4Body }
    | { name: 'wallet_signed_external_v5_r1'; value: WalletV5Body }
    | { name: 'wallet_signed_internal_v5_r1'; value: WalletV5Body }
    | { name: 'wallet_extension_action_v5_r1'; value: WalletV5Body }
    | { name: 'highload_wallet_signed_v3'; value: HighloadWalletV3Body }
);

type Entry = { op: number; name: BodyName; load: (s: Slice) => unknown };

function entry<T>(op: number, name: BodyName, load: (s: Slice) => T): Entry {
    return { op, name, load };
}

/** Bodies of internal messages, recognised by their op. */
const INTERNAL_ENTRIES: Entry[] = [
    entry(OP_TEXT_COMMENT, 'text_comment', loadTextComment),
    entry(OP_ENCRYPTED_TEXT_COMMENT, 'encrypted_text_comment', loadEncryptedTextComment),
    entry(OP_JETTON_TRANSFER, 'jetton_transfer', loadJettonTransfer),
    entry(OP_JETTON_INTERNAL_TRANSFER, 'jetton_internal_transfer', loadJettonInternalTransfer),
    entry(OP_JETTON_NOTIFY, 'jetton_notify', loadJettonNotify),
    entry(OP_EXCESS, 'excess', loadExcess),
    entry(OP_JETTON_BURN, 'jetton_burn', loadJettonBurn),
    entry(OP_JETTON_BURN_NOTIFICATION, 'jetton_burn_notification', loadJettonBurnNotification),
    entry(OP_JETTON_MINT, 'jetton_mint', loadJettonMint),
    entry(OP_JETTON_MINT_LEGACY, 'jetton_mint', loadJettonMintLegacy),
    entry(OP_PROVIDE_WALLET_ADDRESS, 'provide_wallet_address', loadProvideWalletAddress),
    entry(OP_TAKE_WALLET_ADDRESS, 'take_wallet_address', loadTakeWalletAddress),
    entry(OP_NFT_TRANSFER, 'nft_transfer', loadNftTransfer),
    entry(OP_NFT_OWNERSHIP_ASSIGNED, 'nft_ownership_assigned', loadNftOwnershipAssigned),
    entry(OP_GET_STATIC_DATA, 'get_static_data', loadGetStaticData),
    entry(OP_REPORT_STATIC_DATA, 'report_static_data', loadReportStaticData),
    entry(OP_GET_ROYALTY_PARAMS, 'get_royalty_params', loadGetRoyaltyParams),
    entry(OP_REPORT_ROYALTY_PARAMS, 'report_royalty_params', loadReportRoyaltyParams),
    entry(OP_BOUNCE, 'bounce', loadBounce),
    entry(OP_WALLET_V5_SIGNED_INTERNAL, 'wallet_signed_internal_v5_r1', loadWalletV5Body),
    entry(OP_WALLET_V5_EXTENSION_ACTION, 'wallet_extension_action_v5_r1', loadWalletV5Body),
];

/** Bodies of inbound external messages that do carry an op. */
const EXTERNAL_ENTRIES: Entry[] = [entry(OP_WALLET_V5_SIGNED_EXTERNAL, 'wallet_signed_external_v5_r1', loadWalletV5Body)];

function byOp(entries: Entry[]): Map<number, Entry[]> {
    const m = new Map<number, Entry[]>();
    for (const e of entries) {
        const list = m.get(e.op) ?? [];
        list.push(e);
        m.set(e.op, list);
    }
    return m;
}

const INTERNAL_BY_OP = byOp(INTERNAL_ENTRIES);
const EXTERNAL_BY_OP = byOp(EXTERNAL_ENTRIES);

/** Every (op, name) pair decodeBody recognises by op. */
export const KNOWN_OPS: ReadonlyArray<{ op: number; name: BodyName; external: boolean }> = [
    ...INTERNAL_ENTRIES.map((e) => ({ op: e.op, name: e.name, external: false })),
    ...EXTERNAL_ENTRIES.map((e) => ({ op: e.op, name: e.name, external: true })),
];

function tryEntries(list: Entry[] | undefined, body: Cell, opCode: number): ParsedBody | null {
    if (!list) return null;
    for (const e of list) {
        try {
            const value = e.load(body.beginParse());
            return { name: e.name, opCode, value } as ParsedBody;
        } catch {
            // not this layout: try the next decoder for the op
        }
    }
    return null;
}

function tryWallet(name: BodyName, load: (s: Slice) => unknown, body: Cell, opCode: number | undefined): ParsedBody | null {
    try {
        return { name, opCode, value: load(body.beginParse()) } as ParsedBody;
    } catch {
        return null;
    }
}

/** The first 32 bits of a body, when it has that many. */
export function readOpCode(body: Cell): number | undefined {
    return peekOp(body);
}

/** '0x' + 8 lowercase hex digits. */
export function formatOpCode(op: number): string {
    return '0x' + (op >>> 0).toString(16).padStart(8, '0');
}

/**
 * Parses a known body into its typed form; null when unknown or malformed. Never throws.
 * - `hint.external === true`: ext-in decoders only (wallet v5 signed external by op; v3/v4/highload-v3
 *   when `destinationInterfaces` names them, since those bodies have no op).
 * - `hint.external === false`: internal-message decoders only.
 * - no hint: internal decoders, then the ext-in ones that carry an op.
 */
export function parseBody(body: Cell, hint?: BodyHint): ParsedBody | null {
    try {
        const opCode = readOpCode(body);
        const external = hint?.external;
        if (external === true) {
            const ifaces = hint?.destinationInterfaces ?? [];
            if (ifaces.some((i) => WALLET_V4_INTERFACES.includes(i))) {
                const r = tryWallet('wallet_signed_v4', loadWalletV4Body, body, opCode);
                if (r) return r;
            }
            if (ifaces.some((i) => WALLET_V3_INTERFACES.includes(i))) {
                const r = tryWallet('wallet_signed_v3', loadWalletV3Body, body, opCode);
                if (r) return r;
            }
            if (ifaces.includes(WALLET_HIGHLOAD_V3)) {
                const r = tryWallet('highload_wallet_signed_v3', loadHighloadWalletV3Body, body, opCode);
                if (r) return r;
            }
        }
        if (opCode === undefined) return null;
        if (external === true) return tryEntries(EXTERNAL_BY_OP.get(opCode), body, opCode);
        const internal = tryEntries(INTERNAL_BY_OP.get(opCode), body, opCode);
        if (internal || external === false) return internal;
        return tryEntries(EXTERNAL_BY_OP.get(opCode), body, opCode);
    } catch {
        return null;
    }
}

// ---------------------------------------------------------------- JSON

const MAX_DEPTH = 16;

interface JsonCtx {
    depth: number;
}

/**
 * A nested payload (forward payload, custom payload, inner message body) in TonAPI's shape:
 * `{}` when empty; `{ sum_type: 'JettonNotify', op_code: 0x7362d09c, value: {...} }` when known;
 * `{ sum_type: 'Cell', op_code?: n, value: '<hex boc>' }` otherwise.
 */
export function payloadJson(cell: Cell | null | undefined, ctx: JsonCtx = { depth: 0 }): Record<string, unknown> {
    if (!cell || (cell.bits.length === 0 && cell.refs.length === 0)) return {};
    const op = peekOp(cell);
    if (op === undefined) return { sum_type: 'Cell', value: cellJson(cell) };
    if (ctx.depth < MAX_DEPTH) {
        const parsed = tryEntries(INTERNAL_BY_OP.get(op), cell, op);
        if (parsed) {
            try {
                return { sum_type: pascalName(parsed.name), op_code: op, value: valueJson(parsed, { depth: ctx.depth + 1 }) };
            } catch {
                // fall through to the raw cell
            }
        }
    }
    return { sum_type: 'Cell', op_code: op, value: cellJson(cell) };
}

function eitherJson(p: EitherPayload, ctx: JsonCtx): { is_right: boolean; value: Record<string, unknown> } {
    return { is_right: p.isRight, value: payloadJson(p.value, ctx) };
}

function maybePayloadJson(c: Cell | null, ctx: JsonCtx): Record<string, unknown> | null {
    return c === null ? null : payloadJson(c, ctx);
}

export function walletMessageJson(m: WalletOutMessage, ctx: JsonCtx = { depth: 0 }): Record<string, unknown> {
    const { info, init, body } = m.message;
    const bodyJson = { is_right: m.bodyIsRight, value: payloadJson(body, ctx) };
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

function sendListJson(messages: WalletOutMessage[], ctx: JsonCtx): unknown[] {
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

function v5Json(v: WalletV5Body, ctx: JsonCtx): Record<string, unknown> {
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

function walletV4PluginJson(v: WalletV4Body): Record<string, unknown> | null {
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

/** The JSON form of a parsed body (snake_case keys, big integers as decimal strings, cells as hex BoC). */
export function valueJson(p: ParsedBody, ctx: JsonCtx = { depth: 0 }): unknown {
    switch (p.name) {
        case 'text_comment':
            return { text: p.value.text };
        case 'encrypted_text_comment':
            return { cipher_text: bufferJson(p.value.cipherText) };
        case 'jetton_transfer': {
            const v = p.value;
            return {
                query_id: bigJson(v.queryId),
                amount: bigJson(v.amount),
                destination: addressJson(v.destination),
                response_destination: addressJson(v.responseDestination),
                custom_payload: maybePayloadJson(v.customPayload, ctx),
                forward_ton_amount: bigJson(v.forwardTonAmount),
                forward_payload: eitherJson(v.forwardPayload, ctx),
            };
        }
        case 'jetton_internal_transfer': {
            const v = p.value;
            return {
                query_id: bigJson(v.queryId),
                amount: bigJson(v.amount),
                from: addressJson(v.from),
                response_address: addressJson(v.responseAddress),
                forward_ton_amount: bigJson(v.forwardTonAmount),
                forward_payload: eitherJson(v.forwardPayload, ctx),
            };
        }
        case 'jetton_notify': {
            const v = p.value;
            return {
                query_id: bigJson(v.queryId),
                amount: bigJson(v.amount),
                sender: addressJson(v.sender),
                forward_payload: eitherJson(v.forwardPayload, ctx),
            };
        }
        case 'excess':
        case 'get_static_data':
        case 'get_royalty_params':
            return { query_id: bigJson(p.value.queryId) };
        case 'jetton_burn': {
            const v = p.value;
            return {
                query_id: bigJson(v.queryId),
                amount: bigJson(v.amount),
                response_destination: addressJson(v.responseDestination),
                custom_payload: maybePayloadJson(v.customPayload, ctx),
            };
        }
        case 'jetton_burn_notification': {
            const v = p.value;
            return {
                query_id: bigJson(v.queryId),
                amount: bigJson(v.amount),
                sender: addressJson(v.sender),
                response_destination: addressJson(v.responseDestination),
            };
        }
        case 'jetton_mint': {
            const v = p.value;
            return {
                query_id: bigJson(v.queryId),
                to_address: addressJson(v.toAddress),
                ton_amount: bigJson(v.tonAmount),
                master_msg: payloadJson(v.masterMsg, ctx),
            };
        }
        case 'provide_wallet_address': {
            const v = p.value;
            return { query_id: bigJson(v.queryId), owner_address: addressJson(v.ownerAddress), include_address: v.includeAddress };
        }
        case 'take_wallet_address': {
            const v = p.value;
            return {
                query_id: bigJson(v.queryId),
                wallet_address: addressJson(v.walletAddress),
                owner_address: addressJson(v.ownerAddress),
            };
        }
        case 'nft_transfer': {
            const v = p.value;
            return {
                query_id: bigJson(v.queryId),
                new_owner: addressJson(v.newOwner),
                response_destination: addressJson(v.responseDestination),
                custom_payload: maybePayloadJson(v.customPayload, ctx),
                forward_amount: bigJson(v.forwardAmount),
                forward_payload: eitherJson(v.forwardPayload, ctx),
            };
        }
        case 'nft_ownership_assigned': {
            const v = p.value;
            return { query_id: bigJson(v.queryId), prev_owner: addressJson(v.prevOwner), forward_payload: eitherJson(v.forwardPayload, ctx) };
        }
        case 'report_static_data': {
            const v = p.value;
            return { query_id: bigJson(v.queryId), index: bigJson(v.index), collection: addressJson(v.collection) };
        }
        case 'report_royalty_params': {
            const v = p.value;
            return {
                query_id: bigJson(v.queryId),
                numerator: v.numerator,
                denominator: v.denominator,
                destination: addressJson(v.destination),
            };
        }
        case 'bounce': {
            const v = p.value;
            const out: Record<string, unknown> = { payload: cellJson(v.payload) };
            if (v.originalOpCode !== undefined) out.original_op_code = formatOpCode(v.originalOpCode);
            if (v.originalQueryId !== undefined) out.original_query_id = bigJson(v.originalQueryId);
            return out;
        }
        case 'wallet_signed_v3': {
            const v = p.value;
            return {
                signature: bufferJson(v.signature),
                subwallet_id: v.subwalletId,
                valid_until: v.validUntil,
                seqno: v.seqno,
                payload: sendListJson(v.messages, ctx),
            };
        }
        case 'wallet_signed_v4': {
            const v = p.value;
            const out: Record<string, unknown> = {
                signature: bufferJson(v.signature),
                subwallet_id: v.subwalletId,
                valid_until: v.validUntil,
                seqno: v.seqno,
                op: v.op,
                payload: sendListJson(v.messages, ctx),
            };
            const plugin = walletV4PluginJson(v);
            if (plugin) out.plugin = plugin;
            return out;
        }
        case 'wallet_signed_external_v5_r1':
        case 'wallet_signed_internal_v5_r1':
        case 'wallet_extension_action_v5_r1':
            return v5Json(p.value, ctx);
        case 'highload_wallet_signed_v3': {
            const v = p.value;
            return {
                signature: bufferJson(v.signature),
                msg: {
                    subwallet_id: v.subwalletId,
                    message_to_send: walletMessageJson(v.message, ctx),
                    send_mode: v.sendMode,
                    query_id: { shift: v.queryId.shift, bit_number: v.queryId.bitNumber },
                    created_at: bigJson(v.createdAt),
                    timeout: v.timeout,
                },
            };
        }
    }
}

/** decodeBody: parseBody + valueJson. Null when the body is unknown or malformed; never throws. */
export function decodeBody(body: Cell, hint?: BodyHint): DecodedBody | null {
    try {
        const parsed = parseBody(body, hint);
        if (!parsed) return null;
        const out: DecodedBody = { name: parsed.name, value: valueJson(parsed) };
        const opCode = readOpCode(body);
        if (opCode !== undefined) out.opCode = opCode;
        return out;
    } catch {
        return null;
    }
}
