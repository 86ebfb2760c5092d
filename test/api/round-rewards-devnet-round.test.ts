import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { Address, Cell, Dictionary, parseTuple, serializeTuple, type DictionaryValue, type Slice, type TupleItem } from '@ton/core';
import { LiteClient, LiteSingleEngine } from 'ton-lite-client';
import type { tonNode_blockIdExt } from 'ton-lite-client/dist/schema.js';
import { GetMethodRunner } from '../../src/ton/interfaces/get-method-runner.ts';
import { startDevnetService, type DevnetService } from '../helpers/devnet-service.ts';
import { indexedTo } from '../chain/lite/follower-checks.ts';
import { request } from '../helpers/http.ts';
import { call } from './api-call.ts';

/**
 * A whole elected round of the devnet, end to end: a devnet with 40 s rounds runs until its first
 * elected round (stakes through the nominator pool, the single-nominator pool and a wallet) has been
 * replaced in p34, production pauses, and GET /v2/rewards/round-rewards is checked field by field
 * against values recomputed here without src/rewards: the round's blocks and validator set from the
 * devnet's liteserver (ton-lite-client, devnet-global.config.json), the elector's frozen dict from
 * its `past_elections` get-method run on the index's elector state (and, at the round's last block + 1,
 * through the liteserver), the pools' and the elector's storage decoded by this file.
 */
const ROUND = 40;
/** The three routes' validators and four more staking from their wallets (`--validators 7`). */
const VALIDATORS = 7;
const ELECTOR = Address.parse(`-1:${'33'.repeat(32)}`);
const MASTER_SHARD = '-9223372036854775808';

// ---- independent decoders ----

interface Frozen { src: bigint; weight: bigint; stake: bigint; banned: boolean }
interface PastElection { id: number; unfreezeAt: number; stakeHeld: number; vsetHash: bigint; frozen: Map<bigint, Frozen>; totalStake: bigint; bonuses: bigint }

const FROZEN_VALUE: DictionaryValue<Frozen> = {
    serialize: () => {
        throw new Error('read only');
    },
    parse: (s: Slice) => ({ src: s.loadUintBig(256), weight: s.loadUintBig(64), stake: s.loadCoins(), banned: s.loadBit() }),
};

function intOf(item: TupleItem): bigint {
    assert.equal(item.type, 'int');
    return (item as { value: bigint }).value;
}

/** `past_elections`: a Lisp list of [id, unfreeze_at, stake_held, vset_hash, frozen_dict, total_stake, bonuses, complaints]. */
function pastElections(stack: TupleItem[]): PastElection[] {
    assert.equal(stack.length, 1);
    const out: PastElection[] = [];
    for (let node = stack[0]; node.type !== 'null';) {
        assert.equal(node.type, 'tuple');
        const [head, tail] = (node as { items: TupleItem[] }).items;
        const t = (head as { items: TupleItem[] }).items;
        assert.equal(t.length, 8);
        const dict = t[4];
        const frozen = dict.type === 'null' ? new Map<bigint, Frozen>()
            : new Map([...Dictionary.loadDirect(Dictionary.Keys.BigUint(256), FROZEN_VALUE, (dict as { cell: Cell }).cell)]);
        out.push({
            id: Number(intOf(t[0])), unfreezeAt: Number(intOf(t[1])), stakeHeld: Number(intOf(t[2])), vsetHash: intOf(t[3]),
            frozen, totalStake: intOf(t[5]), bonuses: intOf(t[6]),
        });
        node = tail;
    }
    return out;
}

/** The elector's active_id: `elect:(Maybe ^…) credits:(HashmapE 256 Grams) past_elections:(HashmapE 32 …) grams:Grams active_id:uint32 …`. */
function electorActiveId(data: Cell): number {
    const s = data.beginParse();
    if (s.loadBit()) s.loadRef();
    if (s.loadBit()) s.loadRef();
    if (s.loadBit()) s.loadRef();
    s.loadCoins();
    return s.loadUint(32);
}

/** The elector's credits: `elect:(Maybe ^CurrentElection) credits:(HashmapE 256 Grams) …`. */
function electorCredits(data: Cell): Map<bigint, bigint> {
    const s = data.beginParse();
    if (s.loadBit()) s.loadRef();
    const credits = new Map<bigint, bigint>();
    if (s.loadBit()) {
        const dict = Dictionary.loadDirect(Dictionary.Keys.BigUint(256), Dictionary.Values.BigVarUint(4), s.loadRef());
        for (const [k, v] of dict) credits.set(k, v);
    }
    return credits;
}

interface SetEntry { publicKey: bigint; weight: bigint; index: number }
interface ValidatorSet { since: number; until: number; hash: bigint; list: SetEntry[] }

/** validators#11 / validators_ext#12 utime_since utime_until total main [total_weight] list:(HashmapE 16 ValidatorDescr). */
function validatorSet(cell: Cell): ValidatorSet {
    const s = cell.beginParse();
    const tag = s.loadUint(8);
    assert.ok(tag === 0x11 || tag === 0x12, `validator set tag ${tag}`);
    const since = s.loadUint(32);
    const until = s.loadUint(32);
    s.loadUint(16);
    s.loadUint(16);
    if (tag === 0x12) s.loadUintBig(64);
    const descr: DictionaryValue<{ publicKey: bigint; weight: bigint }> = {
        serialize: () => {
            throw new Error('read only');
        },
        parse: (d: Slice) => {
            const kind = d.loadUint(8);
            assert.ok(kind === 0x53 || kind === 0x73);
            assert.equal(d.loadUint(32), 0x8e81278a);
            return { publicKey: d.loadUintBig(256), weight: d.loadUintBig(64) };
        },
    };
    const dict = tag === 0x12 ? s.loadDict(Dictionary.Keys.Uint(16), descr) : Dictionary.loadDirect(Dictionary.Keys.Uint(16), descr, s.loadRef());
    const list = [...dict].map(([index, v]) => ({ ...v, index })).sort((a, b) => a.index - b.index);
    return { since, until, hash: BigInt(`0x${cell.hash().toString('hex')}`), list };
}

interface NominatorPoolData { validatorAmount: bigint; validatorAddress: bigint; share: number; nominatorsCount: number; nominators: Array<{ id: bigint; amount: bigint }> }

/** pool_storage$_ state:uint8 nominators_count:uint16 stake_amount_sent:Coins validator_amount:Coins config:^[…] nominators:(HashmapE 256 [amount pending]) … */
function nominatorPoolData(data: Cell): NominatorPoolData {
    const s = data.beginParse();
    s.loadUint(8);
    const nominatorsCount = s.loadUint(16);
    s.loadCoins();
    const validatorAmount = s.loadCoins();
    const config = s.loadRef().beginParse();
    const validatorAddress = config.loadUintBig(256);
    const share = config.loadUint(16);
    const entry: DictionaryValue<bigint> = {
        serialize: () => {
            throw new Error('read only');
        },
        parse: (e: Slice) => {
            const amount = e.loadCoins();
            e.loadCoins();
            return amount;
        },
    };
    const nominators = [...s.loadDict(Dictionary.Keys.BigUint(256), entry)].map(([id, amount]) => ({ id, amount })).sort((a, b) => (a.id < b.id ? -1 : 1));
    assert.equal(nominators.length, nominatorsCount);
    return { validatorAmount, validatorAddress, share, nominatorsCount, nominators };
}

function friendly(workchain: number, id: bigint): string {
    return new Address(workchain, Buffer.from(id.toString(16).padStart(64, '0'), 'hex')).toString({ bounceable: true, urlSafe: true, testOnly: false });
}

function friendlyRaw(raw: string): string {
    return Address.parse(raw).toString({ bounceable: true, urlSafe: true, testOnly: false });
}

function iso(unix: number): string {
    return new Date(unix * 1000).toISOString().replace(/\.\d{3}Z$/, 'Z');
}

/** JSON with every integer of 16 or more digits kept exact (as a string). */
function exactJson(text: string): Record<string, any> {
    return JSON.parse(text.replace(/([:[,]\s*)(-?\d{16,})(?=\s*[,}\]])/g, '$1"$2"'));
}

const big = (value: unknown): bigint => {
    assert.ok(typeof value === 'number' ? Number.isSafeInteger(value) : typeof value === 'string', `an integer: ${String(value)}`);
    return BigInt(value as number | string);
};

/** |a − b| within a relative 1e-12 (weights are doubles). */
function close(a: number, b: number, what: string): void {
    assert.ok(Math.abs(a - b) <= 1e-12 * Math.max(1, Math.abs(b)), `${what}: ${a} vs ${b}`);
}

// ---- the test ----

describe('GET /v2/rewards/round-rewards over a finished devnet round', () => {
    let service: DevnetService;
    let client: LiteClient;
    let engine: LiteSingleEngine;
    let elections: { round_seconds: number; validators: Array<{ name: string; route: string; public_key: string; wallet: string; stake_from: string }>; pools: Array<{ kind: string; address: string; validator_reward_share?: number }> };
    let genesis: number;
    let head: number;
    const blocks = new Map<number, tonNode_blockIdExt>();
    const configs = new Map<number, Dictionary<number, Cell>>();

    const rewards = async (query: string) => {
        const response = await call('getRoundRewards', `${service.base}/rewards/round-rewards${query}`);
        return { status: response.status, text: response.text, body: response.status === 200 ? exactJson(response.text) : response.body };
    };

    async function block(seqno: number): Promise<tonNode_blockIdExt> {
        let id = blocks.get(seqno);
        if (!id) {
            id = (await client.lookupBlockByID({ workchain: -1, shard: MASTER_SHARD, seqno })).id;
            blocks.set(seqno, id);
        }
        return id;
    }

    async function config(seqno: number): Promise<Dictionary<number, Cell>> {
        let found = configs.get(seqno);
        if (!found) {
            found = (await client.getConfig(await block(seqno))).config;
            configs.set(seqno, found);
        }
        return found;
    }

    const p34 = async (seqno: number) => validatorSet((await config(seqno)).get(34)!);

    /** The least seqno in [lo, hi] with p34.utime_since ≥ since (bisection; p34's since only grows with seqno). */
    async function firstWithSince(since: number, lo: number, hi: number): Promise<number> {
        assert.ok((await p34(hi)).since >= since);
        while (lo < hi) {
            const mid = Math.floor((lo + hi) / 2);
            if ((await p34(mid)).since >= since) hi = mid;
            else lo = mid + 1;
        }
        return lo;
    }

    before(async () => {
        service = await startDevnetService({ roundSeconds: ROUND, blockIntervalMs: 250, validators: VALIDATORS });
        genesis = JSON.parse(readFileSync(`${service.dataDir}/devnet.json`, 'utf8')).genesis_utime;
        elections = JSON.parse(readFileSync(`${service.dataDir}/devnet-elections.json`, 'utf8'));
        const global = JSON.parse(readFileSync(`${service.dataDir}/devnet-global.config.json`, 'utf8'));
        const server = global.liteservers[0];
        const ip = [24, 16, 8, 0].map(shift => (server.ip >>> shift) & 0xff).join('.');
        engine = new LiteSingleEngine({ host: `tcp://${ip}:${server.port}`, publicKey: Buffer.from(server.id.key, 'base64'), reconnectTimeout: 100 });
        client = new LiteClient({ engine });
        // The genesis set ends at 0.75 round, the first elected round one round later: wait for it to be
        // replaced, then stop production at once (the elector releases the round's record stake_held_for
        // = 10 s after that, and the index keeps only the newest elector state).
        const firstEnd = genesis + Math.floor(0.75 * ROUND) + ROUND;
        while (Date.now() / 1000 < firstEnd - 1) await new Promise(r => setTimeout(r, 500));
        const deadline = Date.now() + 60_000;
        for (;;) {
            const response = await request(`${service.base}/rewards/round-rewards?shallow=1`);
            if (response.status === 200) break;
            assert.ok(Date.now() < deadline, `no elected round finished by ${iso(Date.now() / 1000)}: ${response.text}`);
            await new Promise(r => setTimeout(r, 250));
        }
        // a few more blocks, so that the round is no longer the elector's active one at the paused head
        await new Promise(r => setTimeout(r, 1000));
        await service.devnet!.pause();
        head = (await service.devnet!.head())!.seqno;
        await indexedTo(service, head);
    });

    after(async () => {
        engine?.close();
        await service?.dispose();
    });

    it('recomputes every field of the last finished round from the chain (deep and shallow, by every selector)', async (t) => {
        // --- the round, from the liteserver ---
        const headSet = await p34(head);
        const afterEnd = await firstWithSince(headSet.since, 1, head);
        const endBlock = afterEnd - 1;
        const set = await p34(endBlock);
        const E = set.since;
        assert.ok(E > genesis, `round ${E} is an elected one (genesis ${genesis})`);
        assert.equal(headSet.since, set.until, 'the next round starts where this one ends');
        const startBlock = await firstWithSince(E, 1, endBlock);
        const previous = await p34(startBlock - 1);
        assert.ok(previous.since < E);
        // p32 after the switch is the round's set
        assert.equal(validatorSet((await config(afterEnd)).get(32)!).hash, set.hash);

        // --- the elector's record, by running past_elections on the index's elector state ---
        const row = await service.store.db.selectFrom('account_states').selectAll().where('address', '=', ELECTOR.toRawString()).executeTakeFirstOrThrow();
        assert.ok(row.code && row.data, 'the index holds the elector\'s code and data');
        const runner = await GetMethodRunner.create();
        const ran = await runner.run({ address: ELECTOR, code: Cell.fromBoc(row.code)[0], data: Cell.fromBoc(row.data)[0], balance: BigInt(row.balance) }, 'past_elections');
        assert.ok(ran.ok, ran.ok ? '' : ran.error);
        const indexed = pastElections(ran.stack);
        const record = indexed.find(e => e.vsetHash === set.hash);
        assert.ok(record, `past_elections at the paused head (${head}) holds round ${E}: ${indexed.map(e => e.id)}`);
        assert.equal(record.id, E);
        assert.ok(head > afterEnd, `paused at ${head}, after the round's successor began at ${afterEnd}`);
        assert.equal(electorActiveId(Cell.fromBoc(row.data)[0]), headSet.since, 'the round is no longer active at the head: its bonuses are final');

        // the same record through the liteserver at end_block+1 (where the service reads it); the round is no
        // longer the active one there or later, so its frozen stakes and bonuses no longer change
        const electorAt = async (seqno: number) => {
            const result = await client.runMethod(ELECTOR, 'past_elections', serializeTuple([]).toBoc(), await block(seqno));
            assert.equal(result.exitCode, 0);
            return pastElections(parseTuple(Cell.fromBase64(result.result!)));
        };
        const atEnd = (await electorAt(afterEnd)).find(e => e.id === E);
        assert.ok(atEnd, `past_elections at ${afterEnd} holds ${E}`);
        assert.deepEqual([atEnd.frozen, atEnd.totalStake, atEnd.vsetHash], [record.frozen, record.totalStake, record.vsetHash]);
        assert.equal(atEnd.bonuses, record.bonuses, `bonuses of round ${E}: ${atEnd.bonuses} at block ${afterEnd}, ${record.bonuses} at the head ${head}`);

        // --- expected rows ---
        const total = set.list.reduce((sum, v) => sum + (record.frozen.get(v.publicKey)?.stake ?? 0n), 0n);
        assert.equal(total, record.totalStake, 'total_stake is the sum of the set\'s frozen stakes');
        assert.equal([...record.frozen.values()].reduce((s, f) => s + f.stake, 0n), record.totalStake);
        assert.ok(record.bonuses > 0n, 'the round earned bonuses');
        const order = [...set.list].sort((a, b) => {
            const sa = record.frozen.get(a.publicKey)?.stake ?? 0n;
            const sb = record.frozen.get(b.publicKey)?.stake ?? 0n;
            return sa === sb ? a.index - b.index : sa > sb ? -1 : 1;
        });
        const expected = order.map((v, i) => {
            const f = record.frozen.get(v.publicKey);
            const stake = f?.stake ?? 0n;
            return {
                rank: i + 1, public_key: v.publicKey.toString(16).padStart(64, '0'), effective_stake: stake,
                weight: Number(stake) / Number(total), reward: (record.bonuses * stake) / total, src: f?.src ?? null,
            };
        });
        // every validator staked: the three routes' own and the extra ones from their wallets, with stakes of their own
        const routes = new Map(elections.validators.map(v => [v.public_key, v]));
        assert.equal(elections.validators.length, VALIDATORS);
        assert.deepEqual(expected.map(e => routes.get(e.public_key)?.route).sort(), ['nominator_pool', 'single_nominator', ...Array(VALIDATORS - 2).fill('wallet')]);
        assert.ok(new Set(expected.map(e => e.effective_stake)).size >= VALIDATORS - 1, 'the stakes differ (but for pools capped at max_factor × the least), so ranks and weights do');
        for (const e of expected) assert.equal(friendly(-1, e.src!), friendlyRaw(routes.get(e.public_key)!.stake_from));

        // --- the pools and the credits at end_block+1, via the liteserver ---
        const accountAt = async (seqno: number, address: Address) => {
            const state = await client.getAccountState(address, await block(seqno));
            const st = state.state?.storage.state;
            assert.equal(st?.type, 'active', `${address.toRawString()} is active at ${seqno}`);
            return (st as { state: { code: Cell; data: Cell } }).state;
        };
        const credits = electorCredits((await accountAt(afterEnd, ELECTOR)).data);

        for (const e of expected) {
            const route = routes.get(e.public_key)!;
            t.diagnostic(`${route.name}: stake ${e.effective_stake}, reward ${e.reward}, credit ${credits.get(e.src!) ?? 0n}`);
        }

        // --- the answers ---
        const deep = await rewards('');
        assert.equal(deep.status, 200, deep.text);
        const body = deep.body;
        t.diagnostic(`round ${E}: blocks ${startBlock}–${endBlock}, bonuses ${record.bonuses}, stake ${record.totalStake}; paused at ${head}`);
        assert.equal(body.election_id, E);
        assert.equal(body.prev_election_id, previous.since);
        assert.equal(body.next_election_id, headSet.since);
        assert.equal(body.round_start, iso(E));
        assert.equal(body.round_end, iso(set.until));
        assert.equal(body.start_block, startBlock);
        assert.equal(body.end_block, endBlock);
        assert.equal(big(body.total_bonuses), record.bonuses);
        assert.equal(big(body.total_stake), record.totalStake);
        assert.equal(body.validators.length, expected.length);

        let rewardSum = 0n;
        let weightSum = 0;
        for (const [i, e] of expected.entries()) {
            const v = body.validators[i];
            assert.equal(v.rank, e.rank);
            assert.equal(v.public_key, e.public_key);
            assert.equal(big(v.effective_stake), e.effective_stake);
            assert.equal(big(v.reward), e.reward, `reward of ${e.public_key}`);
            close(v.weight, e.weight, `weight of ${e.public_key}`);
            assert.equal(v.pool, e.src === null ? undefined : friendly(-1, e.src));
            rewardSum += big(v.reward);
            weightSum += v.weight;

            const route = routes.get(e.public_key)!;
            const poolTotal = e.effective_stake + (credits.get(e.src!) ?? 0n);
            assert.equal(big(v.total_stake), poolTotal, `total_stake of ${route.name}`);
            if (route.route === 'wallet') {
                assert.equal(v.pool_type, 'other');
                for (const field of ['owner_address', 'validator_address', 'validator_stake', 'nominators_stake', 'validator_reward_share', 'nominators_count', 'nominators']) {
                    assert.equal(v[field], undefined, `${field} of a wallet's stake`);
                }
                continue;
            }
            const pool = await accountAt(afterEnd, Address.parse(route.stake_from));
            if (route.route === 'single_nominator') {
                assert.equal(v.pool_type, 'single-nominator-pool-v1.1');
                const s = pool.data.beginParse();
                const owner = s.loadAddress();
                const validator = s.loadAddress();
                assert.equal(v.owner_address, owner.toString({ bounceable: true, urlSafe: true, testOnly: false }));
                assert.equal(v.validator_address, validator.toString({ bounceable: true, urlSafe: true, testOnly: false }));
                assert.equal(v.validator_address, friendlyRaw(route.wallet));
                assert.equal(v.nominators, undefined);
                continue;
            }
            assert.equal(v.pool_type, 'nominator-pool-v1.0');
            const data = nominatorPoolData(pool.data);
            const share = elections.pools.find(p => p.kind === 'nominator_pool')!.validator_reward_share!;
            assert.equal(data.share, share);
            assert.equal(v.validator_address, friendly(-1, data.validatorAddress));
            assert.equal(v.validator_address, friendlyRaw(route.wallet));
            assert.equal(big(v.validator_stake), data.validatorAmount);
            const nominatorsStake = data.nominators.reduce((s, n) => s + n.amount, 0n);
            assert.equal(big(v.nominators_stake), nominatorsStake);
            assert.equal(v.validator_reward_share, share / 10000);
            assert.equal(v.nominators_count, data.nominatorsCount);
            assert.ok(data.nominators.length >= 2, 'nominators deposited in the pool');
            const validatorPart = (e.reward * BigInt(share)) / 10000n;
            const nominatorsPart = e.reward - validatorPart;
            assert.equal(v.nominators.length, data.nominators.length);
            // the pool's funds: what it has in the elector, or its participants' deposits when more (deposits after the
            // stake was sent stay in the pool); nominators' effective stakes are their deposits' shares of them
            const deposits = data.validatorAmount + nominatorsStake;
            const funds = deposits > poolTotal ? deposits : poolTotal;
            t.diagnostic(`nominator pool: validator ${data.validatorAmount}, nominators ${nominatorsStake} (${data.nominators.map(n => n.amount)}), in the elector ${poolTotal}`);
            let nominatorSum = 0n;
            let nominatorEffective = 0n;
            let nominatorWeights = 0;
            for (const [j, n] of data.nominators.entries()) {
                const got = v.nominators[j];
                assert.equal(got.address, friendly(0, n.id));
                assert.equal(big(got.stake), n.amount);
                close(got.weight, Number(n.amount) / Number(nominatorsStake), `nominator ${j}'s weight`);
                assert.equal(big(got.reward), (nominatorsPart * n.amount) / nominatorsStake, `nominator ${j}'s reward`);
                assert.equal(big(got.effective_stake), (n.amount * e.effective_stake) / funds, `nominator ${j}'s effective stake`);
                nominatorEffective += big(got.effective_stake);
                nominatorSum += big(got.reward);
                nominatorWeights += got.weight;
            }
            // invariant: the nominators get (1 − share) of the pool's reward, less at most a nanogram each for rounding
            const exactPart = (e.reward * BigInt(10000 - share)) / 10000n;
            assert.ok(nominatorSum <= exactPart + 1n && exactPart - nominatorSum <= BigInt(data.nominators.length) + 1n,
                `nominators' rewards ${nominatorSum} vs (1 − ${share / 10000}) × ${e.reward} = ${exactPart}`);
            assert.ok(Math.abs(nominatorWeights - 1) < 1e-9);
            assert.ok(nominatorEffective <= e.effective_stake, `nominators' effective stakes ${nominatorEffective} ≤ the pool's ${e.effective_stake}`);
        }
        // invariants
        assert.ok(rewardSum <= record.bonuses, `Σ rewards ${rewardSum} ≤ bonuses ${record.bonuses}`);
        assert.ok(record.bonuses - rewardSum < BigInt(expected.length), 'only rounding is left over');
        assert.ok(Math.abs(weightSum - 1) < 1e-9, `weights sum to ${weightSum}`);

        // --- the same round by every selector, deep and shallow ---
        const strip = (b: Record<string, unknown>) => {
            const { response_time_ms: _, ...rest } = b;
            return rest;
        };
        const shallowRows = body.validators.map((v: Record<string, unknown>) => {
            const out: Record<string, unknown> = { rank: v.rank, public_key: v.public_key, effective_stake: v.effective_stake, weight: v.weight, reward: v.reward };
            if (v.pool !== undefined) out.pool = v.pool;
            return out;
        });
        const inside = E + Math.floor((set.until - E) / 2);
        for (const query of ['', `?election_id=${E}`, `?block=${startBlock}`, `?block=${endBlock}`, `?unixtime=${E}`, `?unixtime=${inside}`, `?unixtime=${set.until - 1}`]) {
            const d = await rewards(query);
            assert.equal(d.status, 200, `${query}: ${d.text}`);
            assert.deepEqual(strip(d.body), strip(body), `deep ${query}`);
            const s = await rewards(`${query}${query ? '&' : '?'}shallow=1`);
            assert.equal(s.status, 200, `${query} shallow: ${s.text}`);
            assert.deepEqual(strip(s.body), { ...strip(body), validators: shallowRows }, `shallow ${query}`);
        }
        // the neighbours: the next round has not finished, the one before is the genesis set (no election record)
        const next = await rewards(`?block=${afterEnd}`);
        assert.equal(next.status, 409, next.text);
        const genesisRound = await rewards(`?block=${startBlock - 1}`);
        assert.equal(genesisRound.status, 404, genesisRound.text);
        assert.match(genesisRound.body.error, /no election record/);
    });
});
