import {
    OP_AFFLUENT_PROVIDE_AGGREGATED_DATA, OP_BIDASK_SWAP, OP_BIDASK_SWAP_SUCCESS, OP_BIDASK_SWAP_SUCCESS_V2, OP_CHANGE_DNS_RECORD, OP_DEDUST_JETTON_SWAP,
    OP_DEDUST_NATIVE_SWAP, OP_DEDUST_SWAP_EVENT, OP_FFVAULT_UNSTAKE_REQUEST, OP_INVOICE_PAYLOAD, OP_PTON_TON_TRANSFER, OP_PYTH_PARSE_PRICE_FEED_UPDATES,
    OP_PYTH_PARSE_UNIQUE_PRICE_FEED_UPDATES, OP_PYTH_RESPONSE_SUCCESS, OP_STONFI_PAY_TO_V1, OP_STONFI_PAY_TO_V2, OP_STONFI_SWAP_V1, OP_STONFI_SWAP_V2,
    OP_TONCO_POOL_SWAP, OP_TONCO_ROUTER_PAY_TO, OP_TONSTAKERS_BILL_BURNED, OP_TONSTAKERS_DISTRIBUTED_ASSET, OP_WHALES_STAKE_WITHDRAW, OP_XTR_COMMIT, OP_XTR_UPDATE_CONTRACT_AND_PROCESS,
} from '../ton/bodies/index.ts';

/**
 * Op codes of protocol messages the patterns read (32-bit body prefixes, as the protocols publish
 * them), with the names the API shows for them in `operation` and "Call: …" comments. The ops of
 * bodies the patterns read fields of come from their loaders' modules in src/ton/bodies.
 */
export const OP = {
    // STON.fi v1
    stonfiSwap: OP_STONFI_SWAP_V1,
    stonfiPaymentRequest: OP_STONFI_PAY_TO_V1,
    stonfiSwapOk: 0xc64370e5,
    stonfiSwapOkRef: 0x45078540,
    stonfiSwapRefund: 0x5ffe1295,
    // STON.fi v2
    stonfiSwapV2: OP_STONFI_SWAP_V2,
    stonfiPayToV2: OP_STONFI_PAY_TO_V2,
    stonfiPayVaultV2: 0x63381632,
    stonfiDepositRefFeeV2: 0x0490f09b,
    ptonTransfer: OP_PTON_TON_TRANSFER,
    // DeDust
    dedustNativeSwap: OP_DEDUST_NATIVE_SWAP,
    dedustJettonSwap: OP_DEDUST_JETTON_SWAP,
    dedustSwapEvent: OP_DEDUST_SWAP_EVENT,
    dedustSwapExternal: 0x61ee542d,
    dedustSwapPeer: 0x72aca8aa,
    dedustPayoutFromPool: 0xad4eb6f5,
    dedustPayout: 0x474f86cf,
    // TONCO (v3 pools)
    toncoPoolSwap: OP_TONCO_POOL_SWAP,
    toncoRouterPayTo: OP_TONCO_ROUTER_PAY_TO,
    // Bidask
    bidaskSwap: OP_BIDASK_SWAP,
    bidaskRangeSwap: 0x66210c65,
    bidaskSwapSuccess: OP_BIDASK_SWAP_SUCCESS,
    bidaskSwapSuccessV2: OP_BIDASK_SWAP_SUCCESS_V2,
    bidaskNativeTransferNotification: 0x6edd65f0,
    // Moon (mooncx)
    moonSwap: 0xb37a900b,
    moonSwapSucceed: 0xcb7f38d6,
    // staking
    tonstakersDeposit: 0x47d54391,
    tonstakersWithdraw: 0x319b0cdc,
    tonstakersPayoutMint: 0x1674b0a0,
    tonstakersWithdrawalPayout: 0x0a77535c,
    nftInit: 0x132f9a45,
    // TON Whales nominator pool: crc32 of the contract's op names
    whalesDeposit: 0x7bcd1fef, // op::stake_deposit
    whalesDepositResponse: 0xc641e932, // op::stake_deposit::response
    whalesWithdraw: OP_WHALES_STAKE_WITHDRAW, // op::stake_withdraw
    whalesWithdrawDelayed: 0x74bb3427, // op::stake_withdraw::delayed
    whalesWithdrawResponse: 0x23d421e1, // op::stake_withdraw::response
    // elector
    electorNewStake: 0x4e73744b,
    electorNewStakeConfirmation: 0xf374484c,
    electorRecoverStake: 0x47657424,
    electorRecoverStakeResponse: 0xf96f7324,
    // subscriptions (wallet v4 plugins)
    subscriptionDeploy: 0xf71783cb,
    subscriptionPaymentRequest: 0x706c7567,
    subscriptionPaymentConfirmed: 0xf06c7567,
    pluginDestruct: 0x64737472,
    // misc
    invoicePayload: OP_INVOICE_PAYLOAD,
    changeDnsRecord: OP_CHANGE_DNS_RECORD,
    telemintDeploy: 0x4637289a,
    teleitemDeploy: 0x299a3e15,
    relayerFee: 0x878da6e3,
    wtonMint: 0x77a33521,
    xtrBuy: 0x4af6f2fe,
    xtrBuyResult: 0x01339000,
    // XTR master (Telegram Stars): a payment committed to a user's XTR contract
    xtrUpdatePayment: 0x2a999df4,
    xtrUpdateUser: 0x59ff81d6,
    xtrUpdateContractAndProcess: OP_XTR_UPDATE_CONTRACT_AND_PROCESS,
    xtrCommit: OP_XTR_COMMIT,
    // Pyth oracle (Tolk): parse_price_feed_updates#5 / parse_unique_price_feed_updates#6, answered response_success#5
    pythParsePriceFeedUpdates: OP_PYTH_PARSE_PRICE_FEED_UPDATES,
    pythParseUniquePriceFeedUpdates: OP_PYTH_PARSE_UNIQUE_PRICE_FEED_UPDATES,
    pythResponseSuccess: OP_PYTH_RESPONSE_SUCCESS,
    // FFVault: jetton deposit payload, the vault's stake_operation to a position, a position's unstake_request
    ffvaultAssetDeposit: 0x534917c3,
    ffvaultStakeOperation: 0x7a294fdc,
    ffvaultUnstakeRequest: OP_FFVAULT_UNSTAKE_REQUEST,
    // Affluent: the vault asks a fresh data aggregator for oracle data, which ends in 0x77c65602 on the vault
    affluentProvideAggregatedData: OP_AFFLUENT_PROVIDE_AGGREGATED_DATA,
    affluentDepositContext: 0xf9471134,
    affluentWithdrawContext: 0xcb03bfaf,
    affluentRequestData: 0x2a75c2f1,
    affluentRequestDataAlt: 0xf1cafcb2,
    affluentTakeData: 0xb675cea5,
    affluentTakeAggregatedDataDeposit: 0xab7bef17,
    affluentExecute: 0x77c65602,
} as const;

const NAMES = new Map<number, string>([
    [OP.stonfiSwap, 'StonfiSwap'],
    [OP.stonfiPaymentRequest, 'StonfiPaymentRequest'],
    [OP.stonfiSwapV2, 'StonfiSwapV2'],
    [OP.stonfiPayToV2, 'StonfiPayToV2'],
    [OP.ptonTransfer, 'PtonTonTransfer'],
    [OP.dedustNativeSwap, 'DedustSwap'],
    [OP.dedustJettonSwap, 'DedustSwap'],
    [OP.dedustPayoutFromPool, 'DedustPayoutFromPool'],
    [OP.dedustPayout, 'DedustPayout'],
    [OP.tonstakersDeposit, 'TonstakeDeposit'],
    [OP.tonstakersWithdraw, 'TonstakeWithdraw'],
    [OP_TONSTAKERS_BILL_BURNED, 'TonstakeBillBurned'],
    [OP_TONSTAKERS_DISTRIBUTED_ASSET, 'TonstakeNftPayout'],
    [OP.whalesDeposit, 'WhalesNominatorsDeposit'],
    [OP.whalesWithdraw, 'WhalesNominatorsWithdraw'],
    [OP.toncoPoolSwap, 'ToncoPoolV3Swap'],
    [OP.toncoRouterPayTo, 'ToncoRouterV3PayTo'],
    [OP.bidaskSwap, 'BidaskSwap'],
    [OP.moonSwap, 'MoonSwap'],
    [OP.electorNewStake, 'ElectorNewStake'],
    [OP.electorNewStakeConfirmation, 'ElectorNewStakeConfirmation'],
    [OP.electorRecoverStake, 'ElectorRecoverStakeRequest'],
    [OP.electorRecoverStakeResponse, 'ElectorRecoverStakeResponse'],
    [OP.subscriptionPaymentRequest, 'PaymentRequest'],
    [OP.subscriptionPaymentConfirmed, 'PaymentRequestResponse'],
    [OP.pluginDestruct, 'WalletPluginDestruct'],
    [OP.invoicePayload, 'InvoicePayload'],
    [OP.changeDnsRecord, 'ChangeDnsRecord'],
    // Operations of protocols that have no action of their own (or steps inside one), named as the
    // protocols' TL-B or constant tables name them (tongo's abi schemas; the protocols' sources).
    // JVault
    [0x0168d4b7, 'JvaultUnstakeRequest'],
    [0x383411ea, 'JvaultSetData'],
    [0x44bc1fe3, 'JvaultSendClaimedRewards'],
    [0x499a9262, 'JvaultUnstakeJettons'],
    [0x55c35b40, 'JvaultRequestUpdateReferrer'],
    [0x78d9f109, 'JvaultClaimRewards'],
    [0x9eada1d9, 'JvaultCancelStake'],
    [0xae9307ce, 'JvaultUpdateRewards'],
    [0xd68a4ac1, 'JvaultReceiveJettons'],
    [0xf5c5baa3, 'JvaultRequestUpdateRewards'],
    // tgBTC
    [0x3f781d24, 'TgbtcTeleportTransferBtc'],
    [0x498af388, 'TgbtcConfirmedBlockRequestMerkleRoot'],
    [0x642a879b, 'TgbtcPeginTxInitialize'],
    [0x690f357a, 'TgbtcTeleportSendInternalKey'],
    [0xbe44e7a6, 'TgbtcPegoutTxInitialize'],
    [0xd303c8f4, 'TgbtcTweakerTweakPubkey'],
    [0xe92bd172, 'TgbtcTxVerifierVerify'],
    // LayerZero
    [0x0c7b8418, 'LzReceiveExecute'],
    [0x22f3ac09, 'LzChannelReceivePrepare'],
    [0x28b97077, 'LzUlnCommitPacket'],
    [0x4002b790, 'LzMsglibConnectionSend'],
    [0x421c1a25, 'LzChannelMsglibSendCallback'],
    [0x536feb09, 'LzChannelSend'],
    [0x5388cd88, 'LzChannelCommitPacket'],
    [0x5dab749a, 'LzEndpointCommitPacket'],
    [0x5de68393, 'LzUlnSend'],
    [0x5e178f33, 'LzMsglibConnectionCommitPacketCallback'],
    [0x97df404c, 'LzReceivePrepare'],
    [0xa2b5fbae, 'LzChannelSendCallback'],
    [0xb7680bc6, 'LzChannelReceiveLock'],
    [0xcaae25a1, 'LzChannelReceiveExecuteCallback'],
    [0xdd4ea3b4, 'LzEndpointSend'],
    [0xe33b9873, 'LzBaseInterfaceEvent'],
    [0xf9d37b80, 'LzUlnConnectionCommitPacket'],
    // Cocoon
    [0x2565934c, 'CocoonReturnExcessesBack'],
    [0x4d725d2c, 'CocoonWorkerProxyRequest'],
    [0x65448ff4, 'CocoonClientProxyRequest'],
    [0x6a1f6a60, 'CocoonOwnerClientIncreaseStake'],
    [0x927c7cb5, 'CocoonRegisterProxy'],
    [0xa040ad28, 'CocoonExtWorkerPayoutRequestSigned'],
    [0xa9357034, 'CocoonOwnerClientChangeSecretHash'],
    [0xc45f9f3b, 'CocoonOwnerClientRegister'],
    [0xc59a7cd3, 'CocoonPayout'],
    [0xda068e78, 'CocoonOwnerClientWithdraw'],
    [0xf172e6c2, 'CocoonExtClientTopUp'],
    [0xfafa6cc1, 'CocoonOwnerClientRequestRefund'],
    // vesting
    [0x7258a69b, 'VestingAddWhitelist'],
    [0xf258a69b, 'VestingAddWhitelistResponse'],
    // Coffee
    [0x6bc79e7e, 'CoffeeMevProtectHoldFunds'],
    [0xbe5a7595, 'CoffeeStakingInit'],
    [0xc0ffee02, 'CoffeeCreatePool'],
    [0xc0ffee04, 'CoffeeDepositLiquidity'],
    [0xc0ffee06, 'CoffeeCreateVault'],
    [0xc0ffee20, 'CoffeeSwapInternal'],
    [0xc0ffee21, 'CoffeePayoutInternal'],
    [0xc0ffee22, 'CoffeeDeploy'],
    [0xc0ffee23, 'CoffeeCreatePoolCreatorRequest'],
    [0xc0ffee25, 'CoffeeCreatePoolRequest'],
    [0xc0ffee27, 'CoffeeCreateLiquidityDepositoryRequest'],
    [0xc0ffee29, 'CoffeeDepositLiquidityInternal'],
    [0xc0ffee32, 'CoffeePayout'],
    [0xc0ffee36, 'CoffeeNotification'],
    // DeDust
    [0xb56b9598, 'DedustDepositLiquidityAll'],
    [0xd55e4686, 'DedustDepositLiquidity'],
    // TONCO
    [0x46ca335a, 'PositionnftV3PositionBurn'],
    [0x530b5f2c, 'Poolv3StartBurn'],
    [0xd73ac09d, 'Poolv3Burn'],
    // NFT/DNS (Fragment)
    [0x370fec51, 'AuctionFillUp'],
]);

export function protocolOpName(op: number): string | undefined {
    return NAMES.get(op >>> 0);
}
