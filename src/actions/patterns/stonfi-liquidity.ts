import type { Cell } from '@ton/core';
import { formatRawAddress } from '../../ton/address.ts';
import { OP_EXCESS, OP_JETTON_INTERNAL_TRANSFER, loadStonfiProvideLpV2, tryLoad } from '../../ton/bodies/index.ts';
import type { LiquidityDepositDraft } from '../action.ts';
import { actionOf } from '../bubble.ts';
import { detectedOrFrom, hasInterface, hasOp, isAction, isTx } from '../checks.ts';
import type { Check, Pattern, Straw } from '../straw.ts';
import { LIQUIDITY_OP, PROTOCOLS, addTransfer, bothSides, newDeposit, startWithTransfer, step } from './liquidity.ts';
import { transferWithPayload } from './swap-helpers.ts';

/**
 * STON.fi v2 liquidity: jettons (or pTON) to the router with a provide_lp payload, the router's
 * provide_lp#37c096df to the pool, the pool's add_liquidity#50c6a654 to the user's LP account.
 * Once the account holds what the position needs (one side, or the second of two transfers) it
 * calls the pool back with cb_add_liquidity#06ecd527 and the pool mints LP jettons to the user.
 */

const protocol = PROTOCOLS.stonfi;

/** Who a provide_lp payload names to get the LP jettons. */
function lpRecipient(payload: Cell | null | undefined): string | undefined {
    const to = payload ? tryLoad(loadStonfiProvideLpV2, payload)?.toAddress : undefined;
    return to ? formatRawAddress(to) : undefined;
}

/** The LP jettons go to the depositor (a deposit for someone else, e.g. into a farm, is not the sender's). */
const lpToSender: Check = (b) => {
    const transfer = actionOf(b, 'JettonTransfer');
    return transfer?.sender !== undefined && lpRecipient(transfer.payload) === transfer.sender;
};

/** The pool mints the LP jettons: a JettonMint already found, or the LP wallet's internal_transfer and its excess. */
const lpMint: Straw<LiquidityDepositDraft> = {
    checks: [isTx, hasOp(LIQUIDITY_OP.stonfiCbAddLiquidity), hasInterface('stonfi_pool_v2')],
    build: step,
    children: [
        { checks: [isAction('JettonMint')], build: step, optional: true },
        {
            checks: [isTx, hasOp(OP_JETTON_INTERNAL_TRANSFER)],
            build: step,
            optional: true,
            children: [{ checks: [isTx, hasOp(OP_EXCESS)], build: step, optional: true }],
        },
    ],
};

/** router → pool (provide_lp) → LP account (add_liquidity); `then`: what the account does next. */
function provideChain(then: Straw<LiquidityDepositDraft>[]): Straw<LiquidityDepositDraft> {
    return {
        checks: [isTx, hasOp(LIQUIDITY_OP.stonfiProvideLp), detectedOrFrom('stonfi_pool_v2', 'stonfi_router_v2')],
        build: step,
        singleChild: {
            checks: [isTx, hasOp(LIQUIDITY_OP.stonfiAddLiquidity)],
            build: step,
            children: [...then, { checks: [isAction('ContractDeploy')], optional: true }],
        },
    };
}

/** A transfer whose LP account completes the position (one side, or the second of two). */
export const StonfiLiquidityDepositSingle: Pattern<LiquidityDepositDraft> = {
    name: 'StonfiLiquidityDepositSingle',
    create: newDeposit(protocol),
    root: {
        checks: [isAction('JettonTransfer'), transferWithPayload(LIQUIDITY_OP.stonfiProvideLp), lpToSender],
        build: startWithTransfer(),
        singleChild: provideChain([lpMint]),
    },
};

/** Both sides: the completed deposit and the sender's other transfer, which only filled the LP account. */
export const StonfiLiquidityDepositBoth = bothSides('StonfiLiquidityDepositBoth', protocol, {
    checks: [isAction('JettonTransfer'), transferWithPayload(LIQUIDITY_OP.stonfiProvideLp)],
    build: addTransfer(),
    singleChild: provideChain([{ checks: [isTx, hasOp(OP_EXCESS)], build: step, optional: true }]),
});
