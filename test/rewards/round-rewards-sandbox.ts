/**
 * Full election rounds in @ton/sandbox with the devnet's elector and config contracts, and stakes
 * through the devnet's nominator pool, its single-nominator pool and plain wallets — the data a
 * round-rewards computation reads, made by the real contracts (shared by the tests and the bench).
 */
import { Address, beginCell, type Cell, type Transaction, type TupleItem } from '@ton/core';
import { keyPairFromSeed, sha256_sync, type KeyPair } from '@ton/crypto';
import { Blockchain, createShardAccount, internal, type SandboxContract, type TreasuryContract } from '@ton/sandbox';
import { ELECTOR_ADDRESS, FEE_COLLECTOR_SOURCE, electorCode, electorData, newStakeBody } from '../../src/chain/devnet/contracts/elector.ts';
import {
    CONFIG_ADDRESS, addressParam, configCode, configData, configParamsCell, configParamsDict, parseConfigData,
    stakeLimitsParam, validatorCountsParam, validatorSetCell, validatorTimingsParam,
} from '../../src/chain/devnet/contracts/config.ts';
import {
    nominatorDepositBody, nominatorPoolAddress, nominatorPoolStateInit, poolNewStakeBody, signNewStakeRequest,
    singleNominatorAddress, singleNominatorStateInit, validatorDepositBody, type NominatorPoolConfig,
} from '../../src/chain/devnet/contracts/staking-pools.ts';

export const GRAM = 1_000_000_000n;
const T0 = 1_760_000_000;
export const TIMINGS = { electedFor: 600, electionsStartBefore: 300, electionsEndBefore: 120, stakeHeldFor: 300 };

function ok(tx: Transaction): boolean {
    const d = tx.description;
    if (d.type !== 'generic' && d.type !== 'tick-tock') return false;
    return d.computePhase.type === 'vm' && d.computePhase.success && !d.aborted;
}

export interface SandboxRound {
    chain: Blockchain;
    /** The finished round's p34 cell and election id. */
    p34: Cell;
    electionId: number;
    /** The next round's election id. */
    nextElectionId: number;
    nominatorPool: Address;
    singlePool: Address;
    nominatorPoolConfig: NominatorPoolConfig;
    owner: Address;
    singleValidator: Address;
    /** Fees sent from -1:000…0 while the round was active. */
    fees: bigint;
    /** Runs a get-method of the elector. */
    elector(method: number, args?: TupleItem[]): Promise<TupleItem[]>;
    /** Code and data of a masterchain account (null when absent). */
    account(address: Address): Promise<{ code: Cell | null; data: Cell | null } | null>;
}

/**
 * Runs round 1 (validators: `plain` wallets plus one nominator pool and one single-nominator pool)
 * until round 2 has taken over, so round 1 is finished and its record sits in past_elections.
 */
export async function sandboxFinishedRound(options: { plain?: number; nominators?: number } = {}): Promise<SandboxRound> {
    const plain = options.plain ?? 3;
    const nominatorCount = options.nominators ?? 3;
    const chain = await Blockchain.create();
    chain.now = T0 - 100;
    const genesisKey = keyPairFromSeed(sha256_sync('rewards genesis'));
    const params = configParamsDict(chain.config);
    params.set(0, addressParam(CONFIG_ADDRESS));
    params.set(1, addressParam(ELECTOR_ADDRESS));
    params.set(15, validatorTimingsParam(TIMINGS));
    params.set(16, validatorCountsParam({ maxValidators: 400, maxMainValidators: 100, minValidators: 2 }));
    params.set(17, stakeLimitsParam({ minStake: 10n * GRAM, maxStake: 100_000n * GRAM, minTotalStake: 50n * GRAM, maxStakeFactor: 3 * 65536 }));
    params.set(34, validatorSetCell({ utimeSince: T0 - 300, utimeUntil: T0 + TIMINGS.electionsStartBefore, total: 1, main: 1, totalWeight: 1n << 60n, list: [{ publicKey: BigInt(`0x${genesisKey.publicKey.toString('hex')}`), weight: 1n << 60n }] }));
    params.delete(32);
    params.delete(36);
    const root = configParamsCell(params);
    chain.setConfig(root);
    await chain.setShardAccount(CONFIG_ADDRESS, createShardAccount({ address: CONFIG_ADDRESS, code: configCode(), data: configData({ configDict: root, seqno: 0, publicKey: 1n }), balance: 100n * GRAM, workchain: -1 }));
    await chain.setShardAccount(ELECTOR_ADDRESS, createShardAccount({ address: ELECTOR_ADDRESS, code: electorCode(), data: electorData(), balance: 1000n * GRAM, workchain: -1 }));

    const configDict = async () => {
        const acc = (await chain.getContract(CONFIG_ADDRESS)).account.account!;
        if (acc.storage.state.type !== 'active') throw new Error('config contract not active');
        return parseConfigData(acc.storage.state.state.data!).configDict;
    };
    const block = async (now?: number) => {
        if (now !== undefined) chain.now = now;
        for (const address of [ELECTOR_ADDRESS, CONFIG_ADDRESS]) {
            const r = await chain.runTickTock(address, 'tick');
            for (const tx of r.transactions) if (!ok(tx)) throw new Error(`tick of ${address.toRawString()} failed`);
        }
        chain.setConfig(await configDict());
    };
    const send = async (from: SandboxContract<TreasuryContract>, to: Address, value: bigint, body?: Cell, init?: { code: Cell; data: Cell }) => {
        const r = await from.send({ to, value, body, init, bounce: init ? false : true });
        return r.transactions;
    };
    const key = (name: string): KeyPair => keyPairFromSeed(sha256_sync(name));

    await block(T0 - 100);
    await block(T0 + 30);
    await block();
    const round1 = T0 + TIMINGS.electionsStartBefore;

    // nominator pool: validator 'np' with nominators
    const npValidator = await chain.treasury('np validator', { workchain: -1, balance: 1_000_000n * GRAM });
    const nominatorPoolConfig: NominatorPoolConfig = { validatorAddress: npValidator.address, validatorRewardShare: 3000, maxNominatorsCount: 40, minValidatorStake: 100n * GRAM, minNominatorStake: 10n * GRAM };
    const nominatorPool = nominatorPoolAddress(nominatorPoolConfig);
    await send(npValidator, nominatorPool, 20n * GRAM, beginCell().storeUint(1, 32).storeUint(0, 64).endCell(), nominatorPoolStateInit(nominatorPoolConfig) as { code: Cell; data: Cell });
    await send(npValidator, nominatorPool, 1000n * GRAM, validatorDepositBody(1n));
    let deposited = 1000n * GRAM - GRAM;
    for (let i = 0; i < nominatorCount; i++) {
        const n = await chain.treasury(`nominator ${i}`, { balance: 1_000_000n * GRAM });
        const amount = 700n * GRAM + BigInt(i) * 313_131_313_131n;
        await send(n, nominatorPool, amount, nominatorDepositBody());
        deposited += amount - GRAM;
    }
    chain.now = round1 - 250;
    const npKey = key('np key');
    const npStake = deposited - 10n * GRAM;
    const npTxs = await send(npValidator, nominatorPool, 2n * GRAM, poolNewStakeBody(11n, npStake, signNewStakeRequest({ secretKey: npKey.secretKey, publicKey: npKey.publicKey, stakeAt: round1, maxFactor: 3 * 65536, src: nominatorPool, adnlAddr: 0xadn })));
    if (!npTxs.some(t => t.inMessage?.info.src?.toString() === ELECTOR_ADDRESS.toString() && ok(t))) throw new Error('the nominator pool stake got no answer');

    // single-nominator pool
    const owner = await chain.treasury('sn owner', { balance: 1_000_000n * GRAM });
    const snValidator = await chain.treasury('sn validator', { workchain: -1, balance: 1_000_000n * GRAM });
    const singlePool = singleNominatorAddress({ owner: owner.address, validator: snValidator.address });
    await send(owner, singlePool, 2600n * GRAM, undefined, singleNominatorStateInit({ owner: owner.address, validator: snValidator.address }) as { code: Cell; data: Cell });
    const snKey = key('sn key');
    await send(snValidator, singlePool, 2n * GRAM, poolNewStakeBody(12n, 2500n * GRAM, signNewStakeRequest({ secretKey: snKey.secretKey, publicKey: snKey.publicKey, stakeAt: round1, maxFactor: 65536, src: singlePool, adnlAddr: 1n })));

    // plain wallet stakers (with varied stakes and max factors)
    const wallets: { wallet: SandboxContract<TreasuryContract>; key: KeyPair }[] = [];
    for (let i = 0; i < plain; i++) {
        const wallet = await chain.treasury(`plain ${i}`, { workchain: -1, balance: 10_000_000n * GRAM });
        const k = key(`plain key ${i}`);
        wallets.push({ wallet, key: k });
        // stakes within a factor 3 of each other and max_factor 3: every staker is elected
        const stake = 1400n * GRAM + BigInt((i * 7919) % 600) * GRAM + BigInt(i) * 123_456_789n;
        await send(wallet, ELECTOR_ADDRESS, stake + GRAM, newStakeBody({ publicKey: k.publicKey, secretKey: k.secretKey, stakeAt: round1, maxFactor: 3 * 65536, adnlAddr: 0n, src: wallet.address, queryId: BigInt(100 + i) }));
    }

    await block(round1 - TIMINGS.electionsEndBefore);
    await block(round1 - 1);
    await block(round1); // p36 → p34
    await block(); // the elector sees the new p34: round 1 active
    const p34 = (configParamsDict(await configDict())).get(34)!;
    let fees = 0n;
    for (const fee of [37_123_456_789n, 1_700_000_001n, 999_999_999n]) {
        await chain.sendMessage(internal({ from: FEE_COLLECTOR_SOURCE, to: ELECTOR_ADDRESS, value: fee, bounce: false }));
        fees += fee;
    }

    // round 2: two plain validators again, elected and installed: round 1 ends
    await block(round1 + TIMINGS.electedFor - TIMINGS.electionsStartBefore + 1);
    const round2 = round1 + TIMINGS.electedFor;
    for (const [i, { wallet, key: k }] of wallets.slice(0, Math.max(2, Math.min(plain, 2))).entries()) {
        chain.now = round2 - 200 + i;
        await send(wallet, ELECTOR_ADDRESS, 500n * GRAM + GRAM, newStakeBody({ publicKey: k.publicKey, secretKey: k.secretKey, stakeAt: round2, maxFactor: 65536, adnlAddr: 0n, src: wallet.address, queryId: BigInt(200 + i) }));
    }
    await block(round2 - TIMINGS.electionsEndBefore);
    await block(round2);
    await block();

    return {
        chain, p34, electionId: round1, nextElectionId: round2, nominatorPool, singlePool, nominatorPoolConfig,
        owner: owner.address, singleValidator: snValidator.address, fees,
        async elector(method, args = []) {
            const r = await chain.runGetMethod(ELECTOR_ADDRESS, method, args);
            if (r.exitCode !== 0) throw new Error(`elector get-method ${method} exited ${r.exitCode}`);
            return r.stack;
        },
        async account(address) {
            const acc = (await chain.getContract(address)).account.account;
            if (!acc) return null;
            if (acc.storage.state.type !== 'active') return { code: null, data: null };
            return { code: acc.storage.state.state.code ?? null, data: acc.storage.state.state.data ?? null };
        },
    };
}
