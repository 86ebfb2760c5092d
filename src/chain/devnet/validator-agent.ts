import { internal, type Address, type Cell, type MessageRelaxed } from '@ton/core';
import type { TvmChain } from './tvm-chain.ts';
import type { DevnetStaking, DevnetValidator } from './elections.ts';
import type { DevnetWallet } from './wallets.ts';
import { ELECTOR_ADDRESS, newStakeBody, parseElectorData, recoverStakeBody, type ElectorState } from './contracts/elector.ts';
import { CONFIG_ADDRESS, configParamsDict, parseConfigData } from './contracts/config.ts';
import {
    NOMINATOR_POOL_AMOUNTS, NOMINATOR_POOL_STATE, SINGLE_NOMINATOR_AMOUNTS, parseNominatorPoolStorage, poolNewStakeBody, processWithdrawRequestsBody,
    recoverStakeBody as poolRecoverStakeBody, signNewStakeRequest, updateValidatorSetBody,
} from './contracts/staking-pools.ts';

const GRAM = 1_000_000_000n;
/** max_factor of every devnet stake (3.0, p17's max_stake_factor). */
const MAX_FACTOR = 3 * 65536;

interface AccountView {
    balance: bigint;
    data: Cell | null;
}

async function view(chain: TvmChain, address: Address): Promise<AccountView> {
    const account = chain.shardAccount(address).account;
    if (!account) return { balance: 0n, data: null };
    const state = account.storage.state;
    return { balance: account.storage.balance.coins, data: state.type === 'active' ? state.state.data ?? null : null };
}

/**
 * What the devnet's validators do in a masterchain block, as mytonctrl does for a real validator:
 * while an election is open, each stakes (signed with its key) through its route — the nominator
 * pool, the single-nominator pool, or its own wallet — unless it already has; the nominator pool is
 * told of every change of p34 while its stake is out; unfrozen stakes are recovered (the pools then
 * pay the round's reward out); the pool's withdraw requests are processed once it is idle.
 * Returns, per validator wallet, the messages it sends in this block (one transfer each).
 */
export async function validatorActions(chain: TvmChain, staking: DevnetStaking, utime: number): Promise<Array<{ wallet: DevnetWallet; messages: MessageRelaxed[] }>> {
    const elector = await view(chain, ELECTOR_ADDRESS);
    const config = await view(chain, CONFIG_ADDRESS);
    if (!elector.data || !config.data) return [];
    const state = parseElectorData(elector.data);
    const p34 = configParamsDict(parseConfigData(config.data).configDict).get(34);
    const p34Hash = p34 ? BigInt(`0x${p34.hash().toString('hex')}`) : 0n;
    const actions: Array<{ wallet: DevnetWallet; messages: MessageRelaxed[] }> = [];
    for (const validator of staking.validators) {
        const messages = await validatorMessages(chain, staking, validator, state, p34Hash, utime);
        if (messages.length > 0) actions.push({ wallet: validator.wallet, messages });
    }
    return actions;
}

function electionOpen(state: ElectorState, utime: number): state is ElectorState & { elect: NonNullable<ElectorState['elect']> } {
    return state.elect !== null && !state.elect.finished && utime < state.elect.electClose;
}

async function validatorMessages(
    chain: TvmChain, staking: DevnetStaking, v: DevnetValidator, state: ElectorState, p34Hash: bigint, utime: number,
): Promise<MessageRelaxed[]> {
    const wallet = await view(chain, v.wallet.address);
    if (wallet.balance < 3n * GRAM) return [];
    const messages: MessageRelaxed[] = [];
    const fromId = BigInt(`0x${v.stakeFrom.hash.toString('hex')}`);
    const credit = state.credits.get(fromId) ?? 0n;
    const publicKey = BigInt(`0x${v.keys.publicKey.toString('hex')}`);
    const open = electionOpen(state, utime);
    const staked = open && state.elect!.members.has(publicKey);
    const request = (stakeAt: number) => signNewStakeRequest({
        secretKey: v.keys.secretKey, publicKey: v.keys.publicKey, stakeAt, maxFactor: MAX_FACTOR, src: v.stakeFrom, adnlAddr: v.adnl,
    });

    if (v.route === 'wallet') {
        if (credit > 0n) messages.push(internal({ to: ELECTOR_ADDRESS, value: GRAM, bounce: true, body: recoverStakeBody(BigInt(utime)) }));
        if (open && !staked && wallet.balance >= v.stake + 3n * GRAM) {
            messages.push(internal({
                to: ELECTOR_ADDRESS, value: v.stake + GRAM, bounce: true,
                body: newStakeBody({
                    publicKey: v.keys.publicKey, secretKey: v.keys.secretKey, stakeAt: state.elect!.electAt, maxFactor: MAX_FACTOR,
                    adnlAddr: v.adnl, src: v.stakeFrom, queryId: BigInt(state.elect!.electAt),
                }),
            }));
        }
        return messages;
    }

    const pool = await view(chain, v.stakeFrom);
    if (!pool.data) return [];
    if (v.route === 'single_nominator') {
        if (credit > 0n) messages.push(internal({ to: v.stakeFrom, value: GRAM, bounce: true, body: poolRecoverStakeBody(BigInt(utime)) }));
        const stake = pool.balance - SINGLE_NOMINATOR_AMOUNTS.minTonForStorage - GRAM;
        if (open && !staked && credit === 0n && stake >= 100n * GRAM) {
            messages.push(internal({ to: v.stakeFrom, value: 2n * GRAM, bounce: true, body: poolNewStakeBody(BigInt(state.elect!.electAt), stake, request(state.elect!.electAt)) }));
        }
        return messages;
    }

    // The nominator pool.
    const data = parseNominatorPoolStorage(pool.data);
    if (data.state !== NOMINATOR_POOL_STATE.idle) {
        if (p34Hash !== data.savedValidatorSetHash && data.validatorSetChangesCount < 3) {
            messages.push(internal({ to: v.stakeFrom, value: GRAM, bounce: true, body: updateValidatorSetBody(BigInt(utime)) }));
        } else if (credit > 0n && data.validatorSetChangesCount >= 2
            && (data.validatorSetChangesCount > 2 || utime - data.validatorSetChangeTime > data.stakeHeldFor + 60)) {
            messages.push(internal({ to: v.stakeFrom, value: GRAM, bounce: true, body: poolRecoverStakeBody(BigInt(utime)) }));
        }
        return messages;
    }
    if (data.withdrawRequests) {
        messages.push(internal({ to: v.stakeFrom, value: GRAM, bounce: true, body: processWithdrawRequestsBody(10, BigInt(utime)) }));
        return messages;
    }
    const stake = pool.balance - NOMINATOR_POOL_AMOUNTS.minTonsForStorage - 5n * GRAM;
    if (open && !staked && data.validatorAmount >= data.minValidatorStake && stake >= NOMINATOR_POOL_AMOUNTS.minStakeToSend) {
        messages.push(internal({ to: v.stakeFrom, value: 2n * GRAM, bounce: true, body: poolNewStakeBody(BigInt(state.elect!.electAt), stake, request(state.elect!.electAt)) }));
    }
    return messages;
}
