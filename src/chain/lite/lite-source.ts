import { type Cell, loadAccount } from '@ton/core';
import { setMaxListeners } from 'node:events';
import { Functions } from 'ton-lite-client/dist/schema.js';
import type { AccountStateReader, BlockRecord, ChainSource, SourceHead, SourceItem } from '../chain-source.ts';
import type { BlockIdExt } from '../../ton/block-id.ts';
import { readBlockBoc } from '../block-reading.ts';
import { readBlockRoot } from '../../ton/block/block-file.ts';
import { sha256 } from '../../ton/sha256.ts';
import { MessageRejectedError, type MessageSink } from '../message-sink.ts';
import { readBoc } from '../../ton/boc/boc-reader.ts';
import { KnownCells } from '../known-cells.ts';
import { writeBoc } from '../../ton/boc/boc-writer.ts';
import { walkShardAccounts } from '../../ton/block/shard-accounts.ts';
import { loadShardStateUnsplit } from '../../ton/block/shard-state.ts';
import { extraCurrencyAmounts } from '../../ton/extra-currencies.ts';
import type { StoredAccount } from '../../emulation/account-state.ts';
import { isTimeout, type LitePool, type LiteServerStatus } from './lite-pool.ts';
import { sleep } from '../../sleep.ts';
import { fromTlBlockId, MASTERCHAIN_SHARD, sameBlock, shardsOverlap, toTlBlockId, toTlShard } from './lite-block-id.ts';

export interface LiteSourceOptions {
    pool: LitePool;
    /** Where a new index starts (ignored once the index has a cursor): a masterchain seqno… */
    fromSeqno?: number;
    /** …or the first masterchain block at or after this unix time; neither = the current head. */
    fromUtime?: number;
    /** Masterchain rounds fetched ahead of the one being indexed (default 16). */
    prefetch?: number;
    /** Cells of account states kept to complete later states without asking (default 200 000). */
    knownCells?: number;
    /** Whether to make the transactions' stored texts (default true; readBlockBoc's `texts`). */
    transactionTexts?: boolean;
    log?: (line: string) => void;
}

/**
 * The position after a block: the last masterchain block whose round is complete, the shard tops it
 * commits, and the shard blocks of the next round already given (a round's shard blocks come before
 * its masterchain block).
 */
interface LiteCursor {
    mc: BlockIdExt;
    tops: BlockIdExt[];
    given: string[];
}

interface Round {
    seqno: number;
    master: BlockRecord;
    /** The new shard blocks the masterchain block commits (with every one in between), oldest first. */
    shards: BlockRecord[];
}

/** How many masterchain rounds are fetched ahead by default: enough to keep a liteserver busy across a round's round trips. */
const DEFAULT_PREFETCH = 16;
const DEFAULT_KNOWN_CELLS = 200_000;

/** How long one long poll for the next masterchain block waits. */
const HEAD_WAIT_MS = 8_000;
/** While catching up, the head is asked again after this long, so lag figures stay true. */
const HEAD_REFRESH_MS = 5_000;

/**
 * A chain followed over the liteserver protocol (mainnet, testnet, the devnet's own liteserver):
 * the masterchain head, and for each masterchain block every shard block it commits and every one in
 * between (walking parents, across splits and merges). Each block is downloaded raw (getBlock),
 * checked against its id (root hash of the cell, file hash of the bytes; each masterchain block must
 * name the previous one as its parent) and read by the one ingestion path; pruned parts of account
 * states come from cells of states already fetched when they are known (by hash), else from
 * getAccountState at that block. A server that answers a wrong block is penalized
 * and the round is fetched again from another.
 */
export class LiteSource implements ChainSource, MessageSink, AccountStateReader {
    readonly name = 'lite';
    readonly live = true;
    private lastHead: SourceHead | null = null;
    /** The last masterchain block given to the indexer: the state emulation's fallback reads at. */
    private lastGiven: BlockIdExt | null = null;
    private readonly headAccounts = new Map<string, Promise<StoredAccount | undefined>>();
    private headAt = 0;
    private stopped = false;
    /**
     * Cells of the account states the servers gave, by level-0 hash (hex), least recently used
     * first: a later state update that prunes them (an unchanged code, an untouched part of the
     * data) is completed from here without a getAccountState.
     */
    private readonly known: KnownCells;
    /** Account states completed from known cells / asked of the servers (progress lines, benchmarks). */
    readonly accountStates = { completed: 0, asked: 0 };

    constructor(private readonly options: LiteSourceOptions) {
        this.known = new KnownCells(options.knownCells ?? DEFAULT_KNOWN_CELLS);
    }

    async start(): Promise<void> {
        // Nothing to wait for: with every server down at start the follower keeps trying, and the first head comes with the first round.
    }

    async stop(): Promise<void> {
        this.stopped = true;
        this.options.pool.close();
    }

    async head(): Promise<SourceHead | null> {
        return this.lastHead;
    }

    /** The newest masterchain block the servers have reported. */
    get knownHead(): SourceHead | null {
        return this.lastHead;
    }

    /** The liteservers' health, for progress lines. */
    servers(): LiteServerStatus[] {
        return this.options.pool.status();
    }

    /**
     * The Account cell after `block`: completed from cells already known when every pruned branch of
     * the block's `pruned` copy is one (the caller checks the result against the block's hash), else
     * from getAccountState, whose cells are then known.
     */
    async accountCellAt(block: BlockIdExt, address: string, pruned?: Cell): Promise<Cell | null> {
        if (pruned) {
            const completed = this.known.complete(pruned);
            if (completed) {
                this.accountStates.completed++;
                return completed;
            }
        }
        this.accountStates.asked++;
        const result = await this.accountState(block, address);
        if (result.state.length === 0) return null;
        const account = readBoc(result.state)[0];
        // only an answer that is the account the block has is worth keeping
        if (account && pruned && account.level() === 0 && account.hash().equals(pruned.hash(0))) this.known.remember(account);
        return account;
    }

    async sendExternalMessage(message: Cell): Promise<{ messageHash: string }> {
        const hash = message.hash().toString('hex');
        try {
            await this.options.pool.query(Functions.liteServer_sendMessage, { kind: 'liteServer.sendMessage', body: writeBoc(message) }, { timeoutMs: 10_000 });
        } catch (error) {
            throw new MessageRejectedError(`the liteservers did not accept the message: ${(error as Error).message}`);
        }
        // Its trace is named after the transaction it starts, which no block carries yet.
        return { messageHash: hash };
    }

    async *blocksAfter(cursorText: string | null, outer: AbortSignal): AsyncIterable<SourceItem> {
        // Every query of the rounds fetched ahead listens to the signal (and a backoff wait too): many
        // listeners at once are expected, so they go on a signal of our own that follows the caller's.
        const controller = new AbortController();
        setMaxListeners(0, controller.signal);
        const abort = () => controller.abort(outer.reason);
        if (outer.aborted) abort();
        else outer.addEventListener('abort', abort, { once: true });
        try {
            yield* this.itemsAfter(cursorText, controller.signal);
        } finally {
            outer.removeEventListener('abort', abort);
        }
    }

    private async *itemsAfter(cursorText: string | null, signal: AbortSignal): AsyncIterable<SourceItem> {
        let cursor = cursorText ? parseCursor(cursorText) : null;
        let failures = 0;
        while (!signal.aborted && !this.stopped) {
            try {
                if (!cursor) {
                    const start = await this.startingPoint(signal);
                    // a new index starting mid-chain takes the config of the last key block before its start
                    if (start.keyBlock) yield { cursor: JSON.stringify(start.cursor), block: start.keyBlock };
                    cursor = start.cursor;
                }
                for await (const round of this.rounds(cursor, signal)) {
                    failures = 0;
                    const given = new Set(cursor.given);
                    for (const block of round.shards) {
                        const key = blockKey(block.id);
                        if (given.has(key)) continue;
                        cursor = { ...cursor, given: [...cursor.given, key] };
                        yield { cursor: JSON.stringify(cursor), block };
                    }
                    cursor = { mc: round.master.id, tops: round.master.shardBlocks, given: [] };
                    yield { cursor: JSON.stringify(cursor), block: round.master };
                    this.lastGiven = round.master.id;
                }
            } catch (error) {
                if (signal.aborted || this.stopped) return;
                failures++;
                const wait = Math.min(30_000, 500 * 2 ** Math.min(failures - 1, 6));
                this.options.log?.(`lite: ${(error as Error).message}; retrying in ${(wait / 1000).toFixed(1)} s`);
                await sleep(wait, signal).catch(() => undefined);
            }
        }
    }

    /**
     * Complete rounds after the cursor's masterchain block, in order. Rounds up to `prefetch` ahead are
     * fetched concurrently (each needs only its own and the previous masterchain block); when caught
     * up it long-polls the servers for the next masterchain block.
     */
    private async *rounds(cursor: LiteCursor, signal: AbortSignal): AsyncGenerator<Round> {
        const prefetch = Math.max(1, this.options.prefetch ?? DEFAULT_PREFETCH);
        const masters = new Map<number, Promise<BlockRecord>>();
        const master = (seqno: number) => {
            let found = masters.get(seqno);
            if (!found) {
                masters.set(seqno, (found = this.masterBlock(seqno, signal)));
                // fetched ahead: a failure is rethrown to whoever awaits it, and is not unhandled meanwhile
                found.catch(() => undefined);
            }
            return found;
        };
        const rounds = new Map<number, Promise<Round>>();
        let previous = cursor.mc;
        let tops = cursor.tops;
        let next = cursor.mc.seqno + 1;
        /** `parentTops`: the shard tops before this round when known, else those of the previous masterchain block. */
        const round = (seqno: number, parentTops: BlockIdExt[] | null) => {
            const fetched = (async (): Promise<Round> => {
                const block = await master(seqno);
                const before = parentTops ?? (await master(seqno - 1)).shardBlocks;
                const shards = await this.newShardBlocks(block.shardBlocks, before, seqno, signal);
                return { seqno, master: block, shards };
            })();
            // a round that fails is awaited (and rethrown) in order; until then its rejection is not unhandled
            fetched.catch(() => undefined);
            return fetched;
        };
        while (!signal.aborted) {
            const head = await this.headSeqno(next, signal);
            for (let seqno = next; seqno <= Math.min(head, next + prefetch - 1); seqno++) {
                if (rounds.has(seqno)) continue;
                rounds.set(seqno, round(seqno, seqno === next ? tops : null));
            }
            const current = await rounds.get(next)!;
            rounds.delete(next);
            masters.delete(next - 1);
            const parent = current.master.parents[0];
            if (!parent || (previous.seqno > 0 && !sameBlock(parent, previous))) {
                throw new Error(`masterchain block ${next} does not follow block ${previous.seqno} (${previous.rootHash}); a server gave a block of another chain`);
            }
            yield current;
            previous = current.master.id;
            tops = current.master.shardBlocks;
            next++;
        }
    }

    /**
     * The newest masterchain seqno, at least `wanted`: the last one known while it is recent enough,
     * else asked again; when the chain has not reached `wanted` yet, a long poll (waitMasterchainSeqno).
     */
    private async headSeqno(wanted: number, signal: AbortSignal): Promise<number> {
        if (this.lastHead && this.lastHead.seqno >= wanted && Date.now() - this.headAt < HEAD_REFRESH_MS) return this.lastHead.seqno;
        for (;;) {
            signal.throwIfAborted();
            const waiting = this.lastHead !== null && this.lastHead.seqno < wanted;
            try {
                const { result, server } = await this.options.pool.query(
                    Functions.liteServer_getMasterchainInfoExt,
                    { kind: 'liteServer.getMasterchainInfoExt', mode: 0 },
                    waiting ? { awaitSeqno: wanted, timeoutMs: HEAD_WAIT_MS, attempts: 1, signal } : { signal },
                );
                this.options.pool.noteHead(server, result.last.seqno);
                if (this.lastHead === null || result.last.seqno >= this.lastHead.seqno) {
                    this.lastHead = { workchain: -1, shard: MASTERCHAIN_SHARD, seqno: result.last.seqno, utime: result.lastUtime };
                }
                this.headAt = Date.now();
            } catch (error) {
                // a long poll that ran out means no new block yet
                if (!(waiting && isTimeout(error))) throw error;
            }
            if (this.lastHead && this.lastHead.seqno >= wanted) return this.lastHead.seqno;
        }
    }

    /**
     * Where a new index starts: after the masterchain block before the chosen one (its shard tops are
     * taken as given), with the last key block before the start when the start is mid-chain, so the
     * index has the chain's config from its first block on.
     */
    private async startingPoint(signal: AbortSignal): Promise<{ cursor: LiteCursor; keyBlock?: BlockRecord }> {
        let seqno = this.options.fromSeqno;
        if (seqno === undefined && this.options.fromUtime !== undefined) {
            const { result } = await this.options.pool.query(Functions.liteServer_lookupBlock, {
                kind: 'liteServer.lookupBlock', mode: 4, id: { kind: 'tonNode.blockId', workchain: -1, shard: toTlShard(MASTERCHAIN_SHARD), seqno: 0 }, lt: null, utime: this.options.fromUtime,
            }, { signal });
            seqno = result.id.seqno;
        }
        seqno ??= await this.headSeqno(1, signal);
        if (seqno <= 1) {
            // the chain's first blocks: their parents are the zerostates, which are states, not blocks
            return { cursor: { mc: { workchain: -1, shard: MASTERCHAIN_SHARD, seqno: 0, rootHash: '', fileHash: '' }, tops: [], given: [] } };
        }
        const before = await this.masterBlock(seqno - 1, signal);
        const cursor = { mc: before.id, tops: before.shardBlocks, given: [] };
        if (before.isKeyBlock) return { cursor, keyBlock: before };
        const keySeqno = before.prevKeyBlockSeqno ?? 0;
        return { cursor, keyBlock: keySeqno > 0 ? await this.masterBlock(keySeqno, signal) : undefined };
    }

    /**
     * An account as of the last masterchain block indexed (cached per block), for emulation of accounts
     * the index has not seen change: its Account from getAccountState, its last transaction from the
     * state proof that comes with it.
     */
    accountAtHead(address: string): Promise<StoredAccount | undefined> {
        const at = this.lastGiven;
        if (!at || at.seqno === 0) return Promise.resolve(undefined);
        const key = `${at.seqno}:${address}`;
        let found = this.headAccounts.get(key);
        if (!found) {
            if (this.headAccounts.size >= 1_000) this.headAccounts.clear();
            found = this.storedAccountAt(at, address);
            found.catch(() => this.headAccounts.delete(key));
            this.headAccounts.set(key, found);
        }
        return found;
    }

    /** getAccountState of a raw address (`wc:hex`) at a block. */
    private async accountState(block: BlockIdExt, address: string) {
        const [workchain, id] = address.split(':');
        const { result } = await this.options.pool.query(Functions.liteServer_getAccountState, {
            kind: 'liteServer.getAccountState',
            id: toTlBlockId(block),
            account: { kind: 'liteServer.accountId', workchain: Number(workchain), id: Buffer.from(id, 'hex') },
        });
        return result;
    }

    private async storedAccountAt(block: BlockIdExt, address: string): Promise<StoredAccount | undefined> {
        const id = address.split(':')[1];
        const result = await this.accountState(block, address);
        if (result.state.length === 0) return undefined;
        const slice = readBoc(result.state)[0].beginParse();
        if (!slice.loadBit()) return undefined;
        const account = loadAccount(slice);
        // proof = [the block's header proof, the state proof down to the ShardAccount leaf]
        const stateProof = readBoc(result.proof)[1];
        const state = stateProof && stateProof.refs[0] ? loadShardStateUnsplit(stateProof.refs[0].beginParse()) : null;
        const walk = state ? walkShardAccounts(state.accounts, BigInt(`0x${id}`)) : null;
        if (!walk || walk.kind !== 'leaf') throw new Error(`the state proof of ${address} does not show the account`);
        const { state: accountState } = account.storage;
        const extra = extraCurrencyAmounts(account.storage.balance.other);
        return {
            status: accountState.type,
            balance: account.storage.balance.coins,
            extraBalance: extra.size > 0 ? extra : undefined,
            code: accountState.type === 'active' && accountState.state.code ? writeBoc(accountState.state.code) : null,
            data: accountState.type === 'active' && accountState.state.data ? writeBoc(accountState.state.data) : null,
            lastTransLt: walk.entry.lastTransLt,
            accountLastTransLt: account.storage.lastTransLt,
            lastTransHash: walk.entry.lastTransHash.toString('hex'),
            lastUtime: account.storageStats.lastPaid,
        };
    }

    /** Public libraries by hash (hex), from getLibraries (at most 16 a query); each is checked to hash as its name. */
    async libraries(hashes: string[]): Promise<Map<string, Buffer>> {
        const found = new Map<string, Buffer>();
        for (let i = 0; i < hashes.length; i += 16) {
            const { result } = await this.options.pool.query(Functions.liteServer_getLibraries, {
                kind: 'liteServer.getLibraries', libraryList: hashes.slice(i, i + 16).map(h => Buffer.from(h, 'hex')),
            });
            for (const entry of result.result) {
                const hash = entry.hash.toString('hex');
                const root = readBoc(entry.data)[0];
                if (root && root.hash().toString('hex') === hash) found.set(hash, entry.data);
            }
        }
        return found;
    }

    /** A masterchain block by seqno: its id from lookupBlock, then the block itself, checked against the id. */
    private async masterBlock(seqno: number, signal: AbortSignal): Promise<BlockRecord> {
        const { result } = await this.options.pool.query(Functions.liteServer_lookupBlock, {
            kind: 'liteServer.lookupBlock', mode: 1, id: { kind: 'tonNode.blockId', workchain: -1, shard: toTlShard(MASTERCHAIN_SHARD), seqno }, lt: null, utime: null,
        }, { atLeastSeqno: seqno, signal });
        const id = fromTlBlockId(result.id);
        if (id.workchain !== -1 || id.seqno !== seqno) throw new Error(`lookupBlock of masterchain block ${seqno} answered block ${id.workchain}:${id.seqno}`);
        return this.block(id, seqno, signal);
    }

    /** A block by its full id, downloaded raw and accepted only when its root and file hashes are the id's. */
    /**
     * A block by its full id, downloaded raw and accepted only when its root and file hashes are the
     * id's (checked before anything else is asked about it). A server that gives another block is
     * penalized and the next one asked; a failure while reading an accepted block is not the server's.
     */
    private async block(id: BlockIdExt, masterSeqno: number, signal: AbortSignal): Promise<BlockRecord> {
        for (let attempt = 0; ; attempt++) {
            const { result, server } = await this.options.pool.query(Functions.liteServer_getBlock, { kind: 'liteServer.getBlock', id: toTlBlockId(id) }, { atLeastSeqno: masterSeqno, signal, timeoutMs: 30_000 });
            let root: Cell | null = null;
            let problem: string;
            try {
                root = readBlockRoot(result.data);
                const rootHash = root.hash().toString('hex');
                const fileHash = sha256(result.data).toString('hex');
                problem = rootHash === id.rootHash && fileHash === id.fileHash
                    ? ''
                    : `gave a block with root hash ${rootHash} and file hash ${fileHash} for ${id.workchain}:${id.shard}:${id.seqno} (root ${id.rootHash}, file ${id.fileHash})`;
            } catch (error) {
                problem = `gave block ${id.workchain}:${id.shard}:${id.seqno} as bytes that are not a block: ${(error as Error).message}`;
            }
            if (!problem) return readBlockBoc(result.data, this, root!, this.options.transactionTexts ?? true);
            this.options.pool.penalize(server, problem);
            this.options.log?.(`lite: server ${server} ${problem}`);
            if (attempt + 1 >= Math.max(2, this.options.pool.size)) throw new Error(`no server gave block ${id.workchain}:${id.shard}:${id.seqno} as its id says`);
        }
    }

    /**
     * Every shard block from the masterchain block's shard tops back to (not including) the previous
     * round's tops, following both parents after a merge and stopping where a split's parent was
     * already given; oldest first (by logical time), so senders come before receivers.
     */
    private async newShardBlocks(tops: BlockIdExt[], previousTops: BlockIdExt[], masterSeqno: number, signal: AbortSignal): Promise<BlockRecord[]> {
        const known = (id: BlockIdExt) => id.seqno <= 0 || previousTops.some(k => k.workchain === id.workchain && shardsOverlap(k.shard, id.shard) && id.seqno <= k.seqno);
        const found = new Map<string, Promise<BlockRecord>>();
        const visit = async (id: BlockIdExt): Promise<void> => {
            const key = blockKey(id);
            if (known(id) || found.has(key)) return;
            const fetched = this.block(id, masterSeqno, signal);
            found.set(key, fetched);
            const block = await fetched;
            await Promise.all(block.parents.map(visit));
        };
        await Promise.all(tops.map(visit));
        const blocks = await Promise.all(found.values());
        return blocks.sort((a, b) => (a.startLt < b.startLt ? -1 : a.startLt > b.startLt ? 1 : a.id.seqno - b.id.seqno));
    }
}

function blockKey(id: BlockIdExt): string {
    return `${id.workchain}:${id.shard}:${id.seqno}`;
}

function parseCursor(text: string): LiteCursor {
    try {
        const cursor = JSON.parse(text) as LiteCursor;
        if (typeof cursor.mc?.seqno === 'number' && Array.isArray(cursor.tops) && Array.isArray(cursor.given)) return cursor;
    } catch {
        // reported below
    }
    throw new Error(`the index's cursor for source 'lite' is not one this follower wrote (${text.slice(0, 80)}); index into a new database`);
}

