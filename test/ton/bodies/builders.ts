// Message bodies laid out per the TEPs, for the body-decoder tests.
import { Address, Builder, Cell, beginCell } from '@ton/core';

export const ALICE = Address.parseRaw('0:' + '11'.repeat(32));
export const BOB = Address.parseRaw('0:' + '22'.repeat(32));
export const JETTON_WALLET = Address.parseRaw('0:' + 'a1'.repeat(32));
export const MINTER = Address.parseRaw('0:' + 'b2'.repeat(32));
export const COLLECTION = Address.parseRaw('0:' + 'c3'.repeat(32));
export const MC_ADDRESS = Address.parseRaw('-1:' + 'd4'.repeat(32));

export function comment(text: string): Cell {
    return beginCell().storeUint(0, 32).storeStringTail(text).endCell();
}

export type Payload = { inline: Cell } | { ref: Cell } | null;

function storePayload(b: Builder, p: Payload | undefined): Builder {
    if (p === undefined) return b; // field left out entirely
    if (p === null) return b.storeBit(0);
    if ('ref' in p) return b.storeBit(1).storeRef(p.ref);
    return b.storeBit(0).storeSlice(p.inline.beginParse());
}

export function jettonTransfer(o: {
    queryId: bigint;
    amount: bigint;
    destination: Address | null;
    response: Address | null;
    customPayload?: Cell | null;
    forwardTon: bigint;
    forward?: Payload;
}): Cell {
    const b = beginCell()
        .storeUint(0x0f8a7ea5, 32)
        .storeUint(o.queryId, 64)
        .storeCoins(o.amount)
        .storeAddress(o.destination)
        .storeAddress(o.response)
        .storeMaybeRef(o.customPayload ?? null)
        .storeCoins(o.forwardTon);
    return storePayload(b, o.forward === undefined ? null : o.forward).endCell();
}

export function jettonInternalTransfer(o: {
    queryId: bigint;
    amount: bigint;
    from: Address | null;
    response: Address | null;
    forwardTon: bigint;
    forward?: Payload;
}): Cell {
    const b = beginCell()
        .storeUint(0x178d4519, 32)
        .storeUint(o.queryId, 64)
        .storeCoins(o.amount)
        .storeAddress(o.from)
        .storeAddress(o.response)
        .storeCoins(o.forwardTon);
    return storePayload(b, o.forward).endCell();
}

export function jettonNotify(o: { queryId: bigint; amount: bigint; sender: Address | null; forward?: Payload }): Cell {
    const b = beginCell().storeUint(0x7362d09c, 32).storeUint(o.queryId, 64).storeCoins(o.amount).storeAddress(o.sender);
    return storePayload(b, o.forward).endCell();
}

export function excess(queryId: bigint): Cell {
    return beginCell().storeUint(0xd53276db, 32).storeUint(queryId, 64).endCell();
}

export function jettonBurn(o: { queryId: bigint; amount: bigint; response: Address | null; customPayload?: Cell | null }): Cell {
    return beginCell()
        .storeUint(0x595f07bc, 32)
        .storeUint(o.queryId, 64)
        .storeCoins(o.amount)
        .storeAddress(o.response)
        .storeMaybeRef(o.customPayload ?? null)
        .endCell();
}

export function jettonBurnNotification(o: { queryId: bigint; amount: bigint; sender: Address; response: Address | null }): Cell {
    return beginCell()
        .storeUint(0x7bdd97de, 32)
        .storeUint(o.queryId, 64)
        .storeCoins(o.amount)
        .storeAddress(o.sender)
        .storeAddress(o.response)
        .endCell();
}

export function nftTransfer(o: {
    queryId: bigint;
    newOwner: Address;
    response: Address | null;
    customPayload?: Cell | null;
    forwardAmount: bigint;
    forward?: Payload;
}): Cell {
    const b = beginCell()
        .storeUint(0x5fcc3d14, 32)
        .storeUint(o.queryId, 64)
        .storeAddress(o.newOwner)
        .storeAddress(o.response)
        .storeMaybeRef(o.customPayload ?? null)
        .storeCoins(o.forwardAmount);
    return storePayload(b, o.forward === undefined ? null : o.forward).endCell();
}

export function nftOwnershipAssigned(o: { queryId: bigint; prevOwner: Address; forward?: Payload }): Cell {
    const b = beginCell().storeUint(0x05138d91, 32).storeUint(o.queryId, 64).storeAddress(o.prevOwner);
    return storePayload(b, o.forward === undefined ? null : o.forward).endCell();
}

/** A cell with the first `bits` bits (and none of the refs) of another. */
export function truncateBits(c: Cell, bits: number): Cell {
    return beginCell().storeBits(c.bits.substring(0, bits)).endCell();
}

/** A parsed body with addresses as raw strings and cells as their hashes, for deepEqual. */
export function plain(v: unknown): unknown {
    if (Address.isAddress(v)) return v.toRawString();
    if (v instanceof Cell) return `cell:${v.hash().toString('hex')}`;
    if (Buffer.isBuffer(v) || v === null || typeof v !== 'object') return v;
    if (Array.isArray(v)) return v.map(plain);
    return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, plain(x)]));
}
