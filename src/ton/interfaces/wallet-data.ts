import type { Cell, Slice } from '@ton/core';
import { hashmapKeys } from './hashmap-keys.ts';
import type { WalletDataLayout } from './known-code.ts';

/** What a wallet's state says about it (all optional: a field is set only when it was read). */
export interface WalletInfo {
    /** Ed25519 public key, 64 lowercase hex characters. */
    publicKey?: string;
    seqno?: number;
    /**
     * Subwallet id / wallet id as an unsigned 32-bit number (what `get_subwallet_id` returns);
     * for v5 beta, the subwallet number of its 80-bit wallet id.
     */
    walletId?: number;
    /** v5: whether signed requests are accepted (false once the owner turned signatures off). */
    signatureAllowed?: boolean;
    /** v4: installed plugins, raw `wc:hex` addresses in key order. */
    plugins?: string[];
    /** v5r1: installed extensions, raw `wc:hex` addresses (the wallet's workchain) in key order. */
    extensions?: string[];
}

/**
 * Reads a known wallet's data cell. Returns null when the cell does not have the layout's shape
 * (too short); trailing data is tolerated.
 *
 * v1, v2:      seqno:uint32 public_key:bits256
 * v3:          seqno:uint32 subwallet_id:uint32 public_key:bits256
 * v4:          seqno:uint32 subwallet_id:uint32 public_key:bits256 plugins:(HashmapE 264 _)   key = wc:int8 . hash:bits256
 * v5 beta:     seqno:int33 wallet_id:(global_id:int32 wc:int8 version:uint8 subwallet:uint32) public_key:bits256 extensions:(HashmapE _)
 * v5r1:        is_signature_allowed:Bool seqno:uint32 wallet_id:uint32 public_key:bits256 extensions:(HashmapE 256 int1)
 * highload v2: subwallet_id:uint32 last_cleaned:uint64 public_key:bits256 old_queries:(HashmapE 64 _)
 * highload v3: public_key:bits256 subwallet_id:uint32 old_queries:(HashmapE …) queries:(HashmapE …) last_clean_time:uint64 timeout:uint22
 */
export function readWalletData(layout: WalletDataLayout, data: Cell, workchain: number): WalletInfo | null {
    try {
        const s = data.beginParse();
        switch (layout) {
            case 'v1': {
                const seqno = s.loadUint(32);
                return { seqno, publicKey: loadKey(s) };
            }
            case 'v3': {
                const seqno = s.loadUint(32);
                const walletId = s.loadUint(32);
                return { seqno, walletId, publicKey: loadKey(s) };
            }
            case 'v4': {
                const seqno = s.loadUint(32);
                const walletId = s.loadUint(32);
                const publicKey = loadKey(s);
                const plugins = s.remainingBits > 0 ? v4Plugins(s.loadMaybeRef()) : [];
                return { seqno, walletId, publicKey, plugins };
            }
            case 'v5_beta': {
                const seqno = s.loadIntBig(33);
                s.skip(32 + 8 + 8);
                const walletId = s.loadUint(32);
                const publicKey = loadKey(s);
                const info: WalletInfo = { walletId, publicKey };
                if (seqno >= 0n && seqno <= 0xffffffffn) info.seqno = Number(seqno);
                return info;
            }
            case 'v5r1': {
                const signatureAllowed = s.loadBit();
                const seqno = s.loadUint(32);
                const walletId = s.loadUint(32);
                const publicKey = loadKey(s);
                const extensions = s.remainingBits > 0 ? v5Extensions(s.loadMaybeRef(), workchain) : [];
                return { signatureAllowed, seqno, walletId, publicKey, extensions };
            }
            case 'highload_v2': {
                const walletId = s.loadUint(32);
                s.skip(64);
                return { walletId, publicKey: loadKey(s) };
            }
            case 'highload_v3': {
                const publicKey = loadKey(s);
                const walletId = s.loadUint(32);
                return { publicKey, walletId };
            }
        }
    } catch {
        return null;
    }
}

function loadKey(s: Slice): string {
    return s.loadBuffer(32).toString('hex');
}

function v4Plugins(dict: Cell | null): string[] {
    if (!dict) return [];
    return hashmapKeys(dict, 264).map((key) => {
        const workchain = Number(BigInt.asIntN(8, key >> 256n));
        return `${workchain}:${hex256(key & ((1n << 256n) - 1n))}`;
    });
}

function v5Extensions(dict: Cell | null, workchain: number): string[] {
    if (!dict) return [];
    return hashmapKeys(dict, 256).map((key) => `${workchain}:${hex256(key)}`);
}

function hex256(value: bigint): string {
    return value.toString(16).padStart(64, '0');
}
