import { Address, Cell, CurrencyCollection, ExternalAddress, StateInit, beginCell, storeStateInit } from '@ton/core';

/** Raw lowercase 'wc:64hex', or null for addr_none. External addresses as their @ton/core string. */
export function addressJson(a: Address | ExternalAddress | null | undefined): string | null {
    if (a === null || a === undefined) return null;
    if (Address.isAddress(a)) return a.toRawString();
    return a.toString();
}

/** Integers that may exceed 2^53 are decimal strings. */
export function bigJson(v: bigint): string {
    return v.toString(10);
}

/** Cells are hex BoC strings. */
export function cellJson(c: Cell): string {
    return c.toBoc().toString('hex');
}

export function bufferJson(b: Buffer): string {
    return b.toString('hex');
}

export function stateInitJson(init: StateInit | null | undefined): string | null {
    if (!init) return null;
    return cellJson(beginCell().store(storeStateInit(init)).endCell());
}

export function currencyJson(v: CurrencyCollection): { grams: string; other: Record<string, string> } {
    const other: Record<string, string> = {};
    if (v.other) {
        for (const [id, amount] of v.other) other[String(id)] = bigJson(amount);
    }
    return { grams: bigJson(v.coins), other };
}

/** 'jetton_notify' -> 'JettonNotify', 'wallet_signed_external_v5_r1' -> 'WalletSignedExternalV5R1' (tongo's sum type names). */
export function pascalName(snake: string): string {
    return snake
        .split('_')
        .map((p) => (p.length ? p[0].toUpperCase() + p.slice(1) : p))
        .join('');
}

/** '0x' + 8 lowercase hex digits. */
export function formatOpCode(op: number): string {
    return '0x' + (op >>> 0).toString(16).padStart(8, '0');
}
