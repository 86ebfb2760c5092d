import { OP_EXCESS, OP_JETTON_INTERNAL_TRANSFER } from '../../ton/bodies/index.ts';
import type { LiquidityDepositDraft } from '../action.ts';
import { actionOf } from '../bubble.ts';
import { hasInterface, hasOp, isAction, isTx, txWhere } from '../checks.ts';
import { implementsInterface } from '../interfaces.ts';
import type { Pattern, Straw } from '../straw.ts';
import { tx } from './tx.ts';
import { LIQUIDITY_OP, PROTOCOLS, bothSides, isDepositOf, newDeposit, startWithTransfer, step } from './liquidity.ts';
import { transferTo, transferWithPayload } from './swap-helpers.ts';

/**
 * Moon (mooncx) liquidity: grams with moon_deposit_liquidity#b31db781 to the pool, or jettons with
 * a moon_deposit_liquidity payload. The pool records the deposit in the user's deposit contract;
 * once that holds both assets it asks the pool to provide the liquidity, and the pool mints LP
 * jettons (internal_transfer → excess) and tells the user it succeeded.
 *
 * The op codes of the record, provide and succeed messages were not available, so those steps are
 * matched by their place in the chain and the contracts' interfaces.
 */

const protocol = PROTOCOLS.mooncx;

/** Not the LP mint: the notice of success to the user. */
const notLpMint = txWhere((t) => t.opCode !== OP_JETTON_INTERNAL_TRANSFER);

/** The user's deposit record; when it completes the position, the pool's provide with the LP mint. */
const depositRecord: Straw<LiquidityDepositDraft> = {
    // neither the pool nor a wallet (an excess back to the user)
    checks: [isTx, txWhere((t) => !implementsInterface(t.interfaces, 'moon_pool') && !implementsInterface(t.interfaces, 'wallet') && t.opCode !== OP_EXCESS)],
    build: step,
    children: [
        {
            checks: [isTx, hasInterface('moon_pool')],
            build: step,
            optional: true,
            children: [
                {
                    checks: [isTx, hasOp(OP_JETTON_INTERNAL_TRANSFER)],
                    build: step,
                    children: [
                        { checks: [isTx, hasOp(OP_EXCESS)], optional: true },
                        { checks: [isAction('ContractDeploy')], optional: true },
                    ],
                },
                { checks: [isTx, notLpMint], build: step, optional: true },
            ],
        },
        { checks: [isAction('ContractDeploy')], optional: true },
    ],
};

/** Jettons with a moon_deposit_liquidity payload: the pool itself is the vault. */
export const MooncxLiquidityDepositJetton: Pattern<LiquidityDepositDraft> = {
    name: 'MooncxLiquidityDepositJetton',
    create: newDeposit(protocol),
    root: {
        checks: [isAction('JettonTransfer'), transferWithPayload(LIQUIDITY_OP.moonDepositLiquidity), transferTo('moon_pool')],
        build: startWithTransfer('recipient'),
        singleChild: depositRecord,
    },
};

/** Grams with moon_deposit_liquidity: the value attached (with the pool's gas) is the deposit. */
export const MooncxLiquidityDepositNative: Pattern<LiquidityDepositDraft> = {
    name: 'MooncxLiquidityDepositNative',
    create: newDeposit(protocol),
    root: {
        checks: [isTx, hasOp(LIQUIDITY_OP.moonDepositLiquidity), hasInterface('moon_pool')],
        build: (d, b) => {
            const t = tx(b);
            d.from = t.inputFrom ?? d.from;
            d.tokens.push({ asset: { kind: 'native', amount: t.inputAmount }, vault: t.account });
            d.success = t.success;
        },
        singleChild: depositRecord,
    },
};

/** Both assets: the sender's transaction with its two deposits. */
export const MooncxLiquidityDepositBoth = bothSides('MooncxLiquidityDepositBoth', protocol, {
    checks: [isDepositOf(protocol)],
    build: (d, b) => {
        const leg = actionOf(b, 'LiquidityDeposit')!;
        d.tokens.push(...leg.tokens.map((t) => ({ ...t, asset: { ...t.asset } })));
        d.success &&= leg.success;
    },
});
