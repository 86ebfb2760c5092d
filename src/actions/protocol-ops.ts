/**
 * Op codes of protocol messages the patterns read (32-bit body prefixes, as the protocols publish
 * them), with the names the API shows for them in `operation` and "Call: …" comments.
 */
export const OP = {
    // STON.fi v1
    stonfiSwap: 0x25938561,
    stonfiPaymentRequest: 0xf93bb43f,
    stonfiSwapOk: 0xc64370e5,
    stonfiSwapOkRef: 0x45078540,
    stonfiSwapRefund: 0x5ffe1295,
    // STON.fi v2
    stonfiSwapV2: 0x6664de2a,
    stonfiPayToV2: 0x657b54f5,
    stonfiPayVaultV2: 0x63381632,
    stonfiDepositRefFeeV2: 0x0490f09b,
    ptonTransfer: 0x01f3835d,
    // DeDust
    dedustNativeSwap: 0xea06185d,
    dedustJettonSwap: 0xe3a0d482,
    dedustSwapEvent: 0x9c610de3,
    dedustSwapExternal: 0x61ee542d,
    dedustPayoutFromPool: 0xad4eb6f5,
    dedustPayout: 0x474f86cf,
    // TONCO (v3 pools)
    toncoPoolSwap: 0xa7fb58f8,
    toncoRouterPayTo: 0xa1daa96d,
    // Bidask
    bidaskSwap: 0xf2ef6c1b,
    bidaskRangeSwap: 0x66210c65,
    bidaskSwapSuccess: 0x520e4831,
    bidaskSwapSuccessV2: 0xd3a25890,
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
    whalesWithdraw: 0xda803efd, // op::stake_withdraw
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
    invoicePayload: 0x7aa23eb5,
    changeDnsRecord: 0x4eb1f0f9,
    telemintDeploy: 0x4637289a,
    teleitemDeploy: 0x299a3e15,
    relayerFee: 0x878da6e3,
    wtonMint: 0x77a33521,
    xtrBuy: 0x4af6f2fe,
    xtrBuyResult: 0x01339000,
    // XTR master (Telegram Stars): a payment committed to a user's XTR contract
    xtrUpdatePayment: 0x2a999df4,
    xtrUpdateUser: 0x59ff81d6,
    xtrUpdateContractAndProcess: 0xe2628539,
    xtrCommit: 0xe472935c,
    // Pyth oracle (Tolk): parse_price_feed_updates#5 / parse_unique_price_feed_updates#6, answered response_success#5
    pythParsePriceFeedUpdates: 0x00000005,
    pythParseUniquePriceFeedUpdates: 0x00000006,
    pythResponseSuccess: 0x00000005,
    // FFVault: jetton deposit payload, the vault's stake_operation to a position, a position's unstake_request
    ffvaultAssetDeposit: 0x534917c3,
    ffvaultStakeOperation: 0x7a294fdc,
    ffvaultUnstakeRequest: 0x8a77cf39,
    // Affluent: the vault asks a fresh data aggregator for oracle data, which ends in 0x77c65602 on the vault
    affluentProvideAggregatedData: 0xb0c69ffe,
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
]);

export function protocolOpName(op: number): string | undefined {
    return NAMES.get(op >>> 0);
}
