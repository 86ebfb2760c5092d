import { beginCell, comment, internal, type MessageRelaxed } from '@ton/core';
import { devnetStaking, type DevnetStaking } from './elections.ts';
import type { DevnetWallet } from './wallets.ts';
import {
    NOMINATOR_POOL_OP, nominatorDepositBody, nominatorPoolStateInit, nominatorWithdrawBody, singleNominatorStateInit, validatorDepositBody,
} from './contracts/staking-pools.ts';

const GRAM = 1_000_000_000n;

/** A seed step of the validator economy: who sends it and what; absent on a chain created without one. */
export interface StakingStep {
    label: string;
    from: string;
    messages: (staking: DevnetStaking) => MessageRelaxed[];
}

/**
 * The pools the devnet's validators stake through and their nominators' money: the TF nominator
 * pool (deployed by its validator, who deposits its own stake), three nominators depositing (one
 * withdraws again), and the single-nominator pool funded by its owner. The validators then stake
 * whenever elections are open (validator-agent.ts).
 */
export const STAKING_STEPS: StakingStep[] = [
    {
        label: 'validator-pool deploys the nominator pool and deposits 1500 gram of its own',
        from: 'validator-pool',
        messages: s => [
            internal({
                to: s.nominatorPool.address, value: 20n * GRAM, bounce: false, init: nominatorPoolStateInit(s.nominatorPool.config),
                body: beginCell().storeUint(NOMINATOR_POOL_OP.topUp, 32).storeUint(0, 64).endCell(),
            }),
            internal({ to: s.nominatorPool.address, value: 1_501n * GRAM, bounce: true, body: validatorDepositBody(1n) }),
        ],
    },
    {
        label: 'nominator-1 deposits 2000 gram in the nominator pool',
        from: 'nominator-1',
        messages: s => [internal({ to: s.nominatorPool.address, value: 2_001n * GRAM, bounce: true, body: nominatorDepositBody() })],
    },
    {
        label: 'nominator-2 deposits 1500 gram in the nominator pool',
        from: 'nominator-2',
        messages: s => [internal({ to: s.nominatorPool.address, value: 1_501n * GRAM, bounce: true, body: nominatorDepositBody() })],
    },
    {
        label: 'nominator-3 deposits 300 gram in the nominator pool',
        from: 'nominator-3',
        messages: s => [internal({ to: s.nominatorPool.address, value: 301n * GRAM, bounce: true, body: nominatorDepositBody() })],
    },
    {
        label: 'nominator-3 withdraws from the nominator pool',
        from: 'nominator-3',
        messages: s => [internal({ to: s.nominatorPool.address, value: GRAM, bounce: true, body: nominatorWithdrawBody() })],
    },
    {
        label: 'single-owner funds a single-nominator pool for validator-single with 5000 gram',
        from: 'single-owner',
        messages: s => [internal({
            to: s.singleNominator.address, value: 5_000n * GRAM, bounce: false, init: singleNominatorStateInit(s.singleNominator.config),
            body: comment('stake for validator-single'),
        })],
    },
];

export function stakingMessages(step: StakingStep, wallets: Map<string, DevnetWallet>): { wallet: DevnetWallet; messages: MessageRelaxed[] } | null {
    const staking = devnetStaking(wallets);
    const wallet = wallets.get(step.from);
    if (!staking || !wallet) return null;
    return { wallet, messages: step.messages(staking) };
}
