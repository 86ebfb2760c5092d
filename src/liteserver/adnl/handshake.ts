/**
 * The ADNL-over-TCP handshake, server side: the client's first 256 bytes name our key id, carry its
 * ephemeral ed25519 key and the 160 session-parameter bytes encrypted under the shared secret.
 */
import { createCipheriv, createDecipheriv, createHash, type Cipher, type Decipher } from 'node:crypto';
import type { ServerKey } from './server-key.ts';
import { adnlSharedSecret } from './x25519.ts';

export const HANDSHAKE_LENGTH = 256;
const SESSION_PARAMS_LENGTH = 160;

export class HandshakeError extends Error {}

/** The two long-lived AES-256-CTR streams of one connection; counters run on across frames. */
export interface SessionCiphers {
    readonly encryptOutgoing: Cipher;
    readonly decryptIncoming: Decipher;
}

export function acceptHandshake(packet: Buffer, key: ServerKey): SessionCiphers {
    if (packet.length !== HANDSHAKE_LENGTH) throw new HandshakeError(`handshake must be ${HANDSHAKE_LENGTH} bytes`);
    if (!packet.subarray(0, 32).equals(key.keyId)) throw new HandshakeError('handshake is for another key id');
    const clientPublicKey = packet.subarray(32, 64);
    const digest = packet.subarray(64, 96);
    const encryptedParams = packet.subarray(96, 96 + SESSION_PARAMS_LENGTH);

    let shared: Buffer;
    try {
        shared = adnlSharedSecret(key.x25519PrivateKey, clientPublicKey);
    } catch (err) {
        throw new HandshakeError(`bad client key: ${(err as Error).message}`);
    }
    const aesKey = Buffer.concat([shared.subarray(0, 16), digest.subarray(16, 32)]);
    const aesIv = Buffer.concat([digest.subarray(0, 4), shared.subarray(20, 32)]);
    const params = createDecipheriv('aes-256-ctr', aesKey, aesIv).update(encryptedParams);
    if (!createHash('sha256').update(params).digest().equals(digest)) {
        throw new HandshakeError('handshake digest mismatch');
    }
    return sessionCiphersFromParams(params);
}

/** The client receives with bytes 0..31 / IV 64..79 and sends with 32..63 / 80..95; we mirror it. */
export function sessionCiphersFromParams(params: Buffer): SessionCiphers {
    return {
        encryptOutgoing: createCipheriv('aes-256-ctr', params.subarray(0, 32), params.subarray(64, 80)),
        decryptIncoming: createDecipheriv('aes-256-ctr', params.subarray(32, 64), params.subarray(80, 96)),
    };
}
