import type { Cell, MessageRelaxed } from '@ton/core';
import { forwardPayloadNote } from './transfer-note.ts';
import { formatRawAddress } from '../ton/address.ts';
import {
    OP_JETTON_TRANSFER, OP_NFT_TRANSFER, OP_TEXT_COMMENT, loadJettonTransfer, loadNftTransfer, loadTextComment, parseBody, peekOp, peekQueryId, tryLoad,
    type WalletOutMessage,
} from '../ton/bodies/index.ts';
import type { ActionDraft, EngineAction } from './action.ts';
import { commentOf } from './transfer-note.ts';
import { UNKNOWN_ADDRESS, masterOfWallet, walletOfOwner } from './facts.ts';
import { OP } from './protocol-ops.ts';
import type { ActionTraceNode, TraceFacts } from './trace-input.ts';

const MODE_CARRY_ALL_BALANCE = 128;
const MODE_CARRY_INBOUND_VALUE = 64;
const MODE_PAY_FEES_SEPARATELY = 1;

/** Messages a wallet was asked to send, from its signed request (v3, v4 simple send, v5, highload v3). */
export function intendedMessages(node: ActionTraceNode): WalletOutMessage[] {
    const message = node.transaction.inMsg?.message;
    if (!message) return [];
    const parsed = parseBody(message.body, { external: message.info.type === 'external-in', destinationInterfaces: node.interfaces });
    if (!parsed) return [];
    switch (parsed.name) {
        case 'wallet_signed_v3':
            return parsed.value.messages;
        case 'wallet_signed_v4':
            return parsed.value.op === 0 ? parsed.value.messages : [];
        case 'wallet_signed_external_v5_r1':
        case 'wallet_signed_internal_v5_r1':
        case 'wallet_extension_action_v5_r1':
            return (parsed.value.actions ?? []).map((a) => a.message);
        case 'highload_wallet_signed_v3':
            return [parsed.value.message];
        default:
            return [];
    }
}

interface SentMessage {
    destination: string | null;
    value: bigint;
    body: Cell;
}

/**
 * Adds a failed action for every message a wallet was asked to send but did not (its action phase
 * failed or skipped it), right after the first action built from that wallet transaction.
 * Unlike the reference, intended messages are matched against the messages the same transaction
 * really sent, so one failed send is reported even when other transactions of the trace abound.
 */
export function addIntentions(root: ActionTraceNode, actions: EngineAction[], facts: TraceFacts): EngineAction[] {
    const out = [...actions];
    const visit = (node: ActionTraceNode) => {
        const intended = intendedMessages(node);
        if (intended.length > 0) {
            const sent: SentMessage[] = node.transaction.outMsgs
                .filter((m) => m.msgType === 'int_msg')
                .map((m) => ({ destination: m.destination, value: m.value ?? 0n, body: m.message.body }));
            const missing = intended.filter((m) => {
                const i = sent.findIndex((s) => sameMessage(m, s));
                if (i < 0) return true;
                sent.splice(i, 1);
                return false;
            });
            const failed = missing.map((m) => failedAction(node, m, facts));
            if (failed.length > 0) {
                const at = out.findIndex((a) => a.baseTransactions.includes(node.transaction.hash));
                if (at < 0) out.push(...failed);
                else out.splice(at + 1, 0, ...failed);
            }
        }
        node.children.forEach(visit);
    };
    visit(root);
    return out;
}

function destinationOf(m: MessageRelaxed): string | null {
    return m.info.type === 'internal' ? formatRawAddress(m.info.dest) : null;
}

function sameMessage(intended: WalletOutMessage, sent: SentMessage): boolean {
    const m = intended.message;
    if (m.info.type !== 'internal') return false;
    if (destinationOf(m) !== sent.destination) return false;
    const mode = intended.mode;
    if ((mode & (MODE_CARRY_ALL_BALANCE | MODE_CARRY_INBOUND_VALUE)) === 0) {
        const value = m.info.value.coins;
        // Without "pay fees separately" the forwarding fee comes out of the value.
        if (mode & MODE_PAY_FEES_SEPARATELY ? sent.value !== value : sent.value > value) return false;
    }
    return sameBody(m.body, sent.body);
}

/** Bodies match when both are opaque, the same comment, the same query of a transfer, or another body of the same type. */
function sameBody(a: Cell, b: Cell): boolean {
    const opA = peekOp(a);
    const opB = peekOp(b);
    if (opA === undefined || opB === undefined) return opA === opB;
    if (opA !== opB) return false;
    switch (opA) {
        case OP_TEXT_COMMENT:
            return tryLoad(loadTextComment, a)?.text === tryLoad(loadTextComment, b)?.text;
        case OP_JETTON_TRANSFER:
        case OP_NFT_TRANSFER:
        case OP.dedustNativeSwap:
            return peekQueryId(a) === peekQueryId(b);
        default:
            return true;
    }
}

function failedAction(node: ActionTraceNode, intended: WalletOutMessage, facts: TraceFacts): EngineAction {
    const wallet = node.transaction.account;
    const m = intended.message;
    const destination = destinationOf(m) ?? UNKNOWN_ADDRESS;
    const amount = m.info.type === 'internal' && intended.mode < MODE_CARRY_ALL_BALANCE ? m.info.value.coins : 0n;
    let draft: ActionDraft;
    const nft = peekOp(m.body) === OP_NFT_TRANSFER ? tryLoad(loadNftTransfer, m.body) : null;
    const jetton = peekOp(m.body) === OP_JETTON_TRANSFER ? tryLoad(loadJettonTransfer, m.body) : null;
    if (nft) {
        draft = { type: 'NftItemTransfer', success: false, nft: destination, sender: wallet, recipient: nft.newOwner ? formatRawAddress(nft.newOwner) : undefined };
    } else if (jetton) {
        const master = masterOfWallet(facts, destination);
        const recipient = jetton.destination ? formatRawAddress(jetton.destination) : undefined;
        draft = {
            type: 'JettonTransfer', success: false, sender: wallet, recipient, sendersWallet: destination,
            recipientsWallet: walletOfOwner(facts, recipient, master) ?? UNKNOWN_ADDRESS, master, amount: jetton.amount,
            ...forwardPayloadNote(jetton.forwardPayload.value, true),
        };
    } else {
        draft = { type: 'NativeTransfer', success: false, sender: wallet, recipient: destination, amount, ...commentOf(m.body) };
    }
    return { draft, baseTransactions: [node.transaction.hash], accounts: [wallet, destination] };
}
