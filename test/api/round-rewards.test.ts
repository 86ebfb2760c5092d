import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Address, type Cell } from '@ton/core';
import type { FastifyInstance } from 'fastify';
import { buildServer } from '../../src/api/server.ts';
import type { ApiServices } from '../../src/api/services.ts';
import type { BlockSets, ChainHead } from '../../src/rewards/chain-reader.ts';
import { readElectorCredits, readPastElectionsResult } from '../../src/rewards/elector-data.ts';
import { RoundRewardsService, type RoundChainReads } from '../../src/rewards/service.ts';
import { parseRoundValidatorSet } from '../../src/rewards/validator-set.ts';
import { findOperation } from '../helpers/openapi-assert.ts';
import { storeBackends } from '../helpers/stores.ts';
import { sandboxFinishedRound, TIMINGS, type SandboxRound } from '../rewards/round-rewards-sandbox.ts';
import { assertError, call } from './api-call.ts';

const backend = storeBackends()[0];

/**
 * A model chain over the sandbox's finished round: masterchain blocks 1–10 carry the genesis set,
 * 11–30 round 1 (one block every 30 s from its utime_since), 31–35 round 2 (the current one); the
 * elector and pools are the sandbox's state after round 2 took over.
 */
function modelChain(round: SandboxRound, genesisP34: Cell | null): RoundChainReads & { reads: number } {
    const set1 = parseRoundValidatorSet(round.p34);
    const genesis = genesisP34 ? parseRoundValidatorSet(genesisP34) : null;
    const utime = (seqno: number) => (seqno <= 10 ? set1.utimeSince - 300 + seqno * 20 : seqno <= 30 ? set1.utimeSince + (seqno - 11) * 30 : round.nextElectionId + (seqno - 31) * 5);
    const round2 = { ...set1, utimeSince: round.nextElectionId, utimeUntil: round.nextElectionId + TIMINGS.electedFor, hash: 2n };
    const sets = (seqno: number): BlockSets => (seqno <= 10 ? { previous: null, current: genesis } : seqno <= 30 ? { previous: genesis, current: set1 } : { previous: set1, current: round2 });
    const head: ChainHead = { seqno: 35, utime: utime(35) };
    const model = {
        reads: 0,
        head: async () => head,
        blockAtUtime: async (t: number) => {
            model.reads++;
            for (let s = 1; s <= 35; s++) if (utime(s) >= t) return { kind: 'tonNode.blockIdExt' as const, workchain: -1, shard: '0', seqno: s, rootHash: Buffer.alloc(32), fileHash: Buffer.alloc(32) };
            throw Object.assign(new Error('block not found'), { code: 651 });
        },
        validatorSets: async (seqno: number) => {
            model.reads++;
            return sets(seqno);
        },
        pastElections: async (seqno: number) => {
            assert.equal(seqno, 31, 'past_elections are read at end_block + 1');
            return readPastElectionsResult((await round.elector(81558))[0]);
        },
        account: async (seqno: number, id: Buffer) => {
            assert.equal(seqno, 31);
            return round.account(new Address(-1, id));
        },
        electorCredits: async () => readElectorCredits((await round.account(new Address(-1, Buffer.alloc(32, 0x33))))!.data!),
    };
    return model;
}

describe('GET /v2/rewards/round-rewards over a model chain of the sandbox elector', () => {
    let store: Awaited<ReturnType<typeof backend.open>>;
    let app: FastifyInstance;
    let base: string;
    let round: SandboxRound;
    let model: ReturnType<typeof modelChain>;
    const rewards = (query: string) => call('getRoundRewards', `${base}/rewards/round-rewards${query}`);

    before(async () => {
        round = await sandboxFinishedRound({ plain: 4, nominators: 3 });
        model = modelChain(round, null);
        store = await backend.open();
        const services: ApiServices = { store, chain: { source: 'test', live: false, head: async () => null }, rewards: new RoundRewardsService(model) };
        app = await buildServer(services);
        base = `${await app.listen({ host: '127.0.0.1', port: 0 })}/v2`;
    });

    after(async () => {
        await app?.close();
        await store?.dispose();
    });

    it('resolves the round from election_id, block, unixtime or nothing (the last finished round) to the same answer', async () => {
        const E = round.electionId;
        const deep = await rewards(`?election_id=${E}`);
        assert.equal(deep.status, 200, deep.text);
        const body = deep.body;
        assert.equal(body.election_id, E);
        assert.equal(body.start_block, 11);
        assert.equal(body.end_block, 30);
        assert.equal(body.next_election_id, round.nextElectionId);
        assert.equal(body.prev_election_id, undefined, 'the genesis set is not a p32 here');
        assert.equal(body.round_start, new Date(E * 1000).toISOString().replace('.000', ''));
        assert.equal(typeof body.response_time_ms, 'number');
        assert.equal(body.validators.length, 6);
        assert.match(deep.text, /"total_bonuses":\d+,"total_stake":\d+,/, 'int64 amounts are JSON integers');
        const strip = (b: { response_time_ms?: number }) => ({ ...b, response_time_ms: 0 });
        for (const q of ['?block=11', '?block=30', '?block=20', `?unixtime=${E + 100}`, `?election_id=${E + 599}`, '']) {
            const other = await rewards(q);
            assert.equal(other.status, 200, `${q}: ${other.text}`);
            assert.deepEqual(strip(other.body), strip(body), q);
        }
    });

    it('shallow omits the deep keys (absent, not empty); deep has pool types and nominators', async () => {
        const shallow = (await rewards(`?election_id=${round.electionId}&shallow=1`)).body;
        const deep = (await rewards(`?election_id=${round.electionId}&shallow=false`)).body;
        for (const v of shallow.validators) assert.deepEqual(Object.keys(v), ['rank', 'public_key', 'effective_stake', 'weight', 'reward', 'pool']);
        assert.deepEqual(deep.validators.map((v: { pool_type: string }) => v.pool_type).sort(), ['nominator-pool-v1.0', 'other', 'other', 'other', 'other', 'single-nominator-pool-v1.1']);
        deep.validators.forEach((v: Record<string, unknown>, i: number) => {
            for (const key of ['rank', 'public_key', 'effective_stake', 'weight', 'reward', 'pool']) assert.deepEqual(v[key], shallow.validators[i][key], key);
        });
        const np = deep.validators.find((v: { pool_type: string }) => v.pool_type === 'nominator-pool-v1.0');
        assert.equal(np.nominators.length, 3);
    });

    it('a cached finished round answers without reading the chain again', async () => {
        const before = model.reads;
        assert.equal((await rewards('?block=15')).status, 200);
        assert.equal((await rewards(`?unixtime=${round.electionId + 5}&shallow=true`)).status, 200);
        assert.equal(model.reads, before);
    });

    it('4xx with messages a user can act on', async () => {
        assertError(await rewards(`?block=33`), 409, `round ${round.nextElectionId} is not finished yet`, `election_id=${round.electionId}`);
        assertError(await rewards(`?block=99`), 404, 'does not exist yet', 'newest is 35');
        assertError(await rewards(`?unixtime=${round.nextElectionId + 10_000}`), 409, 'after the newest masterchain block');
        assertError(await rewards('?block=5'), 404, 'config param 34 is empty');
        assertError(await rewards('?election_id=1&block=2'), 400, 'mutually exclusive', 'election_id, block');
        assertError(await rewards('?election_id=1&block=2&unixtime=3'), 400, 'election_id, block, unixtime');
        assertError(await rewards('?election_id=-5'), 400, 'election_id');
        assertError(await rewards('?election_id=soon'), 400, "query parameter 'election_id' must be an integer");
        assertError(await rewards('?block=-1'), 400, "query parameter 'block'");
        assertError(await rewards('?unixtime=4294967296'), 400, "query parameter 'unixtime'");
        assertError(await rewards('?block=1&shallow=maybe'), 400, "query parameter 'shallow'", 'true or false');
    });

    it('allows GET only', async () => {
        const response = await call('getRoundRewards', `${base}/rewards/round-rewards?block=1`, { method: 'POST', json: {} });
        assertError(response, 405);
        assert.equal(response.headers.get('allow'), 'GET');
    });
});

describe('GET /v2/rewards/round-rewards without a chain (--source none)', () => {
    let store: Awaited<ReturnType<typeof backend.open>>;
    let app: FastifyInstance;
    let base: string;

    before(async () => {
        store = await backend.open();
        app = await buildServer({ store, chain: { source: 'none', live: false, head: async () => null } });
        base = `${await app.listen({ host: '127.0.0.1', port: 0 })}/v2`;
    });

    after(async () => {
        await app?.close();
        await store?.dispose();
    });

    it('answers 503 saying what to run instead; bad selectors are still a 400', async () => {
        assertError(await call('getRoundRewards', `${base}/rewards/round-rewards?election_id=1739958792`), 503, '--source none', '--source devnet or --source lite');
        assertError(await call('getRoundRewards', `${base}/rewards/round-rewards`), 503, 'reads no chain');
        assertError(await call('getRoundRewards', `${base}/rewards/round-rewards?block=1&unixtime=2`), 400, 'mutually exclusive');
    });
});

describe('the document says so', () => {
    it('documents 400, 404, 409 and 503 with descriptions, and no 501', () => {
        const { operation } = findOperation('getRoundRewards');
        assert.equal(operation.responses['501'], undefined);
        for (const status of ['400', '404', '409', '503']) assert.ok(operation.responses[status]?.description, status);
        assert.doesNotMatch(operation.description, /not implemented/i);
    });
});
