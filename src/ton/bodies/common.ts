import { Address, Cell, Slice } from '@ton/core';

/** Thrown by the `loadX` parsers when a body does not follow the layout they expect. */
export class BodyParseError extends Error {
    constructor(message: string) {
        super(message);
        this.name = 'BodyParseError';
    }
}

export function fail(message: string): never {
    throw new BodyParseError(message);
}

/** Reads the 32-bit op and checks it. The parsers take the whole body, op included. */
export function expectOp(s: Slice, op: number): void {
    if (s.remainingBits < 32) fail('body shorter than an op code');
    const got = s.loadUint(32);
    if (got !== op >>> 0) fail(`op 0x${got.toString(16)} is not 0x${(op >>> 0).toString(16)}`);
}

export function loadQueryId(s: Slice): bigint {
    return s.loadUintBig(64);
}

/**
 * MsgAddress that must be internal or addr_none: `Address` or `null`.
 * External addresses (addr_extern) are rejected: none of the TEP bodies decoded here use them.
 */
export function loadMsgAddress(s: Slice): Address | null {
    const a = s.loadAddressAny();
    if (a === null || Address.isAddress(a)) return a;
    fail('unexpected external address');
}

/** MsgAddressInt: an internal address, addr_none rejected. */
export function loadMsgAddressInt(s: Slice): Address {
    const a = loadMsgAddress(s);
    if (a === null) fail('address required, got addr_none');
    return a;
}

/** Bytes of a snake-encoded string: the slice's remaining bytes, then each first ref in turn. */
export function loadSnakeBytes(s: Slice, maxCells = 1024): Buffer {
    const parts: Buffer[] = [];
    let cur: Slice = s;
    for (let n = 0; ; n++) {
        if (n >= maxCells) fail('snake data too long');
        if (cur.remainingBits % 8 !== 0) fail('snake data is not whole bytes');
        parts.push(cur.loadBuffer(cur.remainingBits / 8));
        if (cur.remainingRefs === 0) break;
        if (cur.remainingRefs > 1) fail('snake cell with more than one ref');
        cur = cur.loadRef().beginParse();
    }
    return Buffer.concat(parts);
}

const utf8 = new TextDecoder('utf-8', { fatal: true });

export function decodeUtf8(bytes: Buffer): string {
    try {
        return utf8.decode(bytes);
    } catch {
        fail('invalid UTF-8');
    }
}

/**
 * `Either X ^X` payload (forward payloads of jettons and NFTs, message bodies).
 * `value` is the payload as a cell: the referenced cell when `isRight`, else the rest of the slice
 * (bits and refs); `null` when the payload is empty or absent.
 */
export interface EitherPayload {
    isRight: boolean;
    value: Cell | null;
}

/**
 * Reads `Either Cell ^Cell` leniently, the way tongo/TonAPI do for forward payloads: a missing
 * either-bit or a right branch without its ref gives an empty payload instead of failing the body.
 * Consumes the rest of the slice.
 */
export function loadForwardPayload(s: Slice): EitherPayload {
    if (s.remainingBits < 1) return { isRight: false, value: null };
    const isRight = s.loadBit();
    if (isRight) {
        if (s.remainingRefs < 1) return { isRight: true, value: null };
        return { isRight: true, value: s.loadRef() };
    }
    if (s.remainingBits === 0 && s.remainingRefs === 0) return { isRight: false, value: null };
    const value = s.asCell();
    s.skip(s.remainingBits);
    while (s.remainingRefs > 0) s.loadRef();
    return { isRight: false, value };
}

/** Strict `Either Cell ^Cell` as used in MessageRelaxed bodies. Consumes the rest of the slice. */
export function loadEitherCell(s: Slice): EitherPayload & { value: Cell } {
    const isRight = s.loadBit();
    if (isRight) return { isRight, value: s.loadRef() };
    // The same empty cell, not a new one to hash: most wallets' transfers carry no body.
    if (s.remainingBits === 0 && s.remainingRefs === 0) return { isRight, value: Cell.EMPTY };
    const value = s.asCell();
    s.skip(s.remainingBits);
    while (s.remainingRefs > 0) s.loadRef();
    return { isRight, value };
}

/** The first 32 bits of a cell, or undefined for shorter (or exotic) cells. */
export function peekOp(cell: Cell): number | undefined {
    if (cell.isExotic || cell.bits.length < 32) return undefined;
    try {
        return cell.beginParse().preloadUint(32);
    } catch {
        return undefined;
    }
}

/** The query_id after a body's op (the 64 bits most TEP bodies start with), or undefined for shorter cells. */
export function peekQueryId(cell: Cell): bigint | undefined {
    if (cell.isExotic || cell.bits.length < 32 + 64) return undefined;
    return cell.beginParse().skip(32).loadUintBig(64);
}

/** A cell with neither bits nor refs (an empty forward payload). */
export function isEmptyCell(cell: Cell): boolean {
    return cell.bits.length === 0 && cell.refs.length === 0;
}

/** Runs a parser on a cell or slice; `null` instead of an exception. */
export function tryLoad<T>(loader: (s: Slice) => T, src: Cell | Slice): T | null {
    try {
        const s = src instanceof Cell ? src.beginParse() : src.clone();
        return loader(s);
    } catch {
        return null;
    }
}
