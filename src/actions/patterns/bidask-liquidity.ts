import { loadBidaskProvideBoth, tryLoad } from '../../ton/bodies/index.ts';
import type { LiquidityDepositDraft } from '../action.ts';
import { actionOf } from '../bubble.ts';
import { hasInterface, isAction, isTx } from '../checks.ts';
import { UNKNOWN_ADDRESS } from '../facts.ts';
import type { Pattern, Straw } from '../straw.ts';
import { LIQUIDITY_OP, PROTOCOLS, addTransfer, newDeposit, startWithTransfer, step } from './liquidity.ts';
import { transferWithPayload } from './swap-helpers.ts';

/**
 * Bidask liquidity: jettons (with or without grams) go to the pool, a range spreads them over bins
 * (internal_continue_provide) and the LP multitoken records the position, telling the user's wallet
 * (liquidity_added_notify). Two jettons at once meet first in the pool's internal liquidity vault
 * (save_liquidity_info), which calls the pool back (adding_liquidity_notify) once both arrived.
 */

const protocol = PROTOCOLS.bidask;

/** The range spreads the liquidity; the multitoken records it and tells the user; a surplus may come back through the pool. */
const rangeAndPosition: Straw<LiquidityDepositDraft> = {
    checks: [isTx, hasInterface('bidask_range')],
    build: step,
    children: [
        {
            checks: [isTx, hasInterface('bidask_lp_multitoken')],
            build: step,
            children: [
                { checks: [isTx, hasInterface('wallet')], build: step },
                { checks: [isAction('ContractDeploy')], optional: true },
            ],
        },
        // provide_refund: the part no bin took goes back as a jetton transfer
        { checks: [isTx, hasInterface('bidask_pool')], optional: true, singleChild: { checks: [isAction('JettonTransfer')], optional: true } },
    ],
};

/** A jetton and grams in one transfer (bidask_provide_both carries the gram amount). */
export const BidaskLiquidityDepositBothNative: Pattern<LiquidityDepositDraft> = {
    name: 'BidaskLiquidityDepositBothNative',
    create: newDeposit(protocol),
    root: {
        checks: [isAction('JettonTransfer'), transferWithPayload(LIQUIDITY_OP.bidaskProvideBoth)],
        build: (d, b) => {
            // The grams are taken by the pool itself, the jettons by its jetton wallet.
            const transfer = actionOf(b, 'JettonTransfer')!;
            const grams = transfer.payload ? tryLoad(loadBidaskProvideBoth, transfer.payload)?.tonAmount : undefined;
            d.tokens.push({ asset: { kind: 'native', amount: grams ?? 0n }, vault: transfer.recipient ?? UNKNOWN_ADDRESS });
            startWithTransfer()(d, b);
        },
        singleChild: rangeAndPosition,
    },
};

/** One jetton (bidask_provide payload). */
export const BidaskLiquidityDepositJetton: Pattern<LiquidityDepositDraft> = {
    name: 'BidaskLiquidityDepositJetton',
    create: newDeposit(protocol),
    root: {
        checks: [isAction('JettonTransfer'), transferWithPayload(LIQUIDITY_OP.bidaskProvide)],
        build: startWithTransfer(),
        singleChild: rangeAndPosition,
    },
};

/**
 * Two jettons: the sender's transaction with both transfers. The one arriving second finds the
 * other in the internal liquidity vault and carries on to the pool, the range and the multitoken.
 * Tokens are listed in arrival order (the completing leg is matched first, so it is built last).
 */
export const BidaskLiquidityDepositBothJetton: Pattern<LiquidityDepositDraft> = {
    name: 'BidaskLiquidityDepositBothJetton',
    create: () => ({ ...newDeposit(protocol)(), success: true }),
    root: {
        checks: [isTx],
        children: [
            {
                checks: [isAction('JettonTransfer')],
                build: addTransfer(),
                singleChild: {
                    checks: [isTx, hasInterface('bidask_internal_liquidity_vault')],
                    build: step,
                    singleChild: {
                        checks: [isTx, hasInterface('bidask_pool')],
                        build: step,
                        singleChild: rangeAndPosition,
                    },
                },
            },
            {
                checks: [isAction('JettonTransfer')],
                build: addTransfer(),
                singleChild: {
                    checks: [isTx, hasInterface('bidask_internal_liquidity_vault')],
                    build: step,
                    singleChild: { checks: [isAction('ContractDeploy')], optional: true },
                },
            },
        ],
    },
};
