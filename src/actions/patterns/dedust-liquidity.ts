import { OP_DEDUST_DEPOSIT_LIQUIDITY_JETTON, OP_DEDUST_DEPOSIT_LIQUIDITY_NATIVE, loadDedustNativeDeposit, tryLoad } from '../../ton/bodies/index.ts';
import type { Asset, LiquidityDepositDraft } from '../action.ts';
import { actionOf, txOf, type Bubble, type EngineContext } from '../bubble.ts';
import { anyOf, detectedOrFrom, hasInterface, hasOp, isAction, isTx } from '../checks.ts';
import { UNKNOWN_ADDRESS } from '../facts.ts';
import type { Check, Pattern, Straw } from '../straw.ts';
import { LIQUIDITY_OP, PROTOCOLS, newDeposit, step } from './liquidity.ts';
import { jettonAsset, sameAsset, transferWithPayload } from './swap-helpers.ts';
import { tx } from './tx.ts';

/**
 * DeDust liquidity deposits. Each side is a leg: grams to the native vault
 * (deposit_liquidity#d55e4686) or jettons to a jetton vault with a deposit_liquidity#40e108d6
 * payload; the vault asks the factory, which forwards the side to the depositor's liquidity
 * deposit contract. The leg that completes the deposit makes that contract send both sides to the
 * pool, which mints the LP jettons (or rejects the deposit) and calls the contract back; the
 * contract returns what the pool did not take.
 *
 * A leg that only fed the deposit contract is a deposit of its own side; the completing leg is the
 * deposit, and takes in the other side's leg when the same trace sent exactly one.
 */

const protocol = PROTOCOLS.dedust;

/** A leg's start: grams to the native vault, or jettons to a vault with the deposit payload. */
const nativeLegStart: Check[] = [isTx, hasOp(OP_DEDUST_DEPOSIT_LIQUIDITY_NATIVE), hasInterface('dedust_vault')];
const jettonLegStart: Check[] = [isAction('JettonTransfer'), transferWithPayload(OP_DEDUST_DEPOSIT_LIQUIDITY_JETTON)];

/** The side a leg deposits and who deposits it. */
function legOf(b: Bubble): { from: string; asset: Asset; vault: string; success: boolean } | undefined {
    const transfer = actionOf(b, 'JettonTransfer');
    if (transfer) {
        return {
            from: transfer.sender ?? UNKNOWN_ADDRESS, asset: jettonAsset(transfer.master, transfer.amount),
            vault: transfer.recipient ?? transfer.recipientsWallet, success: transfer.success,
        };
    }
    const t = txOf(b);
    if (!t) return undefined;
    const body = t.body ? tryLoad(loadDedustNativeDeposit, t.body) : null;
    return { from: t.inputFrom ?? UNKNOWN_ADDRESS, asset: { kind: 'native', amount: body?.amount ?? 0n }, vault: t.account, success: t.success };
}

function startLeg(d: LiquidityDepositDraft, b: Bubble): void {
    const leg = legOf(b)!;
    d.from = leg.from;
    d.tokens.push({ asset: leg.asset, vault: leg.vault });
    d.success = leg.success;
}

/** The pool took the deposit (and minted) or rejected it: its callback to the deposit contract says which. */
const poolStep: Straw<LiquidityDepositDraft> = {
    checks: [isTx, hasOp(LIQUIDITY_OP.dedustDepositToPool)],
    build: step,
    children: [
        { checks: [isAction('JettonMint')], build: step, optional: true },
        {
            checks: [isTx, anyOf([hasOp(LIQUIDITY_OP.dedustDepositAccepted)], [hasOp(LIQUIDITY_OP.dedustDepositRejected)])],
            build: (d, b) => {
                d.success &&= tx(b).success && tx(b).opCode === LIQUIDITY_OP.dedustDepositAccepted;
            },
        },
    ],
};

/** vault → factory → the deposit contract; `completes`: whether this side sends the deposit to the pool. */
function factoryChain(completes: boolean): Straw<LiquidityDepositDraft> {
    const deposit: Straw<LiquidityDepositDraft> = {
        checks: [isTx, hasOp(LIQUIDITY_OP.dedustDepositToAccount), detectedOrFrom('dedust_liquidity_deposit', 'dedust_factory'),
            (b, ctx) => completes === b.children.some((c) => poolStep.checks.every((check) => check(c, ctx)))],
        build: step,
    };
    if (completes) deposit.singleChild = poolStep;
    return {
        checks: [isTx, hasOp(LIQUIDITY_OP.dedustDepositToFactory), hasInterface('dedust_factory')],
        build: step,
        children: [deposit, { checks: [isTx, hasOp(LIQUIDITY_OP.dedustDepositInit)], optional: true }],
    };
}

function depositPattern(name: string, start: Check[], completes: boolean): Pattern<LiquidityDepositDraft> {
    return { name, create: newDeposit(protocol), root: { checks: start, build: startLeg, singleChild: factoryChain(completes) } };
}

export const DedustLiquidityDepositNative = depositPattern('DedustLiquidityDepositNative', nativeLegStart, true);
export const DedustLiquidityDepositJetton = depositPattern('DedustLiquidityDepositJetton', jettonLegStart, true);
export const DedustLiquidityLegNative = depositPattern('DedustLiquidityLegNative', nativeLegStart, false);
export const DedustLiquidityLegJetton = depositPattern('DedustLiquidityLegJetton', jettonLegStart, false);

/** A leg not yet made an action, of the other side than the completed deposit's. */
function isOtherLeg(b: Bubble, ctx: EngineContext, deposit: LiquidityDepositDraft): boolean {
    const starts = nativeLegStart.every((c) => c(b, ctx)) || jettonLegStart.every((c) => c(b, ctx));
    if (!starts) return false;
    const leg = legOf(b);
    return leg !== undefined && leg.from === deposit.from && deposit.tokens.every((t) => !sameAsset(t.asset, leg.asset));
}

const depositOfParent = (parent: Bubble) =>
    parent.children.map((c) => actionOf(c, 'LiquidityDeposit')).find((d) => d?.protocol.name === protocol.name && d.tokens.length === 1);

/**
 * The completed deposit and the other side's leg, sent by the same transaction: one deposit of
 * both sides, when that transaction sent exactly one leg of the other side (with more, which of
 * them the deposit took cannot be told, and each stays a deposit of its own).
 */
export const DedustLiquidityDepositBoth: Pattern<LiquidityDepositDraft> = {
    name: 'DedustLiquidityDepositBoth',
    create: newDeposit(protocol),
    root: {
        checks: [
            isTx,
            (b, ctx) => {
                const deposit = depositOfParent(b);
                return deposit !== undefined && b.children.filter((c) => isOtherLeg(c, ctx, deposit)).length === 1;
            },
        ],
        build: (d, b) => {
            const deposit = depositOfParent(b)!;
            d.from = deposit.from;
            d.success = deposit.success;
        },
        children: [
            {
                checks: [(b) => { const a = actionOf(b, 'LiquidityDeposit'); return a?.protocol.name === protocol.name && a.tokens.length === 1; }],
                build: (d, b) => {
                    const deposit = actionOf(b, 'LiquidityDeposit')!;
                    d.tokens.unshift(...deposit.tokens.map((t) => ({ ...t, asset: { ...t.asset } })));
                },
            },
            {
                checks: [anyOf(nativeLegStart, jettonLegStart)],
                build: (d, b) => {
                    const leg = legOf(b)!;
                    d.tokens.push({ asset: leg.asset, vault: leg.vault });
                    d.success &&= leg.success;
                },
                singleChild: factoryChain(false),
            },
        ],
    },
};
