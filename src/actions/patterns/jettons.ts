import type { Address } from '@ton/core';
import {
    OP_EXCESS, OP_JETTON_BURN, OP_JETTON_BURN_NOTIFICATION, OP_JETTON_INTERNAL_TRANSFER, OP_JETTON_MINT, OP_JETTON_NOTIFY,
    OP_JETTON_TRANSFER, loadJettonInternalTransfer, loadJettonNotify, tryLoad,
} from '../../ton/bodies/index.ts';
import { formatRawAddress } from '../../ton/address.ts';
import type { FlawedJettonTransferDraft, JettonBurnDraft, JettonMintDraft, JettonTransferDraft } from '../action.ts';
import { actionOf, txOf, type Bubble } from '../bubble.ts';
import { tx } from './tx.ts';
import { anyOf, hasInterface, hasOp, isAction, isTx, txWhere } from '../checks.ts';
import { UNKNOWN_ADDRESS, masterOfWallet, ownerOfWallet, walletOfOwner } from '../facts.ts';
import { implementsInterface } from '../interfaces.ts';
import type { Check, Pattern, Straw } from '../straw.ts';
import { forwardPayloadNote } from '../transfer-note.ts';
import type { TraceFacts } from '../trace-input.ts';

/** TEP-74 transfers, burns and mints of jettons. */


function transferBody(b: Bubble) {
    const p = tx(b).parsed;
    return p?.name === 'jetton_transfer' ? p.value : undefined;
}

function internalTransferBody(b: Bubble) {
    const body = tx(b).body;
    return body ? tryLoad(loadJettonInternalTransfer, body) : null;
}

function notifyBody(b: Bubble) {
    const body = tx(b).body;
    return body ? tryLoad(loadJettonNotify, body) : null;
}

const addr = (a: Address | null | undefined) => (a ? formatRawAddress(a) : undefined);

type TransferLike = JettonTransferDraft | FlawedJettonTransferDraft;

function newTransfer(): JettonTransferDraft {
    return { type: 'JettonTransfer', success: false, sendersWallet: UNKNOWN_ADDRESS, recipientsWallet: UNKNOWN_ADDRESS, amount: 0n };
}

/** The sending wallet's transaction: who sends what to whom. */
function buildFromTransfer(d: TransferLike, b: Bubble, facts: TraceFacts, amountFromBody: boolean): void {
    const t = tx(b);
    const body = transferBody(b);
    d.sendersWallet = t.account;
    d.sender = t.inputFrom ?? undefined;
    d.master = masterOfWallet(facts, t.account);
    d.success = t.success;
    if (!body) return;
    d.recipient = addr(body.destination);
    // The receiving wallet's transaction names it; without one (the transfer failed here, or
    // bounced before), the wallet the master names for the recipient, when the facts know it.
    d.recipientsWallet = walletOfOwner(facts, d.recipient, d.master) ?? d.recipientsWallet;
    if (d.type === 'JettonTransfer') {
        if (amountFromBody) d.amount = body.amount;
        d.payload = body.forwardPayload.value;
    } else {
        d.sentAmount = body.amount;
    }
    Object.assign(d, forwardPayloadNote(body.forwardPayload.value, true));
}

/** The receiving wallet's transaction. */
function buildFromInternalTransfer(d: TransferLike, b: Bubble, facts: TraceFacts, amountFromBody: boolean): void {
    const t = tx(b);
    d.recipientsWallet = t.account;
    d.master ??= masterOfWallet(facts, t.account);
    d.success = t.success;
    const body = internalTransferBody(b);
    if (!body) return;
    if (d.type === 'JettonTransfer' && amountFromBody) d.amount = body.amount;
    if (d.type === 'FlawedJettonTransfer') d.receivedAmount = body.amount;
}

function jettonFlow(d: TransferLike, flow: import('../value-flow.ts').ValueFlow): void {
    if (!d.success || d.master === undefined) return;
    const sent = d.type === 'JettonTransfer' ? d.amount : d.sentAmount;
    const received = d.type === 'JettonTransfer' ? d.amount : d.receivedAmount;
    if (d.recipient !== undefined) flow.addJettons(d.recipient, d.master, received);
    if (d.sender !== undefined) flow.subJettons(d.sender, d.master, sent);
}

const notifyChild = <T extends TransferLike>(): Straw<T> => ({
    checks: [isTx, hasOp(OP_JETTON_NOTIFY)],
    build: (d, b) => {
        d.recipient = tx(b).account;
        const notify = notifyBody(b);
        if (notify && d.comment === undefined && d.encryptedComment === undefined) Object.assign(d, forwardPayloadNote(notify.forwardPayload.value, true));
    },
    optional: true,
});

const excessChild = <T extends TransferLike>(): Straw<T> => ({ checks: [isTx, hasOp(OP_EXCESS)], optional: true });

export const JettonTransferClassic: Pattern<JettonTransferDraft> = {
    name: 'JettonTransferClassic',
    create: newTransfer,
    root: {
        checks: [isTx, hasOp(OP_JETTON_TRANSFER), hasInterface('jetton_wallet')],
        build: (d, b, ctx) => buildFromTransfer(d, b, ctx.facts, true),
        valueFlow: jettonFlow,
        singleChild: {
            checks: [isTx, hasOp(OP_JETTON_INTERNAL_TRANSFER)],
            build: (d, b, ctx) => buildFromInternalTransfer(d, b, ctx.facts, false),
            optional: true,
            children: [notifyChild(), excessChild()],
        },
    },
};

/** A wallet the detector did not recognise: the amount is what actually arrived. */
export const JettonTransferMinimal: Pattern<JettonTransferDraft> = {
    name: 'JettonTransferMinimal',
    create: newTransfer,
    root: {
        checks: [isTx, hasOp(OP_JETTON_TRANSFER)],
        build: (d, b, ctx) => buildFromTransfer(d, b, ctx.facts, false),
        valueFlow: jettonFlow,
        singleChild: {
            checks: [isTx, hasOp(OP_JETTON_INTERNAL_TRANSFER)],
            build: (d, b, ctx) => buildFromInternalTransfer(d, b, ctx.facts, true),
            children: [notifyChild(), excessChild()],
        },
    },
};

/** Some child wallet received a different amount than the transfer sent. */
const receivesOtherAmount = txWhere((t, b) => {
    const body = t.parsed?.name === 'jetton_transfer' ? t.parsed.value : undefined;
    if (!body) return false;
    return b.children.some((c) => {
        const ct = txOf(c);
        if (!ct || ct.opCode !== OP_JETTON_INTERNAL_TRANSFER) return false;
        const internal = internalTransferBody(c);
        return internal !== null && internal.amount !== body.amount;
    });
});

export const FlawedJettonTransfer: Pattern<FlawedJettonTransferDraft> = {
    name: 'FlawedJettonTransfer',
    create: () => ({
        type: 'FlawedJettonTransfer', success: false, sendersWallet: UNKNOWN_ADDRESS, recipientsWallet: UNKNOWN_ADDRESS, sentAmount: 0n, receivedAmount: 0n,
    }),
    root: {
        checks: [isTx, hasOp(OP_JETTON_TRANSFER), hasInterface('jetton_wallet'), receivesOtherAmount],
        build: (d, b, ctx) => buildFromTransfer(d, b, ctx.facts, true),
        valueFlow: jettonFlow,
        singleChild: {
            checks: [isTx, hasOp(OP_JETTON_INTERNAL_TRANSFER)],
            build: (d, b, ctx) => buildFromInternalTransfer(d, b, ctx.facts, true),
            children: [notifyChild(), excessChild()],
        },
    },
};

export const JettonBurn: Pattern<JettonBurnDraft> = {
    name: 'JettonBurn',
    create: () => ({ type: 'JettonBurn', success: false, sender: UNKNOWN_ADDRESS, sendersWallet: UNKNOWN_ADDRESS, amount: 0n }),
    root: {
        checks: [isTx, hasOp(OP_JETTON_BURN)],
        build: (d, b, ctx) => {
            const t = tx(b);
            d.sender = t.inputFrom ?? UNKNOWN_ADDRESS;
            d.sendersWallet = t.account;
            d.master = masterOfWallet(ctx.facts, t.account);
            d.success = t.success;
            if (t.parsed?.name === 'jetton_burn') d.amount = t.parsed.value.amount;
        },
        valueFlow: (d, flow) => {
            if (d.success && d.master !== undefined) flow.subJettons(d.sender, d.master, d.amount);
        },
        singleChild: {
            checks: [isTx, hasOp(OP_JETTON_BURN_NOTIFICATION)],
            build: (d, b) => {
                const t = tx(b);
                d.master ??= t.account;
                d.success = t.success;
            },
            optional: true,
        },
    },
};

function mintFromInternalTransfer(d: JettonMintDraft, b: Bubble): void {
    const t = tx(b);
    d.recipientsWallet = t.account;
    d.success = t.success;
    const body = internalTransferBody(b);
    if (body) d.amount = body.amount;
}

const mintFlow = (d: JettonMintDraft, flow: import('../value-flow.ts').ValueFlow) => {
    if (d.success && d.recipient !== UNKNOWN_ADDRESS) flow.addJettons(d.recipient, d.master, d.amount);
};

function newMint(): JettonMintDraft {
    return { type: 'JettonMint', success: false, recipient: UNKNOWN_ADDRESS, recipientsWallet: UNKNOWN_ADDRESS, master: UNKNOWN_ADDRESS, amount: 0n };
}

/**
 * The master of the wallet this internal_transfer reached: detected as one, or named as the
 * wallet's master by the wallet itself (its get_wallet_data, confirmed by the master), which
 * recognises the masters of custom mints whose code no table knows.
 */
const fromItsMaster: Check = (b, ctx) => {
    const t = txOf(b);
    if (!t || t.inputFrom === null) return false;
    return implementsInterface(t.inputFromInterfaces, 'jetton_master') || masterOfWallet(ctx.facts, t.account) === t.inputFrom;
};

/** Whether the transaction's account is a jetton master: detected as one, or the master of a wallet of the facts. */
const isJettonMaster: Check = (b, ctx) => {
    const t = txOf(b);
    if (!t) return false;
    if (implementsInterface(t.interfaces, 'jetton_master')) return true;
    for (const wallet of ctx.facts.jettonWallets.values()) if (wallet.master === t.account) return true;
    return false;
};

/**
 * A master sends internal_transfer to a wallet (whatever op its admin used: TEP-74 has none): the
 * holder is the one the wallet notifies, else the wallet's owner.
 */
export const JettonMintFromMaster: Pattern<JettonMintDraft> = {
    name: 'JettonMintFromMaster',
    create: newMint,
    root: {
        checks: [isTx, hasOp(OP_JETTON_INTERNAL_TRANSFER), hasInterface('jetton_wallet'), fromItsMaster],
        build: (d, b, ctx) => {
            mintFromInternalTransfer(d, b);
            d.master = tx(b).inputFrom ?? UNKNOWN_ADDRESS;
            d.recipient = ownerOfWallet(ctx.facts, tx(b).account) ?? d.recipient;
        },
        valueFlow: mintFlow,
        children: [
            { checks: [isTx, hasOp(OP_JETTON_NOTIFY)], optional: true, build: (d, b) => { d.recipient = tx(b).account; } },
            { checks: [isTx, hasOp(OP_EXCESS)], optional: true },
        ],
    },
};

/** A governance mint under construction: besides the action, whether a mint recognised earlier already moved its jettons. */
type GovernanceMintInProgress = JettonMintDraft & { countedByInnerMint: boolean };

/**
 * mint#642b7d07 on the master, its internal_transfer to the holder's wallet (or the mint already
 * recognised there) and the excesses.
 */
export const JettonMintGovernance: Pattern<JettonMintDraft, GovernanceMintInProgress> = {
    name: 'JettonMintGovernance',
    create: () => ({ ...newMint(), countedByInnerMint: false }),
    finish: ({ countedByInnerMint: _, ...action }) => action,
    root: {
        checks: [isTx, hasOp(OP_JETTON_MINT), isJettonMaster],
        build: (d, b) => {
            const t = tx(b);
            d.master = t.account;
            d.success = t.success;
            // A mint body in another layout than TEP-74's: the holder is the owner of the wallet it reached (below).
            if (t.parsed?.name === 'jetton_mint') {
                d.recipient = formatRawAddress(t.parsed.value.toAddress);
                if (t.parsed.value.internalTransfer) d.amount = t.parsed.value.internalTransfer.amount;
            }
        },
        valueFlow: mintFlow,
        singleChild: {
            checks: [anyOf([isTx, hasOp(OP_JETTON_INTERNAL_TRANSFER)], [isAction('JettonMint')])],
            build: (d, b, ctx) => {
                const mint = actionOf(b, 'JettonMint');
                if (mint) {
                    Object.assign(d, { recipient: mint.recipient, recipientsWallet: mint.recipientsWallet, amount: mint.amount, success: mint.success });
                    d.countedByInnerMint = true;
                } else {
                    mintFromInternalTransfer(d, b);
                    if (d.recipient === UNKNOWN_ADDRESS) d.recipient = ownerOfWallet(ctx.facts, tx(b).account) ?? d.recipient;
                }
            },
            // A mint recognised earlier already moved the jettons in its own flow.
            valueFlow: (d, flow) => {
                if (!d.countedByInnerMint) mintFlow(d, flow);
            },
            children: [{ checks: [isTx, hasOp(OP_EXCESS)], optional: true }],
        },
    },
};
