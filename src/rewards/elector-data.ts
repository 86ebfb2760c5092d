import { type Cell, Dictionary, type DictionaryValue, type TupleItem } from '@ton/core';
import { DictKeys } from '../ton/cells/dict-keys.ts';

/** The elector (config param 1 on every TON network): `-1:3333…3333`. */
export const ELECTOR_ACCOUNT_ID = Buffer.alloc(32, 0x33);
/** Get-method ids: `(crc16(name) & 0xffff) | 0x10000`. */
export const PAST_ELECTIONS_METHOD = 81558;

/** A frozen_dict value: `src_addr:uint256 weight:uint64 true_stake:Grams banned:Bool`. */
export interface FrozenEntry {
    /** Masterchain account id that sent the stake (a pool, or a wallet). */
    srcAddr: bigint;
    weight: bigint;
    trueStake: bigint;
    banned: boolean;
}

/** One `past_elections` entry (the elector's `PastElection`, keyed by election id). */
export interface ElectionRecord {
    electionId: number;
    unfreezeAt: number;
    stakeHeld: number;
    vsetHash: bigint;
    /** key = validator public key */
    frozen: Map<bigint, FrozenEntry>;
    totalStake: bigint;
    bonuses: bigint;
}

const FROZEN: DictionaryValue<FrozenEntry> = {
    serialize(f, b) {
        b.storeUint(f.srcAddr, 256).storeUint(f.weight, 64).storeCoins(f.trueStake).storeBit(f.banned);
    },
    parse(s) {
        return { srcAddr: s.loadUintBig(256), weight: s.loadUintBig(64), trueStake: s.loadCoins(), banned: s.loadBit() };
    },
};

export function readFrozenDict(root: Cell | null): Map<bigint, FrozenEntry> {
    if (!root) return new Map();
    const dict = Dictionary.loadDirect(DictKeys.BigUint(256), FROZEN, root);
    return new Map([...dict]);
}

function int(item: TupleItem | undefined, what: string): bigint {
    if (item?.type !== 'int') throw new Error(`past_elections: ${what} is not an int (${item?.type})`);
    return item.value;
}

function cellOrNull(item: TupleItem | undefined, what: string): Cell | null {
    if (item?.type === 'null') return null;
    if (item?.type === 'cell' || item?.type === 'slice' || item?.type === 'builder') return item.cell;
    throw new Error(`past_elections: ${what} is not a cell (${item?.type})`);
}

/**
 * The `past_elections` get-method's one stack value: a Lisp list (`[head, tail]` … `null`) of
 * 8-tuples `[id, unfreeze_at, stake_held, vset_hash, frozen_dict, total_stake, bonuses, complaints]`.
 */
export function readPastElectionsResult(value: TupleItem): ElectionRecord[] {
    const out: ElectionRecord[] = [];
    let node = value;
    while (node.type !== 'null') {
        if (node.type !== 'tuple' || node.items.length !== 2) throw new Error('past_elections: not a list');
        const head = node.items[0];
        if (head.type !== 'tuple' || head.items.length < 7) throw new Error('past_elections: an entry is not an 8-tuple');
        const t = head.items;
        out.push({
            electionId: Number(int(t[0], 'election_id')),
            unfreezeAt: Number(int(t[1], 'unfreeze_at')),
            stakeHeld: Number(int(t[2], 'stake_held')),
            vsetHash: int(t[3], 'vset_hash'),
            frozen: readFrozenDict(cellOrNull(t[4], 'frozen_dict')),
            totalStake: int(t[5], 'total_stake'),
            bonuses: int(t[6], 'bonuses'),
        });
        node = node.items[1];
    }
    return out;
}

/**
 * The credits in the elector's storage (`elect:(Maybe ^Elect) credits:(HashmapE 256 Grams) …`):
 * account id → what `compute_returned_stake` would return.
 */
export function readElectorCredits(data: Cell): Map<bigint, bigint> {
    const s = data.beginParse();
    s.loadMaybeRef();
    const credits = s.loadDict(DictKeys.BigUint(256), Dictionary.Values.BigVarUint(4));
    return new Map([...credits]);
}
