import { Address, Cell, CellType, loadCurrencyCollection, loadMessage, loadStateInit, type Message, type Slice } from '@ton/core';
import { describeBocProblem } from './boc/boc-check.ts';

/** A value a user sent that is not in any accepted form; the message names the value. */
export class InputFormatError extends Error {
    override readonly name = 'InputFormatError';
}

const RAW_ADDRESS = /^(-?\d{1,10}):([0-9a-fA-F]{1,64})$/;
const FRIENDLY_ADDRESS = /^[A-Za-z0-9+/_-]{48}$/;

/**
 * Account ids as users write them: raw `wc:hex` (any case; shorter hex is left-padded) or the
 * 48-character user-friendly form in base64 or base64url (bounceable or not, test-only or not),
 * whose CRC16 is checked. The workchain is an int8, as in addr_std (and in the friendly form): an
 * account with a 256-bit address cannot be anywhere else.
 */
export function parseAccountId(input: string, what = 'account id'): Address {
    const value = input.trim();
    const raw = RAW_ADDRESS.exec(value);
    if (raw) {
        const workchain = Number(raw[1]);
        if (workchain < -128 || workchain > 127) {
            throw new InputFormatError(`${what} '${input}': workchain ${raw[1]} is out of range; an address's workchain is a signed 8-bit number (-128..127)`);
        }
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
    const hex = /^[0-9a-fA-F]+$/.test(value);
    const bytes = hex && value.length % 2 === 0 ? Buffer.from(value, 'hex') : Buffer.from(value, 'base64');
    let roots: Cell[];
    try {
        roots = Cell.fromBoc(bytes);
        if (roots.some(root => !(root instanceof Cell))) throw new Error('a root is missing');
    } catch (error) {
        throw new InputFormatError(`${what} is not a valid bag of cells (base64 or hex): ${bocProblem(value, hex, bytes, error)}`);
    }
    if (roots.length !== 1) throw new InputFormatError(`${what} must have exactly one root cell, it has ${roots.length}`);
    return roots[0];
}

/**
 * Why a BOC did not read, in the format's terms: the text first (a character neither base64 nor
 * hex, an odd number of hex digits), then the bytes. @ton/core's own reason is used only when the
 * checker finds nothing and it is one of its deliberate errors, not a JavaScript failure inside it.
 */
function bocProblem(text: string, hex: boolean, bytes: Buffer, error: unknown): string {
    const stray = /[^A-Za-z0-9+/_=\s-]/.exec(text);
    if (stray) return `it is neither base64 nor hex: it has ${JSON.stringify(stray[0])} at position ${stray.index}`;
    if (hex && text.length % 2 === 1) {
        const asBase64 = describeBocProblem(bytes);
        if (asBase64) return `it has an odd number of hex digits (${text.length}), and read as base64 ${asBase64}`;
    }
    const found = describeBocProblem(bytes);
    if (found) return found;
    return readFailureKind(error) === 'stated' ? (error as Error).message : 'its cells could not be built from it';
}

const EXOTIC_NAMES: Partial<Record<CellType, string>> = {
    [CellType.PrunedBranch]: 'a pruned branch',
    [CellType.Library]: 'a library cell',
    [CellType.MerkleProof]: 'a Merkle proof',
    [CellType.MerkleUpdate]: 'a Merkle update',
};

/**
 * A cell read as a TL-B `Message Any`; when it is not one, the error says which field breaks and
 * how (the cell ends inside it, it needs a reference the cell lacks, an address of the wrong kind).
 */
export function parseMessageCell(cell: Cell, what = 'boc'): Message {
    if (cell.isExotic) throw new InputFormatError(`${what} is not a message: its root is ${EXOTIC_NAMES[cell.type] ?? 'an exotic cell'}, a message is an ordinary cell`);
    try {
        return loadMessage(cell.beginParse());
    } catch (error) {
        throw new InputFormatError(`${what} is not a message (TL-B Message): ${messageProblem(cell, error)}`);
    }
}

/** Walks the Message layout field by field to say where `cell` stops being one. */
function messageProblem(cell: Cell, error: unknown): string {
    const message = cell.beginParse();
    /** The slice being read: the message's, or its StateInit's when that hangs by a reference. */
    let slice = message;
    let field = 'its header';
    const read = <T>(name: string, load: (s: Slice) => T): T => {
        field = name;
        return load(slice);
    };
    try {
        if (!read('its header tag', s => s.loadBit())) {
            read('its header flags (ihr_disabled, bounce, bounced)', s => s.loadUint(3));
            read('its source address (int_msg_info src)', s => s.loadAddress());
            read('its destination address (int_msg_info dest)', s => s.loadAddress());
            read('its value (CurrencyCollection)', s => loadCurrencyCollection(s));
            read('its ihr_fee', s => s.loadCoins());
            read('its fwd_fee', s => s.loadCoins());
            read('its created_lt', s => s.loadUintBig(64));
            read('its created_at', s => s.loadUint(32));
        } else if (!read('its header tag', s => s.loadBit())) {
            read('its source address (ext_in_msg_info src)', s => s.loadMaybeExternalAddress());
            read('its destination address (ext_in_msg_info dest)', s => s.loadAddress());
            read('its import_fee', s => s.loadCoins());
        } else {
            read('its source address (ext_out_msg_info src)', s => s.loadAddress());
            read('its destination address (ext_out_msg_info dest)', s => s.loadMaybeExternalAddress());
            read('its created_lt', s => s.loadUintBig(64));
            read('its created_at', s => s.loadUint(32));
        }
        if (read('its init flag', s => s.loadBit())) {
            if (read('its init flag', s => s.loadBit())) {
                const init = read('its StateInit reference', s => s.loadRef());
                if (init.isExotic) return `its StateInit reference is ${EXOTIC_NAMES[init.type] ?? 'an exotic cell'}, not a StateInit`;
                slice = init.beginParse();
                read('its StateInit', s => loadStateInit(s));
                slice = message;
            } else {
                read('its StateInit', s => loadStateInit(s));
            }
        }
        if (read('its body flag', s => s.loadBit())) read('its body reference', s => s.loadRef());
    } catch (failure) {
        return `${field} ${fieldFailure(slice, failure)}`;
    }
    return `it could not be read as one (${readFailureReason(error)})`;
}

function fieldFailure(slice: Slice, failure: unknown): string {
    switch (readFailureKind(failure)) {
        case 'address': return 'is not an address of the kind the field takes';
        case 'reference': return 'needs a reference, but the cell has no more references left';
        case 'bits': return `runs past the end of the cell (${slice.remainingBits} bit${slice.remainingBits === 1 ? '' : 's'} were left)`;
        case 'number': return 'holds a number too large for the field';
        case 'external-in': return 'is an inbound external message header where an outbound message is expected';
        default: return 'is malformed';
    }
}

type ReadFailure = 'address' | 'reference' | 'bits' | 'number' | 'external-in' | 'internal' | 'stated';

/** What kind of failure a cell reader (@ton/core's or ours) threw: its low-level messages are not for users. */
function readFailureKind(failure: unknown): ReadFailure {
    if (!(failure instanceof Error)) return 'internal';
    const message = failure.message;
    if (/External In message is not possible/.test(message)) return 'external-in';
    if (/Invalid address/.test(message)) return 'address';
    if (/No more references|reference/i.test(message)) return 'reference';
    if (/out of bounds|Index \d/.test(message)) return 'bits';
    if (/safe integer|too big|overflow/i.test(message)) return 'number';
    if (failure instanceof TypeError || failure instanceof RangeError || failure instanceof ReferenceError || failure instanceof SyntaxError) return 'internal';
    return /undefined|null|is not|NaN|\[object/.test(message) ? 'internal' : 'stated';
}

/**
 * Why reading something from cells failed, said for a user: a reader's own deliberate message as
 * it is, @ton/core's low-level ones ("Index 391 > 360 is out of bounds") and JavaScript's own
 * failures ("Cannot read properties of undefined") as what they mean for the input.
 */
export function readFailureReason(failure: unknown): string {
    switch (readFailureKind(failure)) {
        case 'address': return 'an address is not of the kind its field takes';
        case 'reference': return 'a field needs a reference its cell does not have';
        case 'bits': return 'a field runs past the end of its cell';
        case 'number': return 'a number is too large for its field';
        case 'external-in': return 'a message to send has an inbound external header (ext_in_msg_info), which no contract can send';
        case 'internal': return 'a field is malformed';
        default: return (failure as Error).message;
    }
}
