import type { AnyPattern } from '../straw.ts';
import { DedustSwapFromJetton, DedustSwapFromNative } from './dedust.ts';
import { ElectionsDepositStake, ElectionsRecoverStake } from './elections.ts';
import { GasRelayer } from './gas-relay.ts';
import { InvoicePaymentJetton, InvoicePaymentNative } from './invoices.ts';
import { FlawedJettonTransfer, JettonBurn, JettonMintFromMaster, JettonMintGovernance, JettonTransferClassic, JettonTransferMinimal } from './jettons.ts';
import { NftTransfer, NftTransferNotify } from './nft.ts';
import { AuctionBidGetgems, AuctionBuyGetgems, NftPurchase } from './nft-sales.ts';
import {
    DepositLiquidStake, DepositTFStake, PendingWithdrawRequestLiquid, WithdrawLiquidStake, WithdrawStakeImmediately, WithdrawTFStakeRequest,
} from './staking.ts';
import { StonfiSwapV1, StonfiSwapV2 } from './stonfi.ts';
import { SubscriptionDeploy, SubscriptionPayment, UnSubscriptionByBeneficiary, UnSubscriptionBySubscriber } from './subscriptions.ts';

/**
 * Every pattern the engine applies, in priority order: each runs over the whole tree until it no
 * longer matches before the next starts. Transfers of jettons and NFTs come first, so the
 * protocol patterns after them match on those actions rather than on raw transactions.
 */
export const PATTERNS: readonly AnyPattern[] = [
    GasRelayer,
    NftTransfer,
    NftTransferNotify,
    FlawedJettonTransfer,
    JettonTransferClassic,
    JettonTransferMinimal,
    JettonBurn,
    NftPurchase,
    StonfiSwapV1,
    StonfiSwapV2,
    DedustSwapFromNative,
    DedustSwapFromJetton,
    AuctionBidGetgems,
    AuctionBuyGetgems,
    JettonMintFromMaster,
    JettonMintGovernance,
    InvoicePaymentNative,
    InvoicePaymentJetton,
    UnSubscriptionBySubscriber,
    UnSubscriptionByBeneficiary,
    SubscriptionDeploy,
    SubscriptionPayment,
    DepositLiquidStake,
    PendingWithdrawRequestLiquid,
    ElectionsDepositStake,
    ElectionsRecoverStake,
    DepositTFStake,
    WithdrawTFStakeRequest,
    WithdrawStakeImmediately,
    WithdrawLiquidStake,
];
