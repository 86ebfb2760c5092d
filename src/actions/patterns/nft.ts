import type { Cell } from '@ton/core';
import { formatRawAddress } from '../../ton/address.ts';
import { OP_EXCESS, OP_NFT_OWNERSHIP_ASSIGNED, OP_NFT_TRANSFER, isEmptyCell, loadNftOwnershipAssigned, tryLoad } from '../../ton/bodies/index.ts';
import type { NftItemTransferDraft } from '../action.ts';
import type { Bubble } from '../bubble.ts';
import { hasInterface, hasOp, isTx } from '../checks.ts';
import { implementsInterface } from '../interfaces.ts';
import type { Pattern } from '../straw.ts';
import { forwardPayloadNote } from '../transfer-note.ts';
import { tx } from './tx.ts';

/** TEP-62 item transfers. */

/**
 * A transfer under construction: besides the action, the forward payload the item's transfer
 * carried (undefined until a parsed nft_transfer gives one), which the ownership_assigned step
 * renders for its recipient.
 */
type TransferInProgress = NftItemTransferDraft & { transferPayload: Cell | null | undefined };

function newTransfer(): TransferInProgress {
    return { type: 'NftItemTransfer', success: false, nft: '', transferPayload: undefined };
}

function finish({ transferPayload: _, ...action }: TransferInProgress): NftItemTransferDraft {
    return action;
}

/** The forward payload as comment (calls only for non-wallet recipients) or as raw payload. */
function applyPayload(d: NftItemTransferDraft, payload: Cell | null, recipientIsWallet: boolean): void {
    delete d.comment;
    delete d.encryptedComment;
    delete d.payload;
    if (!payload || isEmptyCell(payload)) return;
    const note = forwardPayloadNote(payload, !recipientIsWallet);
    Object.assign(d, note);
    if (note.comment === undefined && note.encryptedComment === undefined) d.payload = payload.toBoc().toString('hex');
}

function ownershipAssignedBuild(d: TransferInProgress, b: Bubble): void {
    const t = tx(b);
    d.recipient = t.account;
    const assigned = t.body ? tryLoad(loadNftOwnershipAssigned, t.body) : null;
    if (assigned?.prevOwner && d.sender === undefined) d.sender = formatRawAddress(assigned.prevOwner);
    const payload = d.transferPayload !== undefined ? d.transferPayload : (assigned?.forwardPayload.value ?? null);
    applyPayload(d, payload, implementsInterface(t.interfaces, 'wallet'));
}

export const NftTransfer: Pattern<NftItemTransferDraft, TransferInProgress> = {
    name: 'NftTransfer',
    create: newTransfer,
    finish,
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
            d.transferPayload = body.forwardPayload.value;
            applyPayload(d, body.forwardPayload.value, false);
        },
        children: [
            { checks: [isTx, hasOp(OP_NFT_OWNERSHIP_ASSIGNED)], build: ownershipAssignedBuild, optional: true },
            { checks: [isTx, hasOp(OP_EXCESS)], optional: true },
        ],
    },
};

/** Any item transaction that ends with ownership_assigned (e.g. an item sold by a sale contract). */
export const NftTransferNotify: Pattern<NftItemTransferDraft, TransferInProgress> = {
    name: 'NftTransferNotify',
    create: newTransfer,
    finish,
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
