import { before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { Address, Cell, Dictionary, beginCell, external, type Transaction, type TupleItem } from '@ton/core';
import { keyPairFromSeed, sha256_sync, signVerify, type KeyPair } from '@ton/crypto';
import { Blockchain, createShardAccount, internal, type SandboxContract, type TreasuryContract } from '@ton/sandbox';
import {
    ELECTOR_ADDRESS,
    FEE_COLLECTOR_SOURCE,
    electorCode,
    electorData,
    lispListItems,
    newStakeBody,
    newStakeSignedData,
    parseElectorData,
    readParticipantListExtended,
    readPastElections,
    recoverStakeBody,
    type ElectorState,
} from '../../src/chain/devnet/contracts/elector.ts';
import {
    CONFIG_ADDRESS,
    addressParam,
    configCode,
    configData,
    configParamsCell,
    configParamsDict,
    configSetParamBody,
    parseConfigData,
    parseValidatorSet,
    stakeLimitsParam,
    validatorCountsParam,
    validatorSetCell,
    validatorTimingsParam,
    type ValidatorSet,
} from '../../src/chain/devnet/contracts/config.ts';

const GRAM = 1_000_000_000n;
const T0 = 1_760_000_000;

/** Ops and get-method ids as mainnet's elector / config define them (written out, not taken from elector.ts). */
const OP = {
    newStake: 0x4e73744b,
    confirmed: 0xf374484c,
    rejected: 0xee6f454c,
    recover: 0x47657424,
    recovered: 0xf96f7324,
    recoverFailed: 0xfffffffe,
    upgrade: 0x4e436f64,
    error: 0xffffffff,
    setVset: 0x4e565354,
    vsetOk: 0xee764f4b,
    vsetRejected: 0xee764f6f,
} as const;
const METHOD = {
    active_election_id: 86535,
    participates_in: 87852,
    participant_list: 123541,
    participant_list_extended: 86698,
    compute_returned_stake: 130944,
    past_election_ids: 104565,
    past_elections: 81558,
    past_elections_list: 74376,
    seqno: 85143,
} as const;

/** Short rounds: elected_for, elections_start_before, elections_end_before, stake_held_for. */
const TIMINGS = { electedFor: 600, electionsStartBefore: 300, electionsEndBefore: 120, stakeHeldFor: 300 };
const COUNTS = { maxValidators: 4, maxMainValidators: 3, minValidators: 2 };
const LIMITS = { minStake: 10n * GRAM, maxStake: 10_000n * GRAM, minTotalStake: 50n * GRAM, maxStakeFactor: 3 * 65536 };

function crc16(data: Buffer): number {
    let crc = 0;
    for (const byte of data) {
        crc ^= byte << 8;
        for (let i = 0; i < 8; i++) crc = crc & 0x8000 ? ((crc << 1) ^ 0x1021) & 0xffff : (crc << 1) & 0xffff;
    }
    return crc;
}

interface Sent {
    from: string;
    to: string;
    op: number | undefined;
    body: Cell;
    value: bigint;
    bounce: boolean;
}

function outOf(txs: Transaction[]): Sent[] {
    const out: Sent[] = [];
    for (const tx of txs) {
        for (const m of tx.outMessages.values()) {
            if (m.info.type !== 'internal') continue;
            out.push({
                from: m.info.src.toRawString(),
                to: m.info.dest.toRawString(),
                op: m.body.bits.length >= 32 ? m.body.beginParse().preloadUint(32) : undefined,
                body: m.body,
                value: m.info.value.coins,
                bounce: m.info.bounce,
            });
        }
    }
    return out;
}

function computeOk(tx: Transaction): boolean {
    const d = tx.description;
    if (d.type !== 'generic' && d.type !== 'tick-tock') return false;
    return d.computePhase.type === 'vm' && d.computePhase.success && !d.aborted;
}

/** The one answer the elector sent to `to`: [op, query_id, extra word or undefined]. */
function answerTo(txs: Transaction[], to: Address): { op: number; queryId: bigint; extra: number | undefined; value: bigint } {
    const found = outOf(txs).filter(m => m.from === ELECTOR_ADDRESS.toRawString() && m.to === to.toRawString());
    assert.equal(found.length, 1, `one answer to ${to.toRawString()}, got ${found.length}`);
    const s = found[0].body.beginParse();
    const op = s.loadUint(32);
    const queryId = s.loadUintBig(64);
    const extra = s.remainingBits >= 32 ? s.loadUint(32) : undefined;
    assert.equal(s.remainingBits, 0);
    assert.ok(found[0].bounce, 'answers are bounceable (0x18)');
    return { op, queryId, extra, value: found[0].value };
}

// ---- an independent model of mainnet's selection (elector-code.fc try_elect) ----
interface Member {
    pubkey: bigint;
    stake: bigint;
    time: number;
    maxFactor: number;
    src: bigint;
    adnl: bigint;
}
interface Selection {
    elected: { pubkey: bigint; trueStake: bigint; weight: bigint; src: bigint; adnl: bigint }[];
    totalStake: bigint;
    totalWeight: bigint;
    refunds: Map<bigint, bigint>;
}

function modelSelection(members: Member[]): Selection | null {
    const minValidators = Math.max(COUNTS.minValidators, 1);
    const ordered = [...members].sort((a, b) => (a.stake !== b.stake ? (a.stake > b.stake ? -1 : 1) : a.time !== b.time ? a.time - b.time : a.pubkey > b.pubkey ? -1 : 1));
    const n = Math.min(ordered.length, COUNTS.maxValidators);
    if (n < minValidators) return null;
    const capped = ordered.map(m => ({ ...m, stake: m.stake < LIMITS.maxStake ? m.stake : LIMITS.maxStake, maxFactor: Math.min(m.maxFactor, LIMITS.maxStakeFactor) }));
    const trueStake = (m: (typeof capped)[number], bound: bigint) => {
        const lim = (BigInt(m.maxFactor) * bound) >> 16n;
        return m.stake < lim ? m.stake : lim;
    };
    let best = 0n;
    let count = 0;
    for (let k = minValidators; k <= n; k++) {
        const bound = capped[k - 1].stake;
        if (bound < LIMITS.minStake) continue;
        const total = capped.slice(0, k).reduce((s, m) => s + trueStake(m, bound), 0n);
        if (total > best) {
            best = total;
            count = k;
        }
    }
    if (count === 0 || best < LIMITS.minTotalStake) return null;
    const bound = capped[count - 1].stake;
    const refunds = new Map<bigint, bigint>();
    const elected: Selection['elected'] = [];
    let totalWeight = 0n;
    capped.forEach((m, i) => {
        let rest = m.stake;
        if (i < count) {
            const ts = trueStake(m, bound);
            rest -= ts;
            const weight = (ts << 60n) / best;
            totalWeight += weight;
            elected.push({ pubkey: m.pubkey, trueStake: ts, weight, src: m.src, adnl: m.adnl });
        }
        if (rest > 0n) refunds.set(m.src, (refunds.get(m.src) ?? 0n) + rest);
    });
    return { elected, totalStake: best, totalWeight, refunds };
}

// ---- the chain: sandbox + elector + config contract; a "masterchain block" = ticks + config sync ----
class Devnet {
    readonly validators: { key: KeyPair; wallet: SandboxContract<TreasuryContract>; adnl: bigint }[] = [];

    private constructor(readonly chain: Blockchain) {}

    static async create(genesis: ValidatorSet, masterKey: KeyPair): Promise<Devnet> {
        const chain = await Blockchain.create();
        chain.now = T0 - 100;
        const params = configParamsDict(chain.config);
        params.set(0, addressParam(CONFIG_ADDRESS));
        params.set(1, addressParam(ELECTOR_ADDRESS));
        params.set(15, validatorTimingsParam(TIMINGS));
        params.set(16, validatorCountsParam(COUNTS));
        params.set(17, stakeLimitsParam(LIMITS));
        params.set(34, validatorSetCell(genesis));
        params.delete(32);
        params.delete(36);
        const root = configParamsCell(params);
        chain.setConfig(root);
        await chain.setShardAccount(CONFIG_ADDRESS, createShardAccount({ address: CONFIG_ADDRESS, code: configCode(), data: configData({ configDict: root, seqno: 0, publicKey: BigInt(`0x${masterKey.publicKey.toString('hex')}`) }), balance: 100n * GRAM, workchain: -1 }));
        await chain.setShardAccount(ELECTOR_ADDRESS, createShardAccount({ address: ELECTOR_ADDRESS, code: electorCode(), data: electorData(), balance: 1000n * GRAM, workchain: -1 }));
        const net = new Devnet(chain);
        for (let i = 0; i < 6; i++) {
            const key = keyPairFromSeed(sha256_sync(`validator ${i}`));
            const wallet = await chain.treasury(`validator ${i}`, { workchain: -1, balance: 1_000_000n * GRAM });
            net.validators.push({ key, wallet, adnl: i % 2 === 0 ? BigInt(`0x${sha256_sync(`adnl ${i}`).toString('hex')}`) : 0n });
        }
        return net;
    }

    async syncConfig(): Promise<void> {
        this.chain.setConfig(await this.configDict());
    }

    async configDict(): Promise<Cell> {
        return parseConfigData(await this.data(CONFIG_ADDRESS)).configDict;
    }

    async param(idx: number): Promise<Cell | undefined> {
        return configParamsDict(await this.configDict()).get(idx);
    }

    async data(address: Address): Promise<Cell> {
        const acc = (await this.chain.getContract(address)).account.account;
        assert.ok(acc && acc.storage.state.type === 'active');
        return acc.storage.state.state.data!;
    }

    async elector(): Promise<ElectorState> {
        return parseElectorData(await this.data(ELECTOR_ADDRESS));
    }

    /** One masterchain block: the elector's and the config contract's ticks (address order), then the collator's config copy. */
    async block(now?: number): Promise<Transaction[]> {
        if (now !== undefined) this.chain.now = now;
        const r1 = await this.chain.runTickTock(ELECTOR_ADDRESS, 'tick');
        const r2 = await this.chain.runTickTock(CONFIG_ADDRESS, 'tick');
        const txs = [...r1.transactions, ...r2.transactions];
        for (const tx of txs) assert.ok(computeOk(tx), `transaction on ${tx.address.toString(16).slice(0, 8)} failed`);
        await this.syncConfig();
        return txs;
    }

    async stake(v: number, electAt: number, stake: bigint, maxFactor: number, opts: { queryId?: bigint; badKey?: boolean; from?: SandboxContract<TreasuryContract> } = {}): Promise<Transaction[]> {
        const { key, wallet, adnl } = this.validators[v];
        const from = opts.from ?? wallet;
        const signer = opts.badKey ? this.validators[(v + 1) % this.validators.length].key : key;
        const body = newStakeBody({ publicKey: key.publicKey, secretKey: signer.secretKey, stakeAt: electAt, maxFactor, adnlAddr: adnl, src: from.address, queryId: opts.queryId ?? BigInt(v + 1) });
        const r = await from.send({ to: ELECTOR_ADDRESS, value: stake + GRAM, body, bounce: true });
        return r.transactions;
    }

    async get(method: number, args: TupleItem[] = []): Promise<TupleItem[]> {
        const r = await this.chain.runGetMethod(ELECTOR_ADDRESS, method, args);
        assert.equal(r.exitCode, 0);
        return r.stack;
    }

    pubkey(v: number): bigint {
        return BigInt(`0x${this.validators[v].key.publicKey.toString('hex')}`);
    }

    src(v: number): bigint {
        return BigInt(`0x${this.validators[v].wallet.address.hash.toString('hex')}`);
    }
}

function intOf(item: TupleItem): bigint {
    assert.equal(item.type, 'int');
    return (item as Extract<TupleItem, { type: 'int' }>).value;
}

describe('devnet elector: TypeScript side', () => {
    test('storage round-trips through the builders and parsers', () => {
        const st: ElectorState = {
            elect: { electAt: 100, electClose: 50, minStake: 10n, totalStake: 30n, members: new Map([[7n, { stake: 30n, time: 9, maxFactor: 65536, srcAddr: 5n, adnlAddr: 0n }]]), failed: false, finished: true },
            credits: new Map([[5n, 12n]]),
            pastElections: new Map([[90, { unfreezeAt: 1, stakeHeld: 2, vsetHash: 3n, frozen: new Map([[7n, { srcAddr: 5n, weight: 1n << 60n, trueStake: 30n, banned: false }]]), totalStake: 30n, bonuses: 4n, complaints: null }]]),
            grams: 77n,
            activeId: 90,
            activeHash: 123n,
        };
        assert.deepEqual(parseElectorData(electorData(st)), st);
        // layout: Maybe ^elect, credits, past_elections, grams, active_id:uint32, active_hash:uint256
        const s = electorData(st).beginParse();
        assert.equal(s.loadBit(), true);
        assert.equal(s.loadRef().bits.length, 32 + 32 + (4 + 8) + (4 + 8) + 1 + 1 + 1);
    });

    test('the stake signature covers mainnet\'s 76 bytes', () => {
        const key = keyPairFromSeed(sha256_sync('k'));
        const src = Address.parse(`-1:${'ab'.repeat(32)}`);
        const data = newStakeSignedData(5, 65536, src, 9n);
        assert.equal(data.length, 76);
        assert.equal(data.readUInt32BE(0), 0x654c5074);
        assert.equal(data.readUInt32BE(4), 5);
        assert.equal(data.readUInt32BE(8), 65536);
        assert.deepEqual(data.subarray(12, 44), src.hash);
        const body = newStakeBody({ publicKey: key.publicKey, secretKey: key.secretKey, stakeAt: 5, maxFactor: 65536, adnlAddr: 9n, src, queryId: 3n }).beginParse();
        assert.equal(body.loadUint(32), OP.newStake);
        assert.equal(body.loadUintBig(64), 3n);
        assert.deepEqual(body.loadBuffer(32), key.publicKey);
        body.skip(32 + 32 + 256);
        assert.ok(signVerify(data, body.loadRef().beginParse().loadBuffer(64), key.publicKey));
        assert.deepEqual(recoverStakeBody(4n).beginParse().loadUint(32), OP.recover);
    });

    test('get-method ids are crc16(name) | 0x10000', () => {
        for (const [name, id] of Object.entries(METHOD)) assert.equal((crc16(Buffer.from(name)) & 0xffff) | 0x10000, id, name);
    });
});

describe('devnet elector + config contract: elections over several rounds', () => {
    const masterKey = keyPairFromSeed(sha256_sync('config master key'));
    const genesisKey = keyPairFromSeed(sha256_sync('genesis validator'));
    const genesis: ValidatorSet = {
        utimeSince: T0 - 300,
        utimeUntil: T0 + TIMINGS.electionsStartBefore,
        total: 1,
        main: 1,
        totalWeight: 1n << 60n,
        list: [{ publicKey: BigInt(`0x${genesisKey.publicKey.toString('hex')}`), weight: 1n << 60n }],
    };
    let net: Devnet;
    let round1 = 0;
    let round2 = 0;
    let round1Selection: Selection;
    let round1Members: Member[] = [];
    let feesRound1 = 0n;
    let gramsBefore = 0n;

    before(async () => {
        net = await Devnet.create(genesis, masterKey);
    });

    test('no election before elections_start_before; announced at p34.utime_until − elections_start_before', async () => {
        await net.block(T0 - 100);
        assert.equal((await net.elector()).elect, null);
        assert.equal(intOf((await net.get(METHOD.active_election_id))[0]), 0n);
        const pl = await net.get(METHOD.participant_list);
        assert.equal(pl[0].type, 'null');
        const ext = await net.get(METHOD.participant_list_extended);
        assert.deepEqual(ext.map(i => i.type), ['int', 'int', 'int', 'int', 'null', 'int', 'int']);

        await net.block(T0 + 30); // less than 60 s late: elections pretend to start at t0
        const st = await net.elector();
        assert.ok(st.elect);
        round1 = T0 + TIMINGS.electionsStartBefore;
        assert.equal(st.elect.electAt, round1);
        assert.equal(st.elect.electClose, round1 - TIMINGS.electionsEndBefore);
        assert.equal(st.elect.minStake, LIMITS.minStake);
        assert.equal(st.elect.totalStake, 0n);
        assert.equal(intOf((await net.get(METHOD.active_election_id))[0]), BigInt(round1));
        // the first run also noticed p34 (no past election has its hash)
        await net.block();
        const st2 = await net.elector();
        assert.equal(st2.activeId, 0);
        assert.equal(st2.activeHash, BigInt(`0x${(await net.param(34))!.hash().toString('hex')}`));
    });

    test('stakes: accepted with a 1-gram confirmation; rejected with mainnet\'s reasons', async () => {
        const stakes: [number, bigint, number][] = [
            [0, 1000n * GRAM, 65536 * 2],
            [1, 800n * GRAM, 65536 * 4], // max_factor above max_stake_factor: capped at 3.0
            [2, 600n * GRAM, 65536],
            [3, 500n * GRAM, 65536 * 3],
            [4, 40n * GRAM, 65536 * 3],
        ];
        for (const [v, amount, factor] of stakes) {
            net.chain.now = round1 - 250 + v;
            const txs = await net.stake(v, round1, amount, factor);
            const a = answerTo(txs, net.validators[v].wallet.address);
            assert.deepEqual([a.op, a.queryId, a.extra], [OP.confirmed, BigInt(v + 1), 0]);
            assert.equal(a.value, GRAM);
            round1Members.push({ pubkey: net.pubkey(v), stake: amount, time: round1 - 250 + v, maxFactor: factor, src: net.src(v), adnl: net.validators[v].adnl });
        }
        // a second stake for the same key from the same address adds up (time = now)
        net.chain.now = round1 - 200;
        const again = await net.stake(4, round1, 20n * GRAM, 65536 * 3, { queryId: 0n });
        assert.equal(outOf(again).filter(m => m.from === ELECTOR_ADDRESS.toRawString()).length, 0, 'no confirmation for query_id 0');
        round1Members[4] = { ...round1Members[4], stake: 60n * GRAM, time: round1 - 200 };

        const reject = async (txs: Transaction[], to: Address, reason: number) => {
            const a = answerTo(txs, to);
            assert.equal(a.op, OP.rejected);
            assert.equal(a.extra, reason);
            const electorTx = txs.find(t => t.address === BigInt(`0x${ELECTOR_ADDRESS.hash.toString('hex')}`))!;
            const info = electorTx.inMessage!.info;
            assert.ok(info.type === 'internal');
            assert.ok(a.value > info.value.coins - GRAM / 10n, 'the stake comes back (mode 64)');
        };
        // 1: bad signature
        await reject(await net.stake(5, round1, 100n * GRAM, 65536, { badKey: true }), net.validators[5].wallet.address, 1);
        // 6: max_factor below 1.0
        await reject(await net.stake(5, round1, 100n * GRAM, 65535), net.validators[5].wallet.address, 6);
        // 2: less than 1/4096 of the total so far
        await reject(await net.stake(5, round1, GRAM / 10n, 65536), net.validators[5].wallet.address, 2);
        // 3: another election
        await reject(await net.stake(5, round1 + 1, 100n * GRAM, 65536), net.validators[5].wallet.address, 3);
        // 4: the key staked from another address
        await reject(await net.stake(0, round1, 100n * GRAM, 65536, { from: net.validators[5].wallet }), net.validators[5].wallet.address, 4);
        // 5: below min_stake
        await reject(await net.stake(5, round1, 5n * GRAM, 65536), net.validators[5].wallet.address, 5);
        // 0: not from the masterchain
        const basechain = await net.chain.treasury('basechain staker', { workchain: 0 });
        await reject(await net.stake(5, round1, 100n * GRAM, 65536, { from: basechain }), basechain.address, 0);

        const st = await net.elector();
        assert.equal(st.elect!.members.size, 5);
        assert.equal(st.elect!.totalStake, round1Members.reduce((s, m) => s + m.stake, 0n), 'rejected stakes do not count');
    });

    test('participant get-methods during the election', async () => {
        assert.equal(intOf((await net.get(METHOD.participates_in, [{ type: 'int', value: net.pubkey(1) }]))[0]), 800n * GRAM);
        assert.equal(intOf((await net.get(METHOD.participates_in, [{ type: 'int', value: 5n }]))[0]), 0n);
        const list = lispListItems((await net.get(METHOD.participant_list))[0]).map(i => (i as Extract<TupleItem, { type: 'tuple' }>).items.map(intOf));
        const sortedKeys = round1Members.map(m => m.pubkey).sort((a, b) => (a < b ? -1 : 1));
        assert.deepEqual(list.map(x => x[0]), sortedKeys, 'ascending pubkey order');
        const ext = readParticipantListExtended(await net.get(METHOD.participant_list_extended));
        assert.equal(ext.electAt, round1);
        assert.equal(ext.failed, false);
        assert.equal(ext.finished, false);
        for (const p of ext.participants) {
            const m = round1Members.find(x => x.pubkey === p.publicKey)!;
            assert.deepEqual([p.stake, p.maxFactor, p.srcAddr, p.adnlAddr], [m.stake, m.maxFactor, m.src, m.adnl]);
        }
    });

    test('conducted at elect_close as mainnet selects; the set goes to the config contract as p36', async () => {
        await net.block(round1 - TIMINGS.electionsEndBefore - 1);
        assert.equal((await net.elector()).elect!.finished, false, 'not before elect_close');
        const closeAt = round1 - TIMINGS.electionsEndBefore;
        const txs = await net.block(closeAt);
        const toConfig = outOf(txs).filter(m => m.to === CONFIG_ADDRESS.toRawString() && m.op === OP.setVset);
        assert.equal(toConfig.length, 1);
        assert.equal(toConfig[0].value, 1n << 30n);
        assert.ok(toConfig[0].bounce);
        assert.equal(toConfig[0].body.beginParse().skip(32).loadUintBig(64), BigInt(round1), 'query_id = elect_at');
        const answer = outOf(txs).filter(m => m.from === CONFIG_ADDRESS.toRawString() && m.to === ELECTOR_ADDRESS.toRawString());
        assert.deepEqual(answer.map(a => a.op), [OP.vsetOk]);

        const model = modelSelection(round1Members)!;
        round1Selection = model;
        assert.equal(model.elected.length, 4, 'max_validators');
        const p36 = parseValidatorSet((await net.param(36))!);
        const start = Math.max(closeAt + TIMINGS.electionsEndBefore - 60, round1);
        assert.equal(p36.utimeSince, start);
        assert.equal(p36.utimeUntil, start + TIMINGS.electedFor);
        assert.equal(p36.total, 4);
        assert.equal(p36.main, COUNTS.maxMainValidators);
        assert.equal(p36.totalWeight, model.totalWeight);
        assert.deepEqual(p36.list, model.elected.map(e => (e.adnl ? { publicKey: e.pubkey, weight: e.weight, adnlAddr: e.adnl } : { publicKey: e.pubkey, weight: e.weight })));

        const st = await net.elector();
        assert.equal(st.elect!.finished, true);
        const past = st.pastElections.get(round1)!;
        assert.equal(past.totalStake, model.totalStake);
        assert.equal(past.bonuses, 0n);
        assert.equal(past.stakeHeld, TIMINGS.stakeHeldFor);
        assert.equal(past.unfreezeAt, start + TIMINGS.electedFor + TIMINGS.stakeHeldFor);
        assert.equal(past.vsetHash, BigInt(`0x${(await net.param(36))!.hash().toString('hex')}`));
        for (const e of model.elected) assert.deepEqual(past.frozen.get(e.pubkey), { srcAddr: e.src, weight: e.weight, trueStake: e.trueStake, banned: false });
        assert.deepEqual(st.credits, model.refunds, 'excess and unelected stakes are credits');
        assert.ok(model.refunds.size > 0);
        assert.equal([...past.frozen.values()].reduce((s, f) => s + f.trueStake, 0n), past.totalStake);

        // next block: the set is seen in p36, the election is forgotten
        await net.block(closeAt + 1);
        assert.equal((await net.elector()).elect, null);
        assert.equal(intOf((await net.get(METHOD.active_election_id))[0]), 0n);
        // no new election while p36 is set
        await net.block(closeAt + 2);
        assert.equal((await net.elector()).elect, null);
    });

    test('the config contract refuses sets that do not come from the elector', async () => {
        const stranger = net.validators[0].wallet;
        const r = await stranger.send({ to: CONFIG_ADDRESS, value: GRAM, body: beginCell().storeUint(OP.setVset, 32).storeUint(1, 64).storeRef(validatorSetCell(genesis)).endCell() });
        const ans = outOf(r.transactions).filter(m => m.from === CONFIG_ADDRESS.toRawString());
        assert.deepEqual(ans.map(a => a.op), [OP.vsetRejected]);
        assert.ok(await net.param(36), 'p36 unchanged');
    });

    test('fees before activation go to grams; at utime_since p36 → p34 and the round becomes active with 1/8 of grams', async () => {
        const r = await net.chain.sendMessage(internal({ from: FEE_COLLECTOR_SOURCE, to: ELECTOR_ADDRESS, value: 80n * GRAM, bounce: false }));
        assert.ok(r.transactions.every(computeOk));
        const donor = await net.chain.treasury('donor', { workchain: -1 });
        await donor.send({ to: ELECTOR_ADDRESS, value: 16n * GRAM, bounce: false });
        gramsBefore = (await net.elector()).grams;
        assert.equal(gramsBefore, 96n * GRAM, 'no active round: everything is "nobody\'s" money');

        const p36 = (await net.param(36))!;
        const p34 = (await net.param(34))!;
        await net.block(round1 - 1);
        assert.ok(await net.param(36), 'not before utime_since');
        await net.block(round1);
        assert.equal(await net.param(36), undefined);
        assert.ok((await net.param(34))!.equals(p36), 'p36 → p34');
        assert.ok((await net.param(32))!.equals(p34), 'p34 → p32');
        // the elector's tick ran before the config contract's in that block: it sees the change now
        await net.block(round1 + 1);
        const st = await net.elector();
        assert.equal(st.activeId, round1);
        assert.equal(st.activeHash, BigInt(`0x${p36.hash().toString('hex')}`));
        assert.equal(st.pastElections.get(round1)!.bonuses, gramsBefore >> 3n);
        assert.equal(st.grams, gramsBefore - (gramsBefore >> 3n));
    });

    test('the collator\'s fee messages (-1:000…000) grow the active round\'s bonuses; others grow grams', async () => {
        const before = await net.elector();
        for (const fee of [3n * GRAM, 1_700_000_000n, 123_456_789n]) {
            await net.chain.sendMessage(internal({ from: FEE_COLLECTOR_SOURCE, to: ELECTOR_ADDRESS, value: fee, bounce: false }));
            feesRound1 += fee;
        }
        // a text comment from someone else: grams
        await net.validators[5].wallet.send({ to: ELECTOR_ADDRESS, value: 2n * GRAM, body: beginCell().storeUint(0, 32).storeStringTail('tip').endCell() });
        const st = await net.elector();
        assert.equal(st.pastElections.get(round1)!.bonuses, before.pastElections.get(round1)!.bonuses + feesRound1);
        assert.equal(st.grams, before.grams + 2n * GRAM);
    });

    test('past_elections / past_elections_list / past_election_ids: mainnet\'s layouts', async () => {
        const stack = await net.get(METHOD.past_elections);
        assert.equal(stack.length, 1);
        const items = lispListItems(stack[0]);
        assert.equal(items.length, 1);
        const t = (items[0] as Extract<TupleItem, { type: 'tuple' }>).items;
        assert.deepEqual(t.map(i => i.type), ['int', 'int', 'int', 'int', 'cell', 'int', 'int', 'null']);
        const st = await net.elector();
        const pe = st.pastElections.get(round1)!;
        const [entry] = readPastElections(stack[0]);
        assert.equal(entry.electionId, round1);
        assert.equal(entry.unfreezeAt, pe.unfreezeAt);
        assert.equal(entry.stakeHeld, pe.stakeHeld);
        assert.equal(entry.vsetHash, pe.vsetHash);
        assert.equal(entry.totalStake, round1Selection.totalStake);
        assert.equal(entry.bonuses, pe.bonuses);
        assert.deepEqual(entry.frozen, pe.frozen);
        // frozen_dict: HashmapE 256, inline src_addr:uint256 weight:uint64 true_stake:Grams banned:Bool
        const raw = Dictionary.loadDirect(Dictionary.Keys.BigUint(256), { serialize: () => {}, parse: s => s.loadBits(s.remainingBits) }, entry.frozenDictCell!);
        for (const [k, bits] of raw) {
            const e = round1Selection.elected.find(x => x.pubkey === k)!;
            const s = beginCell().storeBits(bits).endCell().beginParse();
            assert.deepEqual([s.loadUintBig(256), s.loadUintBig(64), s.loadCoins(), s.loadBit(), s.remainingBits], [e.src, e.weight, e.trueStake, false, 0]);
        }
        const list = lispListItems((await net.get(METHOD.past_elections_list))[0]).map(i => (i as Extract<TupleItem, { type: 'tuple' }>).items.map(intOf));
        assert.deepEqual(list, [[BigInt(round1), BigInt(pe.unfreezeAt), pe.vsetHash, BigInt(pe.stakeHeld)]], '[id, unfreeze_at, vset_hash, stake_held]');
        assert.deepEqual(lispListItems((await net.get(METHOD.past_election_ids))[0]).map(intOf), [BigInt(round1)]);
    });

    test('round 2: a failed election (too few validators) waits for a new stake, then the set replaces round 1', async () => {
        const p34 = parseValidatorSet((await net.param(34))!);
        const t0 = p34.utimeUntil - TIMINGS.electionsStartBefore;
        await net.block(t0 - 1);
        assert.equal((await net.elector()).elect, null);
        await net.block(t0 + 100); // 100 s late: the election starts now
        round2 = t0 + 100 + TIMINGS.electionsStartBefore;
        assert.equal((await net.elector()).elect!.electAt, round2);

        net.chain.now = round2 - 250;
        answerTo(await net.stake(2, round2, 500n * GRAM, 65536 * 2), net.validators[2].wallet.address);
        const closeAt = round2 - TIMINGS.electionsEndBefore;
        const txs = await net.block(closeAt);
        assert.equal(outOf(txs).filter(m => m.op === OP.setVset).length, 0);
        let st = await net.elector();
        assert.equal(st.elect!.failed, true, 'one candidate < min_validators: failed');
        assert.equal(st.elect!.finished, false);
        const ext = readParticipantListExtended(await net.get(METHOD.participant_list_extended));
        assert.equal(ext.failed, true);
        await net.block(closeAt + 5);
        assert.equal((await net.elector()).elect!.failed, true, 'not retried without a new stake');

        net.chain.now = closeAt + 10;
        answerTo(await net.stake(3, round2, 200n * GRAM, 65536), net.validators[3].wallet.address);
        assert.equal((await net.elector()).elect!.failed, false, 'a new stake clears failed');
        const members: Member[] = [
            { pubkey: net.pubkey(2), stake: 500n * GRAM, time: round2 - 250, maxFactor: 65536 * 2, src: net.src(2), adnl: net.validators[2].adnl },
            { pubkey: net.pubkey(3), stake: 200n * GRAM, time: closeAt + 10, maxFactor: 65536, src: net.src(3), adnl: net.validators[3].adnl },
        ];
        const creditsBefore = (await net.elector()).credits;
        await net.block(closeAt + 20);
        const model = modelSelection(members)!;
        const p36 = parseValidatorSet((await net.param(36))!);
        assert.equal(p36.utimeSince, Math.max(closeAt + 20 + TIMINGS.electionsEndBefore - 60, round2));
        assert.deepEqual(p36.list.map(d => [d.publicKey, d.weight]), model.elected.map(e => [e.pubkey, e.weight]));
        st = await net.elector();
        assert.equal(st.pastElections.get(round2)!.totalStake, model.totalStake);
        for (const [addr, amount] of model.refunds) assert.equal(st.credits.get(addr), (creditsBefore.get(addr) ?? 0n) + amount);

        // activation of round 2: round 1 leaves p34 and its unfreeze time restarts
        await net.block(closeAt + 21);
        assert.equal((await net.elector()).elect, null);
        const since = p36.utimeSince;
        await net.block(since);
        await net.block(since + 1);
        st = await net.elector();
        assert.equal(st.activeId, round2);
        assert.equal(st.pastElections.get(round1)!.unfreezeAt, since + 1 + TIMINGS.stakeHeldFor);
        const grams = (await net.elector()).grams;
        assert.ok(grams >= 0n);
    });

    test('after stake_held round 1 unfreezes: stakes + bonuses pro rata to true stake go to credits', async () => {
        const before = await net.elector();
        const pe = before.pastElections.get(round1)!;
        await net.block(pe.unfreezeAt - 1);
        assert.ok((await net.elector()).pastElections.has(round1), 'not before unfreeze_at');
        // p34's round 2 ends: the next election is announced first (one step per run)
        let st = await net.elector();
        net.chain.now = pe.unfreezeAt;
        for (let i = 0; i < 3 && st.pastElections.has(round1); i++) {
            await net.block();
            st = await net.elector();
        }
        assert.ok(!st.pastElections.has(round1), 'unfrozen');
        assert.ok(st.pastElections.has(round2), 'the active round stays');
        let distributed = 0n;
        const credited = new Map<bigint, bigint>();
        for (const [, f] of pe.frozen) {
            const bonus = (pe.bonuses * f.trueStake) / pe.totalStake;
            distributed += bonus;
            credited.set(f.srcAddr, (credited.get(f.srcAddr) ?? 0n) + f.trueStake + bonus);
        }
        for (const [addr, amount] of credited) assert.equal(st.credits.get(addr), (before.credits.get(addr) ?? 0n) + amount, 'stake + bonus');
        assert.equal(st.grams, before.grams + pe.bonuses - distributed, 'rounding leftovers to grams');
        // weight = true_stake × 2^60 / total: the split by true stake is the split by weight
        for (const f of pe.frozen.values()) assert.equal(f.weight, (f.trueStake << 60n) / pe.totalStake);
    });

    test('recover_stake returns the whole credit (0xf96f7324, mode 64); nothing to recover: 0xfffffffe', async () => {
        const v = net.validators[0];
        const credit = intOf((await net.get(METHOD.compute_returned_stake, [{ type: 'int', value: net.src(0) }]))[0]);
        assert.equal(credit, (await net.elector()).credits.get(net.src(0)));
        assert.ok(credit > round1Selection.elected[0].trueStake, 'stake + bonus');
        const r = await v.wallet.send({ to: ELECTOR_ADDRESS, value: GRAM, body: recoverStakeBody(42n) });
        const a = answerTo(r.transactions, v.wallet.address);
        assert.deepEqual([a.op, a.queryId, a.extra], [OP.recovered, 42n, undefined]);
        assert.ok(a.value > credit && a.value <= credit + GRAM, `${a.value} vs credit ${credit}`); // the elector is special: no gas fees
        assert.equal((await net.elector()).credits.has(net.src(0)), false);
        assert.equal(intOf((await net.get(METHOD.compute_returned_stake, [{ type: 'int', value: net.src(0) }]))[0]), 0n);

        const again = answerTo((await v.wallet.send({ to: ELECTOR_ADDRESS, value: GRAM, body: recoverStakeBody(43n) })).transactions, v.wallet.address);
        assert.deepEqual([again.op, again.queryId, again.extra], [OP.recoverFailed, 43n, OP.recover]);
        const basechain = await net.chain.treasury('basechain recover', { workchain: 0 });
        const bc = answerTo((await basechain.send({ to: ELECTOR_ADDRESS, value: GRAM, body: recoverStakeBody(44n) })).transactions, basechain.address);
        assert.deepEqual([bc.op, bc.extra], [OP.recoverFailed, OP.recover]);
    });

    test('round 3 is elected and activated; round 2 unfreezes in turn', async () => {
        let st = await net.elector();
        assert.ok(st.elect, 'round 3 was announced');
        const round3 = st.elect.electAt;
        net.chain.now = round3 - 250;
        for (const v of [0, 1, 4]) answerTo(await net.stake(v, round3, 400n * GRAM + BigInt(v) * GRAM, 65536 * 3), net.validators[v].wallet.address);
        await net.block(round3 - TIMINGS.electionsEndBefore);
        await net.block(round3 - TIMINGS.electionsEndBefore + 1);
        const p36 = parseValidatorSet((await net.param(36))!);
        assert.equal(p36.total, 3);
        await net.block(p36.utimeSince);
        await net.block(p36.utimeSince + 1);
        st = await net.elector();
        assert.equal(st.activeId, round3);
        const pe2 = st.pastElections.get(round2)!;
        net.chain.now = pe2.unfreezeAt;
        for (let i = 0; i < 3 && st.pastElections.has(round2); i++) {
            await net.block();
            st = await net.elector();
        }
        assert.ok(!st.pastElections.has(round2));
        assert.deepEqual([...st.pastElections.keys()], [round3]);
        assert.deepEqual(readPastElections((await net.get(METHOD.past_elections))[0]).map(e => e.electionId), [round3]);
    });

    test('the elector refuses code upgrades from anyone but the config contract; unknown queries get 0xffffffff', async () => {
        const w = net.validators[1].wallet;
        const up = answerTo((await w.send({ to: ELECTOR_ADDRESS, value: GRAM, body: beginCell().storeUint(OP.upgrade, 32).storeUint(7, 64).storeRef(configCode()).endCell() })).transactions, w.address);
        assert.deepEqual([up.op, up.queryId, up.extra], [OP.error, 7n, OP.upgrade]);
        const unknown = answerTo((await w.send({ to: ELECTOR_ADDRESS, value: GRAM, body: beginCell().storeUint(0x12345678, 32).storeUint(8, 64).endCell() })).transactions, w.address);
        assert.deepEqual([unknown.op, unknown.queryId, unknown.extra], [OP.error, 8n, 0x12345678]);
        const code = (await net.chain.getContract(ELECTOR_ADDRESS)).account.account!.storage.state;
        assert.ok(code.type === 'active' && code.state.code!.equals(electorCode()));
    });

    test('config contract: seqno / get_public_key, signed set-param externals', async () => {
        const seq = await net.chain.runGetMethod(CONFIG_ADDRESS, METHOD.seqno);
        assert.equal(seq.stackReader.readNumber(), 0);
        const pk = await net.chain.runGetMethod(CONFIG_ADDRESS, 'get_public_key');
        assert.equal(pk.stackReader.readBigNumber(), BigInt(`0x${masterKey.publicKey.toString('hex')}`));
        const value = beginCell().storeUint(0xabcdef, 24).endCell();
        await net.chain.sendMessage(external({ to: CONFIG_ADDRESS, body: configSetParamBody(masterKey.secretKey, 0, net.chain.now! + 60, 100, value) }));
        assert.ok((await net.param(100))!.equals(value));
        assert.equal((await net.chain.runGetMethod(CONFIG_ADDRESS, 'seqno')).stackReader.readNumber(), 1);
        await assert.rejects(net.chain.sendMessage(external({ to: CONFIG_ADDRESS, body: configSetParamBody(genesisKey.secretKey, 1, net.chain.now! + 60, 100, value) })));
        await assert.rejects(net.chain.sendMessage(external({ to: CONFIG_ADDRESS, body: configSetParamBody(masterKey.secretKey, 0, net.chain.now! + 60, 100, value) })));
    });
});

describe('devnet elector: the config contract rejects the set', () => {
    test('a rejection from the config address cancels the election and credits the frozen stakes', async () => {
        const genesisKey = keyPairFromSeed(sha256_sync('genesis validator'));
        const genesis: ValidatorSet = { utimeSince: T0 - 300, utimeUntil: T0 + TIMINGS.electionsStartBefore, total: 1, main: 1, totalWeight: 1n << 60n, list: [{ publicKey: BigInt(`0x${genesisKey.publicKey.toString('hex')}`), weight: 1n << 60n }] };
        const net = await Devnet.create(genesis, keyPairFromSeed(sha256_sync('m')));
        await net.block(T0);
        const electAt = (await net.elector()).elect!.electAt;
        net.chain.now = T0 + 10;
        await net.stake(0, electAt, 100n * GRAM, 65536);
        await net.stake(1, electAt, 100n * GRAM, 65536);
        // conduct without the config contract answering: run the elector's tick alone with the config account frozen out
        const configAccount = (await net.chain.getContract(CONFIG_ADDRESS)).account;
        await net.chain.setShardAccount(CONFIG_ADDRESS, createShardAccount({ address: CONFIG_ADDRESS, code: beginCell().endCell(), data: beginCell().endCell(), balance: GRAM, workchain: -1 }));
        net.chain.now = electAt - TIMINGS.electionsEndBefore;
        await net.chain.runTickTock(ELECTOR_ADDRESS, 'tick');
        await net.chain.setShardAccount(CONFIG_ADDRESS, configAccount);
        assert.equal((await net.elector()).elect!.finished, true);
        // from someone else: ignored
        await net.validators[0].wallet.send({ to: ELECTOR_ADDRESS, value: GRAM, body: beginCell().storeUint(OP.vsetRejected, 32).storeUint(electAt, 64).endCell() });
        assert.ok((await net.elector()).elect);
        // from the config address with query_id = elect_at
        await net.chain.sendMessage(internal({ from: CONFIG_ADDRESS, to: ELECTOR_ADDRESS, value: GRAM, bounce: false, body: beginCell().storeUint(OP.vsetRejected, 32).storeUint(electAt, 64).endCell() }));
        const st = await net.elector();
        assert.equal(st.elect, null);
        assert.equal(st.pastElections.size, 0);
        assert.equal(st.credits.get(net.src(0)), 100n * GRAM);
        assert.equal(st.credits.get(net.src(1)), 100n * GRAM);
    });
});
