import { Address, Cell } from '@ton/core';

/** A value a user sent that is not in any accepted form; the message names the value. */
export class InputFormatError extends Error {
    override readonly name = 'InputFormatError';
}

const RAW_ADDRESS = /^(-?\d{1,10}):([0-9a-fA-F]{1,64})$/;
const FRIENDLY_ADDRESS = /^[A-Za-z0-9+/_-]{48}$/;

/**
 * Account ids as users write them: raw `wc:hex` (any case; shorter hex is left-padded) or the
 * 48-character user-friendly form in base64 or base64url (bounceable or not, test-only or not),
 * whose CRC16 is checked.
 */
export function parseAccountId(input: string, what = 'account id'): Address {
    const value = input.trim();
    const raw = RAW_ADDRESS.exec(value);
    if (raw) {
        const workchain = Number(raw[1]);
        if (workchain < -2147483648 || workchain > 2147483647) throw new InputFormatError(`${what} '${input}': workchain out of range`);
        return new Address(workchain, Buffer.from(raw[2].padStart(64, '0'), 'hex'));
    }
    if (FRIENDLY_ADDRESS.test(value)) {
        try {
            return Address.parseFriendly(value).address;
        } catch {
            throw new InputFormatError(`${what} '${input}' is not a valid user-friendly address (bad checksum or tag)`);
        }
    }
    throw new InputFormatError(`${what} '${input}' is neither a raw address (wc:64 hex) nor a 48-character user-friendly address`);
}

/**
 * Hashes (trace ids, transaction and message hashes): 64 hex digits with an optional 0x, or
 * 32 bytes in base64 / base64url, padded or not. Returns lowercase hex.
 */
export function parseHash(input: string, what = 'hash'): string {
    const value = input.trim();
    const hex = value.replace(/^0x/i, '');
    if (/^[0-9a-fA-F]{64}$/.test(hex)) return hex.toLowerCase();
    if (/^[A-Za-z0-9+/_-]{43}=?$/.test(value)) {
        const bytes = Buffer.from(value.replace(/-/g, '+').replace(/_/g, '/'), 'base64');
        if (bytes.length === 32) return bytes.toString('hex');
    }
    throw new InputFormatError(`${what} '${input}' is not a 32-byte hash in hex (64 digits) or base64/base64url`);
}

/** Public keys: 64 hex digits. */
export function parsePublicKey(input: string): string {
    if (!/^[0-9a-fA-F]{64}$/.test(input)) throw new InputFormatError(`public key '${input}' must be 64 hex digits (32 bytes)`);
    return input.toLowerCase();
}

/** A bag of cells in base64 or hex; exactly one root is expected. */
export function parseBocInput(input: string, what = 'boc'): Cell {
    const value = input.trim();
    if (value === '') throw new InputFormatError(`${what} is empty`);
    const bytes = /^[0-9a-fA-F]+$/.test(value) && value.length % 2 === 0 ? Buffer.from(value, 'hex') : Buffer.from(value, 'base64');
    let roots;
    try {
        roots = Cell.fromBoc(bytes);
    } catch (error) {
        throw new InputFormatError(`${what} is not a valid bag of cells (base64 or hex): ${(error as Error).message}`);
    }
    if (roots.length !== 1) throw new InputFormatError(`${what} must have exactly one root cell, it has ${roots.length}`);
    return roots[0];
}

