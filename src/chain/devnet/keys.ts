import { createPrivateKey, createPublicKey, randomBytes, sign, type KeyObject } from 'node:crypto';

/** PKCS#8 wrapping of a raw 32-byte Ed25519 seed. */
const PKCS8_ED25519_PREFIX = Buffer.from('302e020100300506032b657004220420', 'hex');

/** An Ed25519 key pair; `secretKey` is seed ‖ public key (64 bytes), as TON tools expect. */
export interface KeyPair {
    publicKey: Buffer;
    secretKey: Buffer;
}

export function keyPairFromSeed(seed: Buffer): KeyPair {
    const privateKey = privateKeyOf(seed);
    const spki = createPublicKey(privateKey).export({ format: 'der', type: 'spki' });
    const publicKey = Buffer.from(spki.subarray(spki.length - 32));
    return { publicKey, secretKey: Buffer.concat([seed, publicKey]) };
}

export function newKeyPair(): KeyPair {
    return keyPairFromSeed(randomBytes(32));
}

function privateKeyOf(seed: Buffer): KeyObject {
    return createPrivateKey({ key: Buffer.concat([PKCS8_ED25519_PREFIX, seed]), format: 'der', type: 'pkcs8' });
}

/** Signs with node's native Ed25519 (two orders of magnitude faster than the pure-JS signer). */
export function signerFor(keys: KeyPair): (data: Buffer) => Buffer {
    const privateKey = privateKeyOf(keys.secretKey.subarray(0, 32));
    return data => sign(null, data, privateKey);
}
