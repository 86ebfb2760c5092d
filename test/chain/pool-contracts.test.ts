import { before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { Address, Cell, Dictionary, beginCell, contractAddress, type TupleItem } from '@ton/core';
import { keyPairFromSeed, type KeyPair } from '@ton/crypto';
import { Blockchain, GetMethodError, createShardAccount, type SandboxContract, type TreasuryContract } from '@ton/sandbox';
import { runTolkCompiler } from '@ton/tolk-js';
import { contractArtifact } from '../../src/chain/devnet/contracts/artifacts.ts';
import {
    ELECTOR_OP,
    NOMINATOR_POOL_EXIT,
    NOMINATOR_POOL_STATE,
    SINGLE_NOMINATOR_EXIT,
    cleanUpVotesBody,
    emergencyWithdrawBody,
    nominatorDepositBody,
    nominatorKey,
    nominatorPoolAddress,
    nominatorPoolStateInit,
    nominatorVoteBody,
    nominatorWithdrawBody,
    parseNominatorPoolStorage,
    poolNewStakeBody,
    processWithdrawRequestsBody,
    readNominatorData,
    readNominatorList,
    readPoolData,
    readRoles,
    recoverStakeBody,
    signNewStakeRequest,
    singleNominatorAddress,
    singleNominatorChangeValidatorBody,
    singleNominatorSendRawMsgBody,
    singleNominatorStateInit,
    singleNominatorUpgradeBody,
    singleNominatorWithdrawAllBody,
    singleNominatorWithdrawBody,
    updateValidatorSetBody,
    validatorDepositBody,
    validatorWithdrawBody,
    type NominatorPoolConfig,
} from '../../src/chain/devnet/contracts/staking-pools.ts';
import { commentCell } from '../../src/chain/devnet/contracts/payload.ts';
import { knownCodeByHash } from '../../src/ton/interfaces/known-code.ts';
import { readPoolStakers, stakingPoolLayoutOf } from '../../src/ton/interfaces/staking-pools.ts';
import { describeTx, type Executed } from './executed-transaction.ts';

const GRAM = 1_000_000_000n;
const UTIME = 1_751_461_310;
const ELECTOR = Address.parseRaw(`-1:${'3'.repeat(64)}`);

/**
 * The TEST'S COUNTERPARTY, not the devnet's elector (a colleague writes that one): a minimal
 * stand-in at the elector's address (config param 1) speaking the elector's wire protocol as
 * elector-code.fc does for these messages:
 *   new_stake: checks the masterchain source and the ed25519 signature over
 *     0x654c5074 stake_at max_factor src_addr adnl_addr, and max_factor >= 1.0; keeps
 *     value - 1 gram as the sender's credit; confirms with 0xf374484c (1 gram, mode 2) when
 *     query_id != 0; refusals are 0xee6f454c query_id reason (mode 64, the stake comes back).
 *   recover_stake: sends the whole credit with 0xf96f7324 (mode 64) or answers 0xfffffffe.
 * and two test-only ops: "reward" 0x52657764 account:uint256 adds the value to that credit
 * (the round's bonus), "refuse" 0x52656675 flag:Bool makes new_stake answer reason 3
 * (stake_at is not the open election's).
 */
const TEST_ELECTOR_SOURCE = `
tolk 1.3

const ONE_TON = 1000000000
const OP_REWARD = 0x52657764
const OP_REFUSE = 0x52656675

struct StandInStorage {
    credits: map<uint256, coins>
    refuse: bool
}

fun reply(to: address, op: int, queryId: int, extra: int, amount: int, mode: int) {
    sendRawMessage(beginCell().storeUint(0x18, 6).storeAddress(to).storeCoins(amount)
        .storeUint(0, 1 + 4 + 4 + 64 + 32 + 1 + 1)
        .storeUint(op, 32).storeUint(queryId, 64).storeUint(extra, 32).endCell(), mode);
}

fun onInternalMessage(in: InMessage) {
    var body = in.body;
    if (body.remainingBitsCount() < 32) { return; }
    val op = body.loadUint(32);
    if (op == 0) { return; }
    val queryId = body.loadUint(64);
    var st = StandInStorage.fromCell(contract.getData());
    val (wc, src) = in.senderAddress.getWorkchainAndHash();
    if (op == 0x4e73744b) {
        if (wc != MASTERCHAIN) { reply(in.senderAddress, 0xee6f454c, queryId, 0, 0, 64); return; }
        val pubkey = body.loadUint(256);
        val stakeAt = body.loadUint(32);
        val maxFactor = body.loadUint(32);
        val adnl = body.loadUint(256);
        val signature = body.loadRef().beginParse();
        val signed = beginCell().storeUint(0x654c5074, 32).storeUint(stakeAt, 32).storeUint(maxFactor, 32)
            .storeUint(src, 256).storeUint(adnl, 256).endCell().beginParse();
        if (!isSliceSignatureValid(signed, signature, pubkey)) { reply(in.senderAddress, 0xee6f454c, queryId, 1, 0, 64); return; }
        if (maxFactor < 0x10000) { reply(in.senderAddress, 0xee6f454c, queryId, 6, 0, 64); return; }
        if (st.refuse) { reply(in.senderAddress, 0xee6f454c, queryId, 3, 0, 64); return; }
        val previous = st.credits.get(src);
        st.credits.set(src, (previous.isFound ? (previous.loadValue() as int) : 0) + in.valueCoins - ONE_TON);
        contract.setData(st.toCell());
        if (queryId != 0) { reply(in.senderAddress, 0xf374484c, queryId, 0, ONE_TON, 2); }
        return;
    }
    if (op == 0x47657424) {
        val credit = st.credits.get(src);
        if ((wc != MASTERCHAIN) | !credit.isFound) { reply(in.senderAddress, 0xfffffffe, queryId, op, 0, 64); return; }
        st.credits.delete(src);
        contract.setData(st.toCell());
        reply(in.senderAddress, 0xf96f7324, queryId, 0xf96f7324, credit.loadValue(), 64);
        return;
    }
    if (op == OP_REWARD) {
        val account = body.loadUint(256);
        val previous = st.credits.get(account);
        st.credits.set(account, (previous.isFound ? (previous.loadValue() as int) : 0) + in.valueCoins);
        contract.setData(st.toCell());
        return;
    }
    if (op == OP_REFUSE) {
        st.refuse = body.loadBool();
        contract.setData(st.toCell());
        return;
    }
    reply(in.senderAddress, 0xffffffff, queryId, op, 0, 64);
}

fun onBouncedMessage(in: InMessageBounced) {
}

get fun compute_returned_stake(account: uint256): int {
    val credit = StandInStorage.fromCell(contract.getData()).credits.get(account);
    return credit.isFound ? (credit.loadValue() as int) : 0;
}
`;

let testElectorCode: Cell;

async function compileTestElector(): Promise<Cell> {
    const result = await runTolkCompiler({
        entrypointFileName: 'test-elector.tolk',
        fsReadCallback: path => {
            if (path === 'test-elector.tolk') return TEST_ELECTOR_SOURCE;
            throw new Error(`no ${path}`);
        },
    });
    if (result.status === 'error') throw new Error(result.message);
    return Cell.fromBase64(result.codeBoc64);
}

async function newChain(): Promise<Blockchain> {
    const chain = await Blockchain.create();
    chain.now = UTIME;
    await chain.setShardAccount(ELECTOR, createShardAccount({
        address: ELECTOR,
        code: testElectorCode,
        data: beginCell().storeDict(null).storeBit(false).endCell(),
        balance: 1000n * GRAM,
        workchain: -1,
    }));
    return chain;
}

function executed(result: { transactions: Parameters<typeof describeTx>[0][] }): Executed[] {
    return result.transactions.map(describeTx);
}

function txOf(txs: Executed[], account: Address, op?: number): Executed {
    const found = txs.filter(t => t.account === account.toRawString() && (op === undefined || t.op === op));
    assert.equal(found.length, 1, `one tx of ${account.toRawString()} with op ${op?.toString(16)}; got ${txs.map(t => `${t.account.slice(0, 8)}/${t.op?.toString(16)}/${t.exitCode}`).join(', ')}`);
    return found[0];
}

function assertOk(tx: Executed): void {
    assert.ok(tx.success, `tx of ${tx.account} op 0x${tx.op?.toString(16)} failed with exit ${tx.exitCode}`);
}

function assertExit(tx: Executed, exitCode: number): void {
    assert.equal(tx.exitCode, exitCode, `exit code of op 0x${tx.op?.toString(16)}`);
    assert.equal(tx.success, false);
}

async function balanceOf(chain: Blockchain, address: Address): Promise<bigint> {
    return (await chain.getContract(address)).balance;
}

async function get(chain: Blockchain, address: Address, method: string, args: TupleItem[] = []) {
    return (await chain.runGetMethod(address, method, args)).stackReader;
}

async function dataOf(chain: Blockchain, address: Address): Promise<Cell> {
    const state = (await chain.getContract(address)).accountState;
    assert.equal(state?.type, 'active');
    return state.state.data!;
}

function configDict(chain: Blockchain): Dictionary<number, Cell> {
    return Dictionary.loadDirect(Dictionary.Keys.Int(32), Dictionary.Values.Cell(), chain.config);
}

/** A new current validator set (config param 34): the same set with other utime fields, so another hash. */
function rotateValidatorSet(chain: Blockchain, since: number): void {
    const dict = configDict(chain);
    const s = dict.get(34)!.beginParse();
    assert.equal(s.loadUint(8), 0x12);
    s.skip(64); // utime_since, utime_until
    dict.set(34, beginCell().storeUint(0x12, 8).storeUint(since, 32).storeUint(since + 65536, 32).storeSlice(s).endCell());
    chain.setConfig(beginCell().storeDictDirect(dict).endCell());
}

function stakeHeldForOfConfig(chain: Blockchain): number {
    const s = configDict(chain).get(15)!.beginParse();
    s.skip(96);
    return s.loadUint(32);
}

const electorBody = {
    reward: (account: Address) => beginCell().storeUint(0x52657764, 32).storeUint(0, 64).storeBuffer(account.hash).endCell(),
    refuse: (flag: boolean) => beginCell().storeUint(0x52656675, 32).storeUint(0, 64).storeBit(flag).endCell(),
};

function replyOp(body: Cell): { op: number; queryId: bigint; extra: number } {
    const s = body.beginParse();
    return { op: s.loadUint(32), queryId: s.loadUintBig(64), extra: s.loadUint(32) };
}

before(async () => {
    testElectorCode = await compileTestElector();
});

describe('devnet staking pools: TypeScript side', () => {
    test('the pools are known by code hash and read by the indexer as mainnet\'s layouts', () => {
        const np = knownCodeByHash(contractArtifact('nominator-pool').codeHashHex)?.interfaces ?? [];
        const sn = knownCodeByHash(contractArtifact('single-nominator').codeHashHex)?.interfaces ?? [];
        assert.deepEqual(np, ['tv_pool']);
        assert.deepEqual(sn, ['single_nominator_pool']);
        assert.equal(stakingPoolLayoutOf(np), 'tf_nominator_pool');
        assert.equal(stakingPoolLayoutOf(sn), 'single_nominator');
    });

    test('a new nominator pool\'s data is mainnet\'s layout', () => {
        const validator = new Address(-1, Buffer.alloc(32, 7));
        const config: NominatorPoolConfig = { validatorAddress: validator, validatorRewardShare: 3000, maxNominatorsCount: 40, minValidatorStake: 100n * GRAM, minNominatorStake: 10n * GRAM };
        const data = nominatorPoolStateInit(config).data!;
        const parsed = parseNominatorPoolStorage(data);
        assert.equal(parsed.validatorAddress, BigInt(`0x${validator.hash.toString('hex')}`));
        assert.equal(parsed.validatorRewardShare, 3000);
        assert.equal(parsed.nominators.size, 0);
        assert.equal(nominatorPoolAddress(config).workChain, -1);
        assert.deepEqual(readPoolStakers('tf_nominator_pool', data), []);
        assert.throws(() => nominatorPoolStateInit({ ...config, validatorAddress: new Address(0, Buffer.alloc(32, 7)) }));
        assert.throws(() => nominatorPoolStateInit({ ...config, validatorRewardShare: 10001 }));
    });
});

describe('devnet nominator pool (TF) against a stand-in elector', () => {
    let chain: Blockchain;
    let validator: SandboxContract<TreasuryContract>;
    let n1: SandboxContract<TreasuryContract>;
    let n2: SandboxContract<TreasuryContract>;
    let n3: SandboxContract<TreasuryContract>;
    let stranger: SandboxContract<TreasuryContract>;
    let keys: KeyPair;
    let pool: Address;
    let config: NominatorPoolConfig;

    async function send(from: SandboxContract<TreasuryContract>, value: bigint, body: Cell, to = pool): Promise<Executed[]> {
        return executed(await from.send({ to, value, body, bounce: true }));
    }

    async function poolData() {
        return readPoolData(await get(chain, pool, 'get_pool_data'));
    }

    async function stakeRequestBody(queryId: bigint, value: bigint, stakeAt: number, maxFactor = 0x30000): Promise<Cell> {
        const request = signNewStakeRequest({ secretKey: keys.secretKey, publicKey: keys.publicKey, stakeAt, maxFactor, src: pool, adnlAddr: 0xadn });
        return poolNewStakeBody(queryId, value, request);
    }

    before(async () => {
        chain = await newChain();
        keys = keyPairFromSeed(Buffer.alloc(32, 42));
        validator = await chain.treasury('validator', { workchain: -1 });
        n1 = await chain.treasury('nominator 1');
        n2 = await chain.treasury('nominator 2');
        n3 = await chain.treasury('nominator 3');
        stranger = await chain.treasury('stranger');
        config = { validatorAddress: validator.address, validatorRewardShare: 3000, maxNominatorsCount: 3, minValidatorStake: 100n * GRAM, minNominatorStake: 10n * GRAM };
        pool = nominatorPoolAddress(config);
        const deploy = executed(await validator.send({ to: pool, value: 20n * GRAM, init: nominatorPoolStateInit(config), body: beginCell().storeUint(1, 32).storeUint(0, 64).endCell() }));
        assertOk(txOf(deploy, pool));
        assert.equal(pool.workChain, -1);
    });

    test('get_pool_data of a new pool: idle, the config, no nominators', async () => {
        const d = await poolData();
        assert.equal(d.state, NOMINATOR_POOL_STATE.idle);
        assert.equal(d.nominatorsCount, 0);
        assert.equal(d.validatorAddress, nominatorKey(validator.address));
        assert.equal(d.validatorRewardShare, 3000);
        assert.equal(d.maxNominatorsCount, 3);
        assert.equal(d.minValidatorStake, 100n * GRAM);
        assert.equal(d.minNominatorStake, 10n * GRAM);
        assert.equal(d.nominators.size, 0);
        assert.equal(d.withdrawRequests, null);
        assert.equal((await get(chain, pool, 'list_nominators')).readTupleOpt(), null);
        assert.equal((await get(chain, pool, 'has_withdraw_requests')).readBigNumber(), 0n);
        const missing = await chain.runGetMethod(pool, 'get_nominator_data', [{ type: 'int', value: nominatorKey(n1.address) }]).catch(e => e);
        assert.ok(missing instanceof GetMethodError && missing.exitCode === 86, String(missing));
    });

    test('nominators deposit with "d" (1 gram fee); bad deposits bounce', async () => {
        assertOk(txOf(await send(n1, 1001n * GRAM, nominatorDepositBody()), pool));
        assertOk(txOf(await send(n2, 3001n * GRAM, nominatorDepositBody()), pool));
        assertExit(txOf(await send(n3, 5n * GRAM, nominatorDepositBody()), pool), NOMINATOR_POOL_EXIT.belowMinNominatorStake);
        assertExit(txOf(await send(n3, GRAM, nominatorDepositBody()), pool), NOMINATOR_POOL_EXIT.depositTooSmallForFee);
        assertExit(txOf(await send(n3, 20n * GRAM, commentCell('x')), pool), NOMINATOR_POOL_EXIT.unknownTextCommand);
        assertExit(txOf(await send(n3, 20n * GRAM, commentCell('dd')), pool), 9);
        assertExit(txOf(await send(validator, 20n * GRAM, nominatorDepositBody()), pool), NOMINATOR_POOL_EXIT.nominatorNotBasechain);
        assertExit(txOf(await send(stranger, 20n * GRAM, beginCell().storeUint(8, 32).storeUint(0, 64).endCell()), pool), NOMINATOR_POOL_EXIT.unknownOp);
        assertExit(txOf(await send(stranger, 20n * GRAM, beginCell().endCell()), pool), 9);

        const d = await poolData();
        assert.equal(d.nominatorsCount, 2);
        assert.equal(d.nominators.get(nominatorKey(n1.address))?.amount, 1000n * GRAM);
        assert.equal(d.nominators.get(nominatorKey(n2.address))?.amount, 3000n * GRAM);
        const one = readNominatorData(await get(chain, pool, 'get_nominator_data', [{ type: 'int', value: nominatorKey(n1.address) }]));
        assert.deepEqual(one, { amount: 1000n * GRAM, pendingDepositAmount: 0n, withdrawRequested: false });

        // list_nominators: descending account ids, as mainnet's (consed while iterating ascending)
        const listed = readNominatorList(await get(chain, pool, 'list_nominators'));
        const expected = [n1, n2].map(n => n.address).sort((a, b) => Buffer.compare(b.hash, a.hash));
        assert.deepEqual(listed.map(n => n.address.toRawString()), expected.map(a => a.toRawString()));

        // the indexer reads the same stakers from the data cell
        const stakers = readPoolStakers('tf_nominator_pool', await dataOf(chain, pool));
        assert.deepEqual(
            stakers?.sort((a, b) => a.address.localeCompare(b.address)),
            [{ address: n1.address.toRawString(), amount: 1000n * GRAM, pendingDeposit: 0n }, { address: n2.address.toRawString(), amount: 3000n * GRAM, pendingDeposit: 0n }]
                .sort((a, b) => a.address.localeCompare(b.address)),
        );
    });

    test('the validator deposits (op 4, 1 gram fee) only from its wallet', async () => {
        assertExit(txOf(await send(stranger, 300n * GRAM, validatorDepositBody()), pool), NOMINATOR_POOL_EXIT.notValidatorDeposit);
        assertOk(txOf(await send(validator, 301n * GRAM, validatorDepositBody()), pool));
        assert.equal((await poolData()).validatorAmount, 300n * GRAM);
    });

    test('new_stake: refused unless the validator, a query id, 500 grams, and the balance allow it', async () => {
        const stakeAt = UTIME + 1000;
        assertExit(txOf(await send(stranger, 2n * GRAM, await stakeRequestBody(1n, 4000n * GRAM, stakeAt)), pool), NOMINATOR_POOL_EXIT.notValidatorStake);
        assertExit(txOf(await send(validator, 2n * GRAM, await stakeRequestBody(0n, 4000n * GRAM, stakeAt)), pool), NOMINATOR_POOL_EXIT.stakeQueryId);
        assertExit(txOf(await send(validator, GRAM / 2n, await stakeRequestBody(1n, 4000n * GRAM, stakeAt)), pool), NOMINATOR_POOL_EXIT.stakeFee);
        assertExit(txOf(await send(validator, 2n * GRAM, await stakeRequestBody(1n, 400n * GRAM, stakeAt)), pool), NOMINATOR_POOL_EXIT.stakeTooSmall);
        assertExit(txOf(await send(validator, 2n * GRAM, await stakeRequestBody(1n, 9000n * GRAM, stakeAt)), pool), NOMINATOR_POOL_EXIT.stakeAboveBalance);
        assert.equal((await poolData()).state, NOMINATOR_POOL_STATE.idle);
    });

    test('a stake the elector refuses comes back and the pool is idle again', async () => {
        await send(stranger, GRAM, electorBody.refuse(true), ELECTOR);
        const before = await balanceOf(chain, pool);
        const txs = await send(validator, 2n * GRAM, await stakeRequestBody(5n, 4000n * GRAM, UTIME + 1000));
        assertOk(txOf(txs, pool, ELECTOR_OP.newStake));
        const refusal = txOf(txs, pool, ELECTOR_OP.newStakeError);
        assertOk(refusal);
        assert.deepEqual(replyOp(refusal.body!), { op: ELECTOR_OP.newStakeError, queryId: 5n, extra: 3 });
        assert.ok(refusal.value > 4000n * GRAM - GRAM);
        assert.equal((await poolData()).state, NOMINATOR_POOL_STATE.idle);
        assert.ok(await balanceOf(chain, pool) > before - GRAM);
        await send(stranger, GRAM, electorBody.refuse(false), ELECTOR);
    });

    let stakeAmountSent: bigint;
    let stakeHeldFor: number;

    test('the validator stakes through the pool: new_stake reaches the elector, the confirmation makes the pool state 2', async () => {
        const stakeAt = UTIME + 2000;
        const value = 4000n * GRAM;
        const max = (await get(chain, pool, 'get_max_punishment', [{ type: 'int', value: value - GRAM }])).readBigNumber();
        assert.ok(max > 0n && max <= 300n * GRAM, `max punishment ${max}`);
        const txs = await send(validator, 2n * GRAM, await stakeRequestBody(7n, value, stakeAt));
        const poolTx = txOf(txs, pool, ELECTOR_OP.newStake);
        assertOk(poolTx);
        const forwarded = poolTx.out.find(o => o.to === ELECTOR.toRawString());
        assert.ok(forwarded);
        assert.equal(forwarded.value, value);
        assert.ok(forwarded.bounce);
        const electorTx = txOf(txs, ELECTOR, ELECTOR_OP.newStake);
        assertOk(electorTx);
        assert.equal(electorTx.out.length, 1, 'the stand-in elector accepted the signature');
        const confirmation = txOf(txs, pool, ELECTOR_OP.newStakeOk);
        assertOk(confirmation);
        assert.equal(replyOp(confirmation.body!).queryId, 7n);

        const d = await poolData();
        stakeAmountSent = value - GRAM;
        assert.equal(d.state, NOMINATOR_POOL_STATE.stakeAccepted);
        assert.equal(d.stakeAmountSent, stakeAmountSent);
        assert.equal(d.stakeAt, stakeAt);
        assert.equal(d.validatorSetChangesCount, 0);
        stakeHeldFor = stakeHeldForOfConfig(chain);
        assert.equal(d.stakeHeldFor, stakeHeldFor);
        const p34 = configDict(chain).get(34)!;
        assert.equal(d.savedValidatorSetHash, BigInt(`0x${p34.hash().toString('hex')}`));
        assert.equal(d.validatorSetChangeTime, p34.beginParse().skip(8).loadUint(32));
        assert.equal((await get(chain, ELECTOR, 'compute_returned_stake', [{ type: 'int', value: nominatorKey(pool) }])).readBigNumber(), stakeAmountSent);

        // a second stake while one is out is refused
        assertExit(txOf(await send(validator, 2n * GRAM, await stakeRequestBody(8n, 600n * GRAM, stakeAt)), pool), NOMINATOR_POOL_EXIT.stakeState);
        // the validator cannot withdraw while the stake is out
        assertExit(txOf(await send(validator, GRAM, validatorWithdrawBody(GRAM)), pool), NOMINATOR_POOL_EXIT.validatorWithdrawState);
    });

    test('during the round: deposits wait as pending, "w" becomes a withdraw request', async () => {
        assertOk(txOf(await send(n3, 51n * GRAM, nominatorDepositBody()), pool));
        const w = await send(n1, GRAM, nominatorWithdrawBody());
        assertOk(txOf(w, pool));
        assert.equal(txOf(w, pool).out.length, 1, 'excesses back to the nominator');
        assertExit(txOf(await send(stranger, GRAM, nominatorWithdrawBody()), pool), NOMINATOR_POOL_EXIT.withdrawUnknownNominator);
        // max_nominators_count 3 is reached
        assertExit(txOf(await send(stranger, 20n * GRAM, nominatorDepositBody()), pool), NOMINATOR_POOL_EXIT.tooManyNominators);

        const d = await poolData();
        assert.equal(d.nominatorsCount, 3);
        assert.deepEqual(d.nominators.get(nominatorKey(n3.address)), { amount: 0n, pendingDepositAmount: 50n * GRAM });
        assert.equal((await get(chain, pool, 'has_withdraw_requests')).readBigNumber(), -1n);
        const n1Data = readNominatorData(await get(chain, pool, 'get_nominator_data', [{ type: 'int', value: nominatorKey(n1.address) }]));
        assert.equal(n1Data.withdrawRequested, true);
        const listed = readNominatorList(await get(chain, pool, 'list_nominators'));
        assert.deepEqual(listed.filter(n => n.withdrawRequested).map(n => n.address.toRawString()), [n1.address.toRawString()]);
        const stakers = readPoolStakers('tf_nominator_pool', await dataOf(chain, pool));
        assert.deepEqual(stakers?.find(s => s.address === n3.address.toRawString()), { address: n3.address.toRawString(), amount: 0n, pendingDeposit: 50n * GRAM });
    });

    test('votes on config proposals: "y<hash>" / "n<hash>" from staking nominators and the validator', async () => {
        const hash = 0xd855ffbcf813e50e10beab902d1177529ce79785cae913eb96a72ae8efbcbf47n;
        assertOk(txOf(await send(n2, 2n * GRAM, nominatorVoteBody(hash, true)), pool));
        assertOk(txOf(await send(validator, 2n * GRAM, nominatorVoteBody(hash, false)), pool));
        assertExit(txOf(await send(n2, 2n * GRAM, nominatorVoteBody(hash, true)), pool), NOMINATOR_POOL_EXIT.alreadyVoted);
        assertExit(txOf(await send(n3, 2n * GRAM, nominatorVoteBody(hash, true)), pool), NOMINATOR_POOL_EXIT.voterNoStake); // pending only
        assertExit(txOf(await send(stranger, 2n * GRAM, nominatorVoteBody(hash, true)), pool), NOMINATOR_POOL_EXIT.voterNotNominator);
        assertExit(txOf(await send(n2, 2n * GRAM, commentCell('y!')), pool), NOMINATOR_POOL_EXIT.badHex);
        const votes = await get(chain, pool, 'list_votes');
        const list = votes.readTuple();
        const entry = list.readTuple();
        assert.equal(entry.readBigNumber(), hash);
        assert.equal(entry.readNumber(), UTIME);
        const voters = (await get(chain, pool, 'list_voters', [{ type: 'int', value: hash }])).readTuple();
        const seen = new Map<bigint, bigint>();
        for (let l: typeof voters | null = voters; l; l = l.readTupleOpt()) {
            const v = l.readTuple();
            seen.set(v.readBigNumber(), v.readBigNumber());
        }
        assert.deepEqual(seen, new Map([[nominatorKey(n2.address), -1n], [nominatorKey(validator.address), 0n]]));
        assertOk(txOf(await send(stranger, GRAM, cleanUpVotesBody()), pool));
        assert.ok((await poolData()).configProposalVotings, 'fresh votes are kept');
    });

    test('recover_stake waits for two validator set changes and stake_held_for', async () => {
        assertExit(txOf(await send(stranger, GRAM, recoverStakeBody(9n)), pool), NOMINATOR_POOL_EXIT.recoverTooEarly);
        assertOk(txOf(await send(stranger, GRAM, updateValidatorSetBody()), pool));
        assert.equal((await poolData()).validatorSetChangesCount, 0, 'the set did not change');

        chain.now = UTIME + 2000;
        rotateValidatorSet(chain, UTIME + 2000); // our round starts
        assertOk(txOf(await send(stranger, GRAM, updateValidatorSetBody()), pool));
        assert.equal((await poolData()).validatorSetChangesCount, 1);
        assertExit(txOf(await send(stranger, GRAM, recoverStakeBody(9n)), pool), NOMINATOR_POOL_EXIT.recoverTooEarly);

        chain.now = UTIME + 70000;
        rotateValidatorSet(chain, UTIME + 70000); // our round ends
        assertOk(txOf(await send(stranger, GRAM, updateValidatorSetBody()), pool));
        const d = await poolData();
        assert.equal(d.validatorSetChangesCount, 2);
        assert.equal(d.validatorSetChangeTime, UTIME + 70000);
        assertExit(txOf(await send(stranger, GRAM, recoverStakeBody(9n)), pool), NOMINATOR_POOL_EXIT.recoverRoundNotOver);
        chain.now = UTIME + 70000 + stakeHeldFor + 61;
    });

    test('the stake returns with a reward: validator_reward_share to the validator, the rest to nominators pro rata, pending deposits become stake', async () => {
        const reward = 150n * GRAM;
        assertOk(txOf(await send(stranger, reward, electorBody.reward(pool), ELECTOR), ELECTOR));
        const before = await poolData();
        const txs = await send(stranger, GRAM, recoverStakeBody(9n));
        assertOk(txOf(txs, pool, ELECTOR_OP.recoverStake));
        const electorTx = txOf(txs, ELECTOR, ELECTOR_OP.recoverStake);
        assertOk(electorTx);
        const back = txOf(txs, pool, ELECTOR_OP.recoverStakeOk);
        assertOk(back);
        assert.equal(replyOp(back.body!).queryId, 9n);

        // the pool's reward is what came back above what it sent (the recover message's change included)
        const r = back.value - stakeAmountSent;
        assert.ok(r >= reward && r < reward + GRAM, `reward ${r}`);
        const validatorReward = (r * 3000n) / 10000n;
        const nominatorsReward = r - validatorReward;
        const a1 = before.nominators.get(nominatorKey(n1.address))!.amount;
        const a2 = before.nominators.get(nominatorKey(n2.address))!.amount;
        const total = a1 + a2; // n3 has only a pending deposit: no share

        const d = await poolData();
        assert.equal(d.state, NOMINATOR_POOL_STATE.idle);
        assert.equal(d.stakeAmountSent, 0n);
        assert.equal(d.validatorAmount, before.validatorAmount + validatorReward);
        assert.deepEqual(d.nominators.get(nominatorKey(n1.address)), { amount: a1 + (nominatorsReward * a1) / total, pendingDepositAmount: 0n });
        assert.deepEqual(d.nominators.get(nominatorKey(n2.address)), { amount: a2 + (nominatorsReward * a2) / total, pendingDepositAmount: 0n });
        assert.deepEqual(d.nominators.get(nominatorKey(n3.address)), { amount: 50n * GRAM, pendingDepositAmount: 0n });
        assert.ok(d.withdrawRequests, 'the request waits for op 2');

        // nothing left at the elector; a second recover_stake gets the error answer and changes nothing
        assert.equal((await get(chain, ELECTOR, 'compute_returned_stake', [{ type: 'int', value: nominatorKey(pool) }])).readBigNumber(), 0n);
    });

    test('withdraw requests are honoured after the round (op 2, anyone); op 3 needs a request', async () => {
        const amount = (await poolData()).nominators.get(nominatorKey(n1.address))!.amount;
        assertExit(txOf(await send(stranger, GRAM, emergencyWithdrawBody(n2.address)), pool), NOMINATOR_POOL_EXIT.noWithdrawRequest);
        const txs = await send(stranger, GRAM, processWithdrawRequestsBody(10));
        const tx = txOf(txs, pool);
        assertOk(tx);
        const payout = tx.out.find(o => o.to === n1.address.toRawString());
        assert.ok(payout, 'paid to the nominator');
        // mode 0: the forwarding fee comes out of the amount, as on mainnet
        assert.ok(payout.value <= amount && payout.value > amount - GRAM / 10n, `${payout.value} of ${amount}`);
        assert.equal(payout.bounce, false);
        const d = await poolData();
        assert.equal(d.nominatorsCount, 2);
        assert.equal(d.nominators.get(nominatorKey(n1.address)), undefined);
        assert.equal(d.withdrawRequests, null);
        assert.equal((await get(chain, pool, 'has_withdraw_requests')).readBigNumber(), 0n);
    });

    test('an idle pool pays a "w" at once; the validator withdraws what is not the nominators\'', async () => {
        const amount = (await poolData()).nominators.get(nominatorKey(n3.address))!.amount;
        const txs = await send(n3, GRAM, nominatorWithdrawBody());
        const tx = txOf(txs, pool);
        assertOk(tx);
        const payout = tx.out.find(o => o.to === n3.address.toRawString() && o.value > amount - GRAM / 10n && o.value <= amount);
        assert.equal(payout?.bounce, false);
        assert.equal((await poolData()).nominators.get(nominatorKey(n3.address)), undefined);

        const d = await poolData();
        const balance = await balanceOf(chain, pool);
        const nominators = [...d.nominators.values()].reduce((s, n) => s + n.amount + n.pendingDepositAmount, 0n);
        const free = balance - 10n * GRAM - nominators;
        assertExit(txOf(await send(validator, GRAM, validatorWithdrawBody(free + 2n * GRAM)), pool), NOMINATOR_POOL_EXIT.validatorWithdrawTooMuch);
        assertExit(txOf(await send(stranger, GRAM, validatorWithdrawBody(GRAM)), pool), NOMINATOR_POOL_EXIT.notValidatorWithdraw);
        const w = await send(validator, GRAM, validatorWithdrawBody(100n * GRAM));
        assertOk(txOf(w, pool));
        assert.ok(txOf(w, pool).out.some(o => o.to === validator.address.toRawString() && o.value > 99n * GRAM && o.value <= 100n * GRAM));
        assert.equal((await poolData()).validatorAmount, d.validatorAmount - 100n * GRAM);
    });

    test('a stake cannot be sent while withdraw requests wait', async () => {
        // a fresh round: stake, request, then try to stake again after recovering
        const stakeAt = UTIME + 200000;
        chain.now = UTIME + 150000;
        const txs = await send(validator, 2n * GRAM, await stakeRequestBody(11n, 600n * GRAM, stakeAt));
        assertOk(txOf(txs, pool, ELECTOR_OP.newStakeOk));
        assertOk(txOf(await send(n2, GRAM, nominatorWithdrawBody()), pool));
        // three set changes make recover_stake possible at once
        for (let i = 1; i <= 3; i++) {
            rotateValidatorSet(chain, UTIME + 150000 + i);
            assertOk(txOf(await send(stranger, GRAM, updateValidatorSetBody()), pool));
        }
        assertExit(txOf(await send(stranger, GRAM, updateValidatorSetBody()), pool), NOMINATOR_POOL_EXIT.tooManyValidatorSetChanges);
        assertOk(txOf(await send(stranger, GRAM, recoverStakeBody(12n)), pool, ELECTOR_OP.recoverStakeOk));
        assertExit(txOf(await send(validator, 2n * GRAM, await stakeRequestBody(13n, 600n * GRAM, stakeAt + 1)), pool), NOMINATOR_POOL_EXIT.stakeWithWithdrawRequests);
    });
});

describe('devnet single-nominator pool against a stand-in elector', () => {
    let chain: Blockchain;
    let owner: SandboxContract<TreasuryContract>;
    let validator: SandboxContract<TreasuryContract>;
    let stranger: SandboxContract<TreasuryContract>;
    let keys: KeyPair;
    let pool: Address;

    async function send(from: SandboxContract<TreasuryContract>, value: bigint, body: Cell, to = pool): Promise<Executed[]> {
        return executed(await from.send({ to, value, body, bounce: true }));
    }

    function stakeBody(queryId: bigint, stake: bigint, src = pool): Cell {
        return poolNewStakeBody(queryId, stake, signNewStakeRequest({ secretKey: keys.secretKey, publicKey: keys.publicKey, stakeAt: UTIME + 1000, maxFactor: 0x10000, src, adnlAddr: 1n }));
    }

    before(async () => {
        chain = await newChain();
        keys = keyPairFromSeed(Buffer.alloc(32, 9));
        owner = await chain.treasury('owner');
        validator = await chain.treasury('sn validator', { workchain: -1 });
        stranger = await chain.treasury('sn stranger');
        pool = singleNominatorAddress({ owner: owner.address, validator: validator.address });
        const deploy = executed(await owner.send({ to: pool, value: 5000n * GRAM, init: singleNominatorStateInit({ owner: owner.address, validator: validator.address }), bounce: false }));
        assertOk(txOf(deploy, pool));
    });

    test('get_roles, the get_pool_data stub, and the indexer\'s reader', async () => {
        const roles = readRoles(await get(chain, pool, 'get_roles'));
        assert.ok(roles.owner.equals(owner.address));
        assert.ok(roles.validator.equals(validator.address));
        const stub = readPoolData(await get(chain, pool, 'get_pool_data'));
        assert.equal(stub.state, 2);
        assert.equal(stub.nominatorsCount, 1);
        assert.equal(stub.validatorSetChangesCount, 2);
        assert.equal(stub.nominators.size, 0);
        assert.deepEqual(readPoolStakers('single_nominator', await dataOf(chain, pool)), [{ address: owner.address.toRawString(), amount: null, pendingDeposit: null }]);
    });

    test('the validator stakes through the pool (new_stake forwarded with the rest of its value) and recovers the stake', async () => {
        assertExit(txOf(await send(validator, 2n * GRAM, stakeBody(0n, 3000n * GRAM)), pool), SINGLE_NOMINATOR_EXIT.wrongQueryId);
        assertExit(txOf(await send(validator, GRAM, stakeBody(1n, 3000n * GRAM)), pool), SINGLE_NOMINATOR_EXIT.insufficientElectorFee);
        assertExit(txOf(await send(validator, 2n * GRAM, stakeBody(1n, 5000n * GRAM)), pool), SINGLE_NOMINATOR_EXIT.insufficientBalance);
        // from someone else: accepted, nothing sent
        const ignored = txOf(await send(stranger, 2n * GRAM, stakeBody(1n, 3000n * GRAM)), pool);
        assertOk(ignored);
        assert.equal(ignored.out.length, 0);

        const txs = await send(validator, 2n * GRAM, stakeBody(3n, 3000n * GRAM));
        const tx = txOf(txs, pool, ELECTOR_OP.newStake);
        assertOk(tx);
        const forwarded = tx.out[0];
        assert.equal(forwarded.to, ELECTOR.toRawString());
        assert.ok(forwarded.value > 3000n * GRAM && forwarded.value < 3002n * GRAM, 'stake + the rest of the validator\'s value');
        assertOk(txOf(txs, ELECTOR, ELECTOR_OP.newStake));
        assertOk(txOf(txs, pool, ELECTOR_OP.newStakeOk));
        const credit = (await get(chain, ELECTOR, 'compute_returned_stake', [{ type: 'int', value: nominatorKey(pool) }])).readBigNumber();
        assert.equal(credit, forwarded.value - GRAM);

        await send(stranger, 100n * GRAM, electorBody.reward(pool), ELECTOR);
        const before = await balanceOf(chain, pool);
        const rec = await send(validator, GRAM, recoverStakeBody(4n));
        assertOk(txOf(rec, pool, ELECTOR_OP.recoverStake));
        const back = txOf(rec, pool, ELECTOR_OP.recoverStakeOk);
        assertOk(back);
        assert.ok(back.value >= credit + 100n * GRAM);
        assert.ok(await balanceOf(chain, pool) > before + credit + 99n * GRAM);
        // nothing left: the elector's error answer
        const again = await send(validator, GRAM, recoverStakeBody(5n));
        assert.equal(replyOp(txOf(again, pool, ELECTOR_OP.recoverStakeError).body!).extra, ELECTOR_OP.recoverStake);
    });

    test('owner withdraw (0x1000) is capped at the balance above 1 gram; others cannot withdraw', async () => {
        const ignored = txOf(await send(stranger, GRAM, singleNominatorWithdrawBody(100n * GRAM)), pool);
        assertOk(ignored);
        assert.equal(ignored.out.length, 0);
        const txs = await send(owner, GRAM, singleNominatorWithdrawBody(100n * GRAM));
        const tx = txOf(txs, pool);
        assertOk(tx);
        assert.equal(tx.out[0].to, owner.address.toRawString());
        assert.ok(tx.out[0].value > 100n * GRAM && tx.out[0].value < 101n * GRAM, 'amount + the rest of the owner\'s value');
        assert.ok(tx.out[0].bounce);
    });

    test('change_validator_address, send_raw_msg and the "w" comment (everything above 1 gram)', async () => {
        const other = await chain.treasury('other validator', { workchain: -1 });
        assertOk(txOf(await send(owner, GRAM, singleNominatorChangeValidatorBody(other.address)), pool));
        assert.ok(readRoles(await get(chain, pool, 'get_roles')).validator.equals(other.address));
        // the old validator is nobody now
        assert.equal(txOf(await send(validator, 2n * GRAM, stakeBody(6n, 100n * GRAM)), pool).out.length, 0);
        // a basechain validator cannot stake
        const basechainValidator = await chain.treasury('basechain validator');
        assertOk(txOf(await send(owner, GRAM, singleNominatorChangeValidatorBody(basechainValidator.address)), pool));
        assertExit(txOf(await send(basechainValidator, 2n * GRAM, stakeBody(6n, 100n * GRAM)), pool), SINGLE_NOMINATOR_EXIT.wrongValidatorWc);
        assertOk(txOf(await send(owner, GRAM, singleNominatorChangeValidatorBody(validator.address)), pool));

        // int_msg_info, non-bounceable, to the stranger, 5 grams, no StateInit, empty body
        const raw = beginCell().storeUint(0x10, 6).storeAddress(stranger.address).storeCoins(5n * GRAM).storeUint(0, 1 + 4 + 4 + 64 + 32 + 1 + 1).endCell();
        const rawTx = txOf(await send(owner, GRAM, singleNominatorSendRawMsgBody(1, raw)), pool);
        assertOk(rawTx);
        assert.equal(rawTx.out[0].to, stranger.address.toRawString());
        assert.equal(rawTx.out[0].value, 5n * GRAM);

        const balance = await balanceOf(chain, pool);
        const all = txOf(await send(owner, 2n * GRAM, singleNominatorWithdrawAllBody()), pool);
        assertOk(all);
        assert.ok(all.out[0].value >= balance - GRAM && all.out[0].value <= balance + 2n * GRAM);
        assert.ok(await balanceOf(chain, pool) <= GRAM + GRAM / 10n);
    });

    test('upgrade (0x9903) replaces the code; only the owner can', async () => {
        const code = beginCell().storeUint(0xabcd, 16).endCell();
        assertOk(txOf(await send(stranger, GRAM, singleNominatorUpgradeBody(code)), pool));
        let state = (await chain.getContract(pool)).accountState;
        assert.ok(state?.type === 'active' && state.state.code?.equals(contractArtifactCode('single-nominator')));
        assertOk(txOf(await send(owner, GRAM, singleNominatorUpgradeBody(code)), pool));
        state = (await chain.getContract(pool)).accountState;
        assert.ok(state?.type === 'active' && state.state.code?.equals(code));
    });

    test('a pool outside the masterchain cannot stake', async () => {
        const init = singleNominatorStateInit({ owner: owner.address, validator: validator.address });
        const basechainPool = contractAddress(0, init);
        assertOk(txOf(executed(await owner.send({ to: basechainPool, value: 2000n * GRAM, init, bounce: false })), basechainPool));
        assertExit(txOf(await send(validator, 2n * GRAM, stakeBody(1n, 1000n * GRAM, basechainPool), basechainPool), basechainPool), SINGLE_NOMINATOR_EXIT.wrongNominatorWc);
    });
});

function contractArtifactCode(name: 'single-nominator' | 'nominator-pool'): Cell {
    return Cell.fromBase64(contractArtifact(name).codeBoc64);
}
