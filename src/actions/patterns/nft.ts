import { OP_EXCESS, OP_NFT_OWNERSHIP_ASSIGNED, OP_NFT_TRANSFER, loadNftOwnershipAssigned, tryLoad } from '../../ton/bodies/index.ts';
import { formatRawAddress } from '../../ton/address.ts';
import type { Cell } from '@ton/core';
import type { NftItemTransferDraft } from '../action.ts';
import type { Bubble } from '../bubble.ts';
import { hasInterface, hasOp, isTx } from '../checks.ts';
import { implementsInterface } from '../interfaces.ts';
import type { Pattern } from '../straw.ts';
import { forwardPayloadNote } from '../transfer-note.ts';
import { tx } from './tx.ts';

/** TEP-62 item transfers. */

function newTransfer(): NftItemTransferDraft {
    return { type: 'NftItemTransfer', success: false, nft: '' };
}

/** The forward payload as comment (calls only for non-wallet recipients) or as raw payload. */
function applyPayload(d: NftItemTransferDraft, payload: Cell | null, recipientIsWallet: boolean): void {
    delete d.comment;
    delete d.encryptedComment;
    delete d.payload;
    if (!payload || (payload.bits.length === 0 && payload.refs.length === 0)) return;
    const note = forwardPayloadNote(payload, !recipientIsWallet);
    Object.assign(d, note);
    if (note.comment === undefined && note.encryptedComment === undefined) d.payload = payload.toBoc().toString('hex');
}

const forwardPayloads = new WeakMap<NftItemTransferDraft, Cell | null>();

function ownershipAssignedBuild(d: NftItemTransferDraft, b: Bubble): void {
    const t = tx(b);
    d.recipient = t.account;
    const assigned = t.body ? tryLoad(loadNftOwnershipAssigned, t.body) : null;
    if (assigned?.prevOwner && d.sender === undefined) d.sender = formatRawAddress(assigned.prevOwner);
    const payload = forwardPayloads.has(d) ? forwardPayloads.get(d)! : (assigned?.forwardPayload.value ?? null);
    applyPayload(d, payload, implementsInterface(t.interfaces, 'wallet'));
}

export const NftTransfer: Pattern<NftItemTransferDraft> = {
    name: 'NftTransfer',
    create: newTransfer,
    root: {
        checks: [isTx, hasOp(OP_NFT_TRANSFER), hasInterface('nft_item')],
        build: (d, b) => {
            const t = tx(b);
            d.nft = t.account;
            d.sender = t.inputFrom ?? undefined;
            d.success = t.success;
            if (t.parsed?.name !== 'nft_transfer') return;
            const body = t.parsed.value;
            if (body.newOwner) d.recipient = formatRawAddress(body.newOwner);
            forwardPayloads.set(d, body.forwardPayload.value);
            applyPayload(d, body.forwardPayload.value, false);
        },
        children: [
            { checks: [isTx, hasOp(OP_NFT_OWNERSHIP_ASSIGNED)], build: ownershipAssignedBuild, optional: true },
            { checks: [isTx, hasOp(OP_EXCESS)], optional: true },
        ],
    },
};

/** Any item transaction that ends with ownership_assigned (e.g. an item sold by a sale contract). */
export const NftTransferNotify: Pattern<NftItemTransferDraft> = {
    name: 'NftTransferNotify',
    create: newTransfer,
    root: {
        checks: [isTx, hasInterface('nft_item')],
        build: (d, b) => {
            const t = tx(b);
            d.nft = t.account;
            d.success = t.success;
        },
        children: [
            { checks: [isTx, hasOp(OP_NFT_OWNERSHIP_ASSIGNED)], build: ownershipAssignedBuild },
            { checks: [isTx, hasOp(OP_EXCESS)], optional: true },
        ],
    },
};
