/**
 * The devnet's liteserver: the lite-API method table answered from the devnet's own storage. Block
 * BOCs come byte-identical from the chain log, states (accounts, config, shard hashes, libraries)
 * from the cell store, lookups by lt/utime/account from the block catalog, get-methods from the
 * real TVM. Proofs are Merkle proofs built from those cells (merkle-proof.ts).
 *
 * Wiring (serve):
 *   const lite = createDevnetLiteMethods({ dataDir, sink: devnetSource, produced: l => { … } });
 *   const server = await startLiteServer({ keyDir, port, methods: lite.methods,
 *       waitForMasterchainSeqno: lite.waitForMasterchainSeqno, onError });
 *   … on shutdown: await server.close(); lite.close();
 */
import { createHash } from 'node:crypto';
import Database from 'better-sqlite3';
import { Address, beginCell, Cell, Dictionary, loadAccount, loadCurrencyCollection, parseTuple, serializeTuple, type Account, type TupleItem } from '@ton/core';
import type { IExecutor } from '@ton/sandbox';
import type {
    liteServer_accountId,
    liteServer_accountState,
    liteServer_runMethodResult,
    liteServer_transactionId,
    tonNode_blockIdExt,
    tonNode_zeroStateIdExt,
} from 'ton-lite-client/dist/schema.js';
import { readBoc } from '../../ton/boc/boc-reader.ts';
import { writeBoc, writeBocRoots } from '../../ton/boc/boc-writer.ts';
import {
    blockHeaderProof, blockStateProof, configProof, findAccount, hashmapPath, merkleProof, stateConfig,
} from '../../ton/cells/merkle-proof.ts';
import { getSharedExecutor } from '../../ton/interfaces/get-method-runner.ts';
import { LiteErrorCode, LiteServerError } from '../lite-errors.ts';
import type { LiteMethods, LiteMethodTable } from '../lite-functions.ts';
import type { ListBlockTransactionsArgs } from '../tl/block-transactions.ts';
import { BlockCatalog, blockCatalogFile, type CatalogBlock, type CatalogTransaction } from './block-catalog.ts';
import { CellStore, cellStoreFile } from './cell-store.ts';
import { DictKeys } from '../../ton/cells/dict-keys.ts';
import { shardsOverlap } from '../../ton/block/shard-id.ts';

/** TON's liteserver version and capabilities (liteserver.hpp), answered by getVersion and getMasterchainInfoExt. */
export const LITE_VERSION = 0x101;
export const LITE_CAPABILITIES = 15;
/** Gas a get-method may use (TON liteserver runSmcMethod, per the protocol notes). */
export const RUN_METHOD_GAS_LIMIT = 300_000n;
/** waitMasterchainSeqno further ahead than this answers 651 at once instead of waiting. */
export const MAX_SEQNO_AHEAD = 1000;
const MAX_TRANSACTIONS_PER_LIST = 256;
const MAX_TRANSACTIONS_PER_WALK = 16;
const MAX_LIBRARIES = 16;
const MAX_PARAMS_BYTES = 65_536;
/** How long sendMessage waits for the devnet to accept or refuse a message before answering status 1. */
const SEND_ANSWER_WAIT_MS = 3_000;
const SEND_ERROR_PREFIX = 'cannot apply external message to current state : ';
const EMPTY: Buffer = Buffer.alloc(0);

export interface DevnetMessageSink {
    /** Executes an external-in message on the devnet; rejects when the devnet refuses it. DevnetSource fits. */
    sendExternalMessage(message: Cell): Promise<unknown>;
}

export interface DevnetLiteOptions {
    /** The service's data directory: the chain log is `<dataDir>/devnet/chain.sqlite`; the cell store and catalog go beside it. */
    dataDir: string;
    /** Default `<dataDir>/devnet/chain.sqlite`. */
    chainLogFile?: string;
    sink: DevnetMessageSink;
    /** Subscribes to "a block was committed" (wakes waitMasterchainSeqno at once); returns an unsubscribe. Optional: the log is polled too. */
    produced?: (listener: () => void) => () => void;
    /** Server time (seconds) for getTime & co; default the wall clock. */
    now?: () => number;
    /** The TVM for runSmcMethod; default the process-wide shared emulator. */
    executor?: IExecutor;
    /** How often waitMasterchainSeqno looks at the chain log without a `produced` signal; default 100 ms. */
    pollMs?: number;
}

export interface DevnetLiteServer {
    readonly methods: LiteMethodTable;
    /**
     * The account's cell (Account, with its tag) in the state after block `id`, or null if it does not
     * exist: what getAccountState answers, without the proofs a remote client checks (for readers in this process).
     */
    accountCell(id: tonNode_blockIdExt, account: liteServer_accountId): Cell | null;
    /** For startLiteServer: resolves true once masterchain block `seqno` is served, false after `timeoutMs`. */
    waitForMasterchainSeqno(seqno: number, timeoutMs: number): Promise<boolean>;
    /** Brings the cell store and catalog up to the chain log (done before every answer anyway). */
    sync(): void;
    close(): void;
}

const notFound = () => new LiteServerError(LiteErrorCode.notReady, 'block not found');

export function createDevnetLiteMethods(options: DevnetLiteOptions): DevnetLiteServer {
    const backend = new DevnetLiteBackend(options);
    return {
        methods: backend.methods(),
        accountCell: (id, account) => backend.accountCell(id, account),
        waitForMasterchainSeqno: (seqno, timeoutMs) => backend.waitForMasterchainSeqno(seqno, timeoutMs),
        sync: () => backend.sync(),
        close: () => backend.close(),
    };
}

// ---------------------------------------------------------------------------------------------
// Ids and shards

const ROOT_SHARD = 1n << 63n;

/** A shard id as TL `long` (signed decimal). */
export function tlShard(shard: bigint): string {
    return BigInt.asIntN(64, shard).toString();
}

function parseShard(shard: string): bigint {
    try {
        return BigInt.asUintN(64, BigInt(shard));
    } catch {
        throw new LiteServerError(LiteErrorCode.protoviolation, 'invalid shard');
    }
}

function blockIdOf(block: CatalogBlock): tonNode_blockIdExt {
    return { kind: 'tonNode.blockIdExt', workchain: block.workchain, shard: tlShard(block.shard), seqno: block.seqno, rootHash: block.rootHash, fileHash: block.fileHash };
}

/** Whether the account (its 256-bit id) lies in the shard. */
function shardContains(shard: bigint, accountId: Buffer): boolean {
    const lowest = shard & -shard;
    const mask = BigInt.asUintN(64, ~(lowest * 2n - 1n));
    return (accountId.readBigUInt64BE(0) & mask) === (shard & mask);
}


// ---------------------------------------------------------------------------------------------
// Cells of states and blocks

/** `masterchain_state_extra#cc26 shard_hashes:ShardHashes …`: the ShardHashes root (null when empty). */
function stateShardHashes(state: Cell): { extra: Cell; root: Cell | null } {
    const { extra } = stateConfig(state);
    const slice = extra.beginParse();
    slice.skip(16);
    return { extra, root: slice.loadMaybeRef() };
}

/** The path in a masterchain state to the shard tree leaf (ShardDescr) covering `shard` of `workchain`. */
function shardLeafPath(state: Cell, workchain: number, shard: bigint): { path: Cell[]; leaf: Cell; leafShard: bigint } | null {
    const { extra, root } = stateShardHashes(state);
    const found = hashmapPath(root, 32, BigInt(workchain));
    if (!found.leaf) return null;
    const path: Cell[] = [state, extra, ...found.path];
    let cell = found.leaf.loadRef();
    let leafShard = ROOT_SHARD;
    for (let depth = 0; ; depth++) {
        path.push(cell);
        const slice = cell.beginParse();
        if (!slice.loadBit()) return { path, leaf: cell, leafShard };
        const bit = Number((shard >> BigInt(62 - depth)) & 1n);
        const half = (leafShard & -leafShard) >> 1n;
        leafShard = bit ? leafShard + half : leafShard - half;
        cell = cell.refs[bit];
    }
}

/** The public libraries of a masterchain state: `^[ … libraries:(HashmapE 256 LibDescr) … ]`, the root (null when none). */
function stateLibraries(state: Cell): Cell | null {
    const slice = state.refs[2].beginParse();
    slice.skip(128);
    loadCurrencyCollection(slice);
    loadCurrencyCollection(slice);
    return slice.loadMaybeRef();
}

/** `shared_lib_descr$00 lib:^Cell publishers:(Hashmap 256 True)`: the library root of a LibDescr leaf. */
function libraryOf(librariesRoot: Cell | null, hash: Buffer): Cell | null {
    const found = hashmapPath(librariesRoot, 256, hash);
    if (!found.leaf) return null;
    found.leaf.skip(2);
    return found.leaf.loadRef();
}

/** `block_extra … rand_seed:bits256` of a block. */
function blockRandSeed(block: Cell): Buffer {
    const slice = block.refs[3].beginParse();
    slice.skip(32);
    return slice.loadBuffer(32);
}

const plainCells = new Map<string, Cell>();
/** A cell as a plain @ton/core cell (the TVM's serializer is given these, not the store's lazy ones); the last few are kept, by hash (get-methods run on the same code and data again and again). */
function plain(cell: Cell): Cell {
    const key = cell.hash(0).toString('hex');
    let found = plainCells.get(key);
    if (found) {
        plainCells.delete(key);
    } else {
        found = Cell.fromBoc(writeBoc(cell))[0];
        if (plainCells.size >= 32) plainCells.delete(plainCells.keys().next().value!);
    }
    plainCells.set(key, found);
    return found;
}

/** The block proof of the account-blocks dictionary with the given transactions pruned (listBlockTransactions want_proof). */
function blockTransactionsProof(block: Cell, transactionHashes: Set<string>): Cell {
    const extra = block.refs[3];
    const cells: Cell[] = [block, extra];
    const seen = new Set<string>();
    const visit = (cell: Cell) => {
        const key = cell.hash(0).toString('hex');
        if (seen.has(key) || transactionHashes.has(key)) return;
        seen.add(key);
        cells.push(cell);
        for (const ref of cell.refs) visit(ref);
    };
    visit(extra.refs[2]);
    return merkleProof(block, cells);
}

/** The block proof of one account's entry in the account blocks (its transactions whole), or of its absence. */
function accountBlockProof(block: Cell, accountId: Buffer): Cell {
    const extra = block.refs[3];
    const accountBlocks = extra.refs[2];
    const root = accountBlocks.beginParse().loadBit() ? accountBlocks.refs[0] : null;
    const found = hashmapPath(root, 256, accountId);
    const cells = [block, extra, accountBlocks, ...found.path];
    return merkleProof(block, { cells, subtrees: found.leafCell ? [found.leafCell] : [] });
}

/** The transaction's `prev_trans_hash:bits256 prev_trans_lt:uint64` (`transaction$0111 account_addr:bits256 lt:uint64 …`). */
function previousTransaction(tx: Cell): { hash: Buffer; lt: bigint } {
    const slice = tx.beginParse();
    slice.skip(4 + 256 + 64);
    return { hash: slice.loadBuffer(32), lt: slice.loadUintBig(64) };
}


// ---------------------------------------------------------------------------------------------

class DevnetLiteBackend {
    private readonly chainLogFile: string;
    private readonly chainLog: Database.Database;
    private readonly store: CellStore;
    private readonly catalog: BlockCatalog;
    private readonly now: () => number;
    private readonly executor: IExecutor;
    private readonly pollMs: number;
    private readonly unsubscribe: () => void;
    private readonly waiters = new Set<() => void>();
    private readonly blockCache = new Map<number, Cell>();
    private readonly maxSeq: Database.Statement<[], { seq: number | null }>;
    private readonly blockBoc: Database.Statement<[number], { boc: Buffer }>;
    private configCache: { hash: string; base64: string } | null = null;
    /** The chain log seq both the cell store and the catalog have reached (-1 before the first sync). */
    private syncedSeq = -1;
    private closed = false;

    constructor(private readonly options: DevnetLiteOptions) {
        this.chainLogFile = options.chainLogFile ?? `${options.dataDir}/devnet/chain.sqlite`;
        this.chainLog = new Database(this.chainLogFile, { readonly: true, fileMustExist: true });
        this.store = new CellStore(cellStoreFile(options.dataDir));
        this.catalog = new BlockCatalog(blockCatalogFile(options.dataDir));
        this.now = options.now ?? (() => Math.floor(Date.now() / 1000));
        this.executor = options.executor ?? getSharedExecutor();
        this.pollMs = options.pollMs ?? 100;
        this.maxSeq = this.chainLog.prepare('SELECT MAX(seq) AS seq FROM blocks');
        this.blockBoc = this.chainLog.prepare('SELECT boc FROM blocks WHERE seq = ?');
        this.unsubscribe = options.produced?.(() => this.wake()) ?? (() => {});
        this.sync();
    }

    close(): void {
        if (this.closed) return;
        this.closed = true;
        this.unsubscribe();
        this.wake();
        this.chainLog.close();
        this.store.close();
        this.catalog.close();
    }

    sync(): void {
        if (this.closed) return;
        const latest = this.maxSeq.get()?.seq ?? 0;
        // Every answer starts here: the position reached is kept, so a query on a synced store costs one lookup of the log's last seq.
        if (latest <= this.syncedSeq) return;
        if (latest > this.catalog.lastSeq || latest > this.store.lastSeq) {
            this.store.sync(this.chainLogFile);
            this.catalog.sync(this.chainLog, this.store.lastSeq);
        }
        this.syncedSeq = Math.min(this.catalog.lastSeq, this.store.lastSeq);
    }

    private wake(): void {
        for (const waiter of [...this.waiters]) waiter();
    }

    async waitForMasterchainSeqno(seqno: number, timeoutMs: number): Promise<boolean> {
        const reached = () => {
            this.sync();
            return (this.catalog.lastBlock(-1)?.seqno ?? 0) >= seqno;
        };
        if (reached()) return true;
        const last = this.catalog.lastBlock(-1)?.seqno ?? 0;
        if (seqno > last + MAX_SEQNO_AHEAD) throw new LiteServerError(LiteErrorCode.notReady, `masterchain seqno ${seqno} is too far in the future`);
        const deadline = Date.now() + timeoutMs;
        while (!this.closed && Date.now() < deadline) {
            await new Promise<void>(resolve => {
                const done = () => {
                    clearTimeout(timer);
                    this.waiters.delete(done);
                    resolve();
                };
                const timer = setTimeout(done, Math.min(this.pollMs, Math.max(0, deadline - Date.now())));
                this.waiters.add(done);
            });
            if (!this.closed && reached()) return true;
        }
        return false;
    }

    // -----------------------------------------------------------------------------------------
    // Lookups

    private lastMaster(): CatalogBlock {
        this.sync();
        const last = this.catalog.lastBlock(-1);
        if (!last) throw new LiteServerError(LiteErrorCode.notReady, 'node not synced');
        return last;
    }

    /** The catalogued block with exactly this id; 651 otherwise. */
    private resolve(id: tonNode_blockIdExt): CatalogBlock {
        this.sync();
        const block = this.catalog.block(id.workchain, parseShard(id.shard), id.seqno);
        if (!block || !block.rootHash.equals(id.rootHash) || !block.fileHash.equals(id.fileHash)) throw notFound();
        return block;
    }

    private resolveMaster(id: tonNode_blockIdExt): CatalogBlock {
        if (id.workchain !== -1) throw new LiteServerError(LiteErrorCode.error, 'block is not a masterchain block');
        return this.resolve(id);
    }

    private blockCell(block: CatalogBlock): Cell {
        const cached = this.blockCache.get(block.seq);
        if (cached) return cached;
        const row = this.blockBoc.get(block.seq);
        if (!row) throw notFound();
        const cell = readBoc(row.boc)[0];
        this.blockCache.set(block.seq, cell);
        if (this.blockCache.size > 64) this.blockCache.delete(this.blockCache.keys().next().value!);
        return cell;
    }

    private blockBocOf(block: CatalogBlock): Buffer {
        const row = this.blockBoc.get(block.seq);
        if (!row) throw notFound();
        return row.boc;
    }

    private stateAfter(block: CatalogBlock): Cell {
        const state = this.store.stateAfter(block.rootHash);
        if (!state) throw notFound();
        return state;
    }

    private zerostate(): tonNode_zeroStateIdExt {
        const row = this.chainLog.prepare('SELECT root_hash, file_hash FROM zerostates WHERE workchain = -1').get() as { root_hash: string; file_hash: string } | undefined;
        if (!row) throw new LiteServerError(LiteErrorCode.notReady, 'node not synced');
        return { kind: 'tonNode.zeroStateIdExt', workchain: -1, rootHash: Buffer.from(row.root_hash, 'hex'), fileHash: Buffer.from(row.file_hash, 'hex') };
    }

    /** The proof that masterchain block `master` commits the shard leaf covering `shard`: [header proof to its state, state proof of the leaf]. */
    private shardProof(master: CatalogBlock, workchain: number, shard: bigint): { proof: Buffer; leaf: Cell; leafShard: bigint } | null {
        const state = this.stateAfter(master);
        const found = shardLeafPath(state, workchain, shard);
        if (!found) return null;
        const proof = writeBocRoots([blockStateProof(this.blockCell(master)), merkleProof(state, { cells: found.path, subtrees: [found.leaf] })]);
        return { proof, leaf: found.leaf, leafShard: found.leafShard };
    }

    /**
     * The block whose state holds the account: the block asked for when the account is in its shard;
     * for a basechain account asked at a masterchain block, the shard block that block commits.
     */
    private accountBlock(id: tonNode_blockIdExt, account: liteServer_accountId): { block: CatalogBlock; shardBlock: CatalogBlock; shardProof: Buffer } {
        if (account.id.length !== 32) throw new LiteServerError(LiteErrorCode.protoviolation, 'invalid account id');
        const block = this.resolve(id);
        if (account.workchain === block.workchain) {
            if (!shardContains(block.shard, account.id)) throw new LiteServerError(LiteErrorCode.error, 'the account is not in the shard of this block');
            return { block, shardBlock: block, shardProof: EMPTY };
        }
        if (block.workchain !== -1) throw new LiteServerError(LiteErrorCode.error, 'the account is not in the workchain of this block');
        const committed = this.catalog.committedShards(block.seqno, account.workchain).find(s => shardContains(s.shard, account.id));
        if (!committed) throw new LiteServerError(LiteErrorCode.error, `no shard of workchain ${account.workchain} at this block`);
        const shardBlock = this.catalog.block(account.workchain, committed.shard, committed.seqno);
        if (!shardBlock || !shardBlock.rootHash.equals(committed.rootHash)) throw notFound();
        const proof = this.shardProof(block, account.workchain, committed.shard);
        if (!proof) throw notFound();
        return { block, shardBlock, shardProof: proof.proof };
    }

    // -----------------------------------------------------------------------------------------
    // Methods

    methods(): LiteMethodTable {
        const table: Omit<LiteMethods, 'getState' | 'getBlockProof' | 'getValidatorStats' | 'getShardBlockProof'> = {
            getMasterchainInfo: async () => {
                const last = this.lastMaster();
                return { kind: 'liteServer.masterchainInfo', last: blockIdOf(last), stateRootHash: this.store.masterStateHashAfter(last.seqno)!, init: this.zerostate() };
            },
            getMasterchainInfoExt: async ({ mode }) => {
                if (mode !== 0) throw new LiteServerError(LiteErrorCode.protoviolation, 'unsupported mode in getMasterchainInfoExt');
                const last = this.lastMaster();
                return {
                    kind: 'liteServer.masterchainInfoExt', mode, version: LITE_VERSION, capabilities: String(LITE_CAPABILITIES),
                    last: blockIdOf(last), lastUtime: last.utime, now: this.now(), stateRootHash: this.store.masterStateHashAfter(last.seqno)!, init: this.zerostate(),
                };
            },
            getTime: async () => ({ kind: 'liteServer.currentTime', now: this.now() }),
            getVersion: async () => ({ kind: 'liteServer.version', mode: 0, version: LITE_VERSION, capabilities: String(LITE_CAPABILITIES), now: this.now() }),
            getBlock: async ({ id }) => ({ kind: 'liteServer.blockData', id, data: this.blockBocOf(this.resolve(id)) }),
            getBlockHeader: async ({ id, mode }) => {
                const block = this.resolve(id);
                return { kind: 'liteServer.blockHeader', id: blockIdOf(block), mode, headerProof: writeBoc(blockHeaderProof(this.blockCell(block), mode)) };
            },
            getAllShardsInfo: async ({ id }) => {
                const master = this.resolveMaster(id);
                const state = this.stateAfter(master);
                const { extra, root } = stateShardHashes(state);
                const data = writeBoc(beginCell().storeMaybeRef(root).endCell());
                const proof = writeBocRoots([blockStateProof(this.blockCell(master)), merkleProof(state, { cells: [state, extra], subtrees: root ? [root] : [] })]);
                return { kind: 'liteServer.allShardsInfo', id: blockIdOf(master), proof, data };
            },
            getShardInfo: async ({ id, workchain, shard, exact }) => {
                const master = this.resolveMaster(id);
                const wanted = parseShard(shard);
                if (wanted === 0n) throw new LiteServerError(LiteErrorCode.protoviolation, 'invalid shard');
                const committed = this.catalog.committedShards(master.seqno, workchain)
                    .find(s => (exact ? s.shard === wanted : shardsOverlap(s.shard, wanted)));
                if (!committed) throw new LiteServerError(LiteErrorCode.error, `cannot find shard ${workchain}:${tlShard(wanted)} in the masterchain state`);
                const proof = this.shardProof(master, workchain, committed.shard);
                const shardBlock = this.catalog.block(workchain, committed.shard, committed.seqno);
                if (!proof || !shardBlock) throw notFound();
                const descr = proof.leaf.beginParse();
                descr.skip(1);
                return {
                    kind: 'liteServer.shardInfo', id: blockIdOf(master), shardblk: blockIdOf(shardBlock), shardProof: proof.proof,
                    shardDescr: writeBoc(beginCell().storeSlice(descr).endCell()),
                };
            },
            lookupBlock: async ({ mode, id, lt, utime }) => {
                const by = mode & 7;
                if (by !== 1 && by !== 2 && by !== 4) throw new LiteServerError(LiteErrorCode.protoviolation, 'exactly one of mode.0, mode.1 and mode.2 bits must be set');
                this.sync();
                if (parseShard(id.shard) === 0n) throw new LiteServerError(LiteErrorCode.protoviolation, 'invalid shard');
                let block: CatalogBlock | null;
                const shard = parseShard(id.shard);
                if (by === 1) block = this.catalog.blockBySeqno(id.workchain, shard, id.seqno);
                else if (by === 2) block = this.catalog.blockByLt(id.workchain, shard, BigInt(lt ?? '0'));
                else block = this.catalog.blockByUtime(id.workchain, shard, utime ?? 0);
                if (!block || !shardsOverlap(block.shard, parseShard(id.shard))) throw notFound();
                return { kind: 'liteServer.blockHeader', id: blockIdOf(block), mode, headerProof: writeBoc(blockHeaderProof(this.blockCell(block), mode)) };
            },
            listBlockTransactions: async (args) => {
                const { block, page, incomplete } = this.transactionPage(args);
                const fields = args.mode & 7;
                const ids: liteServer_transactionId[] = page.map(t => ({
                    kind: 'liteServer.transactionId', mode: fields,
                    account: fields & 1 ? t.account : null, lt: fields & 2 ? t.lt.toString() : null, hash: fields & 4 ? t.hash : null,
                }));
                return { kind: 'liteServer.blockTransactions', id: blockIdOf(block), reqCount: args.count, incomplete, ids, proof: this.transactionsProof(block, args) };
            },
            listBlockTransactionsExt: async (args) => {
                const { block, page, incomplete } = this.transactionPage(args);
                const cells = page.map(t => readBoc(this.catalog.transactionBoc(t.account, t.lt)!)[0]);
                return {
                    kind: 'liteServer.blockTransactionsExt', id: blockIdOf(block), reqCount: args.count, incomplete,
                    transactions: cells.length > 0 ? writeBocRoots(cells) : EMPTY, proof: this.transactionsProof(block, args),
                };
            },
            getTransactions: async ({ count, account, lt, hash }) => {
                const limit = Math.min(count, MAX_TRANSACTIONS_PER_WALK);
                this.sync();
                const ids: tonNode_blockIdExt[] = [];
                const cells: Cell[] = [];
                let next = { lt: BigInt(lt), hash };
                while (ids.length < limit && next.lt !== 0n) {
                    const found = this.catalog.transaction(account.id, next.lt);
                    const block = found ? this.catalog.blockBySeq(found.blockSeq) : null;
                    if (!found || !block || block.workchain !== account.workchain) {
                        if (ids.length > 0) break;
                        const last = this.catalog.lastBlock(account.workchain);
                        if (!last || next.lt >= last.endLt) throw notFound();
                        throw new LiteServerError(LiteErrorCode.error, `cannot find transaction ${next.lt} of account ${account.workchain}:${account.id.toString('hex')}`);
                    }
                    if (!found.hash.equals(next.hash)) throw new LiteServerError(LiteErrorCode.error, 'transaction hash mismatch');
                    const cell = readBoc(this.catalog.transactionBoc(account.id, next.lt)!)[0];
                    ids.push(blockIdOf(block));
                    cells.push(cell);
                    next = previousTransaction(cell);
                }
                return { kind: 'liteServer.transactionList', ids, transactions: cells.length > 0 ? writeBocRoots(cells) : EMPTY };
            },
            getOneTransaction: async ({ id, account, lt }) => {
                const block = this.resolve(id);
                if (account.workchain !== block.workchain) throw new LiteServerError(LiteErrorCode.error, 'the account is not in the workchain of this block');
                const found = this.catalog.transaction(account.id, BigInt(lt));
                const inBlock = found && found.blockSeq === block.seq;
                return {
                    kind: 'liteServer.transactionInfo', id: blockIdOf(block),
                    proof: writeBoc(accountBlockProof(this.blockCell(block), account.id)),
                    transaction: inBlock ? this.catalog.transactionBoc(account.id, BigInt(lt))! : EMPTY,
                };
            },
            getAccountState: async ({ id, account }) => this.accountState(id, account, false),
            getAccountStatePrunned: async ({ id, account }) => this.accountState(id, account, true),
            runSmcMethod: async (args) => this.runSmcMethod(args),
            sendMessage: async ({ body }) => this.sendMessage(body),
            getConfigAll: async ({ mode, id }) => this.configInfo(mode, id),
            getConfigParams: async ({ mode, id, paramList }) => this.configInfo(mode, id, paramList),
            getLibraries: async ({ libraryList }) => {
                const state = this.stateAfter(this.lastMaster());
                const libraries = stateLibraries(state);
                const wanted = [...new Map(libraryList.slice(0, MAX_LIBRARIES).map(h => [h.toString('hex'), h])).entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
                const result = [];
                for (const [, hash] of wanted) {
                    const root = libraryOf(libraries, hash);
                    if (root) result.push({ kind: 'liteServer.libraryEntry' as const, hash, data: writeBoc(root) });
                }
                return { kind: 'liteServer.libraryResult', result };
            },
        };
        return table;
    }

    private transactionPage(args: ListBlockTransactionsArgs): { block: CatalogBlock; page: CatalogTransaction[]; incomplete: boolean } {
        const block = this.resolve(args.id);
        const limit = Math.min(args.count, MAX_TRANSACTIONS_PER_LIST);
        const after = args.after ? { account: args.after.account, lt: BigInt(args.after.lt) } : undefined;
        const rows = this.catalog.blockTransactions(block.seq, { after, reverse: args.reverseOrder, limit: limit + 1 });
        return { block, page: rows.slice(0, limit), incomplete: rows.length > limit };
    }

    private transactionsProof(block: CatalogBlock, args: ListBlockTransactionsArgs): Buffer {
        if (!args.wantProof) return EMPTY;
        const hashes = new Set(this.catalog.allBlockTransactions(block.seq).map(t => t.hash.toString('hex')));
        return writeBoc(blockTransactionsProof(this.blockCell(block), hashes));
    }

    accountCell(id: tonNode_blockIdExt, account: liteServer_accountId): Cell | null {
        const { shardBlock } = this.accountBlock(id, account);
        return findAccount(this.stateAfter(shardBlock), account.id).account?.account ?? null;
    }

    private accountState(id: tonNode_blockIdExt, account: liteServer_accountId, prunned: boolean): liteServer_accountState {
        const { block, shardBlock, shardProof } = this.accountBlock(id, account);
        const state = this.stateAfter(shardBlock);
        const { path, account: found } = findAccount(state, account.id);
        const proof = writeBocRoots([blockStateProof(this.blockCell(shardBlock)), merkleProof(state, [state, ...path])]);
        let accountBoc: Buffer = EMPTY;
        if (found) accountBoc = prunned ? writeBoc(merkleProof(found.account, [found.account])) : writeBoc(found.account);
        return { kind: 'liteServer.accountState', id: blockIdOf(block), shardblk: blockIdOf(shardBlock), shardProof, proof, state: accountBoc };
    }

    private configInfo(mode: number, id: tonNode_blockIdExt, params?: number[]) {
        const master = this.resolveMaster(id);
        const state = this.stateAfter(master);
        return {
            kind: 'liteServer.configInfo' as const, mode, id: blockIdOf(master),
            stateProof: writeBoc(blockStateProof(this.blockCell(master))),
            configProof: writeBoc(configProof(state, params)),
        };
    }

    private configBase64(state: Cell): string {
        const { config } = stateConfig(state);
        const hash = config.hash(0).toString('hex');
        if (this.configCache?.hash !== hash) this.configCache = { hash, base64: writeBoc(config).toString('base64') };
        return this.configCache.base64;
    }

    private async runSmcMethod(args: Parameters<LiteMethods['runSmcMethod']>[0]): Promise<liteServer_runMethodResult> {
        const { mode, id, account, methodId, params } = args;
        if (mode & ~0x3f) throw new LiteServerError(LiteErrorCode.protoviolation, 'unsupported mode in runSmcMethod');
        // The emulator builds c7 itself and does not give it back: the c7 it ran with cannot be answered.
        if (mode & 8) throw new LiteServerError(LiteErrorCode.protoviolation, 'not served: runSmcMethod mode.3 (init_c7)');
        if (params.length >= MAX_PARAMS_BYTES) throw new LiteServerError(LiteErrorCode.protoviolation, 'more than 64 KiB of method parameters');
        let stack: TupleItem[] = [];
        if (params.length > 0) {
            try {
                stack = parseTuple(Cell.fromBoc(params)[0]);
            } catch (err) {
                throw new LiteServerError(LiteErrorCode.protoviolation, `cannot parse the method parameters: ${(err as Error).message}`);
            }
        }
        const { block, shardBlock, shardProof } = this.accountBlock(id, account);
        const state = this.stateAfter(shardBlock);
        const { path, account: found } = findAccount(state, account.id);
        const shardBlockCell = this.blockCell(shardBlock);
        const master = block.workchain === -1 ? block : this.lastMaster();
        const masterState = this.stateAfter(master);
        // account_none$0 | account$1 …: @ton/core's loadAccount reads what follows the tag.
        const accountSlice = found?.account.beginParse();
        const parsed: Account | null = accountSlice?.loadBit() ? loadAccount(accountSlice) : null;
        const active = parsed?.storage.state.type === 'active' ? parsed.storage.state.state : null;

        const address = new Address(account.workchain, account.id);
        const now = shardBlock.utime;
        const balance = parsed?.storage.balance.coins ?? 0n;
        const randomSeed = createHash('sha256').update(blockRandSeed(shardBlockCell)).update(account.id).digest();
        const config = this.configBase64(masterState);

        let exitCode = -256;
        let resultBoc: Buffer = writeBoc(serializeTuple([]));
        let librariesUsed: Cell | null = null;
        if (active?.code && active.data) {
            const libraries = new Map<string, Cell>();
            const chainLibraries = stateLibraries(masterState);
            if (chainLibraries) {
                const dict = Dictionary.loadDirect(DictKeys.Buffer(32), { serialize: () => { throw new Error('read-only'); }, parse: s => { s.skip(2); return s.loadRef(); } }, chainLibraries);
                for (const [hash, root] of dict) libraries.set(hash.toString('hex'), plain(root));
            }
            for (const [hash, library] of active.libraries ?? []) libraries.set(hash.toString(16).padStart(64, '0'), plain(library.root));
            if (libraries.size > 0) {
                const dict = Dictionary.empty(DictKeys.Buffer(32), Dictionary.Values.Cell());
                for (const [hash, root] of libraries) dict.set(Buffer.from(hash, 'hex'), root);
                librariesUsed = beginCell().storeDictDirect(dict).endCell();
            }
            const other = parsed?.storage.balance.other;
            const extraCurrency = other && other.size > 0 ? Object.fromEntries([...other].map(([k, v]) => [k, v])) : undefined;
            const response = await this.executor.runGetMethod({
                code: plain(active.code), data: plain(active.data), methodId: Number(BigInt.asIntN(32, BigInt(methodId))), stack, config,
                verbosity: 'short', libs: librariesUsed ?? undefined, address, unixTime: now, balance, randomSeed,
                gasLimit: RUN_METHOD_GAS_LIMIT, debugEnabled: false, extraCurrency,
            });
            const output = response.output;
            if (!output.success) throw new LiteServerError(LiteErrorCode.error, `cannot run the get-method: ${output.error}`);
            exitCode = output.vm_exit_code;
            resultBoc = Buffer.from(output.stack, 'base64');
        }

        const accountProof = mode & 1 ? writeBocRoots([blockStateProof(shardBlockCell), merkleProof(state, [state, ...path])]) : null;
        let stateProof: Buffer | null = null;
        if (mode & 2) stateProof = found ? writeBoc(merkleProof(found.account, { subtrees: [found.account] })) : EMPTY;
        return {
            kind: 'liteServer.runMethodResult', mode, id: blockIdOf(block), shardblk: blockIdOf(shardBlock),
            shardProof: mode & 1 ? shardProof : null, proof: accountProof, stateProof, initC7: null,
            libExtras: mode & 16 ? (librariesUsed ? writeBoc(librariesUsed) : EMPTY) : null,
            exitCode, result: mode & 4 ? resultBoc : null,
        };
    }

    private async sendMessage(body: Buffer): Promise<{ kind: 'liteServer.sendMsgStatus'; status: number }> {
        let message: Cell;
        try {
            const roots = Cell.fromBoc(body);
            if (roots.length !== 1) throw new Error('a message BOC has one root');
            message = roots[0];
        } catch (err) {
            throw new LiteServerError(LiteErrorCode.error, `${SEND_ERROR_PREFIX}cannot deserialize the message: ${(err as Error).message}`);
        }
        let sent: Promise<unknown>;
        try {
            sent = Promise.resolve(this.options.sink.sendExternalMessage(message));
        } catch (err) {
            sent = Promise.reject(err);
        }
        // The devnet answers once the message's block is made (or at once when it refuses it); a
        // liteserver answers after checking the message, so a slow block only delays it this long.
        let timer: NodeJS.Timeout | undefined;
        const pending = new Promise<'pending'>(resolve => { timer = setTimeout(() => resolve('pending'), SEND_ANSWER_WAIT_MS); });
        try {
            await Promise.race([sent, pending]);
        } catch (err) {
            throw new LiteServerError(LiteErrorCode.error, `${SEND_ERROR_PREFIX}${(err as Error).message ?? String(err)}`);
        } finally {
            clearTimeout(timer);
            sent.catch(() => undefined);
        }
        return { kind: 'liteServer.sendMsgStatus', status: 1 };
    }
}
