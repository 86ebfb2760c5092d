import { OP_EXCESS, loadFfvaultUnstakeRequest, peekOp, tryLoad } from '../../ton/bodies/index.ts';
import type { DepositStakeDraft, WithdrawStakeRequestDraft } from '../action.ts';
import { actionOf, type Bubble } from '../bubble.ts';
import { hasOp, isAction, isTx } from '../checks.ts';
import { UNKNOWN_ADDRESS } from '../facts.ts';
import { OP } from '../protocol-ops.ts';
import type { Check, Pattern, Straw } from '../straw.ts';
import { tx } from './tx.ts';

/**
 * FFVault: a jetton staking vault (interface ff_vault) whose stakes are NFT positions
 * (ff_vault_position). A stake is a jetton transfer to the vault with the forward payload
 * asset_deposit#534917c3 price_update_data:(Maybe ^Cell); the vault has the Pyth oracle check the
 * price (an OracleRequest of its own), then deploys the position with
 * stake_operation#7a294fdc query_id:uint64 deposit_address:address asset_amount:Coins.
 * Unstaking starts with unstake_request#8a77cf39 query_id:uint64 amount_wanted_to_unstake:Coins
 * from the owner to the position.
 */

/** Staked asset of the known vaults (TON mainnet), for positions whose vault the trace names. */
const VAULT_ASSETS = new Map<string, string>([
    ['0:4c4e2d27a27721f2b8fa3f9993e13c9696e9d701b2f498f981294ece2afdedda', '0:757f204003da900cfe8b106685ddc6d4f976ebfa9e844816469ea94790720700'],
]);

const transferOf = (b: Bubble) => actionOf(b, 'JettonTransfer');

const isAssetDeposit: Check = (b) => {
    const payload = transferOf(b)?.payload;
    return payload != null && peekOp(payload) === OP.ffvaultAssetDeposit;
};

/** The vault asked the oracle itself (the oracle request under the deposit is the vault's). */
const vaultAskedOracle: Check = (b) => {
    const vault = transferOf(b)?.recipient;
    return b.children.some((c) => actionOf(c, 'OracleRequest')?.requester === vault);
};

function newDeposit(): DepositStakeDraft {
    return { type: 'DepositStake', success: false, amount: 0n, staker: UNKNOWN_ADDRESS, pool: UNKNOWN_ADDRESS, implementation: 'ffvault' };
}

function fromTransfer(d: DepositStakeDraft, b: Bubble): void {
    const t = transferOf(b)!;
    d.staker = t.sender ?? UNKNOWN_ADDRESS;
    d.pool = t.recipient ?? UNKNOWN_ADDRESS;
    // The stake is jettons, not grams: `amount` stays 0 and the jettons go to stake_meta.
    d.stakeMeta = { kind: 'jetton', master: t.master ?? UNKNOWN_ADDRESS, amount: t.amount };
    d.success = t.success;
}

const excess: Straw<DepositStakeDraft> = { checks: [isTx, hasOp(OP_EXCESS)], optional: true };

/** The vault deploys the staker's position (and may return the excess). */
const positionDeployed: Straw<DepositStakeDraft> = {
    checks: [isTx, hasOp(OP.ffvaultStakeOperation)],
    build: (d, b) => {
        d.success &&= tx(b).success;
    },
    children: [excess],
};

/** Deposit priced by the oracle: transfer → (the vault's OracleRequest, kept as its own action) → position. */
export const DepositFFVaultStake: Pattern<DepositStakeDraft> = {
    name: 'DepositFFVaultStake',
    create: newDeposit,
    root: {
        checks: [isAction('JettonTransfer'), isAssetDeposit, vaultAskedOracle],
        build: fromTransfer,
        singleChild: { checks: [isAction('OracleRequest')], notMerge: true, children: [positionDeployed, excess] },
    },
};

/** Deposit without a price update on the way: transfer → position. */
export const DepositFFVaultStakeDirect: Pattern<DepositStakeDraft> = {
    name: 'DepositFFVaultStakeDirect',
    create: newDeposit,
    root: {
        checks: [isAction('JettonTransfer'), isAssetDeposit],
        build: fromTransfer,
        children: [positionDeployed, excess],
    },
};

/** unstake_request#8a77cf39: the amount, when the body is exactly that layout. */
function unstakeAmount(b: Bubble): bigint | undefined {
    const body = tx(b).body;
    return body ? tryLoad(loadFfvaultUnstakeRequest, body)?.amount : undefined;
}

/** The owner asks the position to unstake; the vault of the position is its NFT collection when the facts know it. */
export const WithdrawalRequestFFVault: Pattern<WithdrawStakeRequestDraft> = {
    name: 'WithdrawalRequestFFVault',
    create: () => ({ type: 'WithdrawStakeRequest', success: false, staker: UNKNOWN_ADDRESS, pool: UNKNOWN_ADDRESS, implementation: 'ffvault' }),
    root: {
        checks: [isTx, hasOp(OP.ffvaultUnstakeRequest), (b) => unstakeAmount(b) !== undefined],
        build: (d, b, ctx) => {
            const t = tx(b);
            const position = t.account;
            d.staker = t.inputFrom ?? UNKNOWN_ADDRESS;
            d.pool = ctx.facts.nftItems.get(position)?.collection ?? position;
            d.stakeMeta = { kind: 'jetton', master: VAULT_ASSETS.get(d.pool) ?? UNKNOWN_ADDRESS, amount: unstakeAmount(b)! };
            d.success = t.success;
        },
        children: [{ checks: [isTx, hasOp(OP_EXCESS)], optional: true }],
    },
};
