/**
 * Lite-API types that ton-lite-client 3.1.1's schema lacks or gets wrong, encoded and decoded here
 * with the same TL buffers and embedded-type codecs:
 * - `listBlockTransactions` / `listBlockTransactionsExt` requests. In TL `reverse_order:mode.6?true`
 *   and `want_proof:mode.5?true` take no bytes; ton-lite-client writes a Bool for each set bit.
 *   Both spellings are accepted.
 * - `liteServer.blockTransactionsExt`, the Ext answer.
 */
import { Codecs, type liteServer_transactionId3, type tonNode_blockIdExt } from 'ton-lite-client/dist/schema.js';
import type { TLReadBuffer, TLWriteBuffer } from 'ton-tl';
import { decodeExact } from './exact-decode.ts';
import { constructorId } from './tl-reader.ts';

export interface ListBlockTransactionsArgs {
    readonly id: tonNode_blockIdExt;
    readonly mode: number;
    readonly count: number;
    /** Present when mode bit 7 (128) is set. */
    readonly after: liteServer_transactionId3 | null;
    /** Mode bit 6 (64). */
    readonly reverseOrder: boolean;
    /** Mode bit 5 (32). */
    readonly wantProof: boolean;
}

export interface BlockTransactionsExt {
    readonly kind: 'liteServer.blockTransactionsExt';
    readonly id: tonNode_blockIdExt;
    readonly reqCount: number;
    readonly incomplete: boolean;
    /** Multi-root BOC, one root per transaction. */
    readonly transactions: Buffer;
    readonly proof: Buffer;
}

export const BLOCK_TRANSACTIONS_EXT_ID = constructorId('fb8ffce4');

export function decodeListBlockTransactions(data: Buffer): ListBlockTransactionsArgs {
    try {
        return decodeExact(data, (reader) => readListBlockTransactions(reader, false));
    } catch (err) {
        // mode follows the 80-byte tonNode.blockIdExt
        const mode = data.length >= 84 ? data.readUInt32LE(80) : 0;
        if ((mode & (64 | 32)) === 0) throw err;
        return decodeExact(data, (reader) => readListBlockTransactions(reader, true));
    }
}

function readListBlockTransactions(reader: TLReadBuffer, boolPerTrueFlag: boolean): ListBlockTransactionsArgs {
    const id = Codecs.tonNode_blockIdExt.decode(reader);
    const mode = reader.readUInt32();
    const count = reader.readUInt32();
    const after = mode & 128 ? Codecs.liteServer_transactionId3.decode(reader) : null;
    if (boolPerTrueFlag) {
        if (mode & 64) reader.readBool();
        if (mode & 32) reader.readBool();
    }
    return { id, mode, count, after, reverseOrder: (mode & 64) !== 0, wantProof: (mode & 32) !== 0 };
}

export function encodeBlockTransactionsExt(result: BlockTransactionsExt, writer: TLWriteBuffer): void {
    writer.writeInt32(BLOCK_TRANSACTIONS_EXT_ID);
    Codecs.tonNode_blockIdExt.encode(result.id, writer);
    writer.writeUInt32(result.reqCount);
    writer.writeBool(result.incomplete);
    writer.writeBuffer(result.transactions);
    writer.writeBuffer(result.proof);
}

export function decodeBlockTransactionsExt(reader: TLReadBuffer): BlockTransactionsExt {
    if (reader.readInt32() !== BLOCK_TRANSACTIONS_EXT_ID) throw new Error('not a liteServer.blockTransactionsExt');
    const id = Codecs.tonNode_blockIdExt.decode(reader);
    const reqCount = reader.readUInt32();
    const incomplete = reader.readBool();
    const transactions = reader.readBuffer();
    const proof = reader.readBuffer();
    return { kind: 'liteServer.blockTransactionsExt', id, reqCount, incomplete, transactions, proof };
}
