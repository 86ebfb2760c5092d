import { type Cell, Dictionary, type DictionaryValue } from '@ton/core';
import { DictKeys } from '../ton/cells/dict-keys.ts';

/**
 * Config params 32/34/36 (`ValidatorSet`):
 *   validators#11 utime_since:uint32 utime_until:uint32 total:uint16 main:uint16 list:(Hashmap 16 ValidatorDescr)
 *   validators_ext#12 utime_since utime_until total main total_weight:uint64 list:(HashmapE 16 ValidatorDescr)
 *   validator#53 ed25519_pubkey#8e81278a pubkey:bits256 weight:uint64
 *   validator_addr#73 ed25519_pubkey#8e81278a pubkey:bits256 weight:uint64 adnl_addr:bits256
 */
export interface RoundValidator {
    /** Index in the set's list (0..total-1). */
    index: number;
    publicKey: bigint;
    weight: bigint;
}

export interface RoundValidatorSet {
    utimeSince: number;
    utimeUntil: number;
    total: number;
    main: number;
    /** In index order. */
    list: RoundValidator[];
    /** Representation hash of the param's cell: the elector's `vset_hash` of the election that made it. */
    hash: bigint;
}

const DESCR: DictionaryValue<{ publicKey: bigint; weight: bigint }> = {
    serialize() {
        throw new Error('read only');
    },
    parse(s) {
        const tag = s.loadUint(8);
        if (tag !== 0x53 && tag !== 0x73) throw new Error(`validator descriptor tag 0x${tag.toString(16)}`);
        if (s.loadUint(32) !== 0x8e81278a) throw new Error('validator key is not an ed25519 public key');
        return { publicKey: s.loadUintBig(256), weight: s.loadUintBig(64) };
    },
};

/** Reads a ValidatorSet cell (either variant). */
export function parseRoundValidatorSet(cell: Cell): RoundValidatorSet {
    const s = cell.beginParse();
    const tag = s.loadUint(8);
    if (tag !== 0x11 && tag !== 0x12) throw new Error(`validator set tag 0x${tag.toString(16)}`);
    const utimeSince = s.loadUint(32);
    const utimeUntil = s.loadUint(32);
    const total = s.loadUint(16);
    const main = s.loadUint(16);
    let dict;
    if (tag === 0x12) {
        s.loadUintBig(64); // total_weight
        dict = s.loadDict(DictKeys.Uint(16), DESCR);
    } else {
        dict = Dictionary.loadDirect(DictKeys.Uint(16), DESCR, s);
    }
    const list = [...dict.keys()].sort((a, b) => a - b).map(index => ({ index, ...dict.get(index)! }));
    return { utimeSince, utimeUntil, total, main, list, hash: BigInt(`0x${cell.hash().toString('hex')}`) };
}
