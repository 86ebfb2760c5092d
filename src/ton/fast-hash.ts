import crypto, { createHash } from 'node:crypto';
import { createRequire } from 'node:module';
import './fast-bit-reader.ts';
import './fast-padded-bits.ts';
import './fast-bit-builder.ts';

/**
 * @ton/core hashes every cell with @ton/crypto's pure-JS SHA-256 (jsSHA), which dominates
 * block parsing time. @ton/crypto re-exports `sha256_sync` through a live getter, so replacing
 * the primitive's export makes every cell hash use node's native SHA-256.
 * Importing this module once (it is idempotent) is enough.
 */
const require = createRequire(import.meta.url);
const primitives = require('@ton/crypto/dist/primitives/sha256') as {
    sha256_sync: (source: Buffer | string) => Buffer;
};

/** Node's one-shot hash (20.12 and later) skips the Hash object: about a quarter faster on cell-sized inputs. */
const oneShot = (crypto as { hash?: (algorithm: string, data: Buffer | string, encoding: 'buffer') => Buffer }).hash;

function nativeSha256(source: Buffer | string): Buffer {
    return oneShot ? oneShot('sha256', source, 'buffer') : createHash('sha256').update(source).digest();
}

primitives.sha256_sync = nativeSha256;

export function sha256(data: Buffer | string): Buffer {
    return nativeSha256(data);
}
