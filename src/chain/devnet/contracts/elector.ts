import { Address, Cell, Dictionary, beginCell, type Builder, type DictionaryValue, type Slice, type TupleItem } from '@ton/core';
import { sign } from '@ton/crypto';
import { contractCode } from './artifacts.ts';
import { DictKeys } from '../../../ton/cells/dict-keys.ts';

/**
 * The devnet's elector (contracts/elector.tolk) at -1:3333…3333 (p1): mainnet's storage layout,
 * message bodies and get-method outputs. Storage builders/parsers, new_stake (signed with the
 * validator's ed25519 key) and recover_stake bodies, and readers of the get-method stacks.
 */

export const ELECTOR_ADDRESS = Address.parse(`-1:${'33'.repeat(32)}`);

/** The source of the collator's fee message (-1:000…000): credited to the active round's bonuses. */
export const FEE_COLLECTOR_SOURCE = Address.parse(`-1:${'00'.repeat(32)}`);

export const ELECTOR_OP = {
    /** new_stake#4e73744b query_id:uint64 validator_pubkey:uint256 stake_at:uint32 max_factor:uint32 adnl_addr:uint256 signature:^bits512 */
    newStake: 0x4e73744b,
    /** answer: query_id:uint64 comment:uint32 (1 gram) */
    newStakeConfirmed: 0xf374484c,
    /** answer: query_id:uint64 reason:uint32 (the stake back, mode 64) */
    newStakeRejected: 0xee6f454c,
    /** recover_stake#47657424 query_id:uint64 */
    recoverStake: 0x47657424,
    /** answer: query_id:uint64, carrying the credit */
    recoverStakeOk: 0xf96f7324,
    /** answer: query_id:uint64 op:uint32 */
    recoverStakeFailed: 0xfffffffe,
    /** upgrade_code#4e436f64 query_id:uint64 code:^Cell (from the config contract only) */
    upgradeCode: 0x4e436f64,
    upgradeCodeOk: 0xce436f64,
    /** answer to an unknown query / refused upgrade: query_id:uint64 op:uint32 */
    error: 0xffffffff,
} as const;

/** The tag in front of the signed data of new_stake. */
export const STAKE_SIGNATURE_TAG = 0x654c5074;

export function electorCode(): Cell {
    return contractCode('elector');
}

export interface Participant {
    stake: bigint;
    time: number;
    maxFactor: number;
    srcAddr: bigint;
    adnlAddr: bigint;
}

export interface CurrentElection {
    electAt: number;
    electClose: number;
    minStake: bigint;
    totalStake: bigint;
    /** key = validator public key */
    members: Map<bigint, Participant>;
    failed: boolean;
    finished: boolean;
}

export interface FrozenStake {
    srcAddr: bigint;
    weight: bigint;
    trueStake: bigint;
    banned: boolean;
}

export interface PastElection {
    unfreezeAt: number;
    stakeHeld: number;
    vsetHash: bigint;
    /** key = validator public key */
    frozen: Map<bigint, FrozenStake>;
    totalStake: bigint;
    bonuses: bigint;
    complaints: Cell | null;
}

export interface ElectorState {
    elect: CurrentElection | null;
    /** key = masterchain account id */
    credits: Map<bigint, bigint>;
    /** key = election id (elect_at) */
    pastElections: Map<number, PastElection>;
    grams: bigint;
    activeId: number;
    activeHash: bigint;
}

const participantValue: DictionaryValue<Participant> = {
    serialize(p, b) {
        b.storeCoins(p.stake).storeUint(p.time, 32).storeUint(p.maxFactor, 32).storeUint(p.srcAddr, 256).storeUint(p.adnlAddr, 256);
    },
    parse(s) {
        return { stake: s.loadCoins(), time: s.loadUint(32), maxFactor: s.loadUint(32), srcAddr: s.loadUintBig(256), adnlAddr: s.loadUintBig(256) };
    },
};

const frozenValue: DictionaryValue<FrozenStake> = {
    serialize(f, b) {
        b.storeUint(f.srcAddr, 256).storeUint(f.weight, 64).storeCoins(f.trueStake).storeBit(f.banned);
    },
    parse(s) {
        return { srcAddr: s.loadUintBig(256), weight: s.loadUintBig(64), trueStake: s.loadCoins(), banned: s.loadBit() };
    },
};

function toMap<K extends bigint | number, V>(d: Dictionary<K, V>): Map<K, V> {
    return new Map([...d.keys()].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)).map(k => [k, d.get(k)!] as [K, V]));
}

function fromMap<K extends bigint | number, V>(m: Map<K, V>, d: Dictionary<K, V>): Dictionary<K, V> {
    for (const [k, v] of m) d.set(k, v);
    return d;
}

export function frozenDict(frozen: Map<bigint, FrozenStake>): Dictionary<bigint, FrozenStake> {
    return fromMap(frozen, Dictionary.empty(DictKeys.BigUint(256), frozenValue));
}

/** A frozen_dict cell (HashmapE 256 Frozen root, or null when empty), as in past_elections. */
export function parseFrozenDict(root: Cell | null): Map<bigint, FrozenStake> {
    if (!root) return new Map();
    return toMap(Dictionary.loadDirect(DictKeys.BigUint(256), frozenValue, root));
}

function storePastElection(p: PastElection, b: Builder): void {
    b.storeUint(p.unfreezeAt, 32)
        .storeUint(p.stakeHeld, 32)
        .storeUint(p.vsetHash, 256)
        .storeDict(frozenDict(p.frozen))
        .storeCoins(p.totalStake)
        .storeCoins(p.bonuses)
        .storeMaybeRef(p.complaints);
}

function loadPastElection(s: Slice): PastElection {
    return {
        unfreezeAt: s.loadUint(32),
        stakeHeld: s.loadUint(32),
        vsetHash: s.loadUintBig(256),
        frozen: parseFrozenDict(s.loadMaybeRef()),
        totalStake: s.loadCoins(),
        bonuses: s.loadCoins(),
        complaints: s.loadMaybeRef(),
    };
}

const pastElectionValue: DictionaryValue<PastElection> = { serialize: storePastElection, parse: loadPastElection };

export function currentElectionCell(e: CurrentElection): Cell {
    return beginCell()
        .storeUint(e.electAt, 32)
        .storeUint(e.electClose, 32)
        .storeCoins(e.minStake)
        .storeCoins(e.totalStake)
        .storeDict(fromMap(e.members, Dictionary.empty(DictKeys.BigUint(256), participantValue)))
        .storeBit(e.failed)
        .storeBit(e.finished)
        .endCell();
}

export function parseCurrentElection(c: Cell): CurrentElection {
    const s = c.beginParse();
    const e: CurrentElection = {
        electAt: s.loadUint(32),
        electClose: s.loadUint(32),
        minStake: s.loadCoins(),
        totalStake: s.loadCoins(),
        members: toMap(s.loadDict(DictKeys.BigUint(256), participantValue)),
        failed: s.loadBit(),
        finished: s.loadBit(),
    };
    s.endParse();
    return e;
}

/** An empty elector (no election, no credits, no past elections) unless given. */
export function electorData(st: Partial<ElectorState> = {}): Cell {
    return beginCell()
        .storeMaybeRef(st.elect ? currentElectionCell(st.elect) : null)
        .storeDict(fromMap(st.credits ?? new Map(), Dictionary.empty(DictKeys.BigUint(256), Dictionary.Values.BigVarUint(4))))
        .storeDict(fromMap(st.pastElections ?? new Map(), Dictionary.empty(DictKeys.Uint(32), pastElectionValue)))
        .storeCoins(st.grams ?? 0n)
        .storeUint(st.activeId ?? 0, 32)
        .storeUint(st.activeHash ?? 0n, 256)
        .endCell();
}

export function parseElectorData(data: Cell): ElectorState {
    const s = data.beginParse();
    const elect = s.loadMaybeRef();
    const st: ElectorState = {
        elect: elect ? parseCurrentElection(elect) : null,
        credits: toMap(s.loadDict(DictKeys.BigUint(256), Dictionary.Values.BigVarUint(4))),
        pastElections: toMap(s.loadDict(DictKeys.Uint(32), pastElectionValue)),
        grams: s.loadCoins(),
        activeId: s.loadUint(32),
        activeHash: s.loadUintBig(256),
    };
    s.endParse();
    return st;
}

export interface NewStake {
    /** the validator's ed25519 key pair (publicKey 32 bytes, secretKey 64 bytes as @ton/crypto gives) */
    publicKey: Buffer;
    secretKey: Buffer;
    /** elect_at of the election */
    stakeAt: number;
    /** 65536 = 1.0 */
    maxFactor: number;
    adnlAddr: bigint;
    /** the masterchain address that sends the stake (signed) */
    src: Address;
    queryId?: bigint;
}

/** The 76 bytes a validator signs: 0x654c5074 stake_at max_factor src_addr adnl_addr. */
export function newStakeSignedData(stakeAt: number, maxFactor: number, src: Address, adnlAddr: bigint): Buffer {
    return beginCell()
        .storeUint(STAKE_SIGNATURE_TAG, 32)
        .storeUint(stakeAt, 32)
        .storeUint(maxFactor, 32)
        .storeBuffer(src.hash)
        .storeUint(adnlAddr, 256)
        .endCell()
        .beginParse()
        .loadBuffer(76);
}

export function newStakeBody(s: NewStake): Cell {
    const signature = sign(newStakeSignedData(s.stakeAt, s.maxFactor, s.src, s.adnlAddr), s.secretKey);
    return beginCell()
        .storeUint(ELECTOR_OP.newStake, 32)
        .storeUint(s.queryId ?? 0n, 64)
        .storeBuffer(s.publicKey)
        .storeUint(s.stakeAt, 32)
        .storeUint(s.maxFactor, 32)
        .storeUint(s.adnlAddr, 256)
        .storeRef(beginCell().storeBuffer(signature).endCell())
        .endCell();
}

export function recoverStakeBody(queryId = 0n): Cell {
    return beginCell().storeUint(ELECTOR_OP.recoverStake, 32).storeUint(queryId, 64).endCell();
}

// ---- get-method stacks ----

function asInt(item: TupleItem, what: string): bigint {
    if (item.type !== 'int') throw new Error(`${what}: expected an int, got ${item.type}`);
    return item.value;
}

function asCellOrNull(item: TupleItem, what: string): Cell | null {
    if (item.type === 'null') return null;
    if (item.type === 'cell') return item.cell;
    throw new Error(`${what}: expected a cell or null, got ${item.type}`);
}

function asTuple(item: TupleItem, what: string): TupleItem[] {
    if (item.type !== 'tuple') throw new Error(`${what}: expected a tuple, got ${item.type}`);
    return item.items;
}

/** The items of a Lisp-style list (`[head, [head, … null]]`), head first. */
export function lispListItems(item: TupleItem): TupleItem[] {
    const out: TupleItem[] = [];
    let cur = item;
    while (cur.type !== 'null') {
        const pair = asTuple(cur, 'list');
        if (pair.length !== 2) throw new Error(`list node of ${pair.length} items`);
        out.push(pair[0]);
        cur = pair[1];
    }
    return out;
}

export interface PastElectionEntry extends PastElection {
    electionId: number;
    /** the frozen_dict cell as returned (null when empty) */
    frozenDictCell: Cell | null;
}

/** `past_elections` (81558): a list of [id, unfreeze_at, stake_held, vset_hash, frozen_dict, total_stake, bonuses, complaints]. */
export function readPastElections(result: TupleItem): PastElectionEntry[] {
    return lispListItems(result).map(item => {
        const t = asTuple(item, 'past_elections entry');
        if (t.length !== 8) throw new Error(`past_elections entry of ${t.length} items`);
        const frozenDictCell = asCellOrNull(t[4], 'frozen_dict');
        return {
            electionId: Number(asInt(t[0], 'election_id')),
            unfreezeAt: Number(asInt(t[1], 'unfreeze_at')),
            stakeHeld: Number(asInt(t[2], 'stake_held')),
            vsetHash: asInt(t[3], 'vset_hash'),
            frozenDictCell,
            frozen: parseFrozenDict(frozenDictCell),
            totalStake: asInt(t[5], 'total_stake'),
            bonuses: asInt(t[6], 'bonuses'),
            complaints: asCellOrNull(t[7], 'complaints'),
        };
    });
}

export interface ParticipantListExtended {
    electAt: number;
    electClose: number;
    minStake: bigint;
    totalStake: bigint;
    /** in ascending pubkey order */
    participants: { publicKey: bigint; stake: bigint; maxFactor: number; srcAddr: bigint; adnlAddr: bigint }[];
    failed: boolean;
    finished: boolean;
}

/** `participant_list_extended` (86698): the 7 stack values. */
export function readParticipantListExtended(stack: TupleItem[]): ParticipantListExtended {
    if (stack.length !== 7) throw new Error(`participant_list_extended returned ${stack.length} values`);
    return {
        electAt: Number(asInt(stack[0], 'elect_at')),
        electClose: Number(asInt(stack[1], 'elect_close')),
        minStake: asInt(stack[2], 'min_stake'),
        totalStake: asInt(stack[3], 'total_stake'),
        participants: lispListItems(stack[4]).map(item => {
            const [key, data] = asTuple(item, 'participant');
            const [stake, maxFactor, srcAddr, adnlAddr] = asTuple(data, 'participant data');
            return {
                publicKey: asInt(key, 'pubkey'),
                stake: asInt(stake, 'stake'),
                maxFactor: Number(asInt(maxFactor, 'max_factor')),
                srcAddr: asInt(srcAddr, 'src_addr'),
                adnlAddr: asInt(adnlAddr, 'adnl_addr'),
            };
        }),
        failed: asInt(stack[5], 'failed') !== 0n,
        finished: asInt(stack[6], 'finished') !== 0n,
    };
}
