import {
    OP_EXCESS, OP_JETTON_BURN, OP_JETTON_BURN_NOTIFICATION, OP_JETTON_INTERNAL_TRANSFER, OP_JETTON_MINT, OP_JETTON_MINT_LEGACY, OP_JETTON_NOTIFY,
    OP_JETTON_TRANSFER, OP_PROVIDE_WALLET_ADDRESS, OP_TAKE_WALLET_ADDRESS, type JettonMint, loadExcess, loadJettonBurn, loadJettonBurnNotification,
    loadJettonInternalTransfer, loadJettonMint, loadJettonMintLegacy, loadJettonNotify, loadJettonTransfer, loadProvideWalletAddress, loadTakeWalletAddress,
} from '../jetton.ts';
import { addressJson, bigJson } from '../json.ts';
import { type JsonContext, eitherJson, internalBody, maybePayloadJson } from './entry.ts';

function mintJson(v: JettonMint, ctx: JsonContext) {
    return { query_id: bigJson(v.queryId), to_address: addressJson(v.toAddress), ton_amount: bigJson(v.tonAmount), master_msg: ctx.payload(v.masterMsg) };
}

/** TEP-74 jettons, TEP-89 wallet discovery and the minters' mint messages. */
export const JETTON_BODIES = [
    internalBody(OP_JETTON_TRANSFER, 'jetton_transfer', loadJettonTransfer, (v, ctx) => ({
        query_id: bigJson(v.queryId),
        amount: bigJson(v.amount),
        destination: addressJson(v.destination),
        response_destination: addressJson(v.responseDestination),
        custom_payload: maybePayloadJson(v.customPayload, ctx),
        forward_ton_amount: bigJson(v.forwardTonAmount),
        forward_payload: eitherJson(v.forwardPayload, ctx),
    })),
    internalBody(OP_JETTON_INTERNAL_TRANSFER, 'jetton_internal_transfer', loadJettonInternalTransfer, (v, ctx) => ({
        query_id: bigJson(v.queryId),
        amount: bigJson(v.amount),
        from: addressJson(v.from),
        response_address: addressJson(v.responseAddress),
        forward_ton_amount: bigJson(v.forwardTonAmount),
        forward_payload: eitherJson(v.forwardPayload, ctx),
    })),
    internalBody(OP_JETTON_NOTIFY, 'jetton_notify', loadJettonNotify, (v, ctx) => ({
        query_id: bigJson(v.queryId),
        amount: bigJson(v.amount),
        sender: addressJson(v.sender),
        forward_payload: eitherJson(v.forwardPayload, ctx),
    })),
    internalBody(OP_EXCESS, 'excess', loadExcess, (v) => ({ query_id: bigJson(v.queryId) })),
    internalBody(OP_JETTON_BURN, 'jetton_burn', loadJettonBurn, (v, ctx) => ({
        query_id: bigJson(v.queryId),
        amount: bigJson(v.amount),
        response_destination: addressJson(v.responseDestination),
        custom_payload: maybePayloadJson(v.customPayload, ctx),
    })),
    internalBody(OP_JETTON_BURN_NOTIFICATION, 'jetton_burn_notification', loadJettonBurnNotification, (v) => ({
        query_id: bigJson(v.queryId),
        amount: bigJson(v.amount),
        sender: addressJson(v.sender),
        response_destination: addressJson(v.responseDestination),
    })),
    internalBody(OP_JETTON_MINT, 'jetton_mint', loadJettonMint, mintJson),
    internalBody(OP_JETTON_MINT_LEGACY, 'jetton_mint', loadJettonMintLegacy, mintJson),
    internalBody(OP_PROVIDE_WALLET_ADDRESS, 'provide_wallet_address', loadProvideWalletAddress, (v) => ({
        query_id: bigJson(v.queryId), owner_address: addressJson(v.ownerAddress), include_address: v.includeAddress,
    })),
    internalBody(OP_TAKE_WALLET_ADDRESS, 'take_wallet_address', loadTakeWalletAddress, (v) => ({
        query_id: bigJson(v.queryId), wallet_address: addressJson(v.walletAddress), owner_address: addressJson(v.ownerAddress),
    })),
] as const;
