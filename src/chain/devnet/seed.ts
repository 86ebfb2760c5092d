import { Address, beginCell, comment, internal, type Cell } from '@ton/core';
import { randomBytes } from 'node:crypto';
import type { TvmChain } from './tvm-chain.ts';
import type { GenesisWallet } from './genesis.ts';
import type { DevnetWallet } from './wallets.ts';
import { TOKEN_STEPS, devnetTokens } from './token-seed.ts';
import { multisigDeployMessages } from './multisig-seed.ts';
import { LIBRARY_STEPS, devnetLibraryJetton } from './library-seed.ts';
import { DEVNET_EXTRA_CURRENCY_ID } from './extra-currency.ts';
import { DNS_STEPS, devnetDns } from './dns-seed.ts';
import { MULTISIG_V2_STEPS, devnetMultisigsV2 } from './multisig-v2-seed.ts';
import { STAKING_STEPS, stakingMessages } from './staking-seed.ts';

const GRAM = 1_000_000_000n;

/** Encrypted comment body (op 0x2167da4b) with an opaque payload, as wallets send them. */
function encryptedComment(): Cell {
    return beginCell().storeUint(0x2167da4b, 32).storeBuffer(randomBytes(64)).endCell();
}

export async function walletSeqno(chain: TvmChain, wallet: DevnetWallet): Promise<number> {
    if (chain.shardAccount(wallet.address).account?.storage.state.type !== 'active') return 0;
    const result = await chain.runGetMethod(wallet.address, 'seqno');
    return result.stackReader.readNumber();
}

/** One seed step: what it does (shown while the devnet seeds) and its external message; null when the step does not apply to this chain (it then sends nothing). */
export interface SeedStep {
    label: string;
    message: (wallets: Map<string, DevnetWallet>, chain: TvmChain, utime: number, metadataBase?: string) => Promise<Cell | null>;
}

async function from(wallet: DevnetWallet, chain: TvmChain, utime: number, messages: Parameters<DevnetWallet['transfer']>[2]): Promise<Cell> {
    return wallet.transfer(await walletSeqno(chain, wallet), utime + 60, messages);
}

/**
 * The activity a new devnet starts with, one step per block: deploys of every wallet version,
 * transfers with text comments, an encrypted comment, a transfer split into several messages, and
 * a bounceable transfer to an address that does not exist, which bounces back.
 */
export const SEED_STEPS: SeedStep[] = [
    {
        label: 'faucet welcomes alice-v3r2 with 10 gram',
        message: async (w, chain, utime) => from(w.get('faucet')!, chain, utime, [
            internal({ to: w.get('alice-v3r2')!.address, value: 10n * GRAM, bounce: false, body: comment('Welcome to the devnet') }),
        ]),
    },
    {
        label: 'alice-v3r2 deploys and pays bob-v4r2',
        message: async (w, chain, utime) => from(w.get('alice-v3r2')!, chain, utime, [
            internal({ to: w.get('bob-v4r2')!.address, value: 1_500_000_000n, bounce: false, body: comment('first transfer from a v3r2 wallet') }),
        ]),
    },
    {
        label: 'bob-v4r2 deploys and pays bob-v5r1',
        message: async (w, chain, utime) => from(w.get('bob-v4r2')!, chain, utime, [
            internal({ to: w.get('bob-v5r1')!.address, value: 2n * GRAM, bounce: false, body: comment('moving coins to my v5r1 wallet') }),
        ]),
    },
    {
        label: 'bob-v5r1 deploys and splits a transfer in three',
        message: async (w, chain, utime) => from(w.get('bob-v5r1')!, chain, utime, [
            internal({ to: w.get('alice-v3r2')!.address, value: 100_000_000n, bounce: true, body: comment('split 1/3') }),
            internal({ to: w.get('bob-v4r2')!.address, value: 200_000_000n, bounce: true, body: comment('split 2/3') }),
            internal({ to: w.get('faucet')!.address, value: 300_000_000n, bounce: true, body: comment('split 3/3') }),
        ]),
    },
    {
        label: 'a transfer to nobody bounces back to bob-v4r2',
        message: async (w, chain, utime) => from(w.get('bob-v4r2')!, chain, utime, [
            internal({ to: new Address(0, randomBytes(32)), value: GRAM, bounce: true, body: comment('this one bounces: nobody lives here') }),
        ]),
    },
    {
        label: 'alice-v3r2 sends an encrypted comment',
        message: async (w, chain, utime) => from(w.get('alice-v3r2')!, chain, utime, [
            internal({ to: w.get('bob-v4r2')!.address, value: 50_000_000n, bounce: true, body: encryptedComment() }),
        ]),
    },
];

/** Token activity follows the wallets' own, one step per block as well. */
SEED_STEPS.push(...TOKEN_STEPS.map((step): SeedStep => ({
    label: step.label,
    message: async (w, chain, utime, base) => from(w.get(step.from)!, chain, utime, step.messages(w, devnetTokens(w, base))),
})));

/** Then a multisig v1 of bob and alice (appended last, so a chain seeded before it only runs this step). */
SEED_STEPS.push({ label: 'multisig v1 of bob and alice deployed', message: async (w, chain, utime) => from(w.get('alice-v3r2')!, chain, utime, multisigDeployMessages(w)) });

export function walletsByName(wallets: GenesisWallet[]): Map<string, DevnetWallet> {
    return new Map(wallets.map(w => [w.name, w.wallet]));
}

/** Then the librarian's public library and the DSTB jetton whose wallets use it (appended after the multisig for the same reason). */
SEED_STEPS.push(...LIBRARY_STEPS.map((step): SeedStep => ({
    label: step.label,
    message: async (w, chain, utime) => from(w.get(step.from)!, chain, utime, step.messages(w, devnetLibraryJetton(w))),
})));

/** The extra currency transfer of the seed: DGEM units (6 decimals: 25.5 DGEM) and the grams sent with them. */
export const SEED_EXTRA_CURRENCY_TRANSFER = {
    from: 'alice-v3r2', to: 'bob-v5r1', amount: 25_500_000n, grams: 100_000_000n, comment: 'devnet gems for bob',
} as const;

/**
 * Then alice sends some of the devnet's extra currency to bob's v5r1 wallet, with grams and a text
 * comment (appended last, so a chain seeded before it only runs this step). A chain created before
 * its genesis minted the currency has none to send: there the step sends nothing.
 */
SEED_STEPS.push({
    label: 'alice-v3r2 sends 25.5 DGEM (an extra currency) to bob-v5r1',
    message: async (w, chain, utime) => {
        const { from: sender, to, amount, grams, comment: text } = SEED_EXTRA_CURRENCY_TRANSFER;
        const wallet = w.get(sender)!;
        const held = chain.shardAccount(wallet.address).account?.storage.balance.other?.get(DEVNET_EXTRA_CURRENCY_ID) ?? 0n;
        if (held < amount) return null;
        return from(wallet, chain, utime, [
            internal({ to: w.get(to)!.address, value: grams, extracurrency: { [DEVNET_EXTRA_CURRENCY_ID]: amount }, bounce: true, body: comment(text) }),
        ]);
    },
});

/** Then the registrar assigns alice.ton to alice, who renews it (appended last, like the steps before). */
SEED_STEPS.push(...DNS_STEPS.map((step): SeedStep => ({
    label: step.label,
    message: async (w, chain, utime) => from(w.get(step.from)!, chain, utime, step.messages(w, devnetDns(w))),
})));

/** Then the multisig v2 activity: the order library, a 2-of-3 and a 3-of-5 multisig, orders in every state (appended last, like the steps before). */
SEED_STEPS.push(...MULTISIG_V2_STEPS.map((step): SeedStep => ({
    label: step.label,
    message: async (w, chain, utime) => from(w.get(step.from)!, chain, utime, step.messages(w, devnetMultisigsV2(w), utime)),
})));

/**
 * Then the validator economy's pools and nominators (appended last, like the steps before): on a
 * chain created without validators (before the devnet had an elector) they send nothing.
 */
SEED_STEPS.push(...STAKING_STEPS.map((step): SeedStep => ({
    label: step.label,
    message: async (w, chain, utime) => {
        const found = stakingMessages(step, w);
        return found ? from(found.wallet, chain, utime, found.messages) : null;
    },
})));
