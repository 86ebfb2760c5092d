import { Address, Cell, beginCell, contractAddress, type StateInit } from '@ton/core';
import { contractCode } from './artifacts.ts';
import { storeForwardPayload, storeQueryId, type ForwardPayload } from './payload.ts';

/**
 * The devnet's jetton (contracts/jetton-minter.tolk, contracts/jetton-wallet.tolk): TEP-74 minter
 * and wallet, TEP-89 discovery, TEP-64 content. Data layouts, addresses and message bodies.
 */

/** Op codes: TEP-74 and TEP-89, plus the minter's administration ops. */
export const JETTON_OP = {
    transfer: 0x0f8a7ea5,
    internalTransfer: 0x178d4519,
    transferNotification: 0x7362d09c,
    excesses: 0xd53276db,
    burn: 0x595f07bc,
    burnNotification: 0x7bdd97de,
    provideWalletAddress: 0x2c76b973,
    takeWalletAddress: 0xd1735400,
    /** mint#642b7d07 query_id:uint64 to_address:MsgAddressInt ton_amount:Coins master_msg:^internal_transfer */
    mint: 0x642b7d07,
    /** change_admin#6501f354 query_id:uint64 new_admin:MsgAddress (addr_none renounces: no longer mintable) */
    changeAdmin: 0x6501f354,
    /** change_content#00000004 query_id:uint64 new_content:^Cell */
    changeContent: 0x00000004,
} as const;

/** Compute-phase exit codes of the jetton contracts (contracts/common/errors.tolk). */
export const JETTON_EXIT = {
    unknownOp: 0xffff,
    notAdmin: 701,
    notOwner: 702,
    invalidSender: 703,
    balanceTooLow: 704,
    notEnoughTon: 705,
    wrongWorkchain: 706,
    invalidPayload: 707,
    invalidMint: 708,
} as const;

/**
 * TON to attach, measured on the devnet's TVM with the current (mainnet-like) fee config and
 * rounded up; forward_ton_amount comes on top. Anything above returns as excesses.
 */
export const JETTON_TON = {
    /** To the owner's jetton wallet with a transfer (deploys the receiver's wallet if needed). */
    transfer: 50_000_000n,
    /** To the owner's jetton wallet with a burn. */
    burn: 20_000_000n,
    /** ton_amount of a mint: reaches the new holder's wallet (its gas and storage reserve). */
    mintTonAmount: 30_000_000n,
    /** To the minter with a mint, on top of ton_amount. */
    mintOverhead: 30_000_000n,
    /** To the minter with provide_wallet_address. */
    provideWalletAddress: 10_000_000n,
} as const;

export function jettonMinterCode(): Cell {
    return contractCode('jetton-minter');
}

export function jettonWalletCode(): Cell {
    return contractCode('jetton-wallet');
}

export interface JettonMinterConfig {
    /** null: no admin, the jetton is not mintable. */
    admin: Address | null;
    /** TEP-64 content: see metadata.ts onchainContent / offchainContent. */
    content: Cell;
    totalSupply?: bigint;
    /** Code the minter deploys its wallets with: default the wallet's code, or a library cell pointing at it. */
    walletCode?: Cell;
}

/** total_supply:Coins admin:MsgAddress content:^Cell wallet_code:^Cell */
export function jettonMinterData(config: JettonMinterConfig): Cell {
    return beginCell()
        .storeCoins(config.totalSupply ?? 0n)
        .storeAddress(config.admin)
        .storeRef(config.content)
        .storeRef(config.walletCode ?? jettonWalletCode())
        .endCell();
}

export function jettonMinterStateInit(config: JettonMinterConfig): StateInit {
    return { code: jettonMinterCode(), data: jettonMinterData(config) };
}

export function jettonMinterAddress(config: JettonMinterConfig, workchain = 0): Address {
    return contractAddress(workchain, jettonMinterStateInit(config));
}

/** balance:Coins owner:MsgAddressInt master:MsgAddressInt wallet_code:^Cell */
export function jettonWalletData(owner: Address, master: Address, balance = 0n, walletCode = jettonWalletCode()): Cell {
    return beginCell().storeCoins(balance).storeAddress(owner).storeAddress(master).storeRef(walletCode).endCell();
}

export function jettonWalletStateInit(owner: Address, master: Address, walletCode = jettonWalletCode()): StateInit {
    return { code: walletCode, data: jettonWalletData(owner, master, 0n, walletCode) };
}

/**
 * The jetton wallet of `owner` (a basechain address) for the jetton `master`; what get_wallet_address
 * returns. `walletCode` is the code the minter deploys wallets with (see JettonMinterConfig).
 */
export function jettonWalletAddress(owner: Address, master: Address, walletCode = jettonWalletCode()): Address {
    return contractAddress(0, jettonWalletStateInit(owner, master, walletCode));
}

export interface JettonTransferParams {
    queryId?: bigint;
    amount: bigint;
    destination: Address;
    responseDestination?: Address | null;
    customPayload?: Cell | null;
    forwardTonAmount?: bigint;
    /** A comment (payload.ts commentPayload) or any cell; null for none. */
    forwardPayload?: ForwardPayload | Cell | null;
}

/** transfer#0f8a7ea5, to send (from the owner) to the owner's jetton wallet. */
export function jettonTransferBody(p: JettonTransferParams): Cell {
    const b = beginCell().storeUint(JETTON_OP.transfer, 32);
    storeQueryId(b, p.queryId)
        .storeCoins(p.amount)
        .storeAddress(p.destination)
        .storeAddress(p.responseDestination ?? null)
        .storeMaybeRef(p.customPayload ?? null)
        .storeCoins(p.forwardTonAmount ?? 0n);
    return storeForwardPayload(b, p.forwardPayload).endCell();
}

export interface JettonInternalTransferParams {
    queryId?: bigint;
    amount: bigint;
    /** The previous owner (the minter or null for a mint). */
    from: Address | null;
    responseAddress?: Address | null;
    forwardTonAmount?: bigint;
    forwardPayload?: ForwardPayload | Cell | null;
}

/**
 * internal_transfer#178d4519: the master_msg of a mint, or, sent by anything that is neither the
 * master nor a wallet of the same master, a message the jetton wallet refuses (exit code 703) and bounces.
 */
export function jettonInternalTransferBody(p: JettonInternalTransferParams): Cell {
    const b = beginCell().storeUint(JETTON_OP.internalTransfer, 32);
    storeQueryId(b, p.queryId)
        .storeCoins(p.amount)
        .storeAddress(p.from)
        .storeAddress(p.responseAddress ?? null)
        .storeCoins(p.forwardTonAmount ?? 0n);
    return storeForwardPayload(b, p.forwardPayload).endCell();
}

export interface JettonMintParams {
    queryId?: bigint;
    /** The new holder (its jetton wallet is deployed if needed). */
    to: Address;
    amount: bigint;
    /** TON the minter sends to the holder's wallet; pays forwardTonAmount, the wallet's gas and storage. */
    tonAmount?: bigint;
    from?: Address | null;
    responseAddress?: Address | null;
    forwardTonAmount?: bigint;
    forwardPayload?: ForwardPayload | Cell | null;
}

/** mint#642b7d07 (admin only), to send to the minter with at least tonAmount + JETTON_TON.mintOverhead. */
export function jettonMintBody(p: JettonMintParams): Cell {
    const forwardTonAmount = p.forwardTonAmount ?? 0n;
    const masterMsg = jettonInternalTransferBody({
        queryId: p.queryId,
        amount: p.amount,
        from: p.from ?? null,
        responseAddress: p.responseAddress,
        forwardTonAmount,
        forwardPayload: p.forwardPayload,
    });
    const b = beginCell().storeUint(JETTON_OP.mint, 32);
    return storeQueryId(b, p.queryId)
        .storeAddress(p.to)
        .storeCoins(p.tonAmount ?? JETTON_TON.mintTonAmount + forwardTonAmount)
        .storeRef(masterMsg)
        .endCell();
}

export interface JettonBurnParams {
    queryId?: bigint;
    amount: bigint;
    responseDestination?: Address | null;
    customPayload?: Cell | null;
}

/** burn#595f07bc, to send (from the owner) to the owner's jetton wallet. */
export function jettonBurnBody(p: JettonBurnParams): Cell {
    const b = beginCell().storeUint(JETTON_OP.burn, 32);
    return storeQueryId(b, p.queryId)
        .storeCoins(p.amount)
        .storeAddress(p.responseDestination ?? null)
        .storeMaybeRef(p.customPayload ?? null)
        .endCell();
}

/** provide_wallet_address#2c76b973 (TEP-89), to send to the minter. */
export function provideWalletAddressBody(p: { queryId?: bigint; owner: Address; includeAddress?: boolean }): Cell {
    const b = beginCell().storeUint(JETTON_OP.provideWalletAddress, 32);
    return storeQueryId(b, p.queryId).storeAddress(p.owner).storeBit(p.includeAddress ?? false).endCell();
}

/** change_admin#6501f354 (admin only); null renounces the minter. */
export function jettonChangeAdminBody(p: { queryId?: bigint; newAdmin: Address | null }): Cell {
    const b = beginCell().storeUint(JETTON_OP.changeAdmin, 32);
    return storeQueryId(b, p.queryId).storeAddress(p.newAdmin).endCell();
}

/** change_content#00000004 (admin only). */
export function jettonChangeContentBody(p: { queryId?: bigint; content: Cell }): Cell {
    const b = beginCell().storeUint(JETTON_OP.changeContent, 32);
    return storeQueryId(b, p.queryId).storeRef(p.content).endCell();
}
