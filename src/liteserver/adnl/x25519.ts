/**
 * ADNL's key agreement: X25519 on keys converted from ed25519 (TON's Ed25519::compute_shared_secret).
 * node:crypto has X25519 but no ed25519 → X25519 conversion, so the public-key side is done with
 * BigInt field arithmetic and the raw keys are wrapped in DER to become KeyObjects.
 */
import { createHash, createPrivateKey, createPublicKey, diffieHellman, randomBytes, type KeyObject } from 'node:crypto';

const FIELD_PRIME = 2n ** 255n - 19n;
const X25519_PKCS8_PREFIX = Buffer.from('302e020100300506032b656e04220420', 'hex');
const X25519_SPKI_PREFIX = Buffer.from('302a300506032b656e032100', 'hex');
const ED25519_PKCS8_PREFIX = Buffer.from('302e020100300506032b657004220420', 'hex');

/** A throwaway ed25519 identity for one client connection: its public key and the X25519 key for the shared secret. */
export interface EphemeralAdnlKey {
    readonly ed25519PublicKey: Buffer;
    readonly x25519PrivateKey: KeyObject;
}

export function generateEphemeralAdnlKey(): EphemeralAdnlKey {
    const seed = randomBytes(32);
    const edPrivateKey = createPrivateKey({ key: Buffer.concat([ED25519_PKCS8_PREFIX, seed]), format: 'der', type: 'pkcs8' });
    const spki = createPublicKey(edPrivateKey).export({ format: 'der', type: 'spki' });
    return {
        ed25519PublicKey: Buffer.from(spki.subarray(spki.length - 32)),
        x25519PrivateKey: x25519PrivateKeyFromEd25519Seed(seed),
    };
}

/** The X25519 private key for an ed25519 seed: the clamped first half of SHA-512(seed), as ed25519 uses it. */
export function x25519PrivateKeyFromEd25519Seed(seed: Buffer): KeyObject {
    const scalar = createHash('sha512').update(seed).digest().subarray(0, 32);
    scalar[0] &= 248;
    scalar[31] &= 127;
    scalar[31] |= 64;
    return createPrivateKey({ key: Buffer.concat([X25519_PKCS8_PREFIX, scalar]), format: 'der', type: 'pkcs8' });
}

/** Birational map from the Edwards y coordinate to the Montgomery u coordinate: u = (1 + y) / (1 − y). */
export function ed25519PublicKeyToX25519(edPublicKey: Buffer): Buffer {
    if (edPublicKey.length !== 32) throw new Error('ed25519 public key must be 32 bytes');
    const yBytes = Buffer.from(edPublicKey);
    yBytes[31] &= 0x7f;
    const y = littleEndianToBigInt(yBytes) % FIELD_PRIME;
    const denominator = mod(1n - y);
    if (denominator === 0n) throw new Error('ed25519 public key has no X25519 counterpart');
    const u = mod((1n + y) * modPow(denominator, FIELD_PRIME - 2n));
    return bigIntToLittleEndian(u, 32);
}

/** The 32-byte ADNL shared secret between our X25519 private key and a peer's ed25519 public key. */
export function adnlSharedSecret(ownPrivateKey: KeyObject, peerEd25519PublicKey: Buffer): Buffer {
    const peerU = ed25519PublicKeyToX25519(peerEd25519PublicKey);
    const publicKey = createPublicKey({ key: Buffer.concat([X25519_SPKI_PREFIX, peerU]), format: 'der', type: 'spki' });
    return diffieHellman({ privateKey: ownPrivateKey, publicKey });
}

function mod(value: bigint): bigint {
    const r = value % FIELD_PRIME;
    return r < 0n ? r + FIELD_PRIME : r;
}

function modPow(base: bigint, exponent: bigint): bigint {
    let result = 1n;
    let b = mod(base);
    let e = exponent;
    while (e > 0n) {
        if (e & 1n) result = (result * b) % FIELD_PRIME;
        b = (b * b) % FIELD_PRIME;
        e >>= 1n;
    }
    return result;
}

function littleEndianToBigInt(bytes: Buffer): bigint {
    return BigInt('0x' + (Buffer.from(bytes).reverse().toString('hex') || '0'));
}

function bigIntToLittleEndian(value: bigint, length: number): Buffer {
    return Buffer.from(value.toString(16).padStart(length * 2, '0'), 'hex').reverse();
}
