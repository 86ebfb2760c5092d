/**
 * Decoding with ton-tl's TLReadBuffer so that a request must be consumed exactly. TLReadBuffer
 * does not expose its offset, silently truncates an overlong `bytes` field and writes into its
 * input when reading a negative long, so we decode a copy with a sentinel appended: the bytes left
 * after decoding must be exactly the sentinel.
 */
import { TLReadBuffer } from 'ton-tl';
import { TlDecodeError } from './tl-reader.ts';

const SENTINEL = Buffer.from('ffffffff', 'hex');

export function decodeExact<T>(data: Buffer, decode: (reader: TLReadBuffer) => T): T {
    const reader = new TLReadBuffer(Buffer.concat([data, SENTINEL]));
    let value: T;
    try {
        value = decode(reader);
    } catch (err) {
        throw new TlDecodeError(`cannot decode: ${(err as Error).message}`);
    }
    const rest = reader.readObject();
    if (!rest.equals(SENTINEL)) {
        throw new TlDecodeError(rest.length > SENTINEL.length ? 'unexpected trailing bytes' : 'truncated');
    }
    return value;
}
