import { Slice } from '@ton/core';
import { decodeUtf8, expectOp, loadSnakeBytes } from './common.ts';

/** text_comment#00000000 text:Text (snake-encoded UTF-8 across first refs). */
export const OP_TEXT_COMMENT = 0x00000000;
/** encrypted_text_comment#2167da4b cipher_text:Bytes (snake-encoded). */
export const OP_ENCRYPTED_TEXT_COMMENT = 0x2167da4b;

export interface TextComment {
    text: string;
}

export interface EncryptedTextComment {
    cipherText: Buffer;
}

export function loadTextComment(s: Slice): TextComment {
    expectOp(s, OP_TEXT_COMMENT);
    return { text: decodeUtf8(loadSnakeBytes(s)) };
}

export function loadEncryptedTextComment(s: Slice): EncryptedTextComment {
    expectOp(s, OP_ENCRYPTED_TEXT_COMMENT);
    return { cipherText: loadSnakeBytes(s) };
}
