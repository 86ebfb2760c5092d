import type { Cell } from '@ton/core';
import { OP_EXCESS, OP_JETTON_INTERNAL_TRANSFER, OP_JETTON_MINT, loadAffluentProvideAggregatedData, tryLoad } from '../../ton/bodies/index.ts';
import type { Asset, DepositTokenStakeDraft, JettonBurnDraft, JettonTransferDraft, ProtocolInfo, WithdrawTokenStakeRequestDraft } from '../action.ts';
import { actionOf, type Bubble, type EngineContext } from '../bubble.ts';
import { accountImplements, anyOf, hasInterface, hasOp, isAction, isTx, txWhere } from '../checks.ts';
import { UNKNOWN_ADDRESS } from '../facts.ts';
import { OP } from '../protocol-ops.ts';
import type { Check, Pattern, Straw } from '../straw.ts';
import { tx } from './tx.ts';

/**
 * Staking of jettons in DeFi protocols (DepositTokenStake / WithdrawTokenStakeRequest):
 * - Ethena: USDe sent to the staking pool mints tsUSDe; tsUSDe sent to the pool starts the unstaking.
 * - Affluent: jettons sent to a lending or multiply vault mint its shares (directly, or after a fresh
 *   data aggregator collected oracle data); shares sent to a withdrawal batch queue a withdrawal;
 *   shares burned are paid out at once (again possibly after the aggregator round).
 */

export const ETHENA: ProtocolInfo = { name: 'Ethena', image: 'https://ethena.fi/shared/usde.png' };
export const AFFLUENT: ProtocolInfo = { name: 'Affluent', image: 'https://ton.app/media/71e5021a-77ab-4c48-8ef3-35e9c67701b0.png' };

/** Ethena's staking pool on the TON mainnet: it takes USDe (stake) and tsUSDe (unstake). */
export const ETHENA_POOL = '0:a11ae0f5bb47bb2945871f915a621ff281c2d786c746da74873d71d6f2aaa7a5';

/** Affluent vaults of the TON mainnet, for when the trace does not carry their interfaces. */
const AFFLUENT_VAULTS = new Set([
    '0:f717b131feec418f112e6fc160783a186144886c0515c9e8426ff25288254bdf', // USDe lending
    '0:d79ad6edd7e5923f4d2d4a1e8de851fee255fb2db9eb8ce442966b66b99aa0e1', // USDe multiply
    '0:06b609ebd46d170e294651170e077a54865f8ba3ffc9f936893f42b87b2f1cb9', // USDT lending
    '0:73488b620b5be90d411fb437960f28e032eb5fe8223399ed7a8339fd88d96896', // USDT multiply
    '0:68c174edc434d230425bac821c63322f49767d5791d6d8ea368925b4721533a1', // gold multiply
    '0:edc50aa4808450411e615a5ad0c6224cb4bc23477ac460d5016c472f3c3c02b3', // TON multiply
    '0:0343a25c2b434cb8d339bb009c4bd6e3727d914ef731608663365848872c14ad', // TON lending
]);

function isAffluentVault(ctx: EngineContext, account: string | undefined): boolean {
    if (account === undefined) return false;
    return AFFLUENT_VAULTS.has(account) || accountImplements(ctx, account, 'affluent_lending_vault') || accountImplements(ctx, account, 'affluent_multiply_vault');
}

const transferOf = (b: Bubble) => actionOf(b, 'JettonTransfer');
const burnOf = (b: Bubble) => actionOf(b, 'JettonBurn');

function transferredJettons(t: JettonTransferDraft): Asset {
    return { kind: 'jetton', master: t.master ?? UNKNOWN_ADDRESS, amount: t.amount };
}

function burnedJettons(t: JettonBurnDraft): Asset {
    return { kind: 'jetton', master: t.master ?? UNKNOWN_ADDRESS, amount: t.amount };
}

type TokenStake = DepositTokenStakeDraft | WithdrawTokenStakeRequestDraft;

/** The staker's transfer the action starts with: who stakes what. */
function fromTransfer(d: TokenStake, b: Bubble): void {
    const t = transferOf(b)!;
    d.staker = t.sender ?? UNKNOWN_ADDRESS;
    d.stakeMeta = transferredJettons(t);
    d.success = t.success;
}

function fromBurn(d: TokenStake, b: Bubble): void {
    const burn = burnOf(b)!;
    d.staker = burn.sender;
    d.stakeMeta = burnedJettons(burn);
    d.success = burn.success;
}

function transferTo(accepts: (ctx: EngineContext, recipient: string | undefined) => boolean): Check {
    return (b, ctx) => {
        const t = transferOf(b);
        return t !== undefined && accepts(ctx, t.recipient);
    };
}

const depositDraft = (protocol: ProtocolInfo) => (): DepositTokenStakeDraft => ({ type: 'DepositTokenStake', success: false, staker: UNKNOWN_ADDRESS, protocol });
const withdrawDraft = (protocol: ProtocolInfo) => (): WithdrawTokenStakeRequestDraft => ({ type: 'WithdrawTokenStakeRequest', success: false, staker: UNKNOWN_ADDRESS, protocol });

/** A later step decides: the action succeeded if that transaction did. */
const settles = <T extends TokenStake>(): Straw<T>['build'] => (d, b) => {
    d.success &&= tx(b).success;
};

// ---- Ethena ----

/** USDe transferred to the pool, which mints tsUSDe to the staker (a JettonMint found earlier). */
export const DepositEthenaStake: Pattern<DepositTokenStakeDraft> = {
    name: 'DepositEthenaStake',
    create: depositDraft(ETHENA),
    root: {
        checks: [isAction('JettonTransfer'), transferTo((_, r) => r === ETHENA_POOL)],
        build: fromTransfer,
        singleChild: {
            checks: [isAction('JettonMint')],
            build: (d, b) => {
                d.success &&= actionOf(b, 'JettonMint')!.success;
            },
        },
    },
};

/**
 * tsUSDe transferred to the pool, which asks the tsUSDe master (mint#642b7d07 to the staker) to
 * lock the amount in the staker's wallet until the cooldown ends; that wallet's transaction settles it.
 */
export const WithdrawEthenaStakeRequest: Pattern<WithdrawTokenStakeRequestDraft> = {
    name: 'WithdrawEthenaStakeRequest',
    create: withdrawDraft(ETHENA),
    root: {
        checks: [isAction('JettonTransfer'), transferTo((_, r) => r === ETHENA_POOL)],
        build: fromTransfer,
        singleChild: {
            checks: [isTx, hasOp(OP_JETTON_MINT)],
            build: settles(),
            // (an internal_transfer here would be a mint of tsUSDe: a deposit, not this)
            singleChild: { checks: [isTx, txWhere((t) => t.opCode !== OP_JETTON_INTERNAL_TRANSFER)], build: settles() },
        },
    },
};

// ---- Affluent ----

/** What a provide_aggregated_data round is for (its context's op). */
function aggregatedDataContext(body: Cell | null): number | null {
    return body ? (tryLoad(loadAffluentProvideAggregatedData, body)?.contextOp ?? null) : null;
}

/** The vault's request to a freshly deployed data aggregator, in a deposit (deposit_context#f9471134) or a withdrawal (withdraw_context#cb03bfaf). */
function aggregatorRound<T extends TokenStake>(context: number, last: Straw<T>): Straw<T> {
    return {
        checks: [isTx, hasOp(OP.affluentProvideAggregatedData), txWhere((t) => aggregatedDataContext(t.body) === context)],
        children: [
            {
                checks: [isTx, hasOp(OP.affluentRequestData, OP.affluentRequestDataAlt)],
                singleChild: {
                    checks: [isTx, hasOp(OP.affluentTakeData, OP.affluentTakeAggregatedDataDeposit)],
                    singleChild: last,
                },
            },
            { checks: [isAction('ContractDeploy')] },
        ],
    };
}

/** The vault mints its shares to the staker (internal_transfer#178d4519, or a JettonMint when it notified), then the excess. */
const sharesMinted = <T extends TokenStake>(): Straw<T> => ({
    checks: [anyOf([isTx, hasOp(OP_JETTON_INTERNAL_TRANSFER)], [isAction('JettonMint')])],
    build: (d, b) => {
        const mint = actionOf(b, 'JettonMint');
        d.success &&= mint ? mint.success : tx(b).success;
    },
    singleChild: { checks: [isTx, hasOp(OP_EXCESS)], optional: true },
});

const transferToVault = transferTo(isAffluentVault);

export const DepositAffluentEarn: Pattern<DepositTokenStakeDraft> = {
    name: 'DepositAffluentEarn',
    create: depositDraft(AFFLUENT),
    root: { checks: [isAction('JettonTransfer'), transferToVault], build: fromTransfer, singleChild: sharesMinted() },
};

/** The vault first runs an aggregator round (0x77c65602 back on the vault), then mints the shares. */
export const DepositAffluentEarnWithOracles: Pattern<DepositTokenStakeDraft> = {
    name: 'DepositAffluentEarnWithOracles',
    create: depositDraft(AFFLUENT),
    root: {
        checks: [isAction('JettonTransfer'), transferToVault],
        build: fromTransfer,
        singleChild: aggregatorRound(OP.affluentDepositContext, { checks: [isTx, hasOp(OP.affluentExecute)], singleChild: sharesMinted() }),
    },
};

/** Shares sent to a withdrawal batch (interface affluent_batch), which returns the excess: a queued withdrawal. */
export const WithdrawAffluentEarnRequest: Pattern<WithdrawTokenStakeRequestDraft> = {
    name: 'WithdrawAffluentEarnRequest',
    create: withdrawDraft(AFFLUENT),
    root: {
        checks: [isAction('JettonTransfer'), transferTo((ctx, r) => accountImplements(ctx, r, 'affluent_batch'))],
        build: fromTransfer,
        singleChild: { checks: [isTx, hasOp(OP_EXCESS)] },
    },
};

/** Shares burned; the vault (their master) pays the asset out at once with a jetton transfer. */
export const InstantWithdrawAffluentEarn: Pattern<WithdrawTokenStakeRequestDraft> = {
    name: 'InstantWithdrawAffluentEarn',
    create: withdrawDraft(AFFLUENT),
    root: {
        checks: [isAction('JettonBurn')],
        build: fromBurn,
        singleChild: {
            checks: [isAction('JettonTransfer'), (b, ctx) => isAffluentVault(ctx, transferOf(b)?.sender)],
            build: (d, b) => {
                d.success &&= transferOf(b)!.success;
            },
        },
    },
};

/** Shares burned, an aggregator round, then 0x77c65602 on the vault, which pays out (a transfer of its own). */
export const InstantWithdrawAffluentEarnWithOracles: Pattern<WithdrawTokenStakeRequestDraft> = {
    name: 'InstantWithdrawAffluentEarnWithOracles',
    create: withdrawDraft(AFFLUENT),
    root: {
        checks: [isAction('JettonBurn')],
        build: fromBurn,
        singleChild: aggregatorRound(OP.affluentWithdrawContext, {
            checks: [isTx, hasOp(OP.affluentExecute), anyOf([hasInterface('affluent_multiply_vault')], [hasInterface('affluent_lending_vault')], [(b) => AFFLUENT_VAULTS.has(tx(b).account)])],
            build: settles(),
        }),
    },
};
