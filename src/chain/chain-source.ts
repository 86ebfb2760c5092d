/**
 * The one ingestion contract: every chain (the embedded devnet, block files, a liteserver
 * follower) yields the same block records, each carrying its transactions as real BOCs.
 * The indexer is the only consumer; endpoints never read a chain source (emulation reads chain
 * state through its own provider).
 */
import type { Cell } from '@ton/core';
import type { TransactionSummary } from '../ton/transaction.ts';
import type { StoredTemplate } from '../json/template.ts';
import type { BlockIdExt } from '../ton/block-id.ts';

export interface TransactionRecord {
    /** Serialized `Transaction` cell (bag of cells with one root). */
    boc: Buffer;
    /** The parsed root of `boc`, when the source has it already (saves parsing it twice in-process). */
    cell?: Cell;
    /**
     * The transaction decoded, when the block reader has done it already (the indexer needs the same):
     * the ParsedTransaction itself when read in this thread, its plain values when read in a reading thread.
     */
    summary?: TransactionSummary;
    /** Account balance in nanograms right after this transaction, when the source knows it. */
    endBalance?: bigint;
    /** Its text as the API shows it, with holes (present/stored/transaction-template.ts), when the block reader made one. */
    text?: StoredTemplate;
}

export type AccountStatus = 'active' | 'uninit' | 'frozen' | 'nonexist';

/** State of an account at the end of the block, for accounts the block touched. */
export interface AccountStateRecord {
    /** Raw address `wc:64hex`. */
    address: string;
    status: AccountStatus;
    balance: bigint;
    /** Extra currencies the account holds, amount by currency id; absent when it holds none (or the source does not know). */
    extraBalance?: ReadonlyMap<number, bigint>;
    codeHash?: string;
    dataHash?: string;
    /** Code and data cells (BOCs) when available, so interfaces can be detected. */
    code?: Buffer;
    data?: Buffer;
    /**
     * The StateInit's `library` field (BOC of its `Hashmap 256 SimpleLib` root) when the account
     * keeps libraries; those a masterchain account marks public are the chain's public libraries.
     */
    libraries?: Buffer;
    lastTransLt: bigint;
    lastTransHash: string;
}

export interface BlockRecord {
    id: BlockIdExt;
    /** Unix seconds. */
    utime: number;
    startLt: bigint;
    endLt: bigint;
    isKeyBlock: boolean;
    /** The masterchain seqno of the last key block before this block. */
    prevKeyBlockSeqno?: number;
    /** One parent, or two right after a shard merge. */
    parents: BlockIdExt[];
    /** For shard blocks: the masterchain block this block refers to. */
    masterRef?: BlockIdExt;
    /** For masterchain blocks: the shard blocks it commits (the tops of every shard). */
    shardBlocks: BlockIdExt[];
    /** In logical-time order. */
    transactions: TransactionRecord[];
    /**
     * The block's list of transactions as the API shows it, as one text with holes, when the block
     * reader made a text for every transaction (present/stored/transaction-template.ts, listTemplate).
     */
    listText?: StoredTemplate;
    /**
     * Transactions whose text could not be made (a presenter that throws on them: a bug), each as
     * `hash: reason`. They are indexed all the same, and presented from their BOCs when read.
     */
    renderFailures?: string[];
    accountStates?: AccountStateRecord[];
    /** Key blocks: the blockchain configuration, a BOC of the ConfigParams `Hashmap 32 ^Cell` root. */
    config?: Buffer;
}

/**
 * Where a source's account states come from when a block's state update prunes part of an account
 * (the devnet: its chain log; a liteserver follower: getAccountState).
 */
export interface AccountStateReader {
    /**
     * The Account cell of `address` right after `block` (whole: no pruned branches); null when the
     * source cannot tell. The caller checks it against the account's hash in the block. `pruned` is
     * the Account cell as the block's state update shows it (with pruned branches), for a reader that
     * can complete it from cells it already has.
     */
    accountCellAt(block: BlockIdExt, address: string, pruned?: Cell): Promise<Cell | null>;
}

/** One step of a source: a block and the opaque position right after it. */
export interface SourceItem {
    cursor: string;
    block: BlockRecord;
}

export interface SourceHead {
    /** Newest masterchain block the source can give (or newest block when it has no masterchain). */
    workchain: number;
    shard: string;
    seqno: number;
    utime: number;
}

export interface ChainSource {
    /** Stable name; the index keeps one cursor per source name. */
    readonly name: string;
    /** Whether the source keeps producing blocks (a live chain) or ends (a list of files). */
    readonly live: boolean;
    start(): Promise<void>;
    stop(): Promise<void>;
    /**
     * Blocks strictly after `cursor` (null = from the beginning), in an order where every block
     * comes after its parents and after the blocks whose messages it receives. A live source waits
     * for new blocks until `signal` aborts; a finite one returns after its last block.
     */
    blocksAfter(cursor: string | null, signal: AbortSignal): AsyncIterable<SourceItem>;
    head(): Promise<SourceHead | null>;
}
