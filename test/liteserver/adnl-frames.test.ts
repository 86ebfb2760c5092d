import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { encodeFrame, FrameDecoder, FrameError, MAX_FRAME_LENGTH } from '../../src/liteserver/adnl/frames.ts';

function streamPair() {
    const key = randomBytes(32);
    const iv = randomBytes(16);
    return { cipher: createCipheriv('aes-256-ctr', key, iv), decoder: new FrameDecoder(createDecipheriv('aes-256-ctr', key, iv)) };
}

/** Encrypts a hand-built plaintext frame, for lengths and checksums encodeFrame would never write. */
function encryptPlain(cipher: ReturnType<typeof streamPair>['cipher'], plaintext: Buffer): Buffer {
    return cipher.update(plaintext);
}

describe('ADNL frames', () => {
    test('round trip of several frames, including an empty keepalive and a long payload', () => {
        const { cipher, decoder } = streamPair();
        const payloads = [Buffer.from('hello'), Buffer.alloc(0), randomBytes(70_000)];
        const stream = Buffer.concat(payloads.map((p) => encodeFrame(p, cipher)));
        assert.deepEqual(decoder.push(stream), payloads);
    });

    test('a stream split at every possible point decodes the same', () => {
        const payloads = [Buffer.from('first'), Buffer.from('second frame'), Buffer.alloc(0)];
        const reference = streamPair();
        const length = Buffer.concat(payloads.map((p) => encodeFrame(p, reference.cipher))).length;
        for (let split = 0; split <= length; split++) {
            const { cipher, decoder } = streamPair();
            const stream = Buffer.concat(payloads.map((p) => encodeFrame(p, cipher)));
            const got = [...decoder.push(stream.subarray(0, split)), ...decoder.push(stream.subarray(split))];
            assert.deepEqual(got, payloads, `split at ${split}`);
        }
    });

    test('one byte at a time', () => {
        const { cipher, decoder } = streamPair();
        const stream = Buffer.concat([encodeFrame(Buffer.from('a'), cipher), encodeFrame(Buffer.from('bc'), cipher)]);
        const got: Buffer[] = [];
        for (const byte of stream) got.push(...decoder.push(Buffer.from([byte])));
        assert.deepEqual(got, [Buffer.from('a'), Buffer.from('bc')]);
    });

    test('a checksum mismatch fails the stream', () => {
        const { cipher, decoder } = streamPair();
        const frame = encodeFrame(Buffer.from('payload'), cipher);
        frame[frame.length - 1] ^= 1;
        assert.throws(() => decoder.push(frame), FrameError);
        assert.throws(() => decoder.push(Buffer.alloc(1)), FrameError, 'a failed stream stays failed');
    });

    test('lengths below 64 and above 2^24 fail as soon as the length word is there', () => {
        for (const length of [0, 63, MAX_FRAME_LENGTH + 1, 0xffffffff]) {
            const { cipher, decoder } = streamPair();
            const header = Buffer.alloc(4);
            header.writeUInt32LE(length);
            assert.throws(() => decoder.push(encryptPlain(cipher, header)), FrameError, `length ${length}`);
        }
    });

    test('the largest valid length is accepted without waiting for more than the frame', () => {
        const { cipher, decoder } = streamPair();
        const header = Buffer.alloc(4);
        header.writeUInt32LE(MAX_FRAME_LENGTH);
        assert.deepEqual(decoder.push(encryptPlain(cipher, header)), []);
    });
});
