/**
 * The pure part of round rewards: from the round's validator list (config param 34), the elector's
 * record of the election that made it (`past_elections` entry: frozen stakes, total stake, bonuses)
 * and, in deep mode, the pools' accounts and the elector's credits, the per-validator and
 * per-nominator distribution. No chain access here; the service feeds it.
 *
 * Math (elector-code.fc `unfreeze_with_bonuses`, nominator-pool `distribute_share`):
 *   reward_i = floor(bonuses × S_i / S)           S_i = frozen true_stake of validator i, S = Σ S_i
 *   weight_i = S_i / S
 *   nominator-pool: VR = min(floor(R × share / 10000), R), NR = R − VR,
 *     nominator reward = floor(NR × amount / Σ amount),
 *     effective = floor(amount × S_i / max(S_i + credit, validator_amount + Σ amount))
 */
import { Address } from '@ton/core';
import type { ElectionRecord } from './elector-data.ts';
import { decodePool, type PoolAccount, type PoolType } from './pools.ts';
import type { RoundValidator } from './validator-set.ts';

export interface NominatorReward {
    address: string;
    weight: number;
    reward: bigint;
    effective_stake: bigint;
    stake: bigint;
}

/** One validator's row, with the API's field names and order. */
export interface ValidatorReward {
    rank: number;
    public_key: string;
    effective_stake: bigint;
    weight: number;
    reward: bigint;
    pool?: string;
    pool_type?: PoolType;
    owner_address?: string;
    validator_address?: string;
    validator_stake?: bigint;
    nominators_stake?: bigint;
    total_stake?: bigint;
    validator_reward_share?: number;
    nominators_count?: number;
    nominators?: NominatorReward[];
}

/** Deep mode's inputs, read at end_block+1. */
export interface PoolInputs {
    /** By staker account id (frozen src_addr, 64 hex): the masterchain account there; null when it does not exist. */
    accounts: ReadonlyMap<string, PoolAccount | null>;
    /** The elector's credits (account id → amount). */
    credits: ReadonlyMap<bigint, bigint>;
}

export interface RoundRewardsInput {
    /** Config param 34's list during the round, in index order. */
    validators: readonly RoundValidator[];
    election: Pick<ElectionRecord, 'frozen' | 'bonuses'>;
}

/** a / b as the double nearest to it within an ulp (exact integers; plain Number() loses bits above 2^53). */
export function ratio(a: bigint, b: bigint): number {
    if (b <= 0n || a <= 0n) return 0;
    if (a >= b) return 1;
    return Number((a << 64n) / b) / 2 ** 64;
}

export function muldiv(a: bigint, b: bigint, c: bigint): bigint {
    return c === 0n ? 0n : (a * b) / c;
}

const HEX = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, '0'));

export function hex256(value: bigint): string {
    return value.toString(16).padStart(64, '0');
}

/** Bounceable, URL-safe, never test-only (as TonAPI shows pool and nominator addresses). */
export function friendly(workchain: number, accountId: bigint): string {
    return new Address(workchain, Buffer.from(hex256(accountId), 'hex')).toString({ bounceable: true, urlSafe: true, testOnly: false });
}

/**
 * The shallow rows: rank (stable sort by effective stake descending, then list index), public key,
 * effective stake, weight, reward and pool address. A validator without a frozen entry has stake 0
 * and no pool.
 */
export function computeValidatorRewards(input: RoundRewardsInput): { rows: ValidatorReward[]; srcAddrs: (bigint | null)[] } {
    const { validators, election } = input;
    const stakes = validators.map(v => election.frozen.get(v.publicKey) ?? null);
    const total = stakes.reduce((sum, f) => sum + (f?.trueStake ?? 0n), 0n);
    const order = validators.map((_, i) => i).sort((a, b) => {
        const sa = stakes[a]?.trueStake ?? 0n;
        const sb = stakes[b]?.trueStake ?? 0n;
        return sa === sb ? validators[a].index - validators[b].index : sa > sb ? -1 : 1;
    });
    const rows: ValidatorReward[] = [];
    const srcAddrs: (bigint | null)[] = [];
    order.forEach((i, position) => {
        const frozen = stakes[i];
        const stake = frozen?.trueStake ?? 0n;
        const row: ValidatorReward = {
            rank: position + 1,
            public_key: pubkeyHex(validators[i].publicKey),
            effective_stake: stake,
            weight: ratio(stake, total),
            reward: muldiv(election.bonuses, stake, total),
        };
        if (frozen) row.pool = friendly(-1, frozen.srcAddr);
        rows.push(row);
        srcAddrs.push(frozen?.srcAddr ?? null);
    });
    return { rows, srcAddrs };
}

function pubkeyHex(key: bigint): string {
    let out = '';
    let v = key;
    const bytes: string[] = new Array(32);
    for (let i = 31; i >= 0; i--) {
        bytes[i] = HEX[Number(v & 0xffn)];
        v >>= 8n;
    }
    for (const b of bytes) out += b;
    return out;
}

/** Adds the deep fields (pool type, roles, stakes, nominators) to the shallow rows, in place. */
export function addPoolDetails(rows: ValidatorReward[], srcAddrs: readonly (bigint | null)[], inputs: PoolInputs): ValidatorReward[] {
    rows.forEach((row, i) => {
        const src = srcAddrs[i];
        if (src === null) return;
        const account = inputs.accounts.get(hex256(src)) ?? null;
        const pool = decodePool(account);
        const poolTotal = row.effective_stake + (inputs.credits.get(src) ?? 0n);
        row.pool_type = pool.type;
        const storage = pool.storage;
        if (storage?.kind === 'single') {
            if (storage.owner) row.owner_address = storage.owner.toString({ bounceable: true, urlSafe: true, testOnly: false });
            if (storage.validator) row.validator_address = storage.validator.toString({ bounceable: true, urlSafe: true, testOnly: false });
        } else if (storage?.kind === 'nominator') {
            row.validator_address = friendly(-1, storage.validatorAddress);
            row.validator_stake = storage.validatorAmount;
            const ns = storage.nominators.reduce((sum, n) => sum + n.amount, 0n);
            row.nominators_stake = ns;
        }
        row.total_stake = poolTotal;
        if (storage?.kind === 'nominator') {
            const share = BigInt(storage.validatorRewardShare);
            row.validator_reward_share = Math.min(1, storage.validatorRewardShare / 10000);
            row.nominators_count = storage.nominatorsCount;
            const ns = row.nominators_stake!;
            const vr = muldiv(row.reward, share, 10000n);
            const nr = row.reward - (vr < row.reward ? vr : row.reward);
            // The pool's funds: what it has in the elector, or its participants' deposits when they are more
            // (deposits that came in after the stake was sent stay in the pool): a nominator's effective
            // stake is its deposit's share of them, so the nominators' never add up to more than the pool's.
            const deposits = storage.validatorAmount + ns;
            const funds = deposits > poolTotal ? deposits : poolTotal;
            if (storage.nominators.length > 0) {
                row.nominators = storage.nominators.map(n => ({
                    address: friendly(0, n.accountId),
                    weight: ratio(n.amount, ns),
                    reward: muldiv(nr, n.amount, ns),
                    effective_stake: muldiv(n.amount, row.effective_stake, funds),
                    stake: n.amount,
                }));
            }
        }
    });
    return rows;
}

/** The fields a shallow answer carries. */
export function shallowRow(row: ValidatorReward): ValidatorReward {
    const out: ValidatorReward = { rank: row.rank, public_key: row.public_key, effective_stake: row.effective_stake, weight: row.weight, reward: row.reward };
    if (row.pool !== undefined) out.pool = row.pool;
    return out;
}
