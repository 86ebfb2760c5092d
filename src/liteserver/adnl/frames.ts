/**
 * ADNL TCP frames, after the handshake. Plaintext: `len:uint32 LE ‖ nonce:32 ‖ payload ‖
 * sha256(nonce ‖ payload)` with len = 64 + |payload|; the whole frame goes through the direction's
 * CTR stream. An empty payload is a keepalive (the server's first frame is one).
 */
import { createHash, randomBytes, type Cipher, type Decipher } from 'node:crypto';

export const MIN_FRAME_LENGTH = 64;
export const MAX_FRAME_LENGTH = 2 ** 24;
/** The largest payload a frame can carry. */
export const MAX_FRAME_PAYLOAD = MAX_FRAME_LENGTH - 64;

export class FrameError extends Error {}

export function encodeFrame(payload: Buffer, cipher: Cipher): Buffer {
    if (payload.length > MAX_FRAME_PAYLOAD) throw new FrameError(`frame payload too large: ${payload.length}`);
    const header = Buffer.alloc(4);
    header.writeUInt32LE(payload.length + 64);
    const nonce = randomBytes(32);
    const checksum = createHash('sha256').update(nonce).update(payload).digest();
    return Buffer.concat([cipher.update(header), cipher.update(nonce), cipher.update(payload), cipher.update(checksum)]);
}

/**
 * Incremental decoder: feed it the encrypted byte stream in whatever pieces TCP delivers, get back
 * the payloads of every frame completed so far. Throws FrameError on a bad length or checksum; the
 * stream is unusable after that (the connection must be closed).
 */
export class FrameDecoder {
    private chunks: Buffer[] = [];
    private buffered = 0;
    private failed = false;

    constructor(private readonly decipher: Decipher) {}

    push(encrypted: Buffer): Buffer[] {
        if (this.failed) throw new FrameError('frame stream already failed');
        if (encrypted.length > 0) {
            this.chunks.push(this.decipher.update(encrypted));
            this.buffered += encrypted.length;
        }
        try {
            return this.takeCompleteFrames();
        } catch (err) {
            this.failed = true;
            this.chunks = [];
            throw err;
        }
    }

    /** Concatenates only once a whole frame is there, so a large frame arriving in pieces is copied once. */
    private takeCompleteFrames(): Buffer[] {
        const firstLength = this.frameLengthAt(this.headBytes(), 0);
        if (firstLength === undefined || this.buffered < 4 + firstLength) return [];
        const all = this.chunks.length === 1 ? this.chunks[0] : Buffer.concat(this.chunks);
        const payloads: Buffer[] = [];
        let offset = 0;
        let length: number | undefined = firstLength;
        while (length !== undefined && all.length - offset >= 4 + length) {
            payloads.push(verifiedPayload(all.subarray(offset + 4, offset + 4 + length)));
            offset += 4 + length;
            length = this.frameLengthAt(all, offset);
        }
        const rest = all.subarray(offset);
        this.chunks = rest.length > 0 ? [Buffer.from(rest)] : [];
        this.buffered = rest.length;
        return payloads;
    }

    private headBytes(): Buffer {
        if (this.chunks.length > 1 && this.chunks[0].length < 4) this.chunks = [Buffer.concat(this.chunks)];
        return this.chunks[0] ?? Buffer.alloc(0);
    }

    private frameLengthAt(data: Buffer, offset: number): number | undefined {
        if (data.length - offset < 4) return undefined;
        const length = data.readUInt32LE(offset);
        if (length < MIN_FRAME_LENGTH || length > MAX_FRAME_LENGTH) throw new FrameError(`bad frame length ${length}`);
        return length;
    }
}

/** `body` = nonce ‖ payload ‖ sha256(nonce ‖ payload). */
function verifiedPayload(body: Buffer): Buffer {
    const checksumAt = body.length - 32;
    const expected = createHash('sha256').update(body.subarray(0, checksumAt)).digest();
    if (!expected.equals(body.subarray(checksumAt))) throw new FrameError('frame checksum mismatch');
    return body.subarray(32, checksumAt);
}
