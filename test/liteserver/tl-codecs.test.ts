import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { Codecs } from 'ton-lite-client/dist/schema.js';
import { TLReadBuffer, TLWriteBuffer } from 'ton-tl';
import { FastTlWriteBuffer } from '../../src/liteserver/tl/fast-write-buffer.ts';
import { decodeExact } from '../../src/liteserver/tl/exact-decode.ts';
import { tlBytes, TlDecodeError, TlReader } from '../../src/liteserver/tl/tl-reader.ts';
import { FIXED_BLOCK, FIXED_MASTERCHAIN_INFO } from './fixtures.ts';

function both(encode: (writer: TLWriteBuffer) => void): [Buffer, Buffer] {
    const reference = new TLWriteBuffer();
    const fast = new FastTlWriteBuffer();
    encode(reference);
    encode(fast);
    return [fast.build(), reference.build()];
}

describe('FastTlWriteBuffer', () => {
    test("writes exactly what ton-tl's TLWriteBuffer writes", () => {
        const proof = randomBytes(300);
        const shardProof = randomBytes(17);
        const result = randomBytes(254);
        const blobs = Array.from({ length: 300 }, (_, length) => randomBytes(length));
        const samples: Array<(w: TLWriteBuffer) => void> = [
            (w) => Codecs.liteServer_MasterchainInfo.encode(FIXED_MASTERCHAIN_INFO, w),
            (w) => Codecs.liteServer_MasterchainInfoExt.encode({
                kind: 'liteServer.masterchainInfoExt', mode: 0, version: 0x101, capabilities: '15', last: FIXED_BLOCK,
                lastUtime: 1, now: -2, stateRootHash: Buffer.alloc(32, 3), init: FIXED_MASTERCHAIN_INFO.init,
            }, w),
            (w) => Codecs.liteServer_BlockTransactions.encode({
                kind: 'liteServer.blockTransactions', id: FIXED_BLOCK, reqCount: 3, incomplete: true,
                ids: [
                    { kind: 'liteServer.transactionId', mode: 7, account: Buffer.alloc(32, 1), lt: '9223372036854775807', hash: Buffer.alloc(32, 2) },
                    { kind: 'liteServer.transactionId', mode: 2, account: null, lt: '-1', hash: null },
                ],
                proof,
            }, w),
            (w) => Codecs.liteServer_RunMethodResult.encode({
                kind: 'liteServer.runMethodResult', mode: 5, id: FIXED_BLOCK, shardblk: FIXED_BLOCK, shardProof,
                proof: Buffer.alloc(0), stateProof: null, initC7: null, libExtras: null, exitCode: -14, result,
            }, w),
            (w) => Codecs.liteServer_Error.encode({ kind: 'liteServer.error', code: 621, message: 'unknown query' }, w),
        ];
        for (const blob of blobs) samples.push((w) => w.writeBuffer(blob));
        for (const encode of samples) {
            const [fast, reference] = both(encode);
            assert.deepEqual(fast, reference);
        }
    });

    test('rejects what the reference rejects', () => {
        assert.throws(() => new FastTlWriteBuffer().writeInt64('9223372036854775808'));
        assert.throws(() => new FastTlWriteBuffer().writeInt256(Buffer.alloc(31)));
    });
});

describe('TL readers', () => {
    test('TlReader reads bytes in both length forms and refuses overruns', () => {
        for (const length of [0, 1, 253, 254, 1000]) {
            const data = randomBytes(length);
            const reader = new TlReader(Buffer.concat([tlBytes(data), Buffer.from([9, 9, 9, 9])]));
            assert.deepEqual(reader.bytes(), data);
            assert.equal(reader.remaining, 4);
        }
        const truncated = tlBytes(randomBytes(300)).subarray(0, 200);
        assert.throws(() => new TlReader(truncated).bytes(), TlDecodeError);
        assert.throws(() => new TlReader(Buffer.from([255, 0, 0, 0])).bytes(), TlDecodeError);
        assert.throws(() => new TlReader(Buffer.alloc(3)).int32(), TlDecodeError);
    });

    test('decodeExact refuses trailing and missing bytes and leaves its input intact', () => {
        const writer = new TLWriteBuffer();
        Codecs.tonNode_blockIdExt.encode(FIXED_BLOCK, writer);
        const bytes = writer.build();
        const copy = Buffer.from(bytes);
        assert.deepEqual(decodeExact(bytes, Codecs.tonNode_blockIdExt.decode), FIXED_BLOCK);
        assert.deepEqual(bytes, copy);
        assert.throws(() => decodeExact(Buffer.concat([bytes, Buffer.alloc(1)]), Codecs.tonNode_blockIdExt.decode), TlDecodeError);
        assert.throws(() => decodeExact(bytes.subarray(0, 79), Codecs.tonNode_blockIdExt.decode), TlDecodeError);
        const longBytes = tlBytes(randomBytes(400));
        assert.throws(() => decodeExact(longBytes.subarray(0, 300), (r: TLReadBuffer) => r.readBuffer()), TlDecodeError);
    });
});
