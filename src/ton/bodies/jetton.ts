import { Address, Cell, Slice } from '@ton/core';
import {
    EitherPayload,
    expectOp,
    fail,
    loadForwardPayload,
    loadMsgAddress,
    loadMsgAddressInt,
    loadQueryId,
    tryLoad,
} from './common.ts';

// TEP-74 (jettons) and TEP-89 (wallet discovery); minter ops of the reference and stablecoin minters.
export const OP_JETTON_TRANSFER = 0x0f8a7ea5;
export const OP_JETTON_INTERNAL_TRANSFER = 0x178d4519;
export const OP_JETTON_NOTIFY = 0x7362d09c;
export const OP_EXCESS = 0xd53276db;
export const OP_JETTON_BURN = 0x595f07bc;
export const OP_JETTON_BURN_NOTIFICATION = 0x7bdd97de;
export const OP_PROVIDE_WALLET_ADDRESS = 0x2c76b973;
export const OP_TAKE_WALLET_ADDRESS = 0xd1735400;
/** mint#642b7d07 of the stablecoin / governed minter (tongo: jetton_mint). */
export const OP_JETTON_MINT = 0x642b7d07;
/** mint#00000015 (op 21) of ton-blockchain/token-contract's minter. */
export const OP_JETTON_MINT_LEGACY = 0x00000015;

/**
 * transfer#0f8a7ea5 query_id:uint64 amount:(VarUInteger 16) destination:MsgAddress
 *   response_destination:MsgAddress custom_payload:(Maybe ^Cell)
 *   forward_ton_amount:(VarUInteger 16) forward_payload:(Either Cell ^Cell)
 */
export interface JettonTransfer {
    queryId: bigint;
    amount: bigint;
    destination: Address | null;
    responseDestination: Address | null;
    customPayload: Cell | null;
    forwardTonAmount: bigint;
    forwardPayload: EitherPayload;
}

/**
 * internal_transfer#178d4519 query_id:uint64 amount:(VarUInteger 16) from:MsgAddress
 *   response_address:MsgAddress forward_ton_amount:(VarUInteger 16) forward_payload:(Either Cell ^Cell)
 */
export interface JettonInternalTransfer {
    queryId: bigint;
    amount: bigint;
    from: Address | null;
    responseAddress: Address | null;
    forwardTonAmount: bigint;
    forwardPayload: EitherPayload;
}

/** transfer_notification#7362d09c query_id:uint64 amount:(VarUInteger 16) sender:MsgAddress forward_payload:(Either Cell ^Cell) */
export interface JettonNotify {
    queryId: bigint;
    amount: bigint;
    sender: Address | null;
    forwardPayload: EitherPayload;
}

/** excesses#d53276db query_id:uint64 (shared by jettons, NFTs and many others) */
export interface Excess {
    queryId: bigint;
}

/** burn#595f07bc query_id:uint64 amount:(VarUInteger 16) response_destination:MsgAddress custom_payload:(Maybe ^Cell) */
export interface JettonBurn {
    queryId: bigint;
    amount: bigint;
    responseDestination: Address | null;
    customPayload: Cell | null;
}

/** burn_notification#7bdd97de query_id:uint64 amount:(VarUInteger 16) sender:MsgAddress response_destination:MsgAddress */
export interface JettonBurnNotification {
    queryId: bigint;
    amount: bigint;
    sender: Address | null;
    responseDestination: Address | null;
}

/** provide_wallet_address#2c76b973 query_id:uint64 owner_address:MsgAddress include_address:Bool */
export interface ProvideWalletAddress {
    queryId: bigint;
    ownerAddress: Address | null;
    includeAddress: boolean;
}

/** take_wallet_address#d1735400 query_id:uint64 wallet_address:MsgAddress owner_address:(Maybe ^MsgAddress) */
export interface TakeWalletAddress {
    queryId: bigint;
    walletAddress: Address | null;
    /** undefined when the response did not include it (include_address was false) */
    ownerAddress: Address | null | undefined;
}

/**
 * mint#642b7d07 / mint#00000015 query_id:uint64 to_address:MsgAddressInt ton_amount:Coins master_msg:^Cell
 * master_msg is normally a jetton internal_transfer, parsed into `internalTransfer` when it is one.
 */
export interface JettonMint {
    opCode: number;
    queryId: bigint;
    toAddress: Address;
    tonAmount: bigint;
    masterMsg: Cell;
    internalTransfer: JettonInternalTransfer | null;
}

export function loadJettonTransfer(s: Slice): JettonTransfer {
    expectOp(s, OP_JETTON_TRANSFER);
    const queryId = loadQueryId(s);
    const amount = s.loadCoins();
    const destination = loadMsgAddress(s);
    const responseDestination = loadMsgAddress(s);
    const customPayload = s.loadMaybeRef();
    const forwardTonAmount = s.loadCoins();
    const forwardPayload = loadForwardPayload(s);
    return { queryId, amount, destination, responseDestination, customPayload, forwardTonAmount, forwardPayload };
}

export function loadJettonInternalTransfer(s: Slice): JettonInternalTransfer {
    expectOp(s, OP_JETTON_INTERNAL_TRANSFER);
    const queryId = loadQueryId(s);
    const amount = s.loadCoins();
    const from = loadMsgAddress(s);
    const responseAddress = loadMsgAddress(s);
    const forwardTonAmount = s.loadCoins();
    const forwardPayload = loadForwardPayload(s);
    return { queryId, amount, from, responseAddress, forwardTonAmount, forwardPayload };
}

export function loadJettonNotify(s: Slice): JettonNotify {
    expectOp(s, OP_JETTON_NOTIFY);
    const queryId = loadQueryId(s);
    const amount = s.loadCoins();
    const sender = loadMsgAddress(s);
    const forwardPayload = loadForwardPayload(s);
    return { queryId, amount, sender, forwardPayload };
}

export function loadExcess(s: Slice): Excess {
    expectOp(s, OP_EXCESS);
    return { queryId: loadQueryId(s) };
}

export function loadJettonBurn(s: Slice): JettonBurn {
    expectOp(s, OP_JETTON_BURN);
    const queryId = loadQueryId(s);
    const amount = s.loadCoins();
    const responseDestination = loadMsgAddress(s);
    // custom_payload is optional in practice: some wallets end the body after the address.
    const customPayload = s.remainingBits > 0 ? s.loadMaybeRef() : null;
    return { queryId, amount, responseDestination, customPayload };
}

export function loadJettonBurnNotification(s: Slice): JettonBurnNotification {
    expectOp(s, OP_JETTON_BURN_NOTIFICATION);
    const queryId = loadQueryId(s);
    const amount = s.loadCoins();
    const sender = loadMsgAddress(s);
    const responseDestination = loadMsgAddress(s);
    return { queryId, amount, sender, responseDestination };
}

export function loadProvideWalletAddress(s: Slice): ProvideWalletAddress {
    expectOp(s, OP_PROVIDE_WALLET_ADDRESS);
    const queryId = loadQueryId(s);
    const ownerAddress = loadMsgAddress(s);
    const includeAddress = s.loadBit();
    return { queryId, ownerAddress, includeAddress };
}

export function loadTakeWalletAddress(s: Slice): TakeWalletAddress {
    expectOp(s, OP_TAKE_WALLET_ADDRESS);
    const queryId = loadQueryId(s);
    const walletAddress = loadMsgAddress(s);
    const ref = s.loadMaybeRef();
    const ownerAddress = ref === null ? undefined : loadMsgAddress(ref.beginParse());
    return { queryId, walletAddress, ownerAddress };
}

function loadMintCommon(s: Slice, opCode: number): JettonMint {
    expectOp(s, opCode);
    const queryId = loadQueryId(s);
    const toAddress = loadMsgAddressInt(s);
    const tonAmount = s.loadCoins();
    const masterMsg = s.loadRef();
    const internalTransfer = tryLoad(loadJettonInternalTransfer, masterMsg);
    return { opCode, queryId, toAddress, tonAmount, masterMsg, internalTransfer };
}

/** mint#642b7d07 (stablecoin-style minters; tongo's jetton_mint). */
export function loadJettonMint(s: Slice): JettonMint {
    return loadMintCommon(s, OP_JETTON_MINT);
}

/**
 * mint#00000015 of the reference minter. Op 21 is short and generic, so the body is only accepted
 * when master_msg really is a jetton internal_transfer.
 */
export function loadJettonMintLegacy(s: Slice): JettonMint {
    const mint = loadMintCommon(s, OP_JETTON_MINT_LEGACY);
    if (mint.internalTransfer === null) fail('mint#15 without an internal_transfer master_msg');
    return mint;
}
