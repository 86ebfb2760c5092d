/**
 * Round rewards (issue 14): the computation for a round of ≥ 100 validators made by the devnet's
 * elector in @ton/sandbox (wallet stakers plus a nominator pool with 30 nominators and a
 * single-nominator pool). "uncached" = past_elections stack decoding + rewards + pool decoding +
 * nominator split (what a request computes after its chain reads); "cached" = the service answering
 * a finished round it has computed before (deep and shallow). Chain reads are not included (on the
 * devnet they are in-process calls; on a follower they are liteserver round trips).
 */
import { Address, type TupleItem } from '@ton/core';
import { addPoolDetails, computeValidatorRewards, hex256 } from '../src/rewards/compute.ts';
import { readElectorCredits, readPastElectionsResult } from '../src/rewards/elector-data.ts';
import type { PoolAccount } from '../src/rewards/pools.ts';
import { RoundRewardsService, type RoundChainReads } from '../src/rewards/service.ts';
import { parseRoundValidatorSet } from '../src/rewards/validator-set.ts';
import { sandboxFinishedRound } from '../test/rewards/round-rewards-sandbox.ts';

function p50(samples: number[]): number {
    const sorted = [...samples].sort((a, b) => a - b);
    return sorted[Math.floor(sorted.length / 2)];
}

export async function rewardsBench(): Promise<void> {
    const validators = Number(process.env.BENCH_REWARDS_VALIDATORS ?? 120);
    const rounds = Number(process.env.BENCH_REWARDS_ROUNDS ?? 200);
    const round = await sandboxFinishedRound({ plain: validators - 2, nominators: 30 });
    const stack: TupleItem = (await round.elector(81558))[0];
    const set = parseRoundValidatorSet(round.p34);
    const electorData = (await round.account(new Address(-1, Buffer.alloc(32, 0x33))))!.data!;
    const accounts = new Map<string, PoolAccount | null>();
    const record0 = readPastElectionsResult(stack).find(r => r.vsetHash === set.hash)!;
    for (const f of record0.frozen.values()) accounts.set(hex256(f.srcAddr), await round.account(new Address(-1, Buffer.from(hex256(f.srcAddr), 'hex'))));

    const compute = () => {
        const record = readPastElectionsResult(stack).find(r => r.vsetHash === set.hash)!;
        const { rows, srcAddrs } = computeValidatorRewards({ validators: set.list, election: record });
        return addPoolDetails(rows, srcAddrs, { accounts, credits: readElectorCredits(electorData) });
    };
    for (let i = 0; i < 20; i++) compute();
    const uncached: number[] = [];
    for (let i = 0; i < rounds; i++) {
        const t = performance.now();
        compute();
        uncached.push(performance.now() - t);
    }

    const blockId = (seqno: number) => ({ kind: 'tonNode.blockIdExt' as const, workchain: -1, shard: '0', seqno, rootHash: Buffer.alloc(32), fileHash: Buffer.alloc(32) });
    const next = { ...set, utimeSince: round.nextElectionId, utimeUntil: round.nextElectionId + 600, hash: 1n };
    const elections = readPastElectionsResult(stack);
    const model: RoundChainReads = {
        head: async () => ({ seqno: 40, utime: round.nextElectionId + 100 }),
        blockAtUtime: async t => blockId(t < set.utimeSince ? 1 : t < round.nextElectionId ? 11 + Math.floor((t - set.utimeSince) / 30) : 31),
        validatorSets: async s => (s <= 10 ? { previous: null, current: null } : s <= 30 ? { previous: null, current: set } : { previous: set, current: next }),
        pastElections: async () => elections,
        account: async (_s, id) => accounts.get(id.toString('hex')) ?? null,
        electorCredits: async () => readElectorCredits(electorData),
    };
    const service = new RoundRewardsService(model);
    const answer = await service.roundRewards({ electionId: round.electionId });
    const cached = { deep: [] as number[], shallow: [] as number[] };
    for (let i = 0; i < rounds; i++) {
        for (const shallow of [false, true]) {
            const t = performance.now();
            await service.roundRewards({ unixtime: round.electionId + 10 }, { shallow });
            (shallow ? cached.shallow : cached.deep).push(performance.now() - t);
        }
    }
    const nominators = answer.validators.reduce((s, v) => s + (v.nominators?.length ?? 0), 0);
    console.log(`\n## Round rewards (issue 14): ${answer.validators.length} validators, ${nominators} nominators, ${rounds} runs per row`);
    console.log('| case | p50 (ms) | goal |');
    console.log('|---|---|---|');
    console.log(`| deep, uncached (decode past_elections + rewards + pools + nominators) | ${p50(uncached).toFixed(2)} | ≤ 50 |`);
    console.log(`| deep, cached round | ${p50(cached.deep).toFixed(3)} | ≤ 5 |`);
    console.log(`| shallow, cached round | ${p50(cached.shallow).toFixed(3)} | ≤ 5 |`);
}
