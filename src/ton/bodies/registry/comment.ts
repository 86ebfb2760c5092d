import { OP_ENCRYPTED_TEXT_COMMENT, OP_TEXT_COMMENT, loadEncryptedTextComment, loadTextComment } from '../comment.ts';
import { bufferJson } from '../json.ts';
import { internalBody } from './entry.ts';

/** Text and encrypted comments. */
export const COMMENT_BODIES = [
    internalBody(OP_TEXT_COMMENT, 'text_comment', loadTextComment, (v) => ({ text: v.text })),
    internalBody(OP_ENCRYPTED_TEXT_COMMENT, 'encrypted_text_comment', loadEncryptedTextComment, (v) => ({ cipher_text: bufferJson(v.cipherText) })),
] as const;
