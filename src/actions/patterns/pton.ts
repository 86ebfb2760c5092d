import { OP_JETTON_NOTIFY, OP_JETTON_TRANSFER, loadPtonTonTransfer, tryLoad } from '../../ton/bodies/index.ts';
import type { JettonTransferDraft } from '../action.ts';
import { txOf, type Bubble, type EngineContext } from '../bubble.ts';
import { implementsInterface } from '../interfaces.ts';
import { interfacesByAddress } from '../../ton/interfaces/mainnet-contracts.ts';
import { hasOp, isTx } from '../checks.ts';
import { UNKNOWN_ADDRESS, masterOfWallet } from '../facts.ts';
import { OP } from '../protocol-ops.ts';
import type { Check, Pattern, Straw } from '../straw.ts';
import { tx } from './tx.ts';

/**
 * Proxy TON (pTON, STON.fi's wrapped native coin, also TONCO's): grams sent to a pTON wallet with
 * ton_transfer are announced to the wallet's owner (a DEX router) as a jetton transfer; the
 * owner's jetton transfer out of its pTON wallet reaches the user as plain grams (again
 * ton_transfer). pTON v1 has no ton_transfer: a jetton transfer to the router's pTON wallet, with
 * the grams attached, is announced to the router at once, and the router's transfer out reaches
 * the user as the announcement itself. All become JettonTransfer actions flagged wrappedNative,
 * so the DEX patterns see one shape.
 */

/** A pTON wallet: detected by its code, or a wallet whose master (by the facts) is a pTON master. */
export const isPtonWallet: Check = (b, ctx) => {
    const t = txOf(b);
    if (!t) return false;
    if (implementsInterface(t.interfaces, 'pton_wallet')) return true;
    const master = masterOfWallet(ctx.facts, t.account);
    return master !== undefined && interfacesByAddress(master).includes('pton_minter');
};

function tonTransferOf(b: Bubble) {
    const body = tx(b).body;
    return body ? tryLoad(loadPtonTonTransfer, body) : null;
}

function newTransfer(): JettonTransferDraft {
    return { type: 'JettonTransfer', success: false, sendersWallet: UNKNOWN_ADDRESS, recipientsWallet: UNKNOWN_ADDRESS, amount: 0n, wrappedNative: true };
}

function flow(d: JettonTransferDraft, f: import('../value-flow.ts').ValueFlow): void {
    if (!d.success || d.master === undefined || d.recipient === undefined || d.sender === undefined) return;
    f.addJettons(d.recipient, d.master, d.amount);
    f.subJettons(d.sender, d.master, d.amount);
}

function wallet(d: JettonTransferDraft, b: Bubble, facts: import('../trace-input.ts').TraceFacts): void {
    const t = tx(b);
    d.sendersWallet = t.account;
    d.recipientsWallet = t.account;
    d.master = masterOfWallet(facts, t.account);
    d.success = t.success;
}

/** A jetton transfer on a pTON wallet: who sends how much, with what payload. */
function fromJettonTransfer(d: JettonTransferDraft, b: Bubble, ctx: EngineContext): void {
    wallet(d, b, ctx.facts);
    const t = tx(b);
    d.sender = t.inputFrom ?? undefined;
    if (t.parsed?.name === 'jetton_transfer') {
        d.amount = t.parsed.value.amount;
        d.payload = t.parsed.value.forwardPayload.value;
    }
}

/** The transfer_notification that ends a pTON transfer: its account received it. */
const notification: Straw<JettonTransferDraft> = {
    checks: [isTx, hasOp(OP_JETTON_NOTIFY)],
    build: (d, b) => {
        d.recipient = tx(b).account;
        d.success &&= tx(b).success;
    },
};

/**
 * pTON v1: a jetton transfer on a pTON wallet whose only step is the transfer_notification with
 * the grams, to the router (a user's swap in) or to the user (the router's payout).
 */
export const PtonTransferDirect: Pattern<JettonTransferDraft> = {
    name: 'PtonTransferDirect',
    create: newTransfer,
    root: {
        checks: [isTx, hasOp(OP_JETTON_TRANSFER), isPtonWallet],
        build: fromJettonTransfer,
        valueFlow: flow,
        singleChild: notification,
    },
};

/**
 * A router's transfer to another router through pTON (a multi-hop swap): its jetton transfer on its
 * pTON wallet, the ton_transfer to the next pTON wallet and that wallet's transfer_notification.
 */
export const PtonTransferHop: Pattern<JettonTransferDraft> = {
    name: 'PtonTransferHop',
    create: newTransfer,
    root: {
        checks: [isTx, hasOp(OP_JETTON_TRANSFER), isPtonWallet],
        build: fromJettonTransfer,
        valueFlow: flow,
        singleChild: {
            checks: [isTx, hasOp(OP.ptonTransfer)],
            build: (d, b) => {
                d.recipientsWallet = tx(b).account;
                d.success &&= tx(b).success;
            },
            singleChild: notification,
        },
    },
};

/** User → pTON wallet (ton_transfer) → transfer_notification to the wallet's owner. */
export const PtonTransferIn: Pattern<JettonTransferDraft> = {
    name: 'PtonTransferIn',
    create: newTransfer,
    root: {
        checks: [isTx, hasOp(OP.ptonTransfer)],
        build: (d, b, ctx) => {
            wallet(d, b, ctx.facts);
            const t = tx(b);
            d.sender = t.inputFrom ?? undefined;
            const body = tonTransferOf(b);
            if (body) {
                d.amount = body.tonAmount;
                d.payload = body.forwardPayload.value;
            }
        },
        valueFlow: flow,
        singleChild: notification,
    },
};

/** The owner's jetton transfer on its pTON wallet → ton_transfer with the grams to the recipient. */
export const PtonTransferOut: Pattern<JettonTransferDraft> = {
    name: 'PtonTransferOut',
    create: newTransfer,
    root: {
        checks: [isTx, hasOp(OP_JETTON_TRANSFER)],
        build: fromJettonTransfer,
        valueFlow: flow,
        singleChild: {
            checks: [isTx, hasOp(OP.ptonTransfer)],
            build: (d, b) => {
                const t = tx(b);
                d.recipient = t.account;
                d.success &&= t.success;
                const body = tonTransferOf(b);
                if (body) d.amount = body.tonAmount;
            },
        },
    },
};
