import { OP_BIDASK_PROVIDE_BOTH, OP_STONFI_PROVIDE_LP_V2, OP_TONCO_ROUTER_PAY_TO } from '../../ton/bodies/index.ts';
import type { Asset, JettonTransferDraft, LiquidityDepositDraft, LiquidityProtocol, VaultDeposit } from '../action.ts';
import { actionOf, type Bubble } from '../bubble.ts';
import { isTx } from '../checks.ts';
import { UNKNOWN_ADDRESS } from '../facts.ts';
import type { Check, Pattern, Straw } from '../straw.ts';
import { jettonAsset, sameAsset } from './swap-helpers.ts';

/**
 * Shared pieces of the liquidity-deposit patterns (Bidask, STON.fi v2, Moon, TONCO, DeDust, Coffee): the op codes
 * of the deposit messages, the protocols, how a transfer into a pool becomes a deposited token,
 * and the pattern joining the two legs of a two-sided deposit.
 */

export const LIQUIDITY_OP = {
    // Bidask
    bidaskProvide: 0x96feef7b, // bidask_provide (jetton payload): one side
    bidaskProvideBoth: OP_BIDASK_PROVIDE_BOTH, // bidask_provide_both ton_amount:Coins … (jetton payload): the jetton plus grams
    // STON.fi v2
    stonfiProvideLp: OP_STONFI_PROVIDE_LP_V2, // provide_lp (jetton payload and router → pool)
    stonfiAddLiquidity: 0x50c6a654, // add_liquidity (pool → LP account)
    stonfiCbAddLiquidity: 0x06ecd527, // cb_add_liquidity (LP account → pool: mint the LP tokens)
    // Moon (mooncx)
    moonDepositLiquidity: 0xb31db781, // moon_deposit_liquidity (grams to the pool, or a jetton payload)
    // TONCO
    toncoFundAccount: 0x4468de77, // POOLV3_FUND_ACCOUNT (jetton payload and router → pool)
    toncoAddLiquidity: 0x3ebe5431, // ACCOUNTV3_ADD_LIQUIDITY (pool → user account)
    toncoMint: 0x81702ef8, // POOLV3_MINT (account → pool)
    toncoPositionInit: 0xd5ecca2a, // POSITIONNFTV3_POSITION_INIT (pool → position NFT)
    toncoRouterPayTo: OP_TONCO_ROUTER_PAY_TO, // ROUTERV3_PAY_TO (pool → router: refunds)
    // DeDust (the legs' own ops are in src/ton/bodies/dedust.ts)
    dedustDepositToFactory: 0xf04ec526, // vault → factory: a side for the depositor's deposit contract
    dedustDepositInit: 0x9b3aa3fa, // factory → deposit contract: deploys it
    dedustDepositToAccount: 0x54240fe5, // factory → deposit contract: the side arrived
    dedustDepositToPool: 0xb56b9598, // deposit contract → pool: both sides
    dedustDepositAccepted: 0xaae79256, // pool → deposit contract: taken, LP jettons minted
    dedustDepositRejected: 0xe1a36cd4, // pool → deposit contract: rejected, both sides go back
} as const;

export const PROTOCOLS = {
    bidask: { name: 'bidask', image: 'https://bidask.finance/assets/landing/bidask-logo.webp' },
    stonfi: { name: 'stonfi', image: 'https://static.ston.fi/favicon/android-chrome-192x192.png' },
    mooncx: { name: 'mooncx', image: 'https://moon.cx/assets/logoMoon.svg' },
    tonco: { name: 'tonco', image: 'https://ton.app/media/1f913e65-9c32-433e-a0a3-a7c5ccf46ad5.png' },
    dedust: { name: 'dedust', image: 'https://dedust.io/favicon-32x32.png' },
    coffee: { name: 'coffee', image: 'https://swap.coffee/favicon.ico' },
} as const satisfies Record<string, LiquidityProtocol>;

export function newDeposit(protocol: LiquidityProtocol): () => LiquidityDepositDraft {
    return () => ({ type: 'LiquidityDeposit', success: false, protocol: { ...protocol }, from: UNKNOWN_ADDRESS, tokens: [] });
}

/**
 * A transfer into a pool as a deposited token. Wrapped grams (pTON) count as grams taken by the
 * transfer's recipient (the router); jettons as taken by the receiving jetton wallet, unless the
 * protocol names the recipient itself (`vault: 'recipient'`).
 */
export function transferDeposit(transfer: JettonTransferDraft, vault: 'wallet' | 'recipient' = 'wallet'): VaultDeposit {
    if (transfer.wrappedNative) return { asset: { kind: 'native', amount: transfer.amount }, vault: transfer.recipient ?? UNKNOWN_ADDRESS };
    const to = vault === 'recipient' ? transfer.recipient ?? transfer.recipientsWallet : transfer.recipientsWallet;
    return { asset: jettonAsset(transfer.master, transfer.amount), vault: to };
}

/** Builder of the leg that starts a deposit: who deposits, what, and whether the transfer went through. */
export function startWithTransfer(vault: 'wallet' | 'recipient' = 'wallet') {
    return (d: LiquidityDepositDraft, b: Bubble): void => {
        const transfer = actionOf(b, 'JettonTransfer')!;
        d.from = transfer.sender ?? d.from;
        d.tokens.push(transferDeposit(transfer, vault));
        d.success = transfer.success;
    };
}

/** Builder of another transfer of the same deposit (the second side). */
export function addTransfer(vault: 'wallet' | 'recipient' = 'wallet') {
    return (d: LiquidityDepositDraft, b: Bubble): void => {
        const transfer = actionOf(b, 'JettonTransfer')!;
        if (d.from === UNKNOWN_ADDRESS && transfer.sender !== undefined) d.from = transfer.sender;
        d.tokens.push(transferDeposit(transfer, vault));
        d.success &&= transfer.success;
    };
}

/** A transaction of the deposit's chain: the deposit holds only if every step of it did. */
export function step(d: LiquidityDepositDraft, b: Bubble): void {
    const info = b.info;
    d.success &&= info.kind === 'tx' ? info.success : info.action.success;
}

export const isDepositOf = (protocol: LiquidityProtocol): Check => (b) => actionOf(b, 'LiquidityDeposit')?.protocol.name === protocol.name;

/** An already found deposit of this protocol (one side): its tokens come first. */
export function joinDeposit(d: LiquidityDepositDraft, b: Bubble): void {
    const earlier = actionOf(b, 'LiquidityDeposit')!;
    d.from = earlier.from;
    d.tokens = [...earlier.tokens.map((t) => ({ ...t, asset: { ...t.asset } })), ...d.tokens];
    // Builders run from the root down and this leg comes last: d.success already holds the other leg's outcome.
    d.success = earlier.success && d.success;
}

/**
 * Two-sided deposits: the sender's transaction whose two outgoing legs are a deposit already found
 * (the leg that completed the position) and the other leg (`leg`: it only fed the pool's
 * bookkeeping). The sender's transaction is merged too.
 */
export function bothSides(name: string, protocol: LiquidityProtocol, leg: Straw<LiquidityDepositDraft>): Pattern<LiquidityDepositDraft> {
    return {
        name,
        create: () => ({ ...newDeposit(protocol)(), success: true }),
        root: {
            checks: [isTx],
            children: [
                { checks: [isDepositOf(protocol)], build: joinDeposit },
                leg,
            ],
        },
    };
}

/** Takes a refunded asset off the deposited one it returns (TONCO: the part the position did not need). */
export function subtractRefund(d: LiquidityDepositDraft, refund: Asset): void {
    const token = d.tokens.find((t) => sameAsset(t.asset, refund));
    if (token && token.asset.amount >= refund.amount) token.asset.amount -= refund.amount;
}
