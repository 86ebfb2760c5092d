// An independent reader of TON block BOCs, for tests that cross-check the project's own parser
// (src/ton/block, src/ton/boc). It relies on @ton/core only (Cell.fromBoc, Slice, loadTransaction)
// and reads every structure straight from block.tlb, with its own Patricia-tree walker.
import { createHash } from 'node:crypto';
import { Cell, CellType, loadTransaction, type Slice } from '@ton/core';

export interface ExtBlkRefInfo {
    seqno: number;
    rootHash: string;
    fileHash: string;
    endLt: bigint;
}

export interface PrevRefInfo extends ExtBlkRefInfo {
    workchain: number;
    shard: string;
}

export interface BlockInfoFields {
    version: number;
    notMaster: boolean;
    afterMerge: boolean;
    beforeSplit: boolean;
    afterSplit: boolean;
    keyBlock: boolean;
    vertSeqno: number;
    seqno: number;
    workchain: number;
    /** 16 lowercase hex digits. */
    shard: string;
    genUtime: number;
    startLt: bigint;
    endLt: bigint;
    genValidatorListHashShort: number;
    genCatchainSeqno: number;
    minRefMcSeqno: number;
    prevKeyBlockSeqno: number;
    genSoftware?: { version: number; capabilities: bigint };
    masterRef?: ExtBlkRefInfo;
    /** One entry, or two (left then right child shard) after a merge. */
    prev: PrevRefInfo[];
}

export const VALUE_FLOW_FIELDS = [
    'fromPrevBlk', 'toNextBlk', 'imported', 'exported', 'feesCollected',
    'burned', 'feesImported', 'recovered', 'created', 'minted',
] as const;
export type ValueFlowField = (typeof VALUE_FLOW_FIELDS)[number];
/** Nanograms of every ValueFlow field; burned is 0n in value_flow (v1). */
export type ValueFlowGrams = Record<ValueFlowField, bigint>;

export interface ExtraCurrencyAmount {
    field: string;
    currencyId: number;
    amount: bigint;
}

export interface IndependentTransaction {
    /** 'wc:64 hex'. */
    account: string;
    lt: bigint;
    hash: string;
    totalFees: bigint;
}

export interface IndependentShardTop {
    workchain: number;
    shard: string;
    seqno: number;
    rootHash: string;
    fileHash: string;
    startLt: bigint;
    endLt: bigint;
    genUtime: number;
    feesCollected: bigint;
}

export interface IndependentBlock {
    rootHash: string;
    fileHash: string;
    globalId: number;
    info: BlockInfoFields;
    valueFlowVersion: 1 | 2;
    valueFlow: ValueFlowGrams;
    /** Non-gram currencies found anywhere in the value flow (normally none). */
    valueFlowExtraCurrencies: ExtraCurrencyAmount[];
    /** from_prev_blk + imported + fees_imported + created + minted + recovered = to_next_blk + exported + fees_collected + burned, in nanograms. */
    valueFlowBalanced: boolean;
    /** The same equation for every extra currency. */
    extraCurrenciesBalanced: boolean;
    stateUpdate: { oldHash: string; newHash: string; oldDepth: number; newDepth: number };
    transactions: IndependentTransaction[];
    /** Root extra of extra.account_blocks: the total fees of the block's transactions. */
    accountBlockFees: bigint;
    inMsgCount: number;
    outMsgCount: number;
    /** Root extras of in_msg_descr (ImportFees) and out_msg_descr (CurrencyCollection), in nanograms. */
    inMsgImportFees: { feesCollected: bigint; valueImported: bigint };
    outMsgExported: bigint;
    randSeed: string;
    createdBy: string;
    /** Masterchain blocks only. */
    shardHashes?: IndependentShardTop[];
    /** Root extra of McBlockExtra.shard_fees (fees, create), masterchain blocks only. */
    shardFees?: { fees: bigint; create: bigint };
    /** Key blocks only: hash of the ConfigParams dictionary root cell. */
    configHash?: string;
    /** Masterchain blocks: the collator's special messages (McBlockExtra recover_create_msg / mint_msg), null when absent. */
    recoverCreateMsg?: ReturnType<typeof readSpecialInMsg>;
    mintMsg?: ReturnType<typeof readSpecialInMsg>;
}

// ---------------------------------------------------------------------------------------------
// Patricia trees (hashmap.tlb)

/** HmLabel ~l m: hml_short$0, hml_long$10, hml_same$11. Returns the label bits as a bigint. */
function readLabel(s: Slice, m: number): { length: number; bits: bigint } {
    const lenBits = m === 0 ? 0 : m.toString(2).length; // width of (#<= m)
    if (!s.loadBit()) {
        let length = 0;
        while (s.loadBit()) {
            length++;
        }
        return { length, bits: readBitsAsBigint(s, length) };
    }
    if (!s.loadBit()) {
        const length = s.loadUint(lenBits);
        return { length, bits: readBitsAsBigint(s, length) };
    }
    const bit = s.loadBit();
    const length = s.loadUint(lenBits);
    return { length, bits: bit ? (1n << BigInt(length)) - 1n : 0n };
}

function readBitsAsBigint(s: Slice, length: number): bigint {
    return length === 0 ? 0n : s.loadUintBig(length);
}

export interface DictEntry<X, Y> {
    key: bigint;
    value: X;
    extra: Y;
}

interface DictReaders<X, Y> {
    value: (s: Slice) => X;
    /** Augmented dictionaries only. */
    extra?: (s: Slice) => Y;
}

/**
 * Walks a (HashmapAug | Hashmap) n X Y whose edge starts at the current position of `s`,
 * pushing leaves in key order. Augmented: leaf = extra then value; fork = left ref, right ref, extra.
 * Returns the extra of the node (undefined for plain hashmaps).
 */
export function walkDict<X, Y>(s: Slice, n: number, readers: DictReaders<X, Y>, out: DictEntry<X, Y>[], prefix = 0n): Y {
    const label = readLabel(s, n);
    if (label.length > n) {
        throw new Error(`Dictionary label of ${label.length} bits under a ${n}-bit key`);
    }
    const key = (prefix << BigInt(label.length)) | label.bits;
    const m = n - label.length;
    if (m === 0) {
        const extra = readers.extra?.(s) as Y;
        out.push({ key, value: readers.value(s), extra });
        return extra;
    }
    const left = s.loadRef();
    const right = s.loadRef();
    walkDict(left.beginParse(), m - 1, readers, out, key << 1n);
    walkDict(right.beginParse(), m - 1, readers, out, (key << 1n) | 1n);
    return readers.extra?.(s) as Y;
}

/** HashmapE n X (hme_empty$0 / hme_root$1 ^Hashmap). */
function readDictE<X>(s: Slice, n: number, value: (s: Slice) => X): DictEntry<X, undefined>[] {
    const out: DictEntry<X, undefined>[] = [];
    const root = s.loadMaybeRef();
    if (root) {
        walkDict(root.beginParse(), n, { value }, out);
    }
    return out;
}

/** HashmapAugE n X Y (ahme_empty$0 extra / ahme_root$1 ^root extra). */
function readAugDictE<X, Y>(s: Slice, n: number, readers: Required<DictReaders<X, Y>>): { entries: DictEntry<X, Y>[]; rootExtra: Y } {
    const entries: DictEntry<X, Y>[] = [];
    const root = s.loadMaybeRef();
    if (root) {
        walkDict(root.beginParse(), n, readers, entries);
    }
    return { entries, rootExtra: readers.extra(s) };
}

// ---------------------------------------------------------------------------------------------
// Small TL-B types

interface Currencies {
    grams: bigint;
    other: Array<{ currencyId: number; amount: bigint }>;
}

/** currencies$_ grams:Grams other:(HashmapE 32 (VarUInteger 32)). */
function readCurrencies(s: Slice): Currencies {
    const grams = s.loadVarUintBig(4);
    const other = readDictE(s, 32, (v) => v.loadVarUintBig(5)).map((e) => ({ currencyId: Number(e.key), amount: e.value }));
    return { grams, other };
}

const hex = (b: Buffer) => b.toString('hex');

function readExtBlkRef(s: Slice): ExtBlkRefInfo {
    const endLt = s.loadUintBig(64);
    const seqno = s.loadUint(32);
    return { endLt, seqno, rootHash: hex(s.loadBuffer(32)), fileHash: hex(s.loadBuffer(32)) };
}

function expectTag(s: Slice, bits: number, tag: number, what: string) {
    const got = s.loadUint(bits);
    if (got !== tag) {
        throw new Error(`${what}: expected tag ${tag.toString(16)}, got ${got.toString(16)}`);
    }
}

function formatShardId(shard: bigint): string {
    return shard.toString(16).padStart(16, '0');
}

const lowBit = (shard: bigint) => shard & -shard;

// ---------------------------------------------------------------------------------------------
// BlockInfo

/** shard_ident$00 shard_pfx_bits:(#<= 60) workchain_id:int32 shard_prefix:uint64. */
function readShardIdent(s: Slice): { workchain: number; shard: bigint } {
    expectTag(s, 2, 0, 'ShardIdent');
    const pfxBits = s.loadUint(6);
    if (pfxBits > 60) {
        throw new Error(`ShardIdent prefix of ${pfxBits} bits`);
    }
    const workchain = s.loadInt(32);
    const prefix = s.loadUintBig(64);
    const tag = 1n << BigInt(63 - pfxBits);
    if (prefix & (tag * 2n - 1n)) {
        throw new Error(`ShardIdent prefix ${formatShardId(prefix)} has bits beyond its ${pfxBits} bits`);
    }
    return { workchain, shard: prefix | tag };
}

function readBlockInfo(cell: Cell): BlockInfoFields {
    const s = cell.beginParse();
    expectTag(s, 32, 0x9bc7a987, 'BlockInfo');
    const version = s.loadUint(32);
    const notMaster = s.loadBit();
    const afterMerge = s.loadBit();
    const beforeSplit = s.loadBit();
    const afterSplit = s.loadBit();
    s.loadBit(); // want_split
    s.loadBit(); // want_merge
    const keyBlock = s.loadBit();
    const vertSeqnoIncr = s.loadBit();
    const flags = s.loadUint(8);
    if (flags > 1) {
        throw new Error(`BlockInfo flags ${flags}`);
    }
    const seqno = s.loadUint(32);
    const vertSeqno = s.loadUint(32);
    const { workchain, shard } = readShardIdent(s);
    const genUtime = s.loadUint(32);
    const startLt = s.loadUintBig(64);
    const endLt = s.loadUintBig(64);
    const genValidatorListHashShort = s.loadUint(32);
    const genCatchainSeqno = s.loadUint(32);
    const minRefMcSeqno = s.loadUint(32);
    const prevKeyBlockSeqno = s.loadUint(32);
    let genSoftware: BlockInfoFields['genSoftware'];
    if (flags & 1) {
        expectTag(s, 8, 0xc4, 'GlobalVersion');
        genSoftware = { version: s.loadUint(32), capabilities: s.loadUintBig(64) };
    }
    const masterRef = notMaster ? readExtBlkRef(s.loadRef().beginParse()) : undefined;
    const prevCell = s.loadRef();
    if (vertSeqnoIncr) {
        s.loadRef(); // prev_vert_ref
    }
    s.endParse();
    return {
        version, notMaster, afterMerge, beforeSplit, afterSplit, keyBlock, vertSeqno, seqno, workchain,
        shard: formatShardId(shard), genUtime, startLt, endLt, genValidatorListHashShort, genCatchainSeqno,
        minRefMcSeqno, prevKeyBlockSeqno, genSoftware, masterRef,
        prev: readPrev(prevCell, afterMerge, afterSplit, workchain, shard),
    };
}

/** prev_blk_info$_ prev:ExtBlkRef / prev_blks_info$_ prev1:^ExtBlkRef prev2:^ExtBlkRef. */
function readPrev(cell: Cell, afterMerge: boolean, afterSplit: boolean, workchain: number, shard: bigint): PrevRefInfo[] {
    const s = cell.beginParse();
    if (afterMerge) {
        const half = lowBit(shard) >> 1n;
        const left = readExtBlkRef(s.loadRef().beginParse());
        const right = readExtBlkRef(s.loadRef().beginParse());
        return [
            { ...left, workchain, shard: formatShardId(shard - half) },
            { ...right, workchain, shard: formatShardId(shard + half) },
        ];
    }
    const bit = lowBit(shard);
    const prevShard = afterSplit ? (shard - bit) | (bit << 1n) : shard;
    return [{ ...readExtBlkRef(s), workchain, shard: formatShardId(prevShard) }];
}

// ---------------------------------------------------------------------------------------------
// ValueFlow

function readValueFlow(cell: Cell) {
    const s = cell.beginParse();
    const tag = s.loadUint(32);
    if (tag !== 0xb8e48dfb && tag !== 0x3ebf98b7) {
        throw new Error(`ValueFlow: unknown tag ${tag.toString(16)}`);
    }
    const version: 1 | 2 = tag === 0xb8e48dfb ? 1 : 2;
    const read: Partial<Record<ValueFlowField, Currencies>> = {};
    const first = s.loadRef().beginParse();
    for (const f of ['fromPrevBlk', 'toNextBlk', 'imported', 'exported'] as const) {
        read[f] = readCurrencies(first);
    }
    first.endParse();
    read.feesCollected = readCurrencies(s);
    read.burned = version === 2 ? readCurrencies(s) : { grams: 0n, other: [] };
    const second = s.loadRef().beginParse();
    for (const f of ['feesImported', 'recovered', 'created', 'minted'] as const) {
        read[f] = readCurrencies(second);
    }
    second.endParse();
    s.endParse();

    const grams = {} as ValueFlowGrams;
    const extraCurrencies: ExtraCurrencyAmount[] = [];
    for (const f of VALUE_FLOW_FIELDS) {
        grams[f] = read[f]!.grams;
        for (const o of read[f]!.other) {
            extraCurrencies.push({ field: f, ...o });
        }
    }
    return { version, grams, extraCurrencies };
}

const CREDIT: ValueFlowField[] = ['fromPrevBlk', 'imported', 'feesImported', 'created', 'minted', 'recovered'];
const DEBIT: ValueFlowField[] = ['toNextBlk', 'exported', 'feesCollected', 'burned'];

export function isValueFlowBalanced(v: ValueFlowGrams): boolean {
    const sum = (fields: ValueFlowField[]) => fields.reduce((acc, f) => acc + v[f], 0n);
    return sum(CREDIT) === sum(DEBIT);
}

function extraCurrenciesBalanced(extras: ExtraCurrencyAmount[]): boolean {
    const balance = new Map<number, bigint>();
    for (const { field, currencyId, amount } of extras) {
        const signed = CREDIT.includes(field as ValueFlowField) ? amount : -amount;
        balance.set(currencyId, (balance.get(currencyId) ?? 0n) + signed);
    }
    return [...balance.values()].every((b) => b === 0n);
}

// ---------------------------------------------------------------------------------------------
// MERKLE_UPDATE (exotic cell, type 4)

function readMerkleUpdate(cell: Cell): IndependentBlock['stateUpdate'] {
    if (cell.type !== CellType.MerkleUpdate) {
        throw new Error(`state_update is not a MERKLE_UPDATE cell (type ${cell.type})`);
    }
    const s = cell.beginParse(true);
    expectTag(s, 8, 4, 'MERKLE_UPDATE');
    const oldHash = hex(s.loadBuffer(32));
    const newHash = hex(s.loadBuffer(32));
    return { oldHash, newHash, oldDepth: s.loadUint(16), newDepth: s.loadUint(16) };
}

/** The two sides of a block's MERKLE_UPDATE, by their level-0 (original) hash and depth. */
export function readStateUpdateSides(boc: Buffer) {
    const update = readRoot(boc).refs[2];
    const [oldSide, newSide] = update.refs;
    return {
        oldHash: hex(oldSide.hash(0)),
        newHash: hex(newSide.hash(0)),
        oldDepth: oldSide.depth(0),
        newDepth: newSide.depth(0),
    };
}

// ---------------------------------------------------------------------------------------------
// BlockExtra

/** acc_trans#5 account_addr:bits256 transactions:(HashmapAug 64 ^Transaction CurrencyCollection) state_update:^(HASH_UPDATE Account). */
function readAccountBlock(s: Slice, workchain: number, key: bigint): IndependentTransaction[] {
    expectTag(s, 4, 5, 'AccountBlock');
    const addr = s.loadBuffer(32);
    if (BigInt(`0x${hex(addr)}`) !== key) {
        throw new Error(`AccountBlock ${hex(addr)} filed under another key`);
    }
    const account = `${workchain}:${hex(addr)}`;
    const txs: DictEntry<Cell, Currencies>[] = [];
    walkDict(s, 64, { extra: readCurrencies, value: (v) => v.loadRef() }, txs);
    s.loadRef(); // state_update
    s.endParse();
    return txs.map(({ key: lt, value: cell, extra }) => {
        const tx = loadTransaction(cell.beginParse());
        if (tx.lt !== lt || tx.address !== key) {
            throw new Error(`Transaction ${hex(cell.hash())} filed under another account or lt`);
        }
        if (tx.totalFees.coins !== extra.grams) {
            throw new Error(`Transaction ${hex(cell.hash())}: dictionary extra ${extra.grams} != total_fees ${tx.totalFees.coins}`);
        }
        return { account, lt, hash: hex(cell.hash()), totalFees: tx.totalFees.coins };
    });
}

function countAugDict<Y>(cell: Cell, n: number, extra: (s: Slice) => Y) {
    const { entries, rootExtra } = readAugDictE(cell.beginParse(), n, { extra, value: () => null });
    return { count: entries.length, rootExtra };
}

const readImportFees = (s: Slice) => ({ feesCollected: s.loadVarUintBig(4), valueImported: readCurrencies(s).grams });

/** One ShardDescr (shard_descr#b or shard_descr_new#a). */
function readShardDescr(s: Slice, workchain: number, shard: bigint): IndependentShardTop {
    const tag = s.loadUint(4);
    if (tag !== 0xb && tag !== 0xa) {
        throw new Error(`ShardDescr: unknown tag ${tag.toString(16)}`);
    }
    const seqno = s.loadUint(32);
    s.loadUint(32); // reg_mc_seqno
    const startLt = s.loadUintBig(64);
    const endLt = s.loadUintBig(64);
    const rootHash = hex(s.loadBuffer(32));
    const fileHash = hex(s.loadBuffer(32));
    s.skip(5); // before_split before_merge want_split want_merge nx_cc_updated
    if (s.loadUint(3) !== 0) {
        throw new Error('ShardDescr flags must be 0');
    }
    s.skip(32 + 64 + 32); // next_catchain_seqno next_validator_shard min_ref_mc_seqno
    const genUtime = s.loadUint(32);
    if (s.loadBit()) {
        s.skip(1 + 64); // fsm_split$10 / fsm_merge$11 utime:uint32 interval:uint32
    }
    const fees = tag === 0xb ? s : s.loadRef().beginParse();
    const feesCollected = readCurrencies(fees).grams;
    readCurrencies(fees); // funds_created
    return { workchain, shard: formatShardId(shard), seqno, rootHash, fileHash, startLt, endLt, genUtime, feesCollected };
}

/** bt_leaf$0 leaf:X / bt_fork$1 left:^ right:^, leaves from left to right. */
function readShardTree(s: Slice, workchain: number, shard: bigint, out: IndependentShardTop[]) {
    if (!s.loadBit()) {
        out.push(readShardDescr(s, workchain, shard));
        return;
    }
    const half = lowBit(shard) >> 1n;
    if (half === 0n) {
        throw new Error('Shard tree deeper than 60 levels');
    }
    readShardTree(s.loadRef().beginParse(), workchain, shard - half, out);
    readShardTree(s.loadRef().beginParse(), workchain, shard + half, out);
}

/**
 * A collator's special message as McBlockExtra records it: `msg_import_imm$011 in_msg:^MsgEnvelope
 * transaction:^Transaction fwd_fee:Grams`, the envelope `msg_envelope#4 … msg:^(Message Any)`, the message
 * `int_msg_info$0 ihr_disabled bounce bounced src dest value …` (source, destination and grams read here).
 */
function readSpecialInMsg(cell: Cell | null): { kind: number; source: string; destination: string; grams: bigint; messageHash: string; transactionHash: string; fwdFee: bigint } | null {
    if (!cell) return null;
    const s = cell.beginParse();
    const kind = s.loadUint(3);
    const envelope = s.loadRef().beginParse();
    const transaction = s.loadRef();
    const fwdFee = s.loadCoins();
    s.endParse();
    expectTag(envelope, 4, 4, 'MsgEnvelope');
    envelope.skip(16); // cur_addr, next_addr (interm_addr_regular)
    envelope.loadCoins();
    const message = envelope.loadRef();
    const m = message.beginParse();
    if (m.loadBit()) throw new Error('a special message is internal');
    m.skip(3);
    const address = (sl: Slice) => {
        expectTag(sl, 3, 0b100, 'addr_std');
        const wc = sl.loadInt(8);
        return `${wc}:${sl.loadBuffer(32).toString('hex')}`;
    };
    const source = address(m);
    const destination = address(m);
    const grams = m.loadCoins();
    return { kind, source, destination, grams, messageHash: hex(message.hash()), transactionHash: hex(transaction.hash()), fwdFee };
}

function readMcBlockExtra(cell: Cell) {
    const s = cell.beginParse();
    expectTag(s, 16, 0xcca5, 'McBlockExtra');
    const keyBlock = s.loadBit();
    const shardHashes: IndependentShardTop[] = [];
    for (const { key, value } of readDictE(s, 32, (v) => v.loadRef())) {
        const workchain = Number(BigInt.asIntN(32, key));
        readShardTree(value.beginParse(), workchain, 1n << 63n, shardHashes);
    }
    const readFeeCreated = (v: Slice) => ({ fees: readCurrencies(v).grams, create: readCurrencies(v).grams });
    const shardFees = readAugDictE(s, 96, { extra: readFeeCreated, value: () => null }).rootExtra;
    // ^[ prev_blk_signatures:(HashmapE 16 CryptoSignaturePair) recover_create_msg:(Maybe ^InMsg) mint_msg:(Maybe ^InMsg) ]
    const special = s.loadRef().beginParse();
    if (special.loadBit()) special.loadRef();
    const recoverCreateMsg = readSpecialInMsg(special.loadBit() ? special.loadRef() : null);
    const mintMsg = readSpecialInMsg(special.loadBit() ? special.loadRef() : null);
    special.endParse();
    let configHash: string | undefined;
    if (keyBlock) {
        s.skip(256); // config_addr
        configHash = hex(s.loadRef().hash());
    }
    s.endParse();
    return { keyBlock, shardHashes, shardFees, configHash, recoverCreateMsg, mintMsg };
}

function readBlockExtra(cell: Cell, workchain: number) {
    const s = cell.beginParse();
    expectTag(s, 32, 0x4a33f6fd, 'BlockExtra');
    const inMsgs = countAugDict(s.loadRef(), 256, readImportFees);
    const outMsgs = countAugDict(s.loadRef(), 256, (v) => readCurrencies(v).grams);
    const accountBlocks = readAugDictE(s.loadRef().beginParse(), 256, {
        extra: (v) => readCurrencies(v).grams,
        value: (v) => v,
    });
    const transactions: IndependentTransaction[] = [];
    for (const { key, value } of accountBlocks.entries) {
        transactions.push(...readAccountBlock(value, workchain, key));
    }
    transactions.sort((a, b) => (a.lt !== b.lt ? (a.lt < b.lt ? -1 : 1) : a.account < b.account ? -1 : a.account > b.account ? 1 : 0));
    const randSeed = hex(s.loadBuffer(32));
    const createdBy = hex(s.loadBuffer(32));
    const custom = s.loadMaybeRef();
    s.endParse();
    return {
        inMsgCount: inMsgs.count,
        inMsgImportFees: inMsgs.rootExtra,
        outMsgCount: outMsgs.count,
        outMsgExported: outMsgs.rootExtra,
        accountBlockFees: accountBlocks.rootExtra,
        transactions,
        randSeed,
        createdBy,
        mc: custom ? readMcBlockExtra(custom) : undefined,
    };
}

// ---------------------------------------------------------------------------------------------

/**
 * Cell.fromBoc reads cells one after another and never looks at the BOC's offset index, so a damaged
 * index would go unnoticed: check that every entry is the end offset of its cell, and that
 * tot_cells_size is the size of the cell data. serialized_boc#b5ee9c72 has_idx has_crc32c
 * has_cache_bits flags:(## 2) size:(## 3) off_bytes:uint8 cells roots absent tot_cells_size root_list index cell_data crc32c?
 */
const popcount = (x: number) => (x & 1) + ((x >> 1) & 1) + ((x >> 2) & 1);

export function checkBocLayout(boc: Buffer): StoredHashes[] {
    if (boc.readUInt32BE(0) !== 0xb5ee9c72) {
        throw new Error('Not a serialized_boc#b5ee9c72');
    }
    const flags = boc[4];
    const size = flags & 7;
    const offBytes = boc[5];
    let pos = 6;
    const read = (bytes: number) => {
        let v = 0;
        for (let i = 0; i < bytes; i++) v = v * 256 + boc[pos++];
        return v;
    };
    const cells = read(size);
    const roots = read(size);
    read(size); // absent
    const totCellsSize = read(offBytes);
    pos += roots * size;
    const index = flags & 0x80 ? Array.from({ length: cells }, () => read(offBytes)) : undefined;
    const dataStart = pos;
    const stored: StoredHashes[] = [];
    for (let i = 0; i < cells; i++) {
        const d1 = boc[pos];
        const d2 = boc[pos + 1];
        // d1 = refs + 8 exotic + 16 with_hashes + 32 level_mask; stored hashes: one (hash, depth) per level present, plus level 0
        const storedHashes = d1 & 16 ? popcount(d1 >> 5) + 1 : 0;
        if (storedHashes > 0) {
            const at = (k: number) => pos + 2 + k;
            stored.push({
                cell: i,
                hashes: Array.from({ length: storedHashes }, (_, k) => hex(boc.subarray(at(32 * k), at(32 * k + 32)))),
                depths: Array.from({ length: storedHashes }, (_, k) => boc.readUInt16BE(at(32 * storedHashes + 2 * k))),
            });
        }
        pos += 2 + storedHashes * (32 + 2) + Math.ceil(d2 / 2) + (d1 & 7) * size;
        const entry = index?.[i];
        if (entry !== undefined && (flags & 0x20 ? Math.floor(entry / 2) : entry) !== pos - dataStart) {
            throw new Error(`BOC index entry ${i} is ${entry}, cell ${i} ends at ${pos - dataStart}`);
        }
    }
    if (pos - dataStart !== totCellsSize) {
        throw new Error(`BOC tot_cells_size ${totCellsSize}, its cells take ${pos - dataStart} bytes`);
    }
    if (pos + (flags & 0x40 ? 4 : 0) !== boc.length) {
        throw new Error(`BOC of ${boc.length} bytes has ${boc.length - pos} bytes after its cells`);
    }
    return stored;
}

interface StoredHashes {
    cell: number;
    hashes: string[];
    depths: number[];
}

/** Cell.fromBoc ignores the hashes a BOC stores with some cells: each must be that of a cell of the tree. */
function checkStoredHashes(root: Cell, stored: StoredHashes[]) {
    if (stored.length === 0) {
        return;
    }
    const byHash = new Map<string, Cell>();
    const seen = new Set<Cell>();
    const visit = (cell: Cell) => {
        if (!seen.has(cell)) {
            seen.add(cell);
            byHash.set(hex(cell.hash(0)), cell);
            cell.refs.forEach(visit);
        }
    };
    visit(root);
    for (const { cell: index, hashes, depths } of stored) {
        const cell = byHash.get(hashes[0]);
        // the hashes of level 0 and of every level in the cell's mask
        const levels = [0, 1, 2, 3].filter((l) => l === 0 || (cell && (cell.mask.value >> (l - 1)) & 1));
        if (!cell
            || levels.map((l) => hex(cell.hash(l))).join() !== hashes.join()
            || levels.map((l) => cell.depth(l)).join() !== depths.join()) {
            throw new Error(`BOC cell ${index}: its stored hashes or depths are not those of its content`);
        }
    }
}

function readRoot(boc: Buffer): Cell {
    const stored = checkBocLayout(boc);
    const roots = Cell.fromBoc(boc);
    if (roots.length !== 1) {
        throw new Error(`A block BOC has one root, found ${roots.length}`);
    }
    checkStoredHashes(roots[0], stored);
    return roots[0];
}

/** block#11ef55aa global_id:int32 info:^BlockInfo value_flow:^ValueFlow state_update:^(MERKLE_UPDATE ShardState) extra:^BlockExtra. */
export function readBlockIndependently(boc: Buffer): IndependentBlock {
    const root = readRoot(boc);
    const s = root.beginParse();
    expectTag(s, 32, 0x11ef55aa, 'Block');
    const globalId = s.loadInt(32);
    const info = readBlockInfo(s.loadRef());
    const valueFlow = readValueFlow(s.loadRef());
    const stateUpdate = readMerkleUpdate(s.loadRef());
    const extra = readBlockExtra(s.loadRef(), info.workchain);
    s.endParse();
    if (extra.mc && info.notMaster) {
        throw new Error('A shard block carries McBlockExtra');
    }
    if (extra.mc && extra.mc.keyBlock !== info.keyBlock) {
        throw new Error('McBlockExtra.key_block disagrees with BlockInfo.key_block');
    }
    return {
        rootHash: hex(root.hash()),
        fileHash: createHash('sha256').update(boc).digest('hex'),
        globalId,
        info,
        valueFlowVersion: valueFlow.version,
        valueFlow: valueFlow.grams,
        valueFlowExtraCurrencies: valueFlow.extraCurrencies,
        valueFlowBalanced: isValueFlowBalanced(valueFlow.grams),
        extraCurrenciesBalanced: extraCurrenciesBalanced(valueFlow.extraCurrencies),
        stateUpdate,
        transactions: extra.transactions,
        accountBlockFees: extra.accountBlockFees,
        inMsgCount: extra.inMsgCount,
        outMsgCount: extra.outMsgCount,
        inMsgImportFees: extra.inMsgImportFees,
        outMsgExported: extra.outMsgExported,
        randSeed: extra.randSeed,
        createdBy: extra.createdBy,
        shardHashes: extra.mc?.shardHashes,
        shardFees: extra.mc?.shardFees,
        configHash: extra.mc?.configHash,
        recoverCreateMsg: extra.mc?.recoverCreateMsg,
        mintMsg: extra.mc?.mintMsg,
    };
}
