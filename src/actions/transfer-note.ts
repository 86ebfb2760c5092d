import type { Cell } from '@ton/core';
import {
    OP_ENCRYPTED_TEXT_COMMENT, OP_TEXT_COMMENT, formatOpCode, loadEncryptedTextComment, loadTextComment, parseBody, peekOp, tryLoad,
} from '../ton/bodies/index.ts';
import { pascalName } from '../ton/bodies/json.ts';
import type { TransferNote } from './action.ts';
import { protocolOpName } from './protocol-ops.ts';

/** The comment of a message body or forward payload: text, encrypted, or nothing. */
export function commentOf(payload: Cell | null | undefined): TransferNote {
    if (!payload) return {};
    const op = peekOp(payload);
    if (op === OP_TEXT_COMMENT) {
        const text = tryLoad(loadTextComment, payload);
        return text ? { comment: text.text } : {};
    }
    if (op === OP_ENCRYPTED_TEXT_COMMENT) {
        const encrypted = tryLoad(loadEncryptedTextComment, payload);
        return encrypted ? { encryptedComment: { encryptionType: 'simple', cipherText: encrypted.cipherText } } : {};
    }
    return {};
}

/** The name the API gives a body's op: the decoder's name in PascalCase, a protocol name, or 0x… */
export function operationName(body: Cell, op: number): string {
    const parsed = parseBody(body, { external: false });
    if (parsed) return pascalName(parsed.name);
    return protocolOpName(op) ?? formatOpCode(op);
}

/**
 * A transfer's forward payload as its note: the comment, or "Call: <operation>" when the payload
 * is a call of something else (not shown to wallets, for which it means nothing).
 */
export function forwardPayloadNote(payload: Cell | null | undefined, showCalls: boolean): TransferNote {
    if (!payload) return {};
    const comment = commentOf(payload);
    if (comment.comment !== undefined || comment.encryptedComment) return comment;
    const op = peekOp(payload);
    if (!showCalls || op === undefined || op === OP_TEXT_COMMENT || op === OP_ENCRYPTED_TEXT_COMMENT) return {};
    return { comment: `Call: ${operationName(payload, op)}` };
}
