import type { Generated, Kysely } from 'kysely';

/**
 * Tables of the index. Integers that can exceed 2^53 (lts, balances, values) are BIGINT and
 * always read back as JS bigint (SQLite with safe integers, PostgreSQL with an int8 parser).
 * Flags are small integers (0/1) so both dialects bind them the same way.
 */

/** A value read back from an integer column: bigint from both drivers, number for int4 in PostgreSQL. */
export type IntColumn = bigint | number;

export interface BlocksTable {
    workchain: IntColumn;
    shard: string;
    seqno: IntColumn;
    root_hash: string;
    file_hash: string;
    utime: IntColumn;
    start_lt: bigint;
    end_lt: bigint;
    is_key_block: IntColumn;
    /** JSON array of block ids `(wc,shard,seqno)`. */
    parents: string;
    master_ref: string | null;
    /** JSON array of block ids; masterchain blocks only. */
    shard_blocks: string;
    tx_count: IntColumn;
}

export interface TransactionsTable {
    hash: string;
    account: string;
    lt: bigint;
    utime: IntColumn;
    workchain: IntColumn;
    shard: string;
    seqno: IntColumn;
    trace_id: string;
    in_msg_hash: string | null;
    success: IntColumn;
    end_balance: bigint | null;
    boc: Buffer;
    /** The transaction's text with holes, and the holes (present/stored/transaction-template.ts); null when it has none. */
    text: Buffer | null;
    text_holes: string | null;
}

/** A block's list of transactions as one stored text with holes (migrations/0012-block-texts.ts). */
export interface BlockTextsTable {
    workchain: number;
    shard: string;
    seqno: IntColumn;
    text: Buffer;
    /** The version, then the holes, as JSON (like transactions.text_holes). */
    holes: string;
}

export interface MessagesTable {
    hash: string;
    msg_type: 'int_msg' | 'ext_in_msg' | 'ext_out_msg';
    source: string | null;
    destination: string | null;
    created_lt: bigint;
    value: bigint | null;
    op_code: IntColumn | null;
    /** Transaction that sent the message (null for external-in). */
    tx_out_hash: string | null;
    /** Transaction that received it (null until indexed, and for external-out). */
    tx_in_hash: string | null;
}

export interface TracesTable {
    trace_id: string;
    tx_count: IntColumn;
    /** Internal messages of the trace whose receiving transaction is not indexed yet. */
    pending: IntColumn;
    /** 1 when the root transaction was sent an internal message by a transaction outside the index. */
    orphan: IntColumn;
    start_lt: bigint;
    end_lt: bigint;
    start_utime: IntColumn;
}

export interface AccountStatesTable {
    address: string;
    status: string;
    balance: bigint;
    /** Extra currencies held: JSON object of decimal amounts by currency id; null when none. */
    extra_balance: Generated<string | null>;
    code_hash: string | null;
    data_hash: string | null;
    code: Buffer | null;
    data: Buffer | null;
    last_tx_lt: bigint;
    last_tx_hash: string;
    last_utime: IntColumn;
    /** JSON array of interface names. */
    interfaces: string;
    /** JSON array of the known get-method names the code has. */
    get_methods: Generated<string>;
}

export interface JettonMastersTable {
    address: string;
    total_supply: string;
    mintable: IntColumn;
    admin: string | null;
    content: Buffer;
    wallet_code_hash: string | null;
    metadata: string;
    metadata_uri: string | null;
    metadata_status: 'none' | 'pending' | 'ok' | 'failed';
    last_tx_lt: bigint;
}

export interface JettonWalletsTable {
    address: string;
    owner: string;
    master: string;
    balance: string;
    verified: IntColumn;
    last_tx_lt: bigint;
}

export interface JettonOperationsTable {
    transaction_hash: string;
    lt: bigint;
    utime: IntColumn;
    operation: 'transfer' | 'mint' | 'burn';
    master: string;
    amount: string;
    source: string | null;
    destination: string | null;
    source_wallet: string | null;
    destination_wallet: string | null;
    query_id: string;
    payload: string | null;
    trace_id: string;
    success: IntColumn;
    awaiting_message: string | null;
}

/** An account's jetton operation (one row an operation and party), in the order its history reads them. */
export interface JettonHistoryTable {
    account: string;
    lt: bigint;
    transaction_hash: string;
    master: string;
    source: string | null;
    destination: string | null;
    /** The operation's text with holes (json/template.ts, present/stored/jetton-operation-text.ts); null until it is stored. */
    text: Buffer | null;
    /** The text's holes, led by the version of the presenter that made it. */
    text_holes: string | null;
}

export interface NftItemsTable {
    address: string;
    collection: string | null;
    item_index: string;
    owner: string | null;
    content: Buffer;
    last_tx_lt: bigint;
}

export interface WalletsTable {
    address: string;
    public_key: string;
    seqno: bigint | null;
    wallet_id: bigint | null;
    signature_allowed: IntColumn | null;
    plugins: string;
    last_tx_lt: bigint;
}

/** One row (id 1): the config of the newest key block. */
export interface ChainConfigTable {
    id: number;
    block_workchain: number;
    block_seqno: IntColumn;
    utime: IntColumn;
    config: Buffer;
}

/** A staker of a staking pool: a TF pool's nominator or a single-nominator pool's owner. */
export interface PoolStakersTable {
    pool: string;
    staker: string;
    /** Nanograms as decimal text; null where the pool's data does not say. */
    amount: string | null;
    pending_deposit: string | null;
}

/** A public library of the chain, by the masterchain account publishing it. */
export interface PublicLibrariesTable {
    hash: string;
    publisher: string;
    boc: Buffer;
}

/** One member of a multisig: a v2 signer or proposer by address, or a v1 owner by public key. */
export interface MultisigMembersTable {
    multisig: string;
    /** Raw `wc:hex` address, or 64 lowercase hex characters of a public key. */
    member: string;
    kind: 'address' | 'public_key';
}

/**
 * A multisig v2 order as its newest state has it (initialised orders only). Addresses raw.
 */
export interface MultisigOrdersTable {
    address: string;
    multisig: string;
    /** uint256 as decimal text. */
    order_seqno: string;
    threshold: IntColumn;
    sent_for_execution: IntColumn;
    /** JSON array of the order's own copy of the signers, by index. */
    signers: string;
    /** JSON array: the signers whose approval bit is set, by ascending index. */
    signed_by: string;
    approvals_num: IntColumn;
    /** Unix seconds (uint48). */
    expiration_date: bigint;
    /** The `order` cell (the actions dictionary's root) as a BOC. */
    actions: Buffer;
    /** utime of the transaction that processed the order's first `init`; null until one is indexed. */
    creation_date: bigint | null;
    last_tx_lt: bigint;
}

export interface SourceCursorsTable {
    source: string;
    cursor: string;
}

/**
 * One row counting the blocks written to the index: what the index says can have changed only when
 * it has moved, so an API process keeps answers checked at a generation until it moves.
 */
export interface IndexGenerationTable {
    id: IntColumn;
    generation: IntColumn;
}

export interface IndexDatabase {
    blocks: BlocksTable;
    transactions: TransactionsTable;
    block_texts: BlockTextsTable;
    messages: MessagesTable;
    traces: TracesTable;
    account_states: AccountStatesTable;
    source_cursors: SourceCursorsTable;
    jetton_masters: JettonMastersTable;
    jetton_wallets: JettonWalletsTable;
    jetton_operations: JettonOperationsTable;
    jetton_history: JettonHistoryTable;
    nft_items: NftItemsTable;
    wallets: WalletsTable;
    multisig_members: MultisigMembersTable;
    chain_config: ChainConfigTable;
    public_libraries: PublicLibrariesTable;
    pool_stakers: PoolStakersTable;
    multisig_orders: MultisigOrdersTable;
    index_generation: IndexGenerationTable;
}

export type IndexDb = Kysely<IndexDatabase>;

export function toBigInt(value: IntColumn | string): bigint {
    return typeof value === 'bigint' ? value : BigInt(value);
}

export function toNumber(value: IntColumn | string): number {
    return typeof value === 'number' ? value : Number(value);
}

/** The database an index lives in. */
export type StoreDialect = 'sqlite' | 'postgres';
