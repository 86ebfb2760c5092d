import { type Cell, crc32c, Dictionary, type Slice } from '@ton/core';
import { DictKeys } from '../../ton/cells/dict-keys.ts';

/** What a collator reads from the config to build blocks (param numbers as in TON's config). */
export interface ProductionParams {
    configAddress: Buffer;
    /** Param 19. */
    globalId: number;
    /** Param 14 `block_grams_created#6b masterchain_block_fee:Grams basechain_block_fee:Grams`. */
    masterchainBlockFee: bigint;
    basechainBlockFee: bigint;
    /** Param 5 `burning_config#01 blackhole_addr:(Maybe bits256) fee_burn_num:# fee_burn_denom:#`. */
    burn: (grams: bigint) => bigint;
    /** Param 8 `capabilities#c4 version:uint32 capabilities:uint64`. */
    version: number;
    capabilities: bigint;
    basechainSplit: WorkchainSplit;
    /** Param 28: catchain lifetimes in seconds (masterchain, shards). */
    mcCatchainLifetime: number;
    shardCatchainLifetime: number;
    /** Param 34: the masterchain's validators (the first `main` of the current set). */
    masterchainValidators: Array<{ publicKey: Buffer; weight: bigint; adnl: Buffer }>;
}

export const CAP_REPORT_VERSION = 8n;
export const CAP_SHORT_DEQUEUE = 32n;
export const CAP_STORE_OUT_MSG_QUEUE_SIZE = 64n;
export const CAP_MSG_METADATA = 128n;

export function productionParams(config: Cell): ProductionParams {
    const params = config.beginParse().loadDictDirect(DictKeys.Int(32), Dictionary.Values.Cell());
    const param = (id: number): Slice | undefined => params.get(id)?.beginParse();

    const fees = param(14);
    if (fees && fees.loadUint(8) !== 0x6b) throw new Error('config param 14 is not block_grams_created');
    const burning = param(5);
    let burnNum = 0n;
    let burnDenom = 1n;
    if (burning && burning.loadUint(8) === 0x01) {
        if (burning.loadBit()) burning.skip(256);
        burnNum = BigInt(burning.loadUint(32));
        burnDenom = BigInt(burning.loadUint(32)) || 1n;
    }
    const version = param(8);
    if (version && version.loadUint(8) !== 0xc4) throw new Error('config param 8 is not a GlobalVersion');
    const catchain = param(28);
    let mcCatchainLifetime = 250;
    let shardCatchainLifetime = 250;
    if (catchain) {
        const tag = catchain.loadUint(8);
        if (tag === 0xc2) catchain.skip(8);
        mcCatchainLifetime = catchain.loadUint(32) || 1;
        shardCatchainLifetime = catchain.loadUint(32) || 1;
    }
    return {
        configAddress: param(0)?.loadBuffer(32) ?? Buffer.alloc(32, 0x55),
        globalId: param(19)?.loadInt(32) ?? -239,
        masterchainBlockFee: fees?.loadCoins() ?? 0n,
        basechainBlockFee: fees?.loadCoins() ?? 0n,
        burn: grams => (grams * burnNum) / burnDenom,
        version: version?.loadUint(32) ?? 0,
        capabilities: version?.loadUintBig(64) ?? 0n,
        mcCatchainLifetime,
        shardCatchainLifetime,
        masterchainValidators: masterchainValidators(param(34)),
        basechainSplit: workchainSplit(param(12)),
    };
}

/** How the basechain's shards split and merge (config param 12), with TON's timings where the descriptor has none. */
export interface WorkchainSplit {
    minSplit: number;
    maxSplit: number;
    /** Seconds from a split or merge being announced to its window. */
    delay: number;
    /** Seconds the window lasts. */
    interval: number;
}

const DEFAULT_SPLIT: WorkchainSplit = { minSplit: 0, maxSplit: 0, delay: 100, interval: 100 };

/**
 * `_ workchains:(HashmapE 32 WorkchainDescr) = ConfigParam 12;` with
 * `workchain#a6 enabled_since:uint32 monitor_min_split:(## 8) min_split:(## 8) max_split:(## 8) …`;
 * `workchain_v2#a7` (the same, then `split_merge_timings:WcSplitMergeTimings` at the end, after the
 * 4-bit-tagged basic format: `wc_split_merge_timings#0 split_merge_delay:uint32 split_merge_interval:uint32 …`).
 */
function workchainSplit(workchains: Slice | undefined): WorkchainSplit {
    if (!workchains) return DEFAULT_SPLIT;
    const descr = workchains.loadDict(DictKeys.Int(32), { serialize: () => undefined, parse: (s: Slice) => s }).get(0);
    if (!descr) return DEFAULT_SPLIT;
    const tag = descr.loadUint(8);
    if (tag !== 0xa6 && tag !== 0xa7) return DEFAULT_SPLIT;
    descr.skip(32 + 8);
    const minSplit = descr.loadUint(8);
    const maxSplit = descr.loadUint(8);
    if (tag === 0xa6) return { ...DEFAULT_SPLIT, minSplit, maxSplit };
    // basic active accept_msgs flags(13) zerostate_root_hash zerostate_file_hash version, then wfmt_basic#1 vm_version:int32 vm_mode:uint64
    descr.skip(1 + 1 + 1 + 13 + 256 + 256 + 32 + 4 + 32 + 64);
    descr.skip(4);
    return { minSplit, maxSplit, delay: descr.loadUint(32), interval: descr.loadUint(32) };
}

// validators#11 / validators_ext#12 utime_since:uint32 utime_until:uint32 total:(## 16) main:(## 16)
//   [total_weight:uint64 (ext)] list:(Hashmap(E) 16 ValidatorDescr) = ValidatorSet;
// validator#53 public_key:SigPubKey weight:uint64 = ValidatorDescr;
// validator_addr#73 public_key:SigPubKey weight:uint64 adnl_addr:bits256 = ValidatorDescr;
// ed25519_pubkey#8e81278a pubkey:bits256 = SigPubKey;
function masterchainValidators(set: Slice | undefined): ProductionParams['masterchainValidators'] {
    if (!set) return [];
    const tag = set.loadUint(8);
    set.skip(64);
    set.skip(16);
    const main = set.loadUint(16);
    const descriptor = { serialize: () => undefined, parse: (s: Slice) => s };
    const list = tag === 0x12
        ? (set.skip(64), set.loadDict(DictKeys.Uint(16), descriptor))
        : set.loadDictDirect(DictKeys.Uint(16), descriptor);
    const validators: ProductionParams['masterchainValidators'] = [];
    for (let i = 0; i < main; i++) {
        const entry = list.get(i);
        if (!entry) break;
        const kind = entry.loadUint(8);
        entry.skip(32);
        const publicKey = entry.loadBuffer(32);
        const weight = entry.loadUintBig(64);
        validators.push({ publicKey, weight, adnl: kind === 0x73 ? entry.loadBuffer(32) : Buffer.alloc(32) });
    }
    return validators;
}

/**
 * The short hash of a validator group (`compute_validator_set_hash`): CRC32-C of the TL
 * serialization (little-endian) of the constructor -1877581587, the catchain seqno, the node count,
 * then per node its public key, weight and ADNL address.
 */
export function validatorSetHashShort(validators: ProductionParams['masterchainValidators'], catchainSeqno: number): number {
    const data = Buffer.alloc(12 + validators.length * 72);
    data.writeInt32LE(-1877581587, 0);
    data.writeInt32LE(catchainSeqno, 4);
    data.writeUInt32LE(validators.length, 8);
    validators.forEach((v, i) => {
        const at = 12 + i * 72;
        v.publicKey.copy(data, at);
        data.writeBigInt64LE(BigInt.asIntN(64, v.weight), at + 32);
        v.adnl.copy(data, at + 40);
    });
    return crc32c(data).readUInt32LE(0);
}
