import { OP_EXCESS } from '../../ton/bodies/index.ts';
import type { LiquidityDepositDraft } from '../action.ts';
import { actionOf } from '../bubble.ts';
import { detectedOrFrom, hasInterface, hasOp, isAction, isTx } from '../checks.ts';
import type { Pattern, Straw } from '../straw.ts';
import { LIQUIDITY_OP, PROTOCOLS, addTransfer, bothSides, isDepositOf, newDeposit, startWithTransfer, step, subtractRefund } from './liquidity.ts';
import { transferAsset, transferWithPayload } from './swap-helpers.ts';

/**
 * TONCO liquidity (v3 positions): jettons (or pTON) to the router with a POOL_FUND_ACCOUNT payload,
 * the router's POOLV3_FUND_ACCOUNT#4468de77 to the pool, the pool's ACCOUNTV3_ADD_LIQUIDITY#3ebe5431
 * to the user's account contract. When the account holds enough of both jettons it sends
 * POOLV3_MINT#81702ef8 to the pool, which initialises the position NFT
 * (POSITIONNFTV3_POSITION_INIT#d5ecca2a) and may pay back what the position did not use
 * (ROUTERV3_PAY_TO#a1daa96d → transfers to the user).
 *
 * A two-sided deposit is one LiquidityDeposit, net of that refund: the position holds both sides
 * and what came back was never deposited, so the user sees what the position took (other indexers
 * report each side at its gross amount as an action of its own).
 */

const protocol = PROTOCOLS.tonco;

/** router → pool (fund account) → account (add liquidity); `then`: what the account does next. */
function fundChain(then?: Straw<LiquidityDepositDraft>): Straw<LiquidityDepositDraft> {
    return {
        checks: [isTx, hasOp(LIQUIDITY_OP.toncoFundAccount), detectedOrFrom('tonco_pool', 'tonco_router')],
        build: step,
        singleChild: { checks: [isTx, hasOp(LIQUIDITY_OP.toncoAddLiquidity)], build: step, singleChild: then },
    };
}

/** The pool mints the position: the position NFT (maybe deployed by it) and an excess. */
const mint: Straw<LiquidityDepositDraft> = {
    checks: [isTx, hasOp(LIQUIDITY_OP.toncoMint), hasInterface('tonco_pool')],
    build: step,
    children: [
        {
            checks: [isTx, hasOp(LIQUIDITY_OP.toncoPositionInit)],
            build: step,
            singleChild: { checks: [isAction('ContractDeploy')], optional: true },
        },
        { checks: [isTx, hasOp(OP_EXCESS)], build: step, optional: true },
    ],
};

/** A transfer whose account completes the position (one side, or the second of two). */
export const ToncoLiquidityDepositSingle: Pattern<LiquidityDepositDraft> = {
    name: 'ToncoLiquidityDepositSingle',
    create: newDeposit(protocol),
    root: {
        checks: [isAction('JettonTransfer'), transferWithPayload(LIQUIDITY_OP.toncoFundAccount)],
        build: startWithTransfer(),
        singleChild: fundChain(mint),
    },
};

/** Both sides: the completed deposit and the sender's other transfer, which only funded the account. */
export const ToncoLiquidityDepositBoth = bothSides('ToncoLiquidityDepositBoth', protocol, {
    checks: [isAction('JettonTransfer'), transferWithPayload(LIQUIDITY_OP.toncoFundAccount)],
    build: addTransfer(),
    singleChild: fundChain(),
});

/** What the position did not take comes back through the router: the deposit is what stayed. */
export const ToncoLiquidityDepositRefund: Pattern<LiquidityDepositDraft> = {
    name: 'ToncoLiquidityDepositRefund',
    create: newDeposit(protocol),
    root: {
        checks: [isDepositOf(protocol)],
        build: (d, b) => {
            const deposit = actionOf(b, 'LiquidityDeposit')!;
            d.from = deposit.from;
            d.tokens = deposit.tokens.map((t) => ({ ...t, asset: { ...t.asset } }));
            d.success = deposit.success;
        },
        singleChild: {
            checks: [isTx, hasOp(LIQUIDITY_OP.toncoRouterPayTo)],
            build: step,
            children: [refund(), refund()],
        },
    },
};

function refund(): Straw<LiquidityDepositDraft> {
    return {
        checks: [isAction('JettonTransfer')],
        optional: true,
        build: (d, b) => {
            const transfer = actionOf(b, 'JettonTransfer')!;
            if (transfer.success && transfer.recipient === d.from) subtractRefund(d, transferAsset(transfer));
        },
    };
}
