import { Address, Cell, Dictionary, beginCell, type Slice } from '@ton/core';
import { sign } from '@ton/crypto';
import { contractCode } from './artifacts.ts';
import { DictKeys } from '../../../ton/cells/dict-keys.ts';

/**
 * The devnet's config contract (contracts/config.tolk) at -1:5555…5555 (p0): mainnet's storage
 * (`cfg_dict:^(Hashmap 32 ^Cell) stored_seqno:uint32 public_key:uint256 vote_dict:(HashmapE 256 …)`),
 * the elector handshake and signed external actions; plus builders/parsers of the config
 * parameters elections use (p15, p16, p17, validator sets p32/p34/p36).
 */

export const CONFIG_ADDRESS = Address.parse(`-1:${'55'.repeat(32)}`);

/** Actions of signed external messages (mainnet's). */
export const CONFIG_ACTION = {
    setParam: 0x43665021,
    setCode: 0x4e436f64,
    setMasterKey: 0x50624b21,
    setElectorCode: 0x4e43ef05,
} as const;

export function configCode(): Cell {
    return contractCode('config');
}

export interface ConfigContractData {
    /** The ConfigParams dictionary (Hashmap 32 ^Cell) root. */
    configDict: Cell;
    seqno: number;
    publicKey: bigint;
    /** Config proposals (kept, never processed by the devnet's contract). */
    voteDict?: Cell | null;
}

export function configData(d: ConfigContractData): Cell {
    return beginCell()
        .storeRef(d.configDict)
        .storeUint(d.seqno, 32)
        .storeUint(d.publicKey, 256)
        .storeMaybeRef(d.voteDict ?? null)
        .endCell();
}

export function parseConfigData(data: Cell): Required<ConfigContractData> {
    const s = data.beginParse();
    const res = { configDict: s.loadRef(), seqno: s.loadUint(32), publicKey: s.loadUintBig(256), voteDict: s.loadMaybeRef() };
    s.endParse();
    return res;
}

/** The ConfigParams dictionary of a root cell (as stored in cfg_dict or given to the emulator). */
export function configParamsDict(root: Cell): Dictionary<number, Cell> {
    return Dictionary.loadDirect(DictKeys.Int(32), Dictionary.Values.Cell(), root);
}

export function configParamsCell(dict: Dictionary<number, Cell>): Cell {
    return beginCell().storeDictDirect(dict).endCell();
}

/** p15: validators_elected_for elections_start_before elections_end_before stake_held_for */
export interface ValidatorTimings {
    electedFor: number;
    electionsStartBefore: number;
    electionsEndBefore: number;
    stakeHeldFor: number;
}

export function validatorTimingsParam(t: ValidatorTimings): Cell {
    return beginCell().storeUint(t.electedFor, 32).storeUint(t.electionsStartBefore, 32).storeUint(t.electionsEndBefore, 32).storeUint(t.stakeHeldFor, 32).endCell();
}

/** p16: max_validators max_main_validators min_validators */
export interface ValidatorCounts {
    maxValidators: number;
    maxMainValidators: number;
    minValidators: number;
}

export function validatorCountsParam(c: ValidatorCounts): Cell {
    return beginCell().storeUint(c.maxValidators, 16).storeUint(c.maxMainValidators, 16).storeUint(c.minValidators, 16).endCell();
}

/** p17: min_stake max_stake min_total_stake:Grams max_stake_factor:uint32 (65536 = 1.0) */
export interface StakeLimits {
    minStake: bigint;
    maxStake: bigint;
    minTotalStake: bigint;
    maxStakeFactor: number;
}

export function stakeLimitsParam(l: StakeLimits): Cell {
    return beginCell().storeCoins(l.minStake).storeCoins(l.maxStake).storeCoins(l.minTotalStake).storeUint(l.maxStakeFactor, 32).endCell();
}

/** A masterchain address param (p0 config, p1 elector, …): the account id. */
export function addressParam(address: Address): Cell {
    return beginCell().storeBuffer(address.hash).endCell();
}

/** validator#53 public_key:SigPubKey weight:uint64 / validator_addr#73 … adnl_addr:bits256 */
export interface ValidatorDescr {
    publicKey: bigint;
    weight: bigint;
    /** present (non-zero) → validator_addr#73 */
    adnlAddr?: bigint;
}

/** validators_ext#12 utime_since utime_until total:(## 16) main:(## 16) total_weight:uint64 list:(HashmapE 16 ValidatorDescr) */
export interface ValidatorSet {
    utimeSince: number;
    utimeUntil: number;
    total: number;
    main: number;
    totalWeight: bigint;
    /** in index order */
    list: ValidatorDescr[];
}

const descrValue = {
    serialize(d: ValidatorDescr, b: import('@ton/core').Builder) {
        b.storeUint(d.adnlAddr ? 0x73 : 0x53, 8).storeUint(0x8e81278a, 32).storeUint(d.publicKey, 256).storeUint(d.weight, 64);
        if (d.adnlAddr) b.storeUint(d.adnlAddr, 256);
    },
    parse(s: Slice): ValidatorDescr {
        const tag = s.loadUint(8);
        if (tag !== 0x53 && tag !== 0x73) throw new Error(`validator descr tag 0x${tag.toString(16)}`);
        if (s.loadUint(32) !== 0x8e81278a) throw new Error('not an ed25519 public key');
        const d: ValidatorDescr = { publicKey: s.loadUintBig(256), weight: s.loadUintBig(64) };
        if (tag === 0x73) d.adnlAddr = s.loadUintBig(256);
        return d;
    },
};

export function validatorSetCell(v: ValidatorSet): Cell {
    const dict = Dictionary.empty(DictKeys.Uint(16), descrValue);
    v.list.forEach((d, i) => dict.set(i, d));
    return beginCell()
        .storeUint(0x12, 8)
        .storeUint(v.utimeSince, 32)
        .storeUint(v.utimeUntil, 32)
        .storeUint(v.total, 16)
        .storeUint(v.main, 16)
        .storeUint(v.totalWeight, 64)
        .storeDict(dict)
        .endCell();
}

export function parseValidatorSet(c: Cell): ValidatorSet {
    const s = c.beginParse();
    const tag = s.loadUint(8);
    if (tag !== 0x12) throw new Error(`validator set tag 0x${tag.toString(16)} (only validators_ext#12)`);
    const res = { utimeSince: s.loadUint(32), utimeUntil: s.loadUint(32), total: s.loadUint(16), main: s.loadUint(16), totalWeight: s.loadUintBig(64) };
    const dict = s.loadDict(DictKeys.Uint(16), descrValue);
    s.endParse();
    const list = [...dict.keys()].sort((a, b) => a - b).map(k => dict.get(k)!);
    return { ...res, list };
}

/** A signed external message to the config contract: signature over the hash of `action seqno valid_until …`. */
export function configExternalBody(secretKey: Buffer, action: number, seqno: number, validUntil: number, rest: (b: import('@ton/core').Builder) => void): Cell {
    const payload = beginCell().storeUint(action, 32).storeUint(seqno, 32).storeUint(validUntil, 32);
    rest(payload);
    const cell = payload.endCell();
    return beginCell().storeBuffer(sign(cell.hash(), secretKey)).storeSlice(cell.beginParse()).endCell();
}

/** Sets config param `index` to `value` (action 0x43665021). */
export function configSetParamBody(secretKey: Buffer, seqno: number, validUntil: number, index: number, value: Cell): Cell {
    return configExternalBody(secretKey, CONFIG_ACTION.setParam, seqno, validUntil, b => b.storeInt(index, 32).storeRef(value));
}
