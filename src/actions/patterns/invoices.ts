import type { Cell } from '@ton/core';
import { loadInvoicePayload, tryLoad } from '../../ton/bodies/index.ts';
import type { PurchaseDraft } from '../action.ts';
import { actionOf } from '../bubble.ts';
import { hasOp, hasValue, isAction, isTx } from '../checks.ts';
import { UNKNOWN_ADDRESS } from '../facts.ts';
import { OP } from '../protocol-ops.ts';
import type { Check, Pattern } from '../straw.ts';
import { tx } from './tx.ts';

/** Payments of an invoice: `invoice_payload#7aa23eb5 id:bits128` in the body or a jetton forward payload. */

/** The invoice id (16 bytes after the op) as a UUID; undefined when the body is not an invoice payload. */
export function invoiceId(body: Cell | null | undefined): string | undefined {
    const invoice = body ? tryLoad(loadInvoicePayload, body) : null;
    if (!invoice) return undefined;
    const hex = invoice.id.toString('hex');
    return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

function newPurchase(): PurchaseDraft {
    return { type: 'Purchase', success: false, source: UNKNOWN_ADDRESS, destination: UNKNOWN_ADDRESS, invoiceId: '', amount: { kind: 'native', amount: 0n } };
}

const hasInvoice: Check = (b) => invoiceId(tx(b).body) !== undefined;

export const InvoicePaymentNative: Pattern<PurchaseDraft> = {
    name: 'InvoicePaymentNative',
    create: newPurchase,
    root: {
        checks: [isTx, hasOp(OP.invoicePayload), hasValue, hasInvoice],
        build: (d, b) => {
            const t = tx(b);
            d.source = t.inputFrom ?? UNKNOWN_ADDRESS;
            d.destination = t.account;
            d.invoiceId = invoiceId(t.body)!;
            d.amount = { kind: 'native', amount: t.inputAmount };
            d.success = t.success;
        },
    },
};

const paysInvoice: Check = (b) => invoiceId(actionOf(b, 'JettonTransfer')?.payload) !== undefined;

export const InvoicePaymentJetton: Pattern<PurchaseDraft> = {
    name: 'InvoicePaymentJetton',
    create: newPurchase,
    root: {
        checks: [isAction('JettonTransfer'), paysInvoice],
        build: (d, b) => {
            const transfer = actionOf(b, 'JettonTransfer')!;
            d.source = transfer.sender ?? UNKNOWN_ADDRESS;
            d.destination = transfer.recipient ?? UNKNOWN_ADDRESS;
            d.invoiceId = invoiceId(transfer.payload)!;
            d.amount = transfer.master === undefined ? { kind: 'native', amount: 0n } : { kind: 'jetton', master: transfer.master, amount: transfer.amount };
            d.success = transfer.success;
        },
    },
};
