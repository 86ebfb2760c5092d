/**
 * Round rewards. First the whole request on the devnet: a devnet with 120 validators
 * (BENCH_REWARDS_VALIDATORS) and 40-second rounds runs until an elected round has finished, then
 * GET /v2/rewards/round-rewards is timed over HTTP on loopback, uncached (a service started with
 * --rewards-cache-rounds 0, so every request finds the round, runs past_elections on the TVM and
 * reads every staker's account at the round's end) and cached (the same data directory served again
 * with the default cache). Then the computation alone for a round of ≥ 100 validators made by the devnet's
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
import { startService } from '../src/app.ts';
import { DEFAULT_CONFIG } from '../src/config/config.ts';
import { tempDir } from '../test/helpers/stores.ts';
import { sleep } from './support.ts';

function p50(samples: number[]): number {
    const sorted = [...samples].sort((a, b) => a - b);
    return sorted[Math.floor(sorted.length / 2)];
}

export async function rewardsBench(): Promise<void> {
    await devnetRoundBench();
    await computationBench();
}

async function timed(url: string, runs: number): Promise<number[]> {
    const samples: number[] = [];
    for (let i = 0; i < runs; i++) {
        const t = performance.now();
        const response = await fetch(url);
        await response.arrayBuffer();
        if (response.status !== 200) throw new Error(`${url}: ${response.status}`);
        samples.push(performance.now() - t);
    }
    return samples;
}

async function devnetRoundBench(): Promise<void> {
    const validators = Number(process.env.BENCH_REWARDS_VALIDATORS ?? 120);
    const runs = Number(process.env.BENCH_REWARDS_ROUNDS ?? 200);
    const dir = tempDir('bench-rewards-');
    const config = { ...DEFAULT_CONFIG, dataDir: dir.path, port: 0, liteserverPort: 0, blockIntervalMs: 250, roundSeconds: 40, validators };
    const started = performance.now();
    let service = await startService({ ...config, rewardsCacheRounds: 0 });
    let round: { election_id: number; validators: unknown[] } | null = null;
    try {
        while (!round) {
            const response = await fetch(`${service.url}/v2/rewards/round-rewards?shallow=1`);
            if (response.status === 200) round = await response.json() as { election_id: number; validators: unknown[] };
            else await sleep(1000);
        }
        const waited = (performance.now() - started) / 1000;
        await service.devnet!.pause();
        const electionId = round.election_id;
        const deepUrl = () => `${service.url}/v2/rewards/round-rewards?election_id=${electionId}`;
        let deep = deepUrl();
        const uncachedRuns = Math.max(10, Math.floor(runs / 10));
        await timed(deep, 3);
        const uncached = { deep: await timed(deep, uncachedRuns), shallow: await timed(`${deep}&shallow=1`, uncachedRuns), last: await timed(`${service.url}/v2/rewards/round-rewards`, uncachedRuns) };
        await service.stop();
        service = await startService(config);
        await service.ready;
        await service.devnet!.pause();
        deep = deepUrl();
        await timed(deep, 3);
        const cached = { deep: await timed(deep, runs), shallow: await timed(`${deep}&shallow=1`, runs) };
        const deepAnswer = await (await fetch(deep)).json() as { validators: Array<{ pool_type?: string; nominators?: unknown[] }> };
        const pools = deepAnswer.validators.filter(v => v.pool_type && v.pool_type !== 'other').length;
        console.log(`\n## Round rewards on the devnet: round ${round.election_id}, ${round.validators.length} validators (${pools} staking through pools); round finished ${waited.toFixed(0)} s after genesis`);
        console.log('| request (HTTP on loopback, sequential) | runs | p50 (ms) | goal |');
        console.log('|---|---|---|---|');
        console.log(`| deep, uncached (\`election_id\`) | ${uncachedRuns} | ${p50(uncached.deep).toFixed(1)} | ≤ 50 |`);
        console.log(`| deep, uncached (no selector: the last finished round) | ${uncachedRuns} | ${p50(uncached.last).toFixed(1)} | ≤ 50 |`);
        console.log(`| shallow, uncached | ${uncachedRuns} | ${p50(uncached.shallow).toFixed(1)} | — |`);
        console.log(`| deep, cached | ${runs} | ${p50(cached.deep).toFixed(2)} | ≤ 5 |`);
        console.log(`| shallow, cached | ${runs} | ${p50(cached.shallow).toFixed(2)} | ≤ 5 |`);
    } finally {
        await service.stop();
        dir.remove();
    }
}

async function computationBench(): Promise<void> {
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
    console.log(`\n## Round rewards, the computation alone (@ton/sandbox's elector): ${answer.validators.length} validators, ${nominators} nominators, ${rounds} runs per row`);
    console.log('| case | p50 (ms) | goal |');
    console.log('|---|---|---|');
    console.log(`| deep, uncached (decode past_elections + rewards + pools + nominators) | ${p50(uncached).toFixed(2)} | ≤ 50 |`);
    console.log(`| deep, cached round | ${p50(cached.deep).toFixed(3)} | ≤ 5 |`);
    console.log(`| shallow, cached round | ${p50(cached.shallow).toFixed(3)} | ≤ 5 |`);
}
