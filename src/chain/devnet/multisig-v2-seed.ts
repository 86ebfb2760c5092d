import { Address, internal } from '@ton/core';
import { createHash } from 'node:crypto';
import { JETTON_TON, jettonTransferBody, jettonWalletAddress } from './contracts/jetton.ts';
import { LIBRARIAN_TON, publishLibraryBody } from './contracts/librarian.ts';
import {
    multisigAddress, multisigApproveBody, multisigNewOrderBody, multisigOrderAddress, multisigOrderCode, multisigStateInit, multisigTextApproveBody,
    type MultisigAction, type MultisigConfig,
} from './contracts/multisig-v2.ts';
import { commentCell, commentPayload } from './contracts/payload.ts';
import { devnetLibraryJetton } from './library-seed.ts';
import { devnetTokens, type TokenStep } from './token-seed.ts';
import type { DevnetWallet } from './wallets.ts';

const GRAM = 1_000_000_000n;
const DUSD = 1_000_000n;

/** A signer address nobody holds the key of (it never acts): fixed, so the multisigs' addresses are. */
export function idleSigner(n: number): Address {
    return new Address(0, createHash('sha256').update(`devnet multisig v2 idle signer ${n}`).digest());
}

/** Grams sent with each new_order (above the order processing cost; the rest stays in the order until it executes). */
export const MULTISIG_V2_TON = { deploy: 10n * GRAM, newOrder: GRAM, approve: 100_000_000n } as const;

/** How long the seeded orders stay valid (seconds after the block that proposes them); the expired one only a few seconds. */
export const ORDER_LIFETIME = 30 * 86_400;
export const SHORT_ORDER_LIFETIME = 3;

/** What the seeded orders do: the executed order's gram and jetton transfers, and the parameter change. */
export const SEED_ORDER_TERMS = {
    executedGrams: GRAM,
    executedJettons: 100n * DUSD,
    jettonForwardGrams: JETTON_TON.transfer + 10_000_000n,
    fundedJettons: 500n * DUSD,
    pendingGrams: 2n * GRAM,
    textApprovedGrams: 500_000_000n,
    expiredGrams: 300_000_000n,
    proposedGrams: 700_000_000n,
} as const;

export interface DevnetMultisigV2 {
    name: string;
    config: MultisigConfig;
    address: Address;
}

export interface DevnetMultisigOrder {
    name: string;
    multisig: DevnetMultisigV2;
    seqno: bigint;
    address: Address;
}

export interface DevnetMultisigsV2 {
    /** 2-of-3: alice-v3r2, bob-v4r2, the faucet; no proposers. Holds DUSD. */
    small: DevnetMultisigV2;
    /** 3-of-5: the faucet, alice-v3r2, bob-v4r2 and two idle signers; bob-v5r1 may propose. */
    large: DevnetMultisigV2;
    orders: {
        /** small #0: 1 gram and 100 DUSD to bob-v5r1, proposed by alice, approved by bob-v4r2: executed. */
        executed: DevnetMultisigOrder;
        /** small #1: proposed by the faucet, nobody else approved. */
        pending: DevnetMultisigOrder;
        /** small #2: proposed by bob-v4r2, approved by alice with the text comment "approve": executed. */
        textApproved: DevnetMultisigOrder;
        /** small #3: proposed by alice, expiring a few seconds after it was made. */
        expired: DevnetMultisigOrder;
        /** large #0: proposed by bob-v5r1 (a proposer, no approval), approved by alice: 1 of 3. */
        partial: DevnetMultisigOrder;
        /** large #1: update_multisig_params (threshold 2 of faucet, alice, bob-v5r1; proposer bob-v4r2), proposed by the faucet: 1 of 3. */
        changeParams: DevnetMultisigOrder;
    };
    /** The parameters the changeParams order would give the large multisig. */
    newParams: { threshold: number; signers: Address[]; proposers: Address[] };
}

export function devnetMultisigsV2(w: Map<string, DevnetWallet>): DevnetMultisigsV2 {
    const a = (name: string) => w.get(name)!.address;
    const multisig = (name: string, config: MultisigConfig): DevnetMultisigV2 => ({ name, config, address: multisigAddress(config) });
    const small = multisig('devnet-multisig-v2-2of3', {
        threshold: 2, signers: [a('alice-v3r2'), a('bob-v4r2'), a('faucet')], proposers: [], allowArbitrarySeqno: false,
    });
    const large = multisig('devnet-multisig-v2-3of5', {
        threshold: 3, signers: [a('faucet'), a('alice-v3r2'), a('bob-v4r2'), idleSigner(1), idleSigner(2)], proposers: [a('bob-v5r1')], allowArbitrarySeqno: false,
    });
    const order = (name: string, m: DevnetMultisigV2, seqno: bigint): DevnetMultisigOrder => ({ name, multisig: m, seqno, address: multisigOrderAddress(m.address, seqno) });
    return {
        small,
        large,
        orders: {
            executed: order('multisig-v2-2of3-order-0-executed', small, 0n),
            pending: order('multisig-v2-2of3-order-1-pending', small, 1n),
            textApproved: order('multisig-v2-2of3-order-2-text-approved', small, 2n),
            expired: order('multisig-v2-2of3-order-3-expired', small, 3n),
            partial: order('multisig-v2-3of5-order-0-partial', large, 0n),
            changeParams: order('multisig-v2-3of5-order-1-change-params', large, 1n),
        },
        newParams: { threshold: 2, signers: [a('faucet'), a('alice-v3r2'), a('bob-v5r1')], proposers: [a('bob-v4r2')] },
    };
}

/** The seeded orders by name (what the manifest lists). */
export function devnetMultisigOrders(m: DevnetMultisigsV2): DevnetMultisigOrder[] {
    return Object.values(m.orders);
}

const send = (to: Address, value: bigint, text: string): MultisigAction => ({
    type: 'send_message', mode: 3, message: internal({ to, value, bounce: false, body: commentCell(text) }),
});

/** The actions of each seeded order. */
export function seedOrderActions(w: Map<string, DevnetWallet>, m: DevnetMultisigsV2): Record<keyof DevnetMultisigsV2['orders'], MultisigAction[]> {
    const a = (name: string) => w.get(name)!.address;
    const t = SEED_ORDER_TERMS;
    const dollar = devnetTokens(w).dollar.address;
    return {
        executed: [
            send(a('bob-v5r1'), t.executedGrams, 'paid by the 2-of-3 multisig'),
            {
                type: 'send_message', mode: 3,
                message: internal({
                    to: jettonWalletAddress(m.small.address, dollar), value: t.jettonForwardGrams, bounce: true,
                    body: jettonTransferBody({
                        queryId: 21n, amount: t.executedJettons, destination: a('bob-v5r1'), responseDestination: m.small.address,
                        forwardTonAmount: 1n, forwardPayload: commentPayload('DUSD from the 2-of-3 multisig'),
                    }),
                }),
            },
        ],
        pending: [send(a('bob-v5r1'), t.pendingGrams, 'waiting for a second signature')],
        textApproved: [send(a('faucet'), t.textApprovedGrams, 'approved by a comment')],
        expired: [send(a('alice-v3r2'), t.expiredGrams, 'too late')],
        partial: [send(a('bob-v5r1'), t.proposedGrams, 'proposed by a proposer')],
        changeParams: [{ type: 'update_multisig_params', ...m.newParams }],
    };
}

type Multisig2Step = Omit<TokenStep, 'messages'> & {
    messages: (w: Map<string, DevnetWallet>, m: DevnetMultisigsV2, utime: number) => ReturnType<TokenStep['messages']>;
};

function propose(w: Map<string, DevnetWallet>, m: DevnetMultisigsV2, key: keyof DevnetMultisigsV2['orders'], who: { isSigner: boolean; index: number }, expirationDate: number) {
    const order = m.orders[key];
    return [internal({
        to: order.multisig.address, value: MULTISIG_V2_TON.newOrder, bounce: true,
        body: multisigNewOrderBody({ orderSeqno: order.seqno, ...who, expirationDate, order: seedOrderActions(w, m)[key], queryId: 30n + order.seqno }),
    })];
}

function approve(order: DevnetMultisigOrder, signerIndex: number | 'text') {
    return [internal({
        to: order.address, value: MULTISIG_V2_TON.approve, bounce: true,
        body: signerIndex === 'text' ? multisigTextApproveBody() : multisigApproveBody(signerIndex, 40n + order.seqno),
    })];
}

/**
 * Multisig v2 activity: the librarian publishes the order code (orders are deployed with a library
 * cell pointing at it), alice deploys a 2-of-3 and a 3-of-5 multisig and gives the first DUSD, and
 * orders in every state are proposed and approved (with the approve op and with the comment).
 */
export const MULTISIG_V2_STEPS: Multisig2Step[] = [
    {
        label: 'librarian publishes the multisig v2 order code as a public library',
        from: 'faucet',
        messages: w => [internal({ to: devnetLibraryJetton(w).librarian, value: LIBRARIAN_TON.publish, bounce: true, body: publishLibraryBody(multisigOrderCode(), 20n) })],
    },
    {
        label: 'alice deploys a 2-of-3 and a 3-of-5 multisig v2',
        from: 'alice-v3r2',
        messages: (_w, m) => [m.small, m.large].map(ms => internal({
            to: ms.address, value: MULTISIG_V2_TON.deploy, bounce: false, init: multisigStateInit(ms.config),
        })),
    },
    {
        label: 'alice sends 500 DUSD to the 2-of-3 multisig v2',
        from: 'alice-v3r2',
        messages: (w, m) => [internal({
            to: jettonWalletAddress(w.get('alice-v3r2')!.address, devnetTokens(w).dollar.address), value: JETTON_TON.transfer + 10_000_000n, bounce: true,
            body: jettonTransferBody({
                queryId: 20n, amount: SEED_ORDER_TERMS.fundedJettons, destination: m.small.address, responseDestination: w.get('alice-v3r2')!.address,
                forwardTonAmount: 1n, forwardPayload: commentPayload('for the multisig'),
            }),
        })],
    },
    {
        label: 'alice proposes order 0 of the 2-of-3: 1 gram and 100 DUSD to bob',
        from: 'alice-v3r2',
        messages: (w, m, utime) => propose(w, m, 'executed', { isSigner: true, index: 0 }, utime + ORDER_LIFETIME),
    },
    {
        label: 'bob-v4r2 approves order 0 of the 2-of-3, which executes',
        from: 'bob-v4r2',
        messages: (_w, m) => approve(m.orders.executed, 1),
    },
    {
        label: 'faucet proposes order 1 of the 2-of-3 (left pending)',
        from: 'faucet',
        messages: (w, m, utime) => propose(w, m, 'pending', { isSigner: true, index: 2 }, utime + ORDER_LIFETIME),
    },
    {
        label: 'bob-v4r2 proposes order 2 of the 2-of-3',
        from: 'bob-v4r2',
        messages: (w, m, utime) => propose(w, m, 'textApproved', { isSigner: true, index: 1 }, utime + ORDER_LIFETIME),
    },
    {
        label: 'alice approves order 2 of the 2-of-3 with the comment "approve", which executes',
        from: 'alice-v3r2',
        messages: (_w, m) => approve(m.orders.textApproved, 'text'),
    },
    {
        label: `alice proposes order 3 of the 2-of-3, expiring ${SHORT_ORDER_LIFETIME} s later`,
        from: 'alice-v3r2',
        messages: (w, m, utime) => propose(w, m, 'expired', { isSigner: true, index: 0 }, utime + SHORT_ORDER_LIFETIME),
    },
    {
        label: 'bob-v5r1 (a proposer, not a signer) proposes order 0 of the 3-of-5',
        from: 'bob-v5r1',
        messages: (w, m, utime) => propose(w, m, 'partial', { isSigner: false, index: 0 }, utime + ORDER_LIFETIME),
    },
    {
        label: 'alice approves order 0 of the 3-of-5 (1 of 3)',
        from: 'alice-v3r2',
        messages: (_w, m) => approve(m.orders.partial, 1),
    },
    {
        label: 'faucet proposes order 1 of the 3-of-5: new threshold, signers and proposers (left unexecuted)',
        from: 'faucet',
        messages: (w, m, utime) => propose(w, m, 'changeParams', { isSigner: true, index: 0 }, utime + ORDER_LIFETIME),
    },
];
