import { Address, beginCell, Cell, crc32c, storeMessage, type Message } from '@ton/core';
import { readBoc } from '../ton/boc/boc-reader.ts';
import { InputFormatError, parseBocInput, parseMessageCell } from '../ton/input.ts';
import { MAX_TVM_MESSAGE_DEPTH } from '../ton/tvm-executor.ts';

export interface RootMessage {
    cell: Cell;
    message: Message;
}

/**
 * The deepest message emulation runs. The network takes 512 (config param 43, max_ext_msg_depth),
 * but the emulator (the TVM compiled to WASM) overflows its stack on messages above 301 (see
 * TVM_LIMITS): this is below that, with room.
 */
export const MAX_MESSAGE_DEPTH = MAX_TVM_MESSAGE_DEPTH;

/**
 * The most nanograms an account can hold: the whole supply fits in a signed 64-bit integer, which
 * is how the API writes amounts. A message value (a VarUInteger 16, up to 2^120 − 1) above it can
 * never be paid.
 */
export const MAX_NANOGRAMS = 2n ** 63n - 1n;

/** A value of nanograms a message asks to move, refused when no account could ever pay it. */
export function requirePayableNanograms(value: bigint, what: string): void {
    if (value > MAX_NANOGRAMS) {
        throw new InputFormatError(`${what} ${value} nanograms, more than any account can hold (at most ${MAX_NANOGRAMS}, 2^63 - 1)`);
    }
}

/** The `boc` of an emulation request: one root cell holding a whole TL-B `Message`. */
export function parseRootMessage(boc: string): RootMessage {
    const cell = readRootCell(boc);
    requireEmulatableDepth(cell);
    // An inline body is the rest of the cell, so whatever parses up to it is a whole message.
    const message = parseMessageCell(cell);
    if (message.info.type !== 'external-out') requireChainWorkchain(message.info.dest, "the message's destination");
    if (message.info.type === 'internal') requirePayableNanograms(message.info.value.coins, 'the message carries');
    return { cell, message };
}

function requireEmulatableDepth(cell: Cell): void {
    if (cell.depth() > MAX_MESSAGE_DEPTH) {
        throw new InputFormatError(`boc is ${cell.depth()} cells deep; the emulator runs messages at most ${MAX_MESSAGE_DEPTH} cells deep `
            + '(its TVM, compiled to WASM, overflows its stack on deeper ones; the network itself takes up to 512)');
    }
}

/** Accounts live in the masterchain (-1) and the basechain (0); nothing else can be emulated. */
export function requireChainWorkchain(address: Address, what: string): void {
    if (address.workChain !== 0 && address.workChain !== -1) {
        throw new InputFormatError(`${what} ${address.workChain}:${address.hash.toString('hex')} is in workchain ${address.workChain}; the chain has only workchains -1 and 0`);
    }
}

/** An inbound external message with a destination, as a wallet message must be. */
export function requireExternalIn(root: RootMessage): Address {
    const info = root.message.info;
    if (info.type !== 'external-in') {
        throw new InputFormatError(`a wallet message must be an inbound external message (ext_in_msg_info), this one is ${info.type === 'internal' ? 'an internal message' : 'an outbound external message'}`);
    }
    return info.dest;
}

/** The same external message sent to another address (body and StateInit unchanged). */
export function redirectExternal(root: RootMessage, destination: Address): RootMessage {
    const info = root.message.info;
    if (info.type !== 'external-in') throw new InputFormatError('only an inbound external message can be redirected');
    requireChainWorkchain(destination, 'address_override');
    const message: Message = { ...root.message, info: { ...info, dest: destination } };
    const cell = beginCell().store(storeMessage(message)).endCell();
    requireEmulatableDepth(cell);
    return { cell, message };
}

/**
 * `parseBocInput`'s root cell, read with the project's BOC reader (several times faster than
 * @ton/core's on a small message, and its cells keep their bytes for the emulator) when the BOC is
 * a plain one that both readers read alike: magic b5ee9c72, one root, only ordinary cells, cell
 * data exactly as long as declared, then the CRC32C if it has one, and it matches. Anything else,
 * valid or not, goes to `parseBocInput`, which accepts or refuses it as it always has.
 */
function readRootCell(input: string): Cell {
    const value = input.trim();
    const bytes = value === '' ? null : /^[0-9a-fA-F]+$/.test(value) && value.length % 2 === 0 ? Buffer.from(value, 'hex') : Buffer.from(value, 'base64');
    if (bytes && isPlainSingleRootBoc(bytes)) {
        try {
            const roots = readBoc(bytes);
            if (roots.length === 1 && roots[0] instanceof Cell) return roots[0];
        } catch {
            // parseBocInput says what is wrong with it.
        }
    }
    return parseBocInput(input);
}

/**
 * serialized_boc#b5ee9c72 with one root, no absent cells, ordinary level-0 cells whose sizes add up
 * to tot_cells_size, nothing after them but a matching CRC32C when the flags announce one.
 */
function isPlainSingleRootBoc(src: Buffer): boolean {
    if (src.length < 6 || src.readUInt32BE(0) !== 0xb5ee9c72) return false;
    const flags = src[4];
    const size = flags & 0x07;
    const offBytes = src[5];
    const hasCrc = (flags & 0x40) !== 0;
    if (size === 0 || size > 4 || offBytes === 0 || offBytes > 8) return false;
    let pos = 6;
    const readN = (n: number) => {
        let v = 0;
        for (let i = 0; i < n; i++) v = v * 256 + src[pos++];
        return v;
    };
    if (pos + 4 * size + offBytes > src.length) return false;
    const cellCount = readN(size);
    const rootCount = readN(size);
    const absent = readN(size);
    const totalSize = readN(offBytes);
    const root = readN(size);
    if (rootCount !== 1 || absent !== 0 || cellCount === 0 || root >= cellCount) return false;
    if ((flags & 0x80) !== 0) pos += cellCount * offBytes;
    const end = pos + totalSize;
    if (end > src.length) return false;
    for (let i = 0; i < cellCount; i++) {
        if (pos + 2 > end) return false;
        const d1 = src[pos];
        const d2 = src[pos + 1];
        // refs ≤ 4, not exotic, no stored hashes, level mask 0
        if ((d1 & 7) > 4 || (d1 & 0xf8) !== 0) return false;
        const dataLength = (d2 >> 1) + (d2 & 1);
        // A partial last byte must hold at least one data bit before its completion tag: a cell
        // written with a needless tag byte would get another hash from the two readers.
        if ((d2 & 1) !== 0 && (pos + 2 + dataLength > end || (src[pos + 1 + dataLength] & 0x7f) === 0)) return false;
        pos += 2 + dataLength + (d1 & 7) * size;
    }
    if (pos !== end) return false;
    return !hasCrc || (end + 4 === src.length && crc32c(src.subarray(0, end)).equals(src.subarray(end)));
}
