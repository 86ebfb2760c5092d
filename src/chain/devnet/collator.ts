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
    ACCOUNT_TRANSACTIONS, type DescribedInMsg, type DescribedOutMsg, envelopeCell, exportExternal, exportImmediate, exportNew,
    importExternal, importFinal, importImmediate, IN_MSG_DESCR, type MsgMetadata, OLD_MC_BLOCKS, OUT_MSG_DESCR, type Route,
    SHARD_ACCOUNT_BLOCKS, SHARD_ACCOUNTS, SHARD_FEES, shardFeesKey, type ShardAccountEntry,
} from '../../ton/block/store-descriptors.ts';
import { libraryDescriptors, mcStateExtraCell, shardStateCell } from '../../ton/block/store-state.ts';
import { ROOT_SHARD } from '../../ton/block/shard-id.ts';
import type { BlockIdExt } from '../../ton/block-id.ts';
import type { ExecutedTransaction } from './tvm-chain.ts';
import {
    CAP_MSG_METADATA, CAP_REPORT_VERSION, CAP_STORE_OUT_MSG_QUEUE_SIZE, productionParams, type ProductionParams, validatorSetHashShort,
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

/** What a restarted collator continues from, besides the accounts, the config and the previous masterchain blocks. */
export interface CollatorHeads {
    basechain: SavedChain & { masterRef?: SavedRef };
    masterchain: SavedChain & { afterKeyBlock: boolean; lastKeyBefore?: SavedRef };
    lastKeyBlock: SavedRef;
    globalBalance: SavedAmounts;
    basechainDescr: SavedRef & { regMcSeqno: number; startLt: string; catchainSeqno: number; minRefMcSeqno: number; utime: number; feesCollected: SavedAmounts; fundsCreated: SavedAmounts };
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
    private basechain!: ShardChain;
    private masterchain!: ShardChain;
    private prevBlocks = new AugmentedDict(OLD_MC_BLOCKS);
    private globalBalance: Amounts = ZERO;
    private lastKeyBlock!: ExtBlkRefFields & { seqno: number };
    private configHash = '';
    private basechainDescr!: ShardDescrFields;
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
    private newAccounts(workchain: number, census: CellCensus): ShardAccounts {
        const options = this.options;
        if (!options) return new AugmentedDict(SHARD_ACCOUNTS);
        const source: SubtreeSource<ShardAccountEntry> = {
            entries: function* (prefix, bits) {
                for (const change of options.accountsUnder(workchain, prefix, bits)) {
                    if (change.shardAccount) yield [change.id, { cell: change.shardAccount, balance: change.balance }];
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

    private newChain(workchain: number, accounts: Iterable<AccountChange>, expected: number): ShardChain {
        const census = new CellCensus();
        const chain: ShardChain = {
            workchain, accounts: this.newAccounts(workchain, census), recent: new RecentRegions(regionBits(expected)), census, state: cellBuilder().endCell(),
            totalValidatorFees: ZERO, last: undefined!, catchainSeqno: 0, lastUtime: 0, minRefMcSeqno: 0,
        };
        // Accounts come in id order on a restart: every region left behind is complete and goes out of memory as the fill goes on.
        const evicting = this.restoring && this.options !== undefined && expected > this.options.recentAccounts;
        const shift = BigInt(256 - chain.recent.bits);
        const behind: bigint[] = [];
        let last: bigint | undefined;
        for (const change of accounts) {
            if (change.workchain !== workchain || !change.shardAccount) continue;
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
        const bits = regionBits(chain.accounts.size);
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
            const chain = this.newChain(workchain, input.accounts, input.accounts.filter(a => a.workchain === workchain).length);
            chain.lastUtime = input.utime;
            return chain;
        };
        this.basechain = makeChain(0);
        this.masterchain = makeChain(-1);
        this.basechain.masterRef = undefined;
        const basechainState = this.shardState(this.basechain, input.utime, 0n, undefined);
        this.basechain.state = basechainState;
        this.basechain.census.add(basechainState);
        const basechainBoc = writeBoc(basechainState, { dedupeByHash: true });
        this.basechain.last = { endLt: 0n, seqno: 0, rootHash: basechainState.hash(), fileHash: sha256(basechainBoc) };
        this.basechainDescr = {
            seqno: 0, regMcSeqno: 0, startLt: 0n, endLt: 0n, rootHash: basechainState.hash(), fileHash: sha256(basechainBoc),
            nextCatchainSeqno: 0, nextValidatorShard: ROOT_SHARD, minRefMcSeqno: 0, genUtime: input.utime, feesCollected: ZERO, fundsCreated: ZERO,
        };
        this.globalBalance = addAmounts(this.basechain.accounts.extra().balance, this.masterchain.accounts.extra().balance);
        const masterState = this.shardState(this.masterchain, input.utime, 0n, this.mcStateExtra(false));
        this.masterchain.state = masterState;
        this.masterchain.census.add(masterState);
        const masterBoc = writeBoc(masterState, { dedupeByHash: true });
        this.masterchain.last = { endLt: 0n, seqno: 0, rootHash: masterState.hash(), fileHash: sha256(masterBoc) };
        this.lastKeyBlock = { ...this.masterchain.last };
        const asBlock = (workchain: number, ref: ExtBlkRefFields, boc: Buffer) => ({
            id: { workchain, shard: '8000000000000000', seqno: 0, rootHash: ref.rootHash.toString('hex'), fileHash: ref.fileHash.toString('hex') },
            boc, stateBoc: boc, utime: input.utime, startLt: 0n, endLt: 0n, isKeyBlock: workchain === -1,
        });
        return { master: asBlock(-1, this.masterchain.last, masterBoc), basechain: asBlock(0, this.basechain.last, basechainBoc) };
    }

    /**
     * Takes a restarted chain back: its accounts, the config and libraries in force, the heads saved
     * with the last step and the masterchain blocks before the last. The states are rebuilt and must
     * hash as the saved ones, or the chain cannot go on from them.
     */
    restore(accounts: ShardAccountsSaved, heads: CollatorHeads, config: Cell, libraries: StepInput['libraries'], previous: PreviousMasterBlock[]): void {
        this.useConfig(config);
        this.libraries = libraryDescriptors(libraries);
        const makeChain = (workchain: number, saved: SavedChain & { masterRef?: SavedRef }): ShardChain => Object.assign(this.newChain(workchain, accounts.of(workchain), accounts.count(workchain)), {
            totalValidatorFees: loadAmounts(saved.totalValidatorFees), last: loadRef(saved.last), catchainSeqno: saved.catchainSeqno,
            lastUtime: saved.lastUtime, minRefMcSeqno: saved.minRefMcSeqno, masterRef: saved.masterRef ? loadRef(saved.masterRef) : undefined,
        });
        this.restoring = true;
        try {
            this.basechain = makeChain(0, heads.basechain);
            this.masterchain = makeChain(-1, heads.masterchain);
        } finally {
            this.restoring = false;
        }
        this.lastKeyBlock = loadRef(heads.lastKeyBlock);
        this.globalBalance = loadAmounts(heads.globalBalance);
        const d = heads.basechainDescr;
        this.basechainDescr = {
            seqno: d.seqno, regMcSeqno: d.regMcSeqno, startLt: BigInt(d.startLt), endLt: BigInt(d.endLt),
            rootHash: Buffer.from(d.rootHash, 'hex'), fileHash: Buffer.from(d.fileHash, 'hex'), nextCatchainSeqno: d.catchainSeqno,
            nextValidatorShard: ROOT_SHARD, minRefMcSeqno: d.minRefMcSeqno, genUtime: d.utime,
            feesCollected: loadAmounts(d.feesCollected), fundsCreated: loadAmounts(d.fundsCreated),
        };
        this.prevBlocks = new AugmentedDict(OLD_MC_BLOCKS);
        for (const block of previous) this.prevBlocks.set(BigInt(block.seqno), { key: block.key, ref: loadRef(block) });
        this.afterKeyBlock = heads.masterchain.afterKeyBlock;
        this.lastKeyBefore = heads.masterchain.lastKeyBefore ? loadRef(heads.masterchain.lastKeyBefore) : undefined;
        const rebuild = (chain: ShardChain, saved: SavedChain, mcExtra?: Cell) => {
            const state = this.shardState(chain, chain.lastUtime, chain.last.endLt, mcExtra, chain.last.seqno);
            if (state.hash().toString('hex') !== saved.stateHash) {
                throw new Error(`the devnet's ${chain.workchain === -1 ? 'masterchain' : 'basechain'} state rebuilt from its chain log does not match the state of its last block `
                    + `(${chain.last.seqno}); the chain log is inconsistent and the devnet cannot continue it`);
            }
            chain.state = state;
            chain.census.add(state);
        };
        rebuild(this.basechain, heads.basechain);
        rebuild(this.masterchain, heads.masterchain, this.mcStateExtra(this.afterKeyBlock, this.lastKeyBefore));
    }

    /** What `restore` needs besides accounts, config, libraries and previous blocks; saved with every step. */
    heads(): CollatorHeads {
        const saveChain = (chain: ShardChain): SavedChain => ({
            last: saveRef(chain.last), catchainSeqno: chain.catchainSeqno, lastUtime: chain.lastUtime,
            totalValidatorFees: saveAmounts(chain.totalValidatorFees), minRefMcSeqno: chain.minRefMcSeqno, stateHash: chain.state.hash().toString('hex'),
        });
        const d = this.basechainDescr;
        return {
            basechain: { ...saveChain(this.basechain), masterRef: this.basechain.masterRef ? saveRef(this.basechain.masterRef) : undefined },
            masterchain: { ...saveChain(this.masterchain), afterKeyBlock: this.afterKeyBlock, lastKeyBefore: this.lastKeyBefore ? saveRef(this.lastKeyBefore) : undefined },
            lastKeyBlock: saveRef(this.lastKeyBlock),
            globalBalance: saveAmounts(this.globalBalance),
            basechainDescr: {
                ...saveRef(d), regMcSeqno: d.regMcSeqno, startLt: d.startLt.toString(), catchainSeqno: d.nextCatchainSeqno,
                minRefMcSeqno: d.minRefMcSeqno, utime: d.genUtime, feesCollected: saveAmounts(d.feesCollected), fundsCreated: saveAmounts(d.fundsCreated),
            },
        };
    }

    /** Produces the basechain block and the masterchain block of one step. */
    step(input: StepInput): [ProducedBlock, ProducedBlock] {
        // The first block after the zerostates is a key block carrying the config, so an index has it from its first block.
        const keyBlock = this.useConfig(input.config) || this.masterchain.last.seqno === 0;
        this.libraries = libraryDescriptors(input.libraries);
        const messages = this.stepMessages(input);
        const shardCells = this.shardBlock(this.basechain, input, messages);
        const masterCells = this.masterBlock(input, messages, shardCells, keyBlock);
        for (const chain of [this.basechain, this.masterchain]) this.keepRecent(chain, input.accounts.filter(a => a.workchain === chain.workchain).map(a => a.id));
        return [shardCells.produced, masterCells];
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
            workchain: chain.workchain, shard: ROOT_SHARD, seqno, keyBlock: false, genUtime: input.utime,
            startLt: input.startLt, endLt: input.endLt,
            genValidatorListHashShort: this.validatorListHash(chain.catchainSeqno),
            genCatchainSeqno: chain.catchainSeqno, minRefMcSeqno, prevKeyBlockSeqno: this.lastKeyBlock.seqno,
            genSoftware: this.genSoftware(), masterRef, prev: chain.last,
        });
        const valueFlow = valueFlowCell({
            fromPrevBlk: body.fromPrev, toNextBlk: body.toNext, imported: body.imported, exported: body.exported,
            feesCollected, burned: ZERO, feesImported: ZERO, recovered: ZERO, created, minted: ZERO,
        });
        const extra = blockExtraCell({ inMsgDescr: body.inMsgDescr, outMsgDescr: body.outMsgDescr, accountBlocks: body.accountBlocks, randSeed: input.randSeed, createdBy: input.createdBy });
        const produced = this.seal(chain, seqno, input, blockCell(this.params.globalId, info, valueFlow, stateUpdate, extra));
        this.basechainDescr = {
            seqno, regMcSeqno: this.masterchain.last.seqno + 1, startLt: input.startLt, endLt: input.endLt,
            rootHash: chain.last.rootHash, fileHash: chain.last.fileHash, nextCatchainSeqno: chain.catchainSeqno, nextValidatorShard: ROOT_SHARD,
            minRefMcSeqno, genUtime: input.utime, feesCollected, fundsCreated: created,
        };
        return { produced, feesCollected, created };
    }

    private masterBlock(input: StepInput, messages: StepMessages, shard: { feesCollected: Amounts; created: Amounts }, keyBlock: boolean): ProducedBlock {
        const chain = this.masterchain;
        const seqno = chain.last.seqno + 1;
        const created = grams(this.params.masterchainBlockFee);
        const body = this.blockBody(chain, input, messages);
        const shardFees = new AugmentedDict(SHARD_FEES);
        shardFees.set(shardFeesKey(0, ROOT_SHARD), { fees: shard.feesCollected, create: shard.created });
        const feesImported = shard.feesCollected;
        const burnedImported = this.params.burn(feesImported.grams - shard.created.grams);
        const ownFees = body.transactionFees.grams + body.importFees;
        const burnedOwn = this.params.burn(ownFees);
        const feesCollected = addAmounts(addAmounts(feesImported, grams(-burnedImported)), addAmounts(created, addAmounts(body.transactionFees, grams(body.importFees - burnedOwn))));
        const burned = grams(burnedImported + burnedOwn);
        const recovered = input.recoverCreateMsg && body.recoverCreateMsg ? grams(input.recoverCreateMsg.value) : ZERO;
        this.globalBalance = addAmounts(this.globalBalance, addAmounts(created, shard.created));

        const previous = chain.last;
        const previousIsKey = previous.seqno === this.lastKeyBlock.seqno;
        this.prevBlocks.set(BigInt(previous.seqno), { key: previousIsKey, ref: previous });
        const prevKeyBlockSeqno = this.lastKeyBlock.seqno;
        const lastKeyBefore = this.lastKeyBlock;
        chain.catchainSeqno = keyBlock ? chain.catchainSeqno + 1 : this.rotatedCatchain(chain.catchainSeqno, chain.lastUtime, input.utime, this.params.mcCatchainLifetime);
        const minRefMcSeqno = Math.min(seqno, this.basechainDescr.minRefMcSeqno);
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
        const mcExtra = mcBlockExtraCell(new Map([[0, this.basechainDescr]]), builder => shardFees.storeAugE(builder),
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
            id: { workchain: chain.workchain, shard: '8000000000000000', seqno, rootHash: root.hash().toString('hex'), fileHash: fileHash.toString('hex') },
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
        const accounts = cellBuilder();
        chain.accounts.storeAugE(accounts);
        return shardStateCell({
            globalId: this.params.globalId, workchain: chain.workchain, shard: ROOT_SHARD, seqno, genUtime: utime, genLt, minRefMcSeqno: chain.minRefMcSeqno,
            accounts: accounts.endCell(), totalBalance: chain.accounts.extra().balance, totalValidatorFees: chain.totalValidatorFees,
            libraries: chain.workchain === -1 ? this.libraries : null,
            masterRef: chain.masterRef,
            mcExtra, storeQueueSize: this.hasCapability(CAP_STORE_OUT_MSG_QUEUE_SIZE),
        });
    }

    private mcStateExtra(keyBlock: boolean, lastKeyBlock?: ExtBlkRefFields): Cell {
        return mcStateExtraCell({
            shards: new Map([[0, this.basechainDescr]]),
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
        const transactions = input.transactions.filter(tx => tx.workchain === workchain);
        const { senders, metadata, receivers, outMessages } = messages;

        const inMsgs = new AugmentedDict(IN_MSG_DESCR);
        const outMsgs = new AugmentedDict(OUT_MSG_DESCR);
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
                const deliveredHere = message.info.dest.workChain === workchain && receivers.has(hash);
                if (deliveredHere) continue; // described with its import (msg_export_imm)
                const route: Route = message.info.dest.workChain === workchain ? { current: 96, next: 96 } : crossRoute();
                const envelope = envelopeCell(out, route, message.info.forwardFee, metadata.get(hash));
                const described: DescribedOutMsg = exportNew(envelope, tx.cell, carriedBy(message, message.info.forwardFee));
                outMsgs.set(key, described);
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
            if (change.workchain !== workchain) continue;
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

/** A restarted chain's saved accounts: each workchain's in id order, and about how many there are. */
export interface ShardAccountsSaved {
    of(workchain: number): Iterable<AccountChange>;
    count(workchain: number): number;
}

/** How many top bits of an account id name its region in a shard of `size` accounts (regions of about REGION_ACCOUNTS). */
function regionBits(size: number): number {
    return size <= REGION_ACCOUNTS ? 0 : Math.floor(Math.log2(size / REGION_ACCOUNTS));
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
