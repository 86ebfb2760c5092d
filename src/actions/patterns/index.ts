import type { AnyPattern } from '../straw.ts';
import { BidaskSwapFromJetton, BidaskSwapFromNative } from './bidask.ts';
import { BidaskLiquidityDepositBothJetton, BidaskLiquidityDepositBothNative, BidaskLiquidityDepositJetton } from './bidask-liquidity.ts';
import { CoffeeLiquidityDepositJetton, CoffeeLiquidityDepositNative, CoffeeSwapFromJetton, CoffeeSwapFromNative } from './coffee.ts';
import { DedustSwapFromJetton, DedustSwapFromNative } from './dedust.ts';
import {
    DedustLiquidityDepositBoth, DedustLiquidityDepositJetton, DedustLiquidityDepositNative, DedustLiquidityLegJetton, DedustLiquidityLegNative,
} from './dedust-liquidity.ts';
import { DomainRenew } from './dns.ts';
import { ElectionsDepositStake, ElectionsRecoverStake } from './elections.ts';
import { DepositFFVaultStake, DepositFFVaultStakeDirect, WithdrawalRequestFFVault } from './ffvault.ts';
import { GasRelayer } from './gas-relay.ts';
import { InvoicePaymentJetton, InvoicePaymentNative } from './invoices.ts';
import { FlawedJettonTransfer, JettonBurn, JettonMintFromMaster, JettonMintGovernance, JettonTransferClassic, JettonTransferMinimal } from './jettons.ts';
import { MegatonFiSwap } from './megaton.ts';
import { MooncxSwapFromJetton, MooncxSwapFromNative } from './mooncx.ts';
import { MooncxLiquidityDepositBoth, MooncxLiquidityDepositJetton, MooncxLiquidityDepositNative } from './mooncx-liquidity.ts';
import { NftTransfer, NftTransferNotify } from './nft.ts';
import { AuctionBidGetgems, AuctionBuyGetgems, NftPurchase, SaleSettledGetgems, TelemintDirectBuy } from './nft-sales.ts';
import {
    DepositLiquidStake, DepositTFStake, PendingWithdrawRequestLiquid, WithdrawLiquidStake, WithdrawLiquidStakeByBill, WithdrawStakeImmediately,
    WithdrawTFStakeRequest,
} from './staking.ts';
import { PtonTransferDirect, PtonTransferHop, PtonTransferIn, PtonTransferOut } from './pton.ts';
import { PythOracleRequest } from './pyth.ts';
import { StonfiSwapV1, StonfiSwapV2, StonfiSwapV2FailedHop, StonfiSwapV2FailedPoolHop } from './stonfi.ts';
import { StonfiLiquidityDepositBoth, StonfiLiquidityDepositSingle } from './stonfi-liquidity.ts';
import { SubscriptionDeploy, SubscriptionPayment, UnSubscriptionByBeneficiary, UnSubscriptionBySubscriber } from './subscriptions.ts';
import { FragmentSimpleBid, TgAuctionV1InitialBid } from './telegram.ts';
import { ToncoSwap } from './tonco.ts';
import { ToncoLiquidityDepositBoth, ToncoLiquidityDepositRefund, ToncoLiquidityDepositSingle } from './tonco-liquidity.ts';
import {
    DepositAffluentEarn, DepositAffluentEarnWithOracles, DepositEthenaStake, InstantWithdrawAffluentEarn, InstantWithdrawAffluentEarnWithOracles,
    WithdrawAffluentEarnRequest, WithdrawEthenaStakeRequest,
} from './token-staking.ts';
import { DepositWhalesStake, WithdrawWhalesStake, WithdrawWhalesStakeRequest } from './whales.ts';
import { WtonMint } from './wton.ts';
import { XtrDeposit, XtrWithdraw } from './xtr.ts';

/**
 * Every pattern the engine applies, in priority order: each runs over the whole tree until it no
 * longer matches before the next starts. Transfers of jettons and NFTs come first, so the
 * protocol patterns after them match on those actions rather than on raw transactions.
 */
export const PATTERNS: readonly AnyPattern[] = [
    FragmentSimpleBid,
    GasRelayer,
    TelemintDirectBuy,
    NftTransfer,
    NftTransferNotify,
    // a hop first: its ton_transfer step would otherwise end a transfer out
    PtonTransferHop,
    PtonTransferOut,
    PtonTransferIn,
    PtonTransferDirect,
    FlawedJettonTransfer,
    XtrWithdraw,
    JettonTransferClassic,
    JettonTransferMinimal,
    JettonBurn,
    WtonMint,
    NftPurchase,
    SaleSettledGetgems,
    StonfiSwapV1,
    // failed hops first: the swap chain then stops where a hop failed
    StonfiSwapV2FailedHop,
    StonfiSwapV2FailedPoolHop,
    StonfiSwapV2,
    DedustSwapFromNative,
    DedustSwapFromJetton,
    CoffeeSwapFromNative,
    CoffeeSwapFromJetton,
    TgAuctionV1InitialBid,
    AuctionBidGetgems,
    AuctionBuyGetgems,
    JettonMintFromMaster,
    JettonMintGovernance,
    InvoicePaymentNative,
    InvoicePaymentJetton,
    MegatonFiSwap,
    UnSubscriptionBySubscriber,
    UnSubscriptionByBeneficiary,
    SubscriptionDeploy,
    SubscriptionPayment,
    DepositLiquidStake,
    // paid at once first: a pending request is one the pool could not pay
    WithdrawLiquidStake,
    PendingWithdrawRequestLiquid,
    ElectionsDepositStake,
    ElectionsRecoverStake,
    DepositTFStake,
    WithdrawTFStakeRequest,
    WithdrawStakeImmediately,
    WithdrawLiquidStakeByBill,
    DepositWhalesStake,
    WithdrawWhalesStakeRequest,
    WithdrawWhalesStake,
    DomainRenew,
    BidaskLiquidityDepositBothNative,
    BidaskLiquidityDepositBothJetton,
    BidaskLiquidityDepositJetton,
    StonfiLiquidityDepositSingle,
    StonfiLiquidityDepositBoth,
    // the completing leg first; then the other side's single leg joins it; the other legs last
    DedustLiquidityDepositNative,
    DedustLiquidityDepositJetton,
    DedustLiquidityDepositBoth,
    DedustLiquidityLegNative,
    DedustLiquidityLegJetton,
    CoffeeLiquidityDepositNative,
    CoffeeLiquidityDepositJetton,
    DepositEthenaStake,
    WithdrawEthenaStakeRequest,
    BidaskSwapFromNative,
    BidaskSwapFromJetton,
    MooncxSwapFromNative,
    MooncxSwapFromJetton,
    MooncxLiquidityDepositJetton,
    MooncxLiquidityDepositNative,
    MooncxLiquidityDepositBoth,
    ToncoSwap,
    ToncoLiquidityDepositSingle,
    ToncoLiquidityDepositBoth,
    ToncoLiquidityDepositRefund,
    DepositAffluentEarn,
    DepositAffluentEarnWithOracles,
    WithdrawAffluentEarnRequest,
    InstantWithdrawAffluentEarn,
    InstantWithdrawAffluentEarnWithOracles,
    PythOracleRequest,
    DepositFFVaultStake,
    DepositFFVaultStakeDirect,
    WithdrawalRequestFFVault,
    XtrDeposit,
];
