import crypto, { createHash } from 'node:crypto';

/** Node's one-shot hash (20.12 and later) skips the Hash object: about a quarter faster on cell-sized inputs. */
const oneShot = (crypto as { hash?: (algorithm: string, data: Buffer | string, encoding: 'buffer') => Buffer }).hash;

/** SHA-256 with node's native implementation (cells are hashed with it wherever we make them). */
export function sha256(data: Buffer | string): Buffer {
    return oneShot ? oneShot('sha256', data, 'buffer') : createHash('sha256').update(data).digest();
}
