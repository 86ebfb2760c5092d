import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { before, describe, test } from 'node:test';
import { Address, Cell, Dictionary, type TupleItem } from '@ton/core';
import { readPastElections } from '../../src/chain/devnet/contracts/elector.ts';
import { nominatorPoolCode, parseNominatorPoolStorage, singleNominatorCode } from '../../src/chain/devnet/contracts/staking-pools.ts';
import { addPoolDetails, computeValidatorRewards, hex256, type ValidatorReward } from '../../src/rewards/compute.ts';
import { readElectorCredits, readPastElectionsResult, type ElectionRecord } from '../../src/rewards/elector-data.ts';
import { POOL_CODE_HASHES, type PoolAccount } from '../../src/rewards/pools.ts';
import { parseRoundValidatorSet } from '../../src/rewards/validator-set.ts';
import { GRAM, sandboxFinishedRound, type SandboxRound } from './round-rewards-sandbox.ts';
import { mainnetFile, mainnetSkip } from '../helpers/fixtures.ts';

const PAST_ELECTIONS = 81558;
const COMPUTE_RETURNED_STAKE = 130944;
const accountId = (a: Address) => BigInt(`0x${a.hash.toString('hex')}`);
const friendly = (a: Address) => a.toString({ bounceable: true, urlSafe: true, testOnly: false });

describe('round rewards: readers on mainnet data', () => {
    test('the mainnet config fixture: p32 and p34 read by the same reader as the devnet\'s', { skip: mainnetSkip }, () => {
        const root = Cell.fromBoc(Buffer.from(readFileSync(mainnetFile('config-params.boc.b64'), 'utf8').trim(), 'base64'))[0];
        const s = root.beginParse();
        s.skip(256);
        const params = Dictionary.loadDirect(Dictionary.Keys.Int(32), Dictionary.Values.Cell(), s.loadRef());
        const p34 = parseRoundValidatorSet(params.get(34)!);
        const p32 = parseRoundValidatorSet(params.get(32)!);
        assert.equal(p34.total, 316);
        assert.equal(p34.list.length, 316);
        assert.deepEqual(p34.list.map(v => v.index), [...Array(316).keys()]);
        assert.equal(p34.utimeUntil - p34.utimeSince, 65536, 'mainnet rounds last 65536 s');
        assert.equal(p32.utimeUntil, p34.utimeSince, 'the previous round ends where this one starts');
        assert.equal(new Set(p34.list.map(v => v.publicKey)).size, 316);
        assert.equal(p34.hash, BigInt(`0x${params.get(34)!.hash().toString('hex')}`));
    });

    test('pool code hashes: mainnet\'s and the devnet\'s own contracts', () => {
        assert.equal(POOL_CODE_HASHES.get(nominatorPoolCode().hash().toString('hex')), 'nominator-pool-v1.0');
        assert.equal(POOL_CODE_HASHES.get(singleNominatorCode().hash().toString('hex')), 'single-nominator-pool-v1.1');
        assert.equal(POOL_CODE_HASHES.get('9a3ec14bc098f6b44064c305222caea2800f17dda85ee6a8198a7095ede10dcf'), 'nominator-pool-v1.0');
    });
});

describe('round rewards from the sandbox elector after full rounds (nominator pool, single-nominator pool, wallets)', () => {
    let round: SandboxRound;
    let record: ElectionRecord;
    let rows: ValidatorReward[];
    let deep: ValidatorReward[];
    let stackValue: TupleItem;

    before(async () => {
        round = await sandboxFinishedRound({ plain: 4, nominators: 3 });
        stackValue = (await round.elector(PAST_ELECTIONS))[0];
        const records = readPastElectionsResult(stackValue);
        const set = parseRoundValidatorSet(round.p34);
        record = records.find(r => r.vsetHash === set.hash)!;
        assert.ok(record, 'the round\'s record is found by its vset hash');
        const computed = computeValidatorRewards({ validators: set.list, election: record });
        rows = computed.rows;
        const accounts = new Map<string, PoolAccount | null>();
        for (const src of computed.srcAddrs) {
            if (src !== null) accounts.set(hex256(src), await round.account(new Address(-1, Buffer.from(hex256(src), 'hex'))));
        }
        const electorData = (await round.account(new Address(-1, Buffer.alloc(32, 0x33))))!.data!;
        deep = addPoolDetails(rows.map(r => ({ ...r })), computed.srcAddrs, { accounts, credits: readElectorCredits(electorData) });
    });

    test('the record is the election of the round, with bonuses from the fee messages', () => {
        assert.equal(record.electionId, round.electionId);
        assert.ok(record.bonuses >= round.fees, `bonuses ${record.bonuses} include the fees ${round.fees}`);
        assert.equal(rows.length, parseRoundValidatorSet(round.p34).list.length);
        assert.equal(rows.length, 6, 'the four wallets and the two pools were elected');
    });

    test('every reward equals an independent recomputation from the frozen dict (devnet reader of past_elections)', () => {
        const independent = readPastElections(stackValue).find(e => e.electionId === round.electionId)!;
        let total = 0n;
        for (const f of independent.frozen.values()) total += f.trueStake;
        assert.equal(total, independent.totalStake, 'Σ true_stake == total_stake');
        for (const row of rows) {
            const f = independent.frozen.get(BigInt(`0x${row.public_key}`))!;
            assert.ok(f, row.public_key);
            assert.equal(row.effective_stake, f.trueStake);
            assert.equal(row.reward, (independent.bonuses * f.trueStake) / total);
            assert.ok(Math.abs(row.weight - Number(f.trueStake) / Number(total)) < 1e-12);
            assert.equal(row.pool, friendly(new Address(-1, Buffer.from(f.srcAddr.toString(16).padStart(64, '0'), 'hex'))));
        }
    });

    test('invariants: Σ rewards ≤ bonuses (remainder < validators), weights sum to 1, ranks by stake', () => {
        const sum = rows.reduce((s, r) => s + r.reward, 0n);
        assert.ok(sum <= record.bonuses);
        assert.ok(record.bonuses - sum < BigInt(rows.length));
        assert.ok(Math.abs(rows.reduce((s, r) => s + r.weight, 0) - 1) < 1e-9);
        assert.deepEqual(rows.map(r => r.rank), [1, 2, 3, 4, 5, 6]);
        for (let i = 1; i < rows.length; i++) assert.ok(rows[i - 1].effective_stake >= rows[i].effective_stake);
        assert.equal(new Set(rows.map(r => r.public_key)).size, rows.length);
        for (const r of rows) assert.match(r.public_key, /^[0-9a-f]{64}$/);
    });

    test('deep: pool types by code hash; total_stake = effective + compute_returned_stake', async () => {
        const byPool = new Map(deep.map(r => [r.pool, r]));
        const np = byPool.get(friendly(round.nominatorPool))!;
        const sn = byPool.get(friendly(round.singlePool))!;
        assert.equal(np.pool_type, 'nominator-pool-v1.0');
        assert.equal(sn.pool_type, 'single-nominator-pool-v1.1');
        assert.equal(sn.owner_address, friendly(round.owner));
        assert.equal(sn.validator_address, friendly(round.singleValidator));
        assert.equal(sn.nominators, undefined);
        for (const r of deep) {
            if (r !== np && r !== sn) assert.equal(r.pool_type, 'other');
            const address = Address.parse(r.pool!);
            const stack = await round.elector(COMPUTE_RETURNED_STAKE, [{ type: 'int', value: accountId(address) }]);
            const credit = (stack[0] as { value: bigint }).value;
            assert.equal(r.total_stake, r.effective_stake + credit, r.pool);
            assert.ok(r.total_stake! >= r.effective_stake);
        }
    });

    test('deep: nominators split (1 − share) × the pool\'s reward pro rata to their stakes', async () => {
        const np = deep.find(r => r.pool_type === 'nominator-pool-v1.0')!;
        const data = parseNominatorPoolStorage((await round.account(round.nominatorPool))!.data!);
        assert.equal(np.validator_reward_share, 0.3);
        assert.equal(np.validator_address, friendly(round.nominatorPoolConfig.validatorAddress));
        assert.equal(np.validator_stake, data.validatorAmount);
        assert.equal(np.nominators_count, 3);
        const nominators = np.nominators!;
        assert.equal(nominators.length, 3);
        const ns = [...data.nominators.values()].reduce((s, n) => s + n.amount, 0n);
        assert.equal(np.nominators_stake, ns);
        assert.equal(nominators.reduce((s, n) => s + n.stake, 0n), ns);
        const vr = (np.reward * 3000n) / 10000n;
        const nr = np.reward - vr;
        const sum = nominators.reduce((s, n) => s + n.reward, 0n);
        assert.ok(sum <= nr && nr - sum < BigInt(nominators.length), `Σ nominator rewards ${sum} vs ${nr}`);
        assert.ok(Math.abs(Number(sum) - 0.7 * Number(np.reward)) <= nominators.length + 1e-6 * Number(np.reward));
        assert.ok(Math.abs(nominators.reduce((s, n) => s + n.weight, 0) - 1) < 1e-9);
        for (const n of nominators) {
            const entry = data.nominators.get(accountId(Address.parse(n.address)))!;
            assert.equal(n.stake, entry.amount);
            assert.equal(n.reward, (nr * entry.amount) / ns);
            const funds = np.total_stake! > data.validatorAmount + ns ? np.total_stake! : data.validatorAmount + ns;
            assert.equal(n.effective_stake, (entry.amount * np.effective_stake) / funds);
            assert.match(n.address, /^EQ/);
        }
        assert.ok(nominators.reduce((s, n) => s + n.effective_stake, 0n) <= np.effective_stake);
        assert.ok(np.reward > 0n && GRAM > 0n);
    });
});
