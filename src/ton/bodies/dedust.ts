import type { Slice } from '@ton/core';

/** A DeDust asset: what its vaults hold and its pools and swap events name. */
export type DedustAsset = { kind: 'native' } | { kind: 'jetton'; master: string } | { kind: 'extra_currency'; id: number };

/** native$0000 | jetton$0001 workchain_id:int8 address:uint256 | extra_currency$0010 currency_id:int32; undefined for another tag. */
export function loadDedustAsset(s: Slice): DedustAsset | undefined {
    const tag = s.loadUint(4);
    if (tag === 0) return { kind: 'native' };
    if (tag === 1) {
        const workchain = s.loadInt(8);
        return { kind: 'jetton', master: `${workchain}:${s.loadUintBig(256).toString(16).padStart(64, '0')}` };
    }
    if (tag === 2) return { kind: 'extra_currency', id: s.loadInt(32) };
    return undefined;
}
