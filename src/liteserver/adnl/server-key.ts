/**
 * The liteserver's long-term ed25519 identity. Clients know it from the global config
 * (`id: { "@type": "pub.ed25519", key }`) and address the handshake to its key id.
 */
import { createHash, createPrivateKey, createPublicKey, randomBytes, type KeyObject } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { x25519PrivateKeyFromEd25519Seed } from './x25519.ts';

export const SERVER_KEY_FILE_NAME = 'liteserver.key';

const ED25519_PKCS8_PREFIX = Buffer.from('302e020100300506032b657004220420', 'hex');
/** TL constructor `pub.ed25519 key:int256` as written little-endian; the key id hashes the boxed key. */
const PUB_ED25519_TL_ID = Buffer.from('c6b41348', 'hex');

export interface ServerKey {
    /** 32-byte ed25519 public key (what clients put in their config). */
    readonly publicKey: Buffer;
    /** sha256 of the boxed TL `pub.ed25519`: the first 32 bytes of a handshake addressed to us. */
    readonly keyId: Buffer;
    /** For the handshake's key agreement. */
    readonly x25519PrivateKey: KeyObject;
}

export function serverKeyFromSeed(seed: Buffer): ServerKey {
    if (seed.length !== 32) throw new Error(`liteserver key seed must be 32 bytes, got ${seed.length}`);
    const privateKey = createPrivateKey({ key: Buffer.concat([ED25519_PKCS8_PREFIX, seed]), format: 'der', type: 'pkcs8' });
    const spki = createPublicKey(privateKey).export({ format: 'der', type: 'spki' });
    const publicKey = Buffer.from(spki.subarray(spki.length - 32));
    return {
        publicKey,
        keyId: adnlKeyId(publicKey),
        x25519PrivateKey: x25519PrivateKeyFromEd25519Seed(seed),
    };
}

export function adnlKeyId(ed25519PublicKey: Buffer): Buffer {
    return createHash('sha256').update(PUB_ED25519_TL_ID).update(ed25519PublicKey).digest();
}

/**
 * Reads the 32-byte seed at `path`, or creates it (mode 0600) when the file does not exist.
 * A file of any other size is an error rather than being replaced: it may be someone's real key.
 */
export function loadOrCreateServerKey(path: string): ServerKey {
    let seed: Buffer;
    try {
        seed = readFileSync(path);
    } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
        seed = createSeedFile(path);
    }
    if (seed.length !== 32) throw new Error(`${path}: expected a 32-byte ed25519 seed, found ${seed.length} bytes`);
    return serverKeyFromSeed(seed);
}

function createSeedFile(path: string): Buffer {
    mkdirSync(dirname(path), { recursive: true });
    const seed = randomBytes(32);
    try {
        writeFileSync(path, seed, { mode: 0o600, flag: 'wx' });
        return seed;
    } catch (err) {
        // Another process created it between our read and write: use theirs.
        if ((err as NodeJS.ErrnoException).code === 'EEXIST') return readFileSync(path);
        throw err;
    }
}
