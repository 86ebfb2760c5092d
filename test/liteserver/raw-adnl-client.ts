/**
 * A minimal ADNL TCP client built from node:crypto and the server's own frame codec, for tests that
 * must send exactly the bytes they want (split handshakes, garbage, bad checksums). Interop with a
 * real client is covered by the ton-lite-client tests.
 */
import { createCipheriv, createDecipheriv, createHash, randomBytes, type Cipher } from 'node:crypto';
import { connect, type Socket } from 'node:net';
import { encodeFrame, FrameDecoder } from '../../src/liteserver/adnl/frames.ts';
import { adnlKeyId, serverKeyFromSeed } from '../../src/liteserver/adnl/server-key.ts';
import { adnlSharedSecret, x25519PrivateKeyFromEd25519Seed } from '../../src/liteserver/adnl/x25519.ts';

export interface ClientHandshake {
    packet: Buffer;
    encryptOutgoing: Cipher;
    decoder: FrameDecoder;
}

export function clientHandshake(serverPublicKey: Buffer, options: { keyId?: Buffer } = {}): ClientHandshake {
    const clientSeed = randomBytes(32);
    const clientPublicKey = serverKeyFromSeed(clientSeed).publicKey;
    const shared = adnlSharedSecret(x25519PrivateKeyFromEd25519Seed(clientSeed), serverPublicKey);
    const params = randomBytes(160);
    const digest = createHash('sha256').update(params).digest();
    const key = Buffer.concat([shared.subarray(0, 16), digest.subarray(16, 32)]);
    const iv = Buffer.concat([digest.subarray(0, 4), shared.subarray(20, 32)]);
    const encryptedParams = createCipheriv('aes-256-ctr', key, iv).update(params);
    const keyId = options.keyId ?? adnlKeyId(serverPublicKey);
    return {
        packet: Buffer.concat([keyId, clientPublicKey, digest, encryptedParams]),
        encryptOutgoing: createCipheriv('aes-256-ctr', params.subarray(32, 64), params.subarray(80, 96)),
        decoder: new FrameDecoder(createDecipheriv('aes-256-ctr', params.subarray(0, 32), params.subarray(64, 80))),
    };
}

export class RawAdnlClient {
    readonly closed: Promise<void>;
    private readonly payloads: Buffer[] = [];
    private waiters: Array<(payload: Buffer) => void> = [];
    private constructor(
        readonly socket: Socket,
        readonly handshake: ClientHandshake,
    ) {
        this.closed = new Promise((resolve) => socket.once('close', () => resolve()));
        socket.on('error', () => {});
        socket.on('data', (chunk: Buffer) => {
            for (const payload of handshake.decoder.push(chunk)) {
                const waiter = this.waiters.shift();
                if (waiter) waiter(payload);
                else this.payloads.push(payload);
            }
        });
    }

    /**
     * Connects and sends the handshake (in `splitHandshakeAt` pieces, if given; `firstPayload` framed
     * in the same write as its last piece); does not wait for the reply.
     */
    static async connect(
        port: number,
        serverPublicKey: Buffer,
        options: { keyId?: Buffer; splitHandshakeAt?: number[]; firstPayload?: Buffer } = {},
    ): Promise<RawAdnlClient> {
        const socket = connect(port, '127.0.0.1');
        await new Promise<void>((resolve, reject) => {
            socket.once('connect', resolve);
            socket.once('error', reject);
        });
        const handshake = clientHandshake(serverPublicKey, options);
        const client = new RawAdnlClient(socket, handshake);
        const firstFrame = options.firstPayload ? encodeFrame(options.firstPayload, handshake.encryptOutgoing) : Buffer.alloc(0);
        const bytes = Buffer.concat([handshake.packet, firstFrame]);
        let start = 0;
        for (const end of [...(options.splitHandshakeAt ?? []), bytes.length]) {
            socket.write(bytes.subarray(start, end));
            start = end;
            await new Promise((resolve) => setTimeout(resolve, 5));
        }
        return client;
    }

    send(payload: Buffer): void {
        this.socket.write(encodeFrame(payload, this.handshake.encryptOutgoing));
    }

    nextPayload(timeoutMs = 2000): Promise<Buffer> {
        const ready = this.payloads.shift();
        if (ready) return Promise.resolve(ready);
        return new Promise((resolve, reject) => {
            const timer = setTimeout(() => reject(new Error('no frame received')), timeoutMs);
            this.waiters.push((payload) => {
                clearTimeout(timer);
                resolve(payload);
            });
        });
    }

    end(): void {
        this.socket.destroy();
    }
}

/** Resolves true when the promise settles within `ms`. */
export async function settlesWithin(promise: Promise<unknown>, ms: number): Promise<boolean> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<boolean>((resolve) => {
        timer = setTimeout(() => resolve(false), ms);
    });
    try {
        return await Promise.race([promise.then(() => true), timeout]);
    } finally {
        clearTimeout(timer);
    }
}
