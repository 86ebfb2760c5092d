import type { Slice } from '@ton/core';
import { expectOp } from './common.ts';

// Invoice payments (TonAPI's invoice_payload), in a message body or a jetton forward payload.
export const OP_INVOICE_PAYLOAD = 0x7aa23eb5;

/** invoice_payload#7aa23eb5 id:bits128 */
export interface InvoicePayload {
    /** the invoice's 16-byte id (a UUID) */
    id: Buffer;
}

export function loadInvoicePayload(s: Slice): InvoicePayload {
    expectOp(s, OP_INVOICE_PAYLOAD);
    return { id: s.loadBuffer(16) };
}
