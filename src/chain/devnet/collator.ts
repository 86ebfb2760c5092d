import { createHash } from 'node:crypto';
import { Address, type Builder, type Cell, loadMessage, type Message } from '@ton/core';
import { AugmentedDict, type FoldStore, type SubtreeSource } from '../../ton/dict/augmented-dict.ts';
import { CellCensus, merkleUpdate } from '../../ton/cells/merkle-update.ts';
import { RecentRegions } from './recent-regions.ts';
import { addAmounts, amountsOf, type Amounts, grams, ZERO } from '../../ton/currency.ts';
import { writeBoc } from '../../ton/boc/boc-writer.ts';
import { cellBuilder, cellWithRefs } from '../../ton/cells/core-cells.ts';
import {
    blockCell, blockExtraCell, blockInfoCell, type ExtBlkRefFields, mcBlockExtraCell, type ShardDescrFields, valueFlowCell,
} from '../../ton/block/store-block.ts';
import {
    ACCOUNT_TRANSACTIONS, type DescribedInMsg, type DescribedOutMsg, envelopeCell, exportDequeued, exportDequeuedWithEnvelope, exportExternal, exportImmediate, exportNew,
    importExternal, importFinal, importImmediate, IN_MSG_DESCR, type MsgMetadata, OLD_MC_BLOCKS, OUT_MSG_DESCR, type Route,
    SHARD_ACCOUNT_BLOCKS, SHARD_ACCOUNTS, SHARD_FEES, shardFeesKey, type ShardAccountEntry,
} from '../../ton/block/store-descriptors.ts';
import { libraryDescriptors, mcStateExtraCell, shardStateCell } from '../../ton/block/store-state.ts';
import { formatShard, ROOT_SHARD, shardChild, shardHoldsAccount, shardPrefixBits } from '../../ton/block/shard-id.ts';
import type { FutureSplitMerge } from '../../ton/block/future-split-merge.ts';
import { type EnqueuedMsg, OUT_MSG_QUEUE, outMsgQueueInfoCell, outQueueKey, type ProcessedUpto } from '../../ton/block/store-queue.ts';
import { readBoc } from '../../ton/boc/boc-reader.ts';
import { MAX_DEVNET_SHARDS } from '../../config/defaults.ts';
import type { BlockIdExt } from '../../ton/block-id.ts';
import type { ExecutedTransaction } from './tvm-chain.ts';
import {
    CAP_MSG_METADATA, CAP_REPORT_VERSION, CAP_SHORT_DEQUEUE, CAP_STORE_OUT_MSG_QUEUE_SIZE, productionParams, type ProductionParams, validatorSetHashShort,
} from './production-params.ts';


/** An account's state after the step: its ShardAccount cell as the TVM wrote it, or null once it no longer exists. */
export interface AccountChange {
    workchain: number;
    /** 256-bit account id. */
    id: bigint;
    shardAccount: Cell | null;
    balance: Amounts;
}

/** A block as produced: its cell, its BOC (what the chain log keeps) and its id. */
export interface ProducedBlock {
    id: BlockIdExt;
    isKeyBlock: boolean;
    boc: Buffer;
    utime: number;
    startLt: bigint;
    endLt: bigint;
}

/**
 * What lets the collator keep only the recently changed parts of the shards' accounts dictionaries
 * in memory: the rest is held as subtree hashes and loaded back from the accounts as last committed.
 */
export interface CollatorOptions {
    /** The existing accounts of `workchain`, as last committed, whose ids start with the top `bits` bits of `prefix`. */
    accountsUnder: (workchain: number, prefix: bigint, bits: number) => Iterable<AccountChange>;
    /** About how many accounts each shard keeps in memory: those of the regions of its dictionary changed last. */
    recentAccounts: number;
    /** Where the accounts dictionaries' folded forks wait while cold (without one, in memory). */
    folds?: FoldStore;
}

/**
 * About how many accounts a region of a shard's accounts dictionary (what is evicted and loaded back as one) holds.
 * A transfer to a new account loads its whole region back: regions of 4–8 accounts instead of 16–32 made the
 * loaded devnet 30 % faster at 200k transactions (293 against 226 tx/s) and held ~90 MB less, for more cold regions
 * and folded forks, which cost memory only where they hang off what is held: the rest waits in the fold store
 * (measured under the devnet bench's transfer load).
 */
const REGION_ACCOUNTS = 4;

type ShardAccounts = AugmentedDict<ShardAccountEntry, { splitDepth: number; balance: Amounts }>;

/** A shard chain's state: the accounts dictionary, the state cell and what its census knows. */
interface ShardChain {
    workchain: number;
    /** Its shard id (the masterchain's is the root shard). */
    shard: bigint;
    accounts: ShardAccounts;
    /** Regions of the dictionary changed last: what of it stays in memory. */
    recent: RecentRegions;
    census: CellCensus;
    state: Cell;
    totalValidatorFees: Amounts;
    last: ExtBlkRefFields;
    catchainSeqno: number;
    lastUtime: number;
    minRefMcSeqno: number;
    /** Shard chains: the masterchain block the last block refers to. */
    masterRef?: ExtBlkRefFields;
    /** What it exported to other shards of its workchain and they have not imported yet. */
    queue: AugmentedDict<EnqueuedMsg, bigint>;
    /** How far it has imported from its neighbours' queues (one entry, under its own shard). */
    processed: Map<bigint, ProcessedUpto>;
    /** Its last block was its last before a split (its state says so). */
    beforeSplit: boolean;
    /** Made by a split: its next block is its first. */
    afterSplit: boolean;
}

/** A message waiting in a shard's out-message queue for its destination shard. */
interface QueuedMessage {
    /** The shard whose queue holds it. */
    from: bigint;
    /** The first 64 bits of the sender's address (where the message sits: which child of a split keeps it). */
    source: bigint;
    key: bigint;
    enqueuedLt: bigint;
    envelope: Cell;
    /** The first 64 bits of the next hop's address. */
    destination: bigint;
}

/** A queued message its destination imported, for its sender to take off its queue in a later block. */
interface ImportedMessage {
    from: bigint;
    source: bigint;
    hash: string;
    key: bigint;
    envelope: Cell;
    destination: bigint;
    importBlockLt: bigint;
    /** The step that imported it: the sender dequeues it in a later one. */
    step: number;
}

/** A block reference as JSON (hashes hex, lt decimal). */
export interface SavedRef {
    seqno: number;
    endLt: string;
    rootHash: string;
    fileHash: string;
}

interface SavedChain {
    last: SavedRef;
    catchainSeqno: number;
    lastUtime: number;
    totalValidatorFees: SavedAmounts;
    minRefMcSeqno: number;
    /** Hash of the state after `last`, to check a rebuilt state against. */
    stateHash: string;
}

interface SavedAmounts {
    grams: string;
    extra: Record<string, string>;
}

type SavedDescr = SavedRef & {
    regMcSeqno: number; startLt: string; catchainSeqno: number; minRefMcSeqno: number; utime: number; feesCollected: SavedAmounts; fundsCreated: SavedAmounts;
    beforeSplit?: boolean; splitMergeAt?: FutureSplitMerge;
};

/** A basechain shard as saved: its chain, its top's descriptor and its queue. */
interface SavedShard extends SavedChain {
    /** The shard id, 16 hex digits. */
    shard: string;
    masterRef?: SavedRef;
    beforeSplit?: boolean;
    descr: SavedDescr;
    /** Its out-message queue: key (hex), enqueued lt, envelope BOC (base64), sender and next hop address prefixes. */
    queue: Array<{ key: string; enqueuedLt: string; envelope: string; source: string; destination: string }>;
    processed: Array<{ shard: string; mcSeqno: number; lastMsgLt: string; lastMsgHash: string }>;
}

/** What a restarted collator continues from, besides the accounts, the config and the previous masterchain blocks. */
export interface CollatorHeads {
    /** The basechain's shards (a chain saved before it had several: `basechain` and `basechainDescr`). */
    shards?: SavedShard[];
    /** Queued messages imported that their senders have not dequeued yet. */
    imported?: Array<{ from: string; source: string; hash: string; key: string; envelope: string; destination: string; importBlockLt: string; step: number }>;
    basechain?: SavedChain & { masterRef?: SavedRef };
    basechainDescr?: SavedDescr;
    masterchain: SavedChain & { afterKeyBlock: boolean; lastKeyBefore?: SavedRef };
    lastKeyBlock: SavedRef;
    globalBalance: SavedAmounts;
}

/** A previous masterchain block, as OldMcBlocksInfo lists it. */
export interface PreviousMasterBlock extends SavedRef {
    key: boolean;
}

/** The internal messages of a step: who sent each (by hash), which were delivered in it, their metadata, each transaction's out messages. */
interface StepMessages {
    senders: Map<string, ExecutedTransaction>;
    metadata: Map<string, MsgMetadata>;
    receivers: Set<string>;
    outMessages: Map<ExecutedTransaction, Array<{ cell: Cell; hash: string; message: Message }>>;
}

export interface StepInput {
    utime: number;
    startLt: bigint;
    endLt: bigint;
    /** In execution order. */
    transactions: ExecutedTransaction[];
    accounts: AccountChange[];
    /** The config in force after the step (a change makes the masterchain block a key block). */
    config: Cell;
    /** Public libraries of the masterchain: hash → root and publishing accounts. */
    libraries: ReadonlyMap<string, { root: Cell; publishers: string[] }>;
    randSeed: Buffer;
    createdBy: Buffer;
    /**
     * The special message (from -1:000…000) carrying the recovered fees to the fee collector (p3, else
     * the elector), as the collator of TON makes it: its hash and value. Its transaction is among
     * `transactions`; the masterchain block records it as recover_create_msg.
     */
    recoverCreateMsg?: { hash: string; value: bigint };
}

/**
 * The devnet's collator: turns a production step (transactions run on the TVM, accounts they
 * changed) into real blocks — a basechain block and the masterchain block committing it — with
 * TON's layouts: BlockInfo, a balanced ValueFlow, a Merkle update between the shard's states, the
 * message descriptors and account blocks, and for the masterchain McBlockExtra with the shard's
 * descriptor and the config in key blocks. Messages between the two chains are delivered in the
 * same step, so both out-message queues stay empty.
 */
export class Collator {
    /** The basechain's shards by shard id. */
    private shards = new Map<bigint, ShardChain>();
    /** The descriptors of the basechain's shard tops, as the next masterchain block commits them. */
    private descrs = new Map<bigint, ShardDescrFields>();
    /** Messages waiting in a basechain shard's queue, by message hash (hex). */
    private queued = new Map<string, QueuedMessage>();
    private imported: ImportedMessage[] = [];
    /** Steps made (or restored): when an import may be dequeued. */
    private steps = 0;
    private masterchain!: ShardChain;
    private prevBlocks = new AugmentedDict(OLD_MC_BLOCKS);
    private globalBalance: Amounts = ZERO;
    private lastKeyBlock!: ExtBlkRefFields & { seqno: number };
    private configHash = '';
    private params!: ProductionParams;
    private config!: Cell;
    private libraries: Cell | null = null;
    private afterKeyBlock = false;
    private lastKeyBefore: ExtBlkRefFields | undefined;
    /** While a restarted chain's dictionaries are filled, loaded regions are counted with the states built after. */
    private restoring = false;

    /** Without options every account stays in memory. */
    constructor(private readonly options?: CollatorOptions) {}

    /** An empty accounts dictionary of a shard, loading evicted regions back through the options. */
    private newAccounts(workchain: number, shard: bigint, census: CellCensus): ShardAccounts {
        const options = this.options;
        if (!options) return new AugmentedDict(SHARD_ACCOUNTS);
        const source: SubtreeSource<ShardAccountEntry> = {
            entries: function* (prefix, bits) {
                for (const change of options.accountsUnder(workchain, prefix, bits)) {
                    if (change.shardAccount && shardHoldsAccount(shard, change.id)) yield [change.id, { cell: change.shardAccount, balance: change.balance }];
                }
            },
            // A cold subtree's root stayed in the census (its hash is its cell's); what is below it is counted again.
            loaded: cell => {
                if (!this.restoring) for (const ref of cell.refs) census.add(ref);
            },
            folds: options.folds,
        };
        return new AugmentedDict(SHARD_ACCOUNTS, source);
    }

    private newChain(workchain: number, shard: bigint, accounts: Iterable<AccountChange>, expected: number): ShardChain {
        const census = new CellCensus();
        const chain: ShardChain = {
            workchain, shard, accounts: this.newAccounts(workchain, shard, census), recent: new RecentRegions(regionBits(expected, shard)), census, state: cellBuilder().endCell(),
            totalValidatorFees: ZERO, last: undefined!, catchainSeqno: 0, lastUtime: 0, minRefMcSeqno: 0,
            queue: new AugmentedDict(OUT_MSG_QUEUE), processed: new Map(), beforeSplit: false, afterSplit: false,
        };
        // Accounts come in id order on a restart: every region left behind is complete and goes out of memory as the fill goes on.
        const evicting = this.restoring && this.options !== undefined && expected > this.options.recentAccounts;
        const shift = BigInt(256 - chain.recent.bits);
        const behind: bigint[] = [];
        let last: bigint | undefined;
        for (const change of accounts) {
            if (change.workchain !== workchain || !change.shardAccount || !shardHoldsAccount(shard, change.id)) continue;
            if (evicting && last !== undefined && last >> shift !== change.id >> shift) {
                behind.push(last);
                if (behind.length >= 1024) for (const id of behind.splice(0)) chain.accounts.evict(id, chain.recent.bits);
            }
            chain.accounts.set(change.id, { cell: change.shardAccount, balance: change.balance });
            last = change.id;
        }
        if (evicting && last !== undefined) for (const id of [...behind, last]) chain.accounts.evict(id, chain.recent.bits);
        return chain;
    }

    /** Keeps the regions of the accounts changed last in memory; older ones go (after the step's state is made). */
    private keepRecent(chain: ShardChain, changed: bigint[]): void {
        if (!this.options) return;
        const bits = regionBits(chain.accounts.size, chain.shard);
        // Regions change size with the shard. The ones kept stay, oldest first, and go out one by one
        // as any other at the new size: evicting all ~1250 in that step took the producer's heap to
        // ~410 MB committed for a minute at 2^19 accounts, against ~290 this way (BENCHMARKS).
        if (bits !== chain.recent.bits) chain.recent = chain.recent.resized(bits);
        for (const id of changed) chain.recent.touch(id);
        const kept = Math.max(1, Math.ceil(this.options.recentAccounts / REGION_ACCOUNTS));
        let evicted = false;
        while (chain.recent.size > kept) evicted = this.evict(chain, chain.recent.takeOldest()!) || evicted;
        if (evicted) this.releaseEvicted(chain);
    }

    /**
     * The state again, its accounts made on the evicted regions' cold cells (hashes unchanged): the state
     * made for the step's block would otherwise hold the evicted regions' cells until the next step.
     */
    private releaseEvicted(chain: ShardChain): void {
        const builder = cellBuilder();
        chain.accounts.storeAugE(builder);
        const accounts = builder.endCell();
        const hash = accounts.hash(0);
        const state = cellWithRefs(chain.state, chain.state.refs.map(ref => (ref.hash(0).equals(hash) ? accounts : ref)));
        if (!state.hash(0).equals(chain.state.hash(0)) || state.refs.every((ref, i) => ref === chain.state.refs[i])) {
            throw new Error('the accounts dictionary with regions evicted does not hash as before');
        }
        chain.state = state;
    }

    /** Evicts the region of `id` at the regions' size, and beside its path what no recent region is under. */
    private evict(chain: ShardChain, id: bigint): boolean {
        const gone = chain.accounts.evict(id, chain.recent.bits, (key, bits) => chain.recent.holdsUnder(key, bits));
        if (gone) for (const cell of gone) chain.census.remove(cell);
        return gone !== null;
    }

    /** The zerostates of a new chain: its genesis accounts, the config and libraries; returns their ids. */
    genesis(input: { utime: number; accounts: AccountChange[]; config: Cell; libraries: StepInput['libraries'] }): { master: ProducedBlock & { stateBoc: Buffer }; basechain: ProducedBlock & { stateBoc: Buffer } } {
        this.useConfig(input.config);
        this.libraries = libraryDescriptors(input.libraries);
        const makeChain = (workchain: number): ShardChain => {
            const chain = this.newChain(workchain, ROOT_SHARD, input.accounts, input.accounts.filter(a => a.workchain === workchain).length);
            chain.lastUtime = input.utime;
            return chain;
        };
        const basechain = makeChain(0);
        this.shards = new Map([[ROOT_SHARD, basechain]]);
        this.masterchain = makeChain(-1);
        const basechainState = this.shardState(basechain, input.utime, 0n, undefined);
        basechain.state = basechainState;
        basechain.census.add(basechainState);
        const basechainBoc = writeBoc(basechainState, { dedupeByHash: true });
        basechain.last = { endLt: 0n, seqno: 0, rootHash: basechainState.hash(), fileHash: sha256(basechainBoc) };
        this.descrs = new Map([[ROOT_SHARD, {
            seqno: 0, regMcSeqno: 0, startLt: 0n, endLt: 0n, rootHash: basechainState.hash(), fileHash: sha256(basechainBoc),
            nextCatchainSeqno: 0, nextValidatorShard: ROOT_SHARD, minRefMcSeqno: 0, genUtime: input.utime, feesCollected: ZERO, fundsCreated: ZERO,
        }]]);
        this.globalBalance = addAmounts(basechain.accounts.extra().balance, this.masterchain.accounts.extra().balance);
        const masterState = this.shardState(this.masterchain, input.utime, 0n, this.mcStateExtra(false));
        this.masterchain.state = masterState;
        this.masterchain.census.add(masterState);
        const masterBoc = writeBoc(masterState, { dedupeByHash: true });
        this.masterchain.last = { endLt: 0n, seqno: 0, rootHash: masterState.hash(), fileHash: sha256(masterBoc) };
        this.lastKeyBlock = { ...this.masterchain.last };
        const asBlock = (workchain: number, ref: ExtBlkRefFields, boc: Buffer) => ({
            id: { workchain, shard: formatShard(ROOT_SHARD), seqno: 0, rootHash: ref.rootHash.toString('hex'), fileHash: ref.fileHash.toString('hex') },
            boc, stateBoc: boc, utime: input.utime, startLt: 0n, endLt: 0n, isKeyBlock: workchain === -1,
        });
        return { master: asBlock(-1, this.masterchain.last, masterBoc), basechain: asBlock(0, basechain.last, basechainBoc) };
    }

    /**
     * Takes a restarted chain back: its accounts, the config and libraries in force, the heads saved
     * with the last step and the masterchain blocks before the last. The states are rebuilt and must
     * hash as the saved ones, or the chain cannot go on from them.
     */
    restore(accounts: ShardAccountsSaved, heads: CollatorHeads, config: Cell, libraries: StepInput['libraries'], previous: PreviousMasterBlock[]): void {
        this.useConfig(config);
        this.libraries = libraryDescriptors(libraries);
        const saved = savedShards(heads);
        const makeChain = (workchain: number, shard: bigint, chain: SavedChain & { masterRef?: SavedRef }): ShardChain => Object.assign(this.newChain(workchain, shard, accounts.of(workchain), accounts.count(workchain)), {
            totalValidatorFees: loadAmounts(chain.totalValidatorFees), last: loadRef(chain.last), catchainSeqno: chain.catchainSeqno,
            lastUtime: chain.lastUtime, minRefMcSeqno: chain.minRefMcSeqno, masterRef: chain.masterRef ? loadRef(chain.masterRef) : undefined,
        });
        this.restoring = true;
        try {
            this.shards = new Map(saved.map(s => {
                const shard = BigInt(`0x${s.shard}`);
                return [shard, Object.assign(makeChain(0, shard, s), { beforeSplit: s.beforeSplit ?? false })];
            }));
            this.masterchain = makeChain(-1, ROOT_SHARD, heads.masterchain);
        } finally {
            this.restoring = false;
        }
        this.lastKeyBlock = loadRef(heads.lastKeyBlock);
        this.globalBalance = loadAmounts(heads.globalBalance);
        this.descrs = new Map();
        this.queued = new Map();
        for (const s of saved) {
            const shard = BigInt(`0x${s.shard}`);
            const chain = this.shards.get(shard)!;
            this.descrs.set(shard, loadDescr(s.descr, shard));
            for (const entry of s.queue) {
                const envelope = readBoc(Buffer.from(entry.envelope, 'base64'))[0];
                const queued: QueuedMessage = {
                    from: shard, source: BigInt(`0x${entry.source}`), key: BigInt(`0x${entry.key}`), enqueuedLt: BigInt(entry.enqueuedLt), envelope, destination: BigInt(`0x${entry.destination}`),
                };
                chain.queue.set(queued.key, { enqueuedLt: queued.enqueuedLt, envelope });
                this.queued.set(envelope.refs[0].hash().toString('hex'), queued);
            }
            for (const p of s.processed) {
                chain.processed.set(BigInt(`0x${p.shard}`), { shard: BigInt(`0x${p.shard}`), mcSeqno: p.mcSeqno, lastMsgLt: BigInt(p.lastMsgLt), lastMsgHash: Buffer.from(p.lastMsgHash, 'hex') });
            }
        }
        this.imported = (heads.imported ?? []).map(i => ({
            from: BigInt(`0x${i.from}`), source: BigInt(`0x${i.source}`), hash: i.hash, key: BigInt(`0x${i.key}`), envelope: readBoc(Buffer.from(i.envelope, 'base64'))[0],
            destination: BigInt(`0x${i.destination}`), importBlockLt: BigInt(i.importBlockLt), step: i.step,
        }));
        this.steps = Math.max(0, ...this.imported.map(i => i.step));
        this.prevBlocks = new AugmentedDict(OLD_MC_BLOCKS);
        for (const block of previous) this.prevBlocks.set(BigInt(block.seqno), { key: block.key, ref: loadRef(block) });
        this.afterKeyBlock = heads.masterchain.afterKeyBlock;
        this.lastKeyBefore = heads.masterchain.lastKeyBefore ? loadRef(heads.masterchain.lastKeyBefore) : undefined;
        const rebuild = (chain: ShardChain, savedChain: SavedChain, mcExtra?: Cell) => {
            const state = this.shardState(chain, chain.lastUtime, chain.last.endLt, mcExtra, chain.last.seqno);
            if (state.hash().toString('hex') !== savedChain.stateHash) {
                const name = chain.workchain === -1 ? 'masterchain' : `basechain shard ${formatShard(chain.shard)}`;
                throw new Error(`the devnet's ${name} state rebuilt from its chain log does not match the state of its last block `
                    + `(${chain.last.seqno}); the chain log is inconsistent and the devnet cannot continue it`);
            }
            chain.state = state;
            chain.census.add(state);
        };
        for (const s of saved) rebuild(this.shards.get(BigInt(`0x${s.shard}`))!, s);
        rebuild(this.masterchain, heads.masterchain, this.mcStateExtra(this.afterKeyBlock, this.lastKeyBefore));
    }

    /** What `restore` needs besides accounts, config, libraries and previous blocks; saved with every step. */
    heads(): CollatorHeads {
        const saveChain = (chain: ShardChain): SavedChain => ({
            last: saveRef(chain.last), catchainSeqno: chain.catchainSeqno, lastUtime: chain.lastUtime,
            totalValidatorFees: saveAmounts(chain.totalValidatorFees), minRefMcSeqno: chain.minRefMcSeqno, stateHash: chain.state.hash().toString('hex'),
        });
        const queuedBy = new Map<bigint, QueuedMessage[]>();
        for (const queued of this.queued.values()) queuedBy.set(queued.from, [...(queuedBy.get(queued.from) ?? []), queued]);
        return {
            shards: [...this.shards.values()].map(chain => ({
                ...saveChain(chain), shard: formatShard(chain.shard), masterRef: chain.masterRef ? saveRef(chain.masterRef) : undefined, beforeSplit: chain.beforeSplit || undefined,
                descr: saveDescr(this.descrs.get(chain.shard)!),
                queue: (queuedBy.get(chain.shard) ?? []).map(q => ({
                    key: q.key.toString(16), enqueuedLt: q.enqueuedLt.toString(), envelope: writeBoc(q.envelope).toString('base64'),
                    source: formatShard(q.source), destination: formatShard(q.destination),
                })),
                processed: [...chain.processed.values()].map(p => ({ shard: formatShard(p.shard), mcSeqno: p.mcSeqno, lastMsgLt: p.lastMsgLt.toString(), lastMsgHash: p.lastMsgHash.toString('hex') })),
            })),
            imported: this.imported.map(i => ({
                from: formatShard(i.from), source: formatShard(i.source), hash: i.hash, key: i.key.toString(16), envelope: writeBoc(i.envelope).toString('base64'),
                destination: formatShard(i.destination), importBlockLt: i.importBlockLt.toString(), step: i.step,
            })),
            masterchain: { ...saveChain(this.masterchain), afterKeyBlock: this.afterKeyBlock, lastKeyBefore: this.lastKeyBefore ? saveRef(this.lastKeyBefore) : undefined },
            lastKeyBlock: saveRef(this.lastKeyBlock),
            globalBalance: saveAmounts(this.globalBalance),
        };
    }

    /** The basechain's shards now, in shard order. */
    basechainShards(): bigint[] {
        return [...this.shards.keys()].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
    }

    /** The basechain shard an account (its 256-bit id) is in now. */
    shardOf(id: bigint): bigint {
        for (const shard of this.shards.keys()) if (shardHoldsAccount(shard, id)) return shard;
        throw new Error(`no basechain shard holds account ${id.toString(16)}`);
    }

    /**
     * The messages waiting in the shards' queues, in the order their destinations import them (by
     * enqueued lt, then hash): the producer delivers them at the start of the next step.
     */
    queuedMessages(): Array<{ message: Cell; destination: string }> {
        return [...this.queued.values()]
            .sort((a, b) => (a.enqueuedLt < b.enqueuedLt ? -1 : a.enqueuedLt > b.enqueuedLt ? 1 : a.key < b.key ? -1 : 1))
            .map(q => ({ message: q.envelope.refs[0], destination: messageDestination(q.envelope.refs[0]) }));
    }

    /** Produces one step's blocks: a block of every basechain shard, then the masterchain block committing them. */
    step(input: StepInput): ProducedBlock[] {
        // The first block after the zerostates is a key block carrying the config, so an index has it from its first block.
        const keyBlock = this.useConfig(input.config) || this.masterchain.last.seqno === 0;
        this.libraries = libraryDescriptors(input.libraries);
        this.steps++;
        const messages = this.stepMessages(input);
        const shardBlocks = this.basechainShards().map(shard => this.shardBlock(this.shards.get(shard)!, input, messages));
        const masterBlock = this.masterBlock(input, messages, shardBlocks, keyBlock);
        for (const chain of [...this.shards.values(), this.masterchain]) {
            this.keepRecent(chain, input.accounts.filter(a => a.workchain === chain.workchain && shardHoldsAccount(chain.shard, a.id)).map(a => a.id));
        }
        return [...shardBlocks.map(block => block.produced), masterBlock];
    }

    /**
     * The masterchain announces a split (fsm_split, in the descriptor it commits) for every shard
     * shallower than the config's min_split, as TON's masterchain collator does: the shard's first
     * block in the announced window is its last before the split.
     */
    private announceSplits(utime: number): void {
        const { minSplit, maxSplit, delay, interval } = this.params.basechainSplit;
        for (const [shard, descr] of this.descrs) {
            const depth = shardPrefixBits(shard);
            if (descr.beforeSplit || (descr.splitMergeAt && descr.splitMergeAt.kind !== 'none')) continue;
            if (depth < minSplit && depth < maxSplit && depth < MAX_SPLIT_DEPTH) descr.splitMergeAt = { kind: 'split', splitUtime: utime + delay, interval };
        }
    }

    /**
     * Before a step's transactions run: every shard whose last block was its last before a split
     * becomes its two halves. Each half starts from the parent's state (its first block's Merkle update
     * goes from the parent's whole state), with the parent's accounts, queued messages and validator
     * fees of its half (TON's ShardState::split: fees floor(x/2) to the left, ceil(x/2) to the right).
     */
    prepareStep(): void {
        for (const parent of [...this.shards.values()]) if (parent.beforeSplit) this.split(parent);
    }

    private split(parent: ShardChain): void {
        if (!this.options) throw new Error('a shard splits only with its accounts saved (CollatorOptions)');
        this.shards.delete(parent.shard);
        this.descrs.delete(parent.shard);
        for (const side of ['left', 'right'] as const) {
            const shard = shardChild(parent.shard, side);
            const bits = shardPrefixBits(shard);
            const child = this.newChain(0, shard, this.options.accountsUnder(0, (shard & (shard - 1n)) << 192n, bits), Math.ceil(parent.accounts.size / 2));
            Object.assign(child, {
                last: parent.last, catchainSeqno: parent.catchainSeqno, lastUtime: parent.lastUtime, minRefMcSeqno: parent.minRefMcSeqno,
                masterRef: parent.masterRef, totalValidatorFees: halved(parent.totalValidatorFees, side), state: parent.state, afterSplit: true,
            });
            child.census.add(parent.state);
            for (const queued of this.queued.values()) {
                if (queued.from !== parent.shard || !shardHoldsAccount(shard, queued.source << 192n)) continue;
                queued.from = shard;
                child.queue.set(queued.key, { enqueuedLt: queued.enqueuedLt, envelope: queued.envelope });
            }
            for (const imported of this.imported) if (imported.from === parent.shard && shardHoldsAccount(shard, imported.source << 192n)) imported.from = shard;
            const upto = parent.processed.get(parent.shard);
            if (upto) child.processed.set(shard, { ...upto, shard });
            this.shards.set(shard, child);
        }
    }

    /** A message to another shard of the workchain goes into the sender's queue (its destination imports it in a later step). */
    private enqueue(chain: ShardChain, hash: string, envelope: Cell, createdLt: bigint, source: bigint, destination: bigint, route: Route): void {
        const nextHop = nextHopPrefix(source >> 192n, destination >> 192n, route.next);
        const key = outQueueKey(0, nextHop, BigInt(`0x${hash}`));
        chain.queue.set(key, { enqueuedLt: createdLt, envelope });
        this.queued.set(hash, { from: chain.shard, source: source >> 192n, key, enqueuedLt: createdLt, envelope, destination: nextHop });
    }

    /**
     * A queued message delivered in this shard's block (msg_import_fin with the envelope from the
     * sender's queue): noted for its sender to dequeue, and as how far this shard has processed.
     */
    private importQueued(chain: ShardChain, hash: string, transaction: Cell, fwdFee: bigint, carried: Amounts, blockEndLt: bigint): DescribedInMsg {
        const queued = this.queued.get(hash)!;
        this.queued.delete(hash);
        this.imported.push({ from: queued.from, source: queued.source, hash, key: queued.key, envelope: queued.envelope, destination: queued.destination, importBlockLt: blockEndLt, step: this.steps });
        const upto = chain.processed.get(chain.shard);
        const hashBuffer = Buffer.from(hash, 'hex');
        if (!upto || queued.enqueuedLt > upto.lastMsgLt || (queued.enqueuedLt === upto.lastMsgLt && hashBuffer.compare(upto.lastMsgHash) > 0)) {
            chain.processed.set(chain.shard, { shard: chain.shard, mcSeqno: this.masterchain.last.seqno, lastMsgLt: queued.enqueuedLt, lastMsgHash: hashBuffer });
        }
        return importFinal(queued.envelope, transaction, fwdFee, carried);
    }

    /** The shard takes off its queue what its neighbours imported in earlier steps (whose blocks the masterchain committed since). */
    private dequeueImported(chain: ShardChain, outMsgs: AugmentedDict<DescribedOutMsg, Amounts>): void {
        const short = this.hasCapability(CAP_SHORT_DEQUEUE);
        this.imported = this.imported.filter(imported => {
            if (imported.from !== chain.shard || imported.step >= this.steps) return true;
            chain.queue.delete(imported.key);
            outMsgs.set(BigInt(`0x${imported.hash}`), short
                ? exportDequeued(imported.envelope.hash(), 0, imported.destination, imported.importBlockLt)
                : exportDequeuedWithEnvelope(imported.envelope, imported.importBlockLt));
            return false;
        });
    }

    private useConfig(config: Cell): boolean {
        const hash = config.hash().toString('hex');
        if (hash === this.configHash) return false;
        this.config = config;
        this.configHash = hash;
        this.params = productionParams(config);
        this.validatorListHashes.clear();
        return true;
    }

    private readonly validatorListHashes = new Map<number, number>();

    /** The short hash of the masterchain's validator group at a catchain seqno (the devnet's blocks all name it). */
    private validatorListHash(catchainSeqno: number): number {
        let hash = this.validatorListHashes.get(catchainSeqno);
        if (hash === undefined) {
            hash = validatorSetHashShort(this.params.masterchainValidators, catchainSeqno);
            this.validatorListHashes.set(catchainSeqno, hash);
        }
        return hash;
    }

    /**
     * What the next masterchain block recovers for the fee collector (TON's `recovered`): the
     * validators' fees accumulated in the masterchain state plus the block's creation fee (p14).
     */
    recoverable(): bigint {
        return this.masterchain.totalValidatorFees.grams + this.params.masterchainBlockFee;
    }

    private hasCapability(capability: bigint): boolean {
        return (this.params.capabilities & capability) !== 0n;
    }

    private shardBlock(chain: ShardChain, input: StepInput, messages: StepMessages) {
        const seqno = chain.last.seqno + 1;
        // The split the masterchain announced happens with the first block in its window (TON: fsm_utime ≤ now < fsm_utime + interval).
        const fsm = this.descrs.get(chain.shard)?.splitMergeAt;
        const beforeSplit = !chain.afterSplit && fsm?.kind === 'split' && input.utime >= fsm.splitUtime && input.utime < fsm.splitUtime + fsm.interval;
        const afterSplit = chain.afterSplit;
        chain.afterSplit = false;
        chain.beforeSplit = beforeSplit;
        const created = grams(this.params.basechainBlockFee);
        const body = this.blockBody(chain, input, messages);
        const feesCollected = addAmounts(created, addAmounts(body.transactionFees, grams(body.importFees)));
        const masterRef = this.masterchain.last;
        const minRefMcSeqno = this.masterchain.last.seqno;
        chain.catchainSeqno = this.rotatedCatchain(chain.catchainSeqno, chain.lastUtime, input.utime, this.params.shardCatchainLifetime);
        chain.minRefMcSeqno = minRefMcSeqno;
        chain.masterRef = masterRef;
        chain.totalValidatorFees = addAmounts(chain.totalValidatorFees, feesCollected);
        const newState = this.shardState(chain, input.utime, input.endLt, undefined, seqno);
        const stateUpdate = this.replaceState(chain, newState);
        const info = blockInfoCell({
            workchain: chain.workchain, shard: chain.shard, seqno, keyBlock: false, genUtime: input.utime,
            startLt: input.startLt, endLt: input.endLt,
            genValidatorListHashShort: this.validatorListHash(chain.catchainSeqno),
            genCatchainSeqno: chain.catchainSeqno, minRefMcSeqno, prevKeyBlockSeqno: this.lastKeyBlock.seqno,
            genSoftware: this.genSoftware(), masterRef, prev: chain.last, beforeSplit, afterSplit,
        });
        const valueFlow = valueFlowCell({
            fromPrevBlk: body.fromPrev, toNextBlk: body.toNext, imported: body.imported, exported: body.exported,
            feesCollected, burned: ZERO, feesImported: ZERO, recovered: ZERO, created, minted: ZERO,
        });
        const extra = blockExtraCell({ inMsgDescr: body.inMsgDescr, outMsgDescr: body.outMsgDescr, accountBlocks: body.accountBlocks, randSeed: input.randSeed, createdBy: input.createdBy });
        const produced = this.seal(chain, seqno, input, blockCell(this.params.globalId, info, valueFlow, stateUpdate, extra));
        this.descrs.set(chain.shard, {
            seqno, regMcSeqno: this.masterchain.last.seqno + 1, startLt: input.startLt, endLt: input.endLt,
            rootHash: chain.last.rootHash, fileHash: chain.last.fileHash, nextCatchainSeqno: chain.catchainSeqno, nextValidatorShard: chain.shard,
            minRefMcSeqno, genUtime: input.utime, feesCollected, fundsCreated: created,
            beforeSplit, splitMergeAt: beforeSplit || !fsm || (fsm.kind === 'split' && input.utime >= fsm.splitUtime + fsm.interval) ? undefined : fsm,
        });
        return { shard: chain.shard, produced, feesCollected, created };
    }

    private masterBlock(input: StepInput, messages: StepMessages, shards: Array<{ shard: bigint; feesCollected: Amounts; created: Amounts }>, keyBlock: boolean): ProducedBlock {
        const chain = this.masterchain;
        const seqno = chain.last.seqno + 1;
        const created = grams(this.params.masterchainBlockFee);
        const body = this.blockBody(chain, input, messages);
        this.announceSplits(input.utime);
        const shardFees = new AugmentedDict(SHARD_FEES);
        for (const shard of shards) shardFees.set(shardFeesKey(0, shard.shard), { fees: shard.feesCollected, create: shard.created });
        const { fees: feesImported, create: shardsCreated } = shardFees.extra();
        const burnedImported = this.params.burn(feesImported.grams - shardsCreated.grams);
        const ownFees = body.transactionFees.grams + body.importFees;
        const burnedOwn = this.params.burn(ownFees);
        const feesCollected = addAmounts(addAmounts(feesImported, grams(-burnedImported)), addAmounts(created, addAmounts(body.transactionFees, grams(body.importFees - burnedOwn))));
        const burned = grams(burnedImported + burnedOwn);
        const recovered = input.recoverCreateMsg && body.recoverCreateMsg ? grams(input.recoverCreateMsg.value) : ZERO;
        this.globalBalance = addAmounts(this.globalBalance, addAmounts(created, shardsCreated));

        const previous = chain.last;
        const previousIsKey = previous.seqno === this.lastKeyBlock.seqno;
        this.prevBlocks.set(BigInt(previous.seqno), { key: previousIsKey, ref: previous });
        const prevKeyBlockSeqno = this.lastKeyBlock.seqno;
        const lastKeyBefore = this.lastKeyBlock;
        chain.catchainSeqno = keyBlock ? chain.catchainSeqno + 1 : this.rotatedCatchain(chain.catchainSeqno, chain.lastUtime, input.utime, this.params.mcCatchainLifetime);
        const minRefMcSeqno = Math.min(seqno, ...[...this.descrs.values()].map(d => d.minRefMcSeqno));
        chain.minRefMcSeqno = minRefMcSeqno;
        // What the special message took out of the validators' fees (TON: total_validator_fees -= recovered).
        chain.totalValidatorFees = addAmounts(addAmounts(chain.totalValidatorFees, feesCollected), grams(-recovered.grams));
        this.afterKeyBlock = keyBlock;
        this.lastKeyBefore = lastKeyBefore;
        const newState = this.shardState(chain, input.utime, input.endLt, this.mcStateExtra(keyBlock, lastKeyBefore), seqno);
        const stateUpdate = this.replaceState(chain, newState);
        const info = blockInfoCell({
            workchain: -1, shard: ROOT_SHARD, seqno, keyBlock, genUtime: input.utime, startLt: input.startLt, endLt: input.endLt,
            genValidatorListHashShort: this.validatorListHash(chain.catchainSeqno),
            genCatchainSeqno: chain.catchainSeqno, minRefMcSeqno, prevKeyBlockSeqno,
            genSoftware: this.genSoftware(), prev: previous,
        });
        const valueFlow = valueFlowCell({
            fromPrevBlk: body.fromPrev, toNextBlk: body.toNext, imported: body.imported, exported: body.exported,
            feesCollected, burned, feesImported, recovered, created, minted: ZERO,
        });
        const mcExtra = mcBlockExtraCell(new Map([[0, this.descrs]]), builder => shardFees.storeAugE(builder),
            keyBlock ? { configAddress: this.params.configAddress, config: this.config } : undefined,
            { recoverCreateMsg: body.recoverCreateMsg });
        const extra = blockExtraCell({
            inMsgDescr: body.inMsgDescr, outMsgDescr: body.outMsgDescr, accountBlocks: body.accountBlocks,
            randSeed: input.randSeed, createdBy: input.createdBy, mcExtra,
        });
        const produced = this.seal(chain, seqno, input, blockCell(this.params.globalId, info, valueFlow, stateUpdate, extra));
        if (keyBlock) this.lastKeyBlock = { ...chain.last };
        return { ...produced, isKeyBlock: keyBlock };
    }

    private seal(chain: ShardChain, seqno: number, input: StepInput, root: Cell): ProducedBlock {
        const boc = writeBoc(root, { dedupeByHash: true });
        const fileHash = sha256(boc);
        chain.lastUtime = input.utime;
        chain.last = { endLt: input.endLt, seqno, rootHash: root.hash(), fileHash };
        return {
            id: { workchain: chain.workchain, shard: formatShard(chain.shard), seqno, rootHash: root.hash().toString('hex'), fileHash: fileHash.toString('hex') },
            boc, utime: input.utime, startLt: input.startLt, endLt: input.endLt, isKeyBlock: false,
        };
    }

    private rotatedCatchain(current: number, previousUtime: number, utime: number, lifetime: number): number {
        return Math.floor(utime / lifetime) > Math.floor(previousUtime / lifetime) ? current + 1 : current;
    }

    private genSoftware() {
        return this.hasCapability(CAP_REPORT_VERSION) ? { version: this.params.version, capabilities: this.params.capabilities } : undefined;
    }

    /** The new state replaces the old in the census; the Merkle update between them. */
    private replaceState(chain: ShardChain, state: Cell): Cell {
        const old = chain.state;
        chain.census.add(state);
        chain.census.remove(old);
        chain.state = state;
        return merkleUpdate(old, state, cellKey => chain.census.hasKey(cellKey));
    }

    private shardState(chain: ShardChain, utime: number, genLt: bigint, mcExtra: Cell | undefined, seqno = 0): Cell {
        const storeQueueSize = this.hasCapability(CAP_STORE_OUT_MSG_QUEUE_SIZE);
        const accounts = cellBuilder();
        chain.accounts.storeAugE(accounts);
        return shardStateCell({
            globalId: this.params.globalId, workchain: chain.workchain, shard: chain.shard, seqno, genUtime: utime, genLt, minRefMcSeqno: chain.minRefMcSeqno,
            accounts: accounts.endCell(), totalBalance: chain.accounts.extra().balance, totalValidatorFees: chain.totalValidatorFees,
            libraries: chain.workchain === -1 ? this.libraries : null,
            masterRef: chain.masterRef, beforeSplit: chain.beforeSplit,
            mcExtra, storeQueueSize,
            outMsgQueueInfo: chain.queue.size > 0 || chain.processed.size > 0
                ? outMsgQueueInfoCell(chain.queue.size > 0 ? chain.queue : null, [...chain.processed.values()], storeQueueSize) : undefined,
        });
    }

    private mcStateExtra(keyBlock: boolean, lastKeyBlock?: ExtBlkRefFields): Cell {
        return mcStateExtraCell({
            shards: new Map([[0, this.descrs]]),
            config: { configAddress: this.params.configAddress, config: this.config },
            validatorListHashShort: this.validatorListHash(0),
            catchainSeqno: this.masterchain.catchainSeqno,
            storePrevBlocks: builder => this.prevBlocks.storeAugE(builder),
            afterKeyBlock: keyBlock,
            lastKeyBlock,
            globalBalance: this.globalBalance,
        });
    }

    /**
     * The account blocks, message descriptors and account changes of one shard's part of the step,
     * with the sums its value flow needs. Applies the account changes to the shard's dictionary.
     */
    /** Who sent each internal message of the step, which were delivered, their metadata; computed once per step. */
    private stepMessages(input: StepInput): StepMessages {
        const senders = new Map<string, ExecutedTransaction>();
        const metadata = new Map<string, MsgMetadata>();
        const receivers = new Set<string>();
        const outMessages = new Map<ExecutedTransaction, Array<{ cell: Cell; hash: string; message: Message }>>();
        const withMetadata = this.hasCapability(CAP_MSG_METADATA);
        for (const tx of input.transactions) {
            const inHash = tx.parsed.inMessage ? messageCellOf(tx.cell).hash().toString('hex') : undefined;
            if (inHash) receivers.add(inHash);
            const parent = inHash ? metadata.get(inHash) : undefined;
            const own: MsgMetadata | undefined = !withMetadata ? undefined : parent ? { ...parent, depth: parent.depth + 1 }
                : { depth: 0, initiator: new Address(tx.workchain, bigintBuffer(tx.parsed.address)), initiatorLt: tx.parsed.lt };
            // The out_msgs dictionary is keyed 0..n-1 in order, as @ton/core's reading of it.
            const parsed = [...tx.parsed.outMessages.values()];
            const outs = tx.outMessages.map((cell, i) => ({ cell, hash: cell.hash().toString('hex'), message: parsed[i] ?? messageOf(cell) }));
            outMessages.set(tx, outs);
            for (const out of outs) {
                senders.set(out.hash, tx);
                if (own) metadata.set(out.hash, own);
            }
        }
        return { senders, metadata, receivers, outMessages };
    }

    private blockBody(chain: ShardChain, input: StepInput, messages: StepMessages) {
        const workchain = chain.workchain;
        const fromPrev = chain.accounts.extra().balance;
        const transactions = input.transactions.filter(tx => tx.workchain === workchain && shardHoldsAccount(chain.shard, tx.parsed.address));
        const { senders, metadata, receivers, outMessages } = messages;

        const inMsgs = new AugmentedDict(IN_MSG_DESCR);
        const outMsgs = new AugmentedDict(OUT_MSG_DESCR);
        if (workchain === 0) this.dequeueImported(chain, outMsgs);
        let recoverCreateMsg: Cell | undefined;
        const byAccount = new Map<bigint, ExecutedTransaction[]>();
        for (const tx of transactions) {
            const list = byAccount.get(tx.parsed.address) ?? [];
            list.push(tx);
            byAccount.set(tx.parsed.address, list);
            const inMessage = tx.parsed.inMessage;
            if (inMessage) {
                const cell = messageCellOf(tx.cell);
                const key = BigInt(`0x${cell.hash().toString('hex')}`);
                if (inMessage.info.type === 'external-in') {
                    inMsgs.set(key, importExternal(cell, tx.cell));
                } else if (inMessage.info.type === 'internal') {
                    const hash = cell.hash().toString('hex');
                    const fwdFee = inMessage.info.forwardFee;
                    const sender = senders.get(hash);
                    if (workchain === -1 && hash === input.recoverCreateMsg?.hash) {
                        // The collator's own message: made and delivered in this block (msg_import_imm, no fee);
                        // its value is the block's `recovered`, not an import.
                        const imported = importImmediate(envelopeCell(cell, { current: 96, next: 96 }, 0n), tx.cell, 0n);
                        inMsgs.set(key, imported);
                        recoverCreateMsg = imported.cell;
                    } else if (this.queued.has(hash)) {
                        inMsgs.set(key, this.importQueued(chain, hash, tx.cell, fwdFee, carriedBy(inMessage, fwdFee), input.endLt));
                    } else if (sender && sender.workchain === workchain) {
                        const envelope = envelopeCell(cell, { current: 96, next: 96 }, fwdFee, metadata.get(hash));
                        const imported: DescribedInMsg = importImmediate(envelope, tx.cell, fwdFee);
                        inMsgs.set(key, imported);
                        outMsgs.set(key, exportImmediate(envelope, sender.cell, imported.cell));
                    } else {
                        const envelope = envelopeCell(cell, crossRoute(), fwdFee, metadata.get(hash));
                        inMsgs.set(key, importFinal(envelope, tx.cell, fwdFee, carriedBy(inMessage, fwdFee)));
                    }
                }
            }
            for (const { cell: out, hash, message } of outMessages.get(tx)!) {
                const key = BigInt(`0x${hash}`);
                if (message.info.type === 'external-out') {
                    outMsgs.set(key, exportExternal(out, tx.cell));
                    continue;
                }
                if (message.info.type !== 'internal') continue;
                const dest = message.info.dest;
                const destId = bufferBigint(dest.hash);
                const otherShard = dest.workChain === workchain && workchain === 0 && !shardHoldsAccount(chain.shard, destId);
                const deliveredHere = dest.workChain === workchain && !otherShard && receivers.has(hash);
                if (deliveredHere) continue; // described with its import (msg_export_imm)
                const route: Route = otherShard ? hypercubeRoute(chain.shard)
                    : dest.workChain === workchain ? { current: 96, next: 96 } : crossRoute();
                const envelope = envelopeCell(out, route, message.info.forwardFee, metadata.get(hash));
                const described: DescribedOutMsg = exportNew(envelope, tx.cell, carriedBy(message, message.info.forwardFee));
                outMsgs.set(key, described);
                if (otherShard) this.enqueue(chain, hash, envelope, message.info.createdLt, tx.parsed.address, destId, route);
            }
        }

        const accountBlocks = new AugmentedDict(SHARD_ACCOUNT_BLOCKS);
        for (const [address, list] of byAccount) {
            const txs = new AugmentedDict(ACCOUNT_TRANSACTIONS);
            for (const tx of list) txs.set(tx.parsed.lt, { cell: tx.cell, totalFees: amountsOf(tx.parsed.totalFees) });
            const first = list[0].parsed.stateUpdate;
            const last = list[list.length - 1].parsed.stateUpdate;
            // update_hashes#72 {X:Type} old_hash:bits256 new_hash:bits256 = HASH_UPDATE X;
            const hashUpdate = cellBuilder().storeUint(0x72, 8).storeBuffer(first.oldHash).storeBuffer(last.newHash).endCell();
            // acc_trans#5 account_addr:bits256 transactions:(HashmapAug 64 ^Transaction CurrencyCollection) state_update:^(HASH_UPDATE Account)
            const cell = cellBuilder().storeUint(5, 4).storeUint(address, 256).storeSlice(txs.rootCell()!.beginParse()).storeRef(hashUpdate).endCell();
            accountBlocks.set(address, { cell, fees: txs.extra() });
        }

        for (const change of input.accounts) {
            if (change.workchain !== workchain || !shardHoldsAccount(chain.shard, change.id)) continue;
            if (change.shardAccount) chain.accounts.set(change.id, { cell: change.shardAccount, balance: change.balance });
            else chain.accounts.delete(change.id);
        }

        const store = (dict: { storeAugE(builder: Builder): void }) => {
            const builder = cellBuilder();
            dict.storeAugE(builder);
            return builder.endCell();
        };
        const inExtra = inMsgs.extra();
        return {
            fromPrev,
            toNext: chain.accounts.extra().balance,
            imported: inExtra.valueImported,
            importFees: inExtra.feesCollected,
            exported: outMsgs.extra(),
            transactionFees: accountBlocks.extra(),
            inMsgDescr: store(inMsgs),
            outMsgDescr: store(outMsgs),
            accountBlocks: store(accountBlocks),
            recoverCreateMsg,
        };
    }
}

/** The devnet's shards have at most this many prefix bits (16 shards): every message between them then takes one hop. */
const MAX_SPLIT_DEPTH = Math.log2(MAX_DEVNET_SHARDS);

/** A shard's half of its parent's amounts: the left child floor(x/2), the right ceil(x/2). */
function halved(amounts: Amounts, side: 'left' | 'right'): Amounts {
    const half = (value: bigint) => (value + (side === 'right' ? 1n : 0n)) >> 1n;
    return { grams: half(amounts.grams), extra: new Map([...amounts.extra].map(([id, value]) => [id, half(value)])) };
}

/**
 * A message to another shard of the workchain, as the hypercube routing of TON's collators sends it
 * from `shard`: it sits at the sender (cur_addr: the destination's workchain, the sender's address)
 * and goes to the address made of the destination's first 4 bits and the sender's rest (next_addr),
 * which for shards of up to 4 prefix bits lies in the destination's shard.
 */
function hypercubeRoute(shard: bigint): Route {
    if (shardPrefixBits(shard) > MAX_SPLIT_DEPTH) throw new Error(`the devnet routes messages between shards of at most ${MAX_SPLIT_DEPTH} prefix bits, not ${formatShard(shard)}`);
    return { current: 32, next: 36 };
}

/** The first 64 bits of the next hop's address for a route of `useDestBits` (of workchain 32 + address 64). */
function nextHopPrefix(source: bigint, destination: bigint, useDestBits: number): bigint {
    const fromDestination = BigInt(Math.max(0, Math.min(64, useDestBits - 32)));
    if (fromDestination === 0n) return source;
    const mask = ((1n << fromDestination) - 1n) << (64n - fromDestination);
    return (destination & mask) | (source & ~mask & ((1n << 64n) - 1n));
}

function bufferBigint(buffer: Buffer): bigint {
    return BigInt(`0x${buffer.toString('hex')}`);
}

/** The raw destination of an internal message cell. */
function messageDestination(message: Cell): string {
    const info = loadMessage(message.beginParse()).info;
    if (info.type !== 'internal') throw new Error('a queued message is not an internal one');
    return info.dest.toRawString();
}

/** The basechain's shards as saved (a chain saved before it had several saved its one shard as `basechain`). */
function savedShards(heads: CollatorHeads): SavedShard[] {
    if (heads.shards) return heads.shards;
    if (!heads.basechain || !heads.basechainDescr) throw new Error('the devnet\'s saved heads name no basechain shard');
    return [{ ...heads.basechain, shard: formatShard(ROOT_SHARD), descr: heads.basechainDescr, queue: [], processed: [] }];
}

function saveDescr(d: ShardDescrFields): SavedDescr {
    return {
        ...saveRef(d), regMcSeqno: d.regMcSeqno, startLt: d.startLt.toString(), catchainSeqno: d.nextCatchainSeqno,
        minRefMcSeqno: d.minRefMcSeqno, utime: d.genUtime, feesCollected: saveAmounts(d.feesCollected), fundsCreated: saveAmounts(d.fundsCreated),
        beforeSplit: d.beforeSplit || undefined, splitMergeAt: d.splitMergeAt?.kind === 'none' ? undefined : d.splitMergeAt,
    };
}

function loadDescr(d: SavedDescr, shard: bigint): ShardDescrFields {
    return {
        seqno: d.seqno, regMcSeqno: d.regMcSeqno, startLt: BigInt(d.startLt), endLt: BigInt(d.endLt),
        rootHash: Buffer.from(d.rootHash, 'hex'), fileHash: Buffer.from(d.fileHash, 'hex'), nextCatchainSeqno: d.catchainSeqno,
        nextValidatorShard: shard, minRefMcSeqno: d.minRefMcSeqno, genUtime: d.utime,
        feesCollected: loadAmounts(d.feesCollected), fundsCreated: loadAmounts(d.fundsCreated),
        beforeSplit: d.beforeSplit, splitMergeAt: d.splitMergeAt,
    };
}

/** A restarted chain's saved accounts: each workchain's in id order, and about how many there are. */
export interface ShardAccountsSaved {
    of(workchain: number): Iterable<AccountChange>;
    count(workchain: number): number;
}

/**
 * How many top bits of an account id name its region in a shard of `size` accounts (regions of about
 * REGION_ACCOUNTS), never fewer than the shard's prefix: a region lies within one shard.
 */
function regionBits(size: number, shard: bigint): number {
    return Math.max(shardPrefixBits(shard), size <= REGION_ACCOUNTS ? 0 : Math.floor(Math.log2(size / REGION_ACCOUNTS)));
}



/** Between the masterchain and the basechain: from the source (0) straight to the destination (96). */
function crossRoute(): Route {
    return { current: 0, next: 96 };
}

/** What a message carries out of its sender's shard: its value and the forwarding fee still to pay. */
function carriedBy(message: Message, fwdFee: bigint): Amounts {
    if (message.info.type !== 'internal') return ZERO;
    return addAmounts(amountsOf(message.info.value), grams(fwdFee));
}

/** The in_msg cell of a transaction: `^[ in_msg:(Maybe ^(Message Any)) out_msgs:(HashmapE 15 ^(Message Any)) ]`. */
function messageCellOf(transaction: Cell): Cell {
    return transaction.refs[0].beginParse().loadRef();
}

function messageOf(cell: Cell): Message {
    return loadMessage(cell.beginParse());
}

function saveRef(ref: ExtBlkRefFields): SavedRef {
    return { seqno: ref.seqno, endLt: ref.endLt.toString(), rootHash: ref.rootHash.toString('hex'), fileHash: ref.fileHash.toString('hex') };
}

function loadRef(ref: SavedRef): ExtBlkRefFields & { seqno: number } {
    return { seqno: ref.seqno, endLt: BigInt(ref.endLt), rootHash: Buffer.from(ref.rootHash, 'hex'), fileHash: Buffer.from(ref.fileHash, 'hex') };
}

function saveAmounts(amounts: Amounts): SavedAmounts {
    return { grams: amounts.grams.toString(), extra: Object.fromEntries([...amounts.extra].map(([id, amount]) => [String(id), amount.toString()])) };
}

function loadAmounts(saved: SavedAmounts): Amounts {
    const extra = new Map(Object.entries(saved.extra).map(([id, amount]) => [Number(id), BigInt(amount)]));
    return extra.size === 0 ? grams(BigInt(saved.grams)) : { grams: BigInt(saved.grams), extra };
}

function bigintBuffer(value: bigint): Buffer {
    return Buffer.from(value.toString(16).padStart(64, '0'), 'hex');
}

function sha256(data: Buffer): Buffer {
    return createHash('sha256').update(data).digest();
}
