/**
 * The engine's own model of an action: raw addresses, bigint amounts, jettons by master address.
 * `present/action-json.ts` turns it into the API's Action object.
 */

export interface EncryptedComment {
    encryptionType: 'simple';
    cipherText: Buffer;
}

/** The forward-payload derived text of transfers. */
export interface TransferNote {
    comment?: string;
    encryptedComment?: EncryptedComment;
}

/** An amount of the native coin or of a jetton. */
export type Asset = { kind: 'native'; amount: bigint } | { kind: 'jetton'; master: string; amount: bigint };

export type PoolImplementation = 'whales' | 'tf' | 'liquidTF' | 'ffvault';
export type AuctionType = 'DNS.ton' | 'DNS.tg' | 'NUMBER.tg' | 'getgems';

interface Base {
    success: boolean;
}

export interface NativeTransferDraft extends Base, TransferNote {
    type: 'NativeTransfer';
    sender: string;
    recipient: string;
    amount: bigint;
}

export interface ExtraCurrencyTransferDraft extends Base, TransferNote {
    type: 'ExtraCurrencyTransfer';
    sender: string;
    recipient: string;
    currencyId: number;
    amount: bigint;
}

export interface ContractDeployDraft extends Base {
    type: 'ContractDeploy';
    address: string;
    interfaces: string[];
}

export interface JettonTransferDraft extends Base, TransferNote {
    type: 'JettonTransfer';
    sender?: string;
    recipient?: string;
    sendersWallet: string;
    recipientsWallet: string;
    /** undefined only for an intention to a wallet the facts do not know */
    master?: string;
    amount: bigint;
    /** forward payload of the transfer (what DEX and staking patterns read) */
    payload?: import('@ton/core').Cell | null;
    /** a wrapped-native (pTON) transfer: the amount is nanograms moved as such */
    wrappedNative?: boolean;
}

export interface FlawedJettonTransferDraft extends Base, TransferNote {
    type: 'FlawedJettonTransfer';
    sender?: string;
    recipient?: string;
    sendersWallet: string;
    recipientsWallet: string;
    master?: string;
    sentAmount: bigint;
    receivedAmount: bigint;
}

export interface JettonBurnDraft extends Base {
    type: 'JettonBurn';
    sender: string;
    sendersWallet: string;
    master?: string;
    amount: bigint;
}

export interface JettonMintDraft extends Base {
    type: 'JettonMint';
    recipient: string;
    recipientsWallet: string;
    master: string;
    amount: bigint;
}

export interface NftItemTransferDraft extends Base, TransferNote {
    type: 'NftItemTransfer';
    nft: string;
    sender?: string;
    recipient?: string;
    /** hex BOC of a forward payload that is neither empty nor a comment */
    payload?: string;
}

export interface SubscribeDraft extends Base {
    type: 'Subscribe';
    subscriber: string;
    subscription: string;
    beneficiary: string;
    admin: string;
    amount: bigint;
    initial: boolean;
}

export interface UnSubscribeDraft extends Base {
    type: 'UnSubscribe';
    subscriber: string;
    subscription: string;
    beneficiary: string;
    admin: string;
}

export interface AuctionBidDraft extends Base {
    type: 'AuctionBid';
    auctionType: AuctionType;
    amount: bigint;
    bidder: string;
    auction: string;
    nft?: string;
}

export interface NftPurchaseDraft extends Base {
    type: 'NftPurchase';
    auctionType: AuctionType;
    amount: bigint;
    nft: string;
    seller: string;
    buyer: string;
}

export interface DepositStakeDraft extends Base {
    type: 'DepositStake';
    /** nanograms; 0 when the stake is a jetton (then in stakeMeta) */
    amount: bigint;
    staker: string;
    pool: string;
    implementation: PoolImplementation;
    /** the staked jettons (FFVault) */
    stakeMeta?: Asset;
}

export interface WithdrawStakeDraft extends Base {
    type: 'WithdrawStake';
    amount: bigint;
    staker: string;
    pool: string;
    implementation: PoolImplementation;
}

export interface WithdrawStakeRequestDraft extends Base {
    type: 'WithdrawStakeRequest';
    /** undefined: withdraw everything */
    amount?: bigint;
    staker: string;
    pool: string;
    implementation: PoolImplementation;
    /** burned pool jettons (liquid pools) */
    stakeMeta?: Asset;
}

export interface ElectionsDepositStakeDraft extends Base {
    type: 'ElectionsDepositStake';
    amount: bigint;
    staker: string;
    elector: string;
}

export interface ElectionsRecoverStakeDraft extends Base {
    type: 'ElectionsRecoverStake';
    amount: bigint;
    staker: string;
    elector: string;
}

export interface JettonSwapDraft extends Base {
    type: 'JettonSwap';
    dex: string;
    userWallet: string;
    router: string;
    in: Asset;
    out: Asset;
}

/** A DEX protocol as actions name it (Protocol in the API). */
export interface LiquidityProtocol {
    name: string;
    image?: string;
}

/** One asset put into a pool: what, and which contract (pool, router or its jetton wallet) took it. */
export interface VaultDeposit {
    asset: Asset;
    vault: string;
}

export interface LiquidityDepositDraft extends Base {
    type: 'LiquidityDeposit';
    protocol: LiquidityProtocol;
    from: string;
    tokens: VaultDeposit[];
}

export interface SmartContractExecDraft extends Base {
    type: 'SmartContractExec';
    executor: string;
    contract: string;
    attached: bigint;
    operation: string;
    payload: string;
}

export interface DomainRenewDraft extends Base {
    type: 'DomainRenew';
    domain: string;
    contractAddress: string;
    renewer: string;
}

export interface PurchaseDraft extends Base {
    type: 'Purchase';
    source: string;
    destination: string;
    invoiceId: string;
    amount: Asset;
}

export interface AddExtensionDraft extends Base {
    type: 'AddExtension';
    wallet: string;
    extension: string;
}

export interface RemoveExtensionDraft extends Base {
    type: 'RemoveExtension';
    wallet: string;
    extension: string;
}

export interface SetSignatureAllowedDraft extends Base {
    type: 'SetSignatureAllowedAction';
    wallet: string;
    allowed: boolean;
}

export interface GasRelayDraft extends Base {
    type: 'GasRelay';
    amount: bigint;
    relayer: string;
    target: string;
}

export interface WithdrawXTRDraft extends Base {
    type: 'WithdrawXTR';
    user: string;
    amount: bigint;
}

export interface DepositXTRDraft extends Base {
    type: 'DepositXTR';
    recipient: string;
    amount: bigint;
}

export interface BuyXTRDraft extends Base {
    type: 'BuyXTR';
    recipient: string;
    amount: bigint;
}

/** A DeFi protocol as actions name it (Protocol schema). */
export interface ProtocolInfo {
    name: string;
    image?: string;
}

export interface DepositTokenStakeDraft extends Base {
    type: 'DepositTokenStake';
    staker: string;
    protocol: ProtocolInfo;
    stakeMeta?: Asset;
}

export interface WithdrawTokenStakeRequestDraft extends Base {
    type: 'WithdrawTokenStakeRequest';
    staker: string;
    protocol: ProtocolInfo;
    stakeMeta?: Asset;
}

export interface OraclePriceFeed {
    /** 64 hex digits, no prefix */
    id: string;
    /** '' when the feed is not a known one */
    displaySymbol: string;
    /** price × 10^expo, when the oracle answered with it */
    rate?: number;
}

export interface OracleRequestDraft extends Base {
    type: 'OracleRequest';
    requester: string;
    oracle: string;
    responseTo: string;
    priceFeeds: OraclePriceFeed[];
}

export type ActionDraft =
    | NativeTransferDraft
    | ExtraCurrencyTransferDraft
    | ContractDeployDraft
    | JettonTransferDraft
    | FlawedJettonTransferDraft
    | JettonBurnDraft
    | JettonMintDraft
    | NftItemTransferDraft
    | SubscribeDraft
    | UnSubscribeDraft
    | AuctionBidDraft
    | NftPurchaseDraft
    | DepositStakeDraft
    | WithdrawStakeDraft
    | WithdrawStakeRequestDraft
    | ElectionsDepositStakeDraft
    | ElectionsRecoverStakeDraft
    | JettonSwapDraft
    | LiquidityDepositDraft
    | SmartContractExecDraft
    | DomainRenewDraft
    | PurchaseDraft
    | AddExtensionDraft
    | RemoveExtensionDraft
    | SetSignatureAllowedDraft
    | GasRelayDraft
    | WithdrawXTRDraft
    | DepositXTRDraft
    | BuyXTRDraft
    | DepositTokenStakeDraft
    | WithdrawTokenStakeRequestDraft
    | OracleRequestDraft;

export type ActionType = ActionDraft['type'];

/** An action as the engine hands it out: the draft plus what it was built from. */
export interface EngineAction {
    draft: ActionDraft;
    /** transaction hashes (hex), in base_transactions order */
    baseTransactions: string[];
    /** accounts of the merged bubbles, for the account filter */
    accounts: string[];
}
