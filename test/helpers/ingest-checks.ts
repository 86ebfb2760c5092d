/**
 * What the files of a devnet service must hold after any number of crashes, read without the
 * service: the chain log's block BOCs (read with the independent reader,
 * test/helpers/independent-block-reader.ts) must be one chain from the zerostates, and the index
 * (SQLite or PostgreSQL, read through an `IndexReader`) must hold exactly the chain log's blocks,
 * transactions, messages, traces and account states. Shared by the crash test
 * (test/indexer/crash-safety.test.ts) and the chaos kill loop (test/chaos/kill-loop.ts).
 */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import Database from 'better-sqlite3';
import pg from 'pg';
import { Cell, Dictionary, loadMessage, loadShardAccount, loadTransaction } from '@ton/core';
import { readBlockIndependently } from './independent-block-reader.ts';

export const WHOLE_SHARD = '8000000000000000';

export function openReadOnly(file: string): Database.Database {
    const db = new Database(file, { readonly: true, fileMustExist: true });
    db.defaultSafeIntegers(true);
    return db;
}

/** Seeded PRNG (mulberry32): the random choices of a crash run replay from its seed. */
export function mulberry32(a: number): () => number {
    return () => {
        a |= 0;
        a = (a + 0x6d2b79f5) | 0;
        let t = Math.imul(a ^ (a >>> 15), 1 | a);
        t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
        return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
    };
}

/** Read-only queries on an index, whichever its database; integers may come back as number, bigint or string. */
export interface IndexReader {
    all(query: string): Promise<Array<Record<string, unknown>>>;
    close(): Promise<void>;
}

export function sqliteIndexReader(file: string): IndexReader {
    const db = openReadOnly(file);
    return {
        all: async query => db.prepare(query).all() as Array<Record<string, unknown>>,
        close: async () => {
            db.close();
        },
    };
}

export async function postgresIndexReader(url: string): Promise<IndexReader> {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    return {
        all: async query => (await client.query(query)).rows as Array<Record<string, unknown>>,
        close: () => client.end(),
    };
}

interface LogBlockId {
    workchain: number;
    shard: string;
    seqno: number;
    rootHash: string;
    fileHash: string;
}

interface LogMessage {
    hash: string;
    type: 'internal' | 'external-in' | 'external-out';
}

interface LogTx {
    hash: string;
    account: string;
    lt: bigint;
    now: number;
    workchain: number;
    seqno: number;
    inMsg: LogMessage | null;
    outMsgs: LogMessage[];
}

/** A block of the chain log as the independent reader (test/helpers/independent-block-reader.ts) sees its BOC. */
interface LogBlock {
    seq: number;
    id: LogBlockId;
    isKey: boolean;
    utime: number;
    startLt: bigint;
    endLt: bigint;
    parents: LogBlockId[];
    masterRef?: LogBlockId;
    shardBlocks: LogBlockId[];
    /** The MERKLE_UPDATE of the shard state: hashes of the state before and after the block. */
    stateUpdate: { oldHash: string; newHash: string };
    txs: LogTx[];
}

/** An account's latest ShardAccount in the chain log's account_history, and the seq of the block that wrote it (0: genesis). */
interface LogAccountState {
    seq: number;
    status: string;
    balance: bigint;
    lastTransLt: bigint;
    lastTransHash: string;
}

export interface ChainLogContents {
    blocks: LogBlock[];
    /** The masterchain (-1) and basechain (0) zerostates, as seqno-0 block ids. */
    zerostates: Map<number, LogBlockId>;
    accounts: Map<string, LogAccountState>;
}

const outMessages = Dictionary.Values.Cell();
const sha256Hex = (data: Buffer) => createHash('sha256').update(data).digest('hex');

/** A transaction cell read independently of the indexer: hash, lt, and its messages by cell hash. */
function readTransaction(cell: Cell, workchain: number, seqno: number): LogTx {
    const tx = loadTransaction(cell.beginParse());
    const messages = cell.refs[0].beginParse();
    const inCell = messages.loadBit() ? messages.loadRef() : null;
    const outCells = messages.loadDict(Dictionary.Keys.Uint(15), outMessages).values();
    const describe = (c: Cell): LogMessage => ({ hash: c.hash().toString('hex'), type: loadMessage(c.beginParse()).info.type });
    return {
        hash: cell.hash().toString('hex'),
        account: `${workchain}:${tx.address.toString(16).padStart(64, '0')}`,
        lt: tx.lt,
        now: tx.now,
        workchain,
        seqno,
        inMsg: inCell ? describe(inCell) : null,
        outMsgs: outCells.map(describe),
    };
}

/** The cells of `root`'s tree with the given hashes (the transactions the independent reader found in a block). */
function cellsByHash(root: Cell, hashes: Set<string>): Map<string, Cell> {
    const found = new Map<string, Cell>();
    const seen = new Set<Cell>();
    const stack = [root];
    while (stack.length > 0 && found.size < hashes.size) {
        const cell = stack.pop()!;
        if (seen.has(cell)) continue;
        seen.add(cell);
        const hash = cell.hash().toString('hex');
        if (hashes.has(hash)) found.set(hash, cell);
        stack.push(...cell.refs);
    }
    return found;
}

/** One row of the chain log's `blocks`: its columns must be what its BOC says. */
function readLogBlock(row: { seq: bigint; workchain: bigint; seqno: bigint; utime: bigint; end_lt: string; is_key: bigint; root_hash: string; file_hash: string; boc: Buffer }): LogBlock {
    const seq = Number(row.seq);
    const where = `chain log seq ${seq}`;
    const root = Cell.fromBoc(row.boc)[0];
    assert.equal(row.root_hash, root.hash().toString('hex'), `${where}: root_hash is not the hash of the BOC's root cell`);
    assert.equal(row.file_hash, sha256Hex(row.boc), `${where}: file_hash is not the sha256 of the BOC`);
    const block = readBlockIndependently(row.boc);
    const { info } = block;
    assert.equal(block.rootHash, row.root_hash, `${where}: the independent reader's root hash differs`);
    assert.equal(block.fileHash, row.file_hash, `${where}: the independent reader's file hash differs`);
    assert.deepEqual(
        { workchain: Number(row.workchain), seqno: Number(row.seqno), utime: Number(row.utime), end_lt: row.end_lt, is_key: row.is_key === 1n },
        { workchain: info.workchain, seqno: info.seqno, utime: info.genUtime, end_lt: info.endLt.toString(), is_key: info.keyBlock },
        `${where}: the columns differ from the block's header`,
    );
    assert.equal(info.notMaster, info.workchain !== -1, `${where}: not_master does not match workchain ${info.workchain}`);

    const hashes = new Set(block.transactions.map(t => t.hash));
    const cells = cellsByHash(root, hashes);
    const txs = block.transactions.map(t => {
        const cell = cells.get(t.hash);
        assert.ok(cell, `${where}: transaction ${t.hash} not found in the block's cells`);
        const tx = readTransaction(cell, info.workchain, info.seqno);
        assert.deepEqual({ account: tx.account, lt: tx.lt }, { account: t.account, lt: t.lt }, `${where}: transaction ${t.hash} is filed under another account or lt`);
        return tx;
    });
    return {
        seq,
        id: { workchain: info.workchain, shard: info.shard, seqno: info.seqno, rootHash: block.rootHash, fileHash: block.fileHash },
        isKey: info.keyBlock,
        utime: info.genUtime,
        startLt: info.startLt,
        endLt: info.endLt,
        parents: info.prev.map(p => ({ workchain: p.workchain, shard: p.shard, seqno: p.seqno, rootHash: p.rootHash, fileHash: p.fileHash })),
        masterRef: info.masterRef && { workchain: -1, shard: WHOLE_SHARD, seqno: info.masterRef.seqno, rootHash: info.masterRef.rootHash, fileHash: info.masterRef.fileHash },
        shardBlocks: (block.shardHashes ?? []).map(s => ({ workchain: s.workchain, shard: s.shard, seqno: s.seqno, rootHash: s.rootHash, fileHash: s.fileHash })),
        stateUpdate: { oldHash: block.stateUpdate.oldHash, newHash: block.stateUpdate.newHash },
        txs,
    };
}

export function readChainLog(chainFile: string): ChainLogContents {
    const db = openReadOnly(chainFile);
    try {
        const rows = db.prepare('SELECT seq, workchain, seqno, utime, end_lt, is_key, root_hash, file_hash, boc FROM blocks ORDER BY seq').all() as Array<Parameters<typeof readLogBlock>[0]>;
        const blocks = rows.map(readLogBlock);

        const zerostates = new Map<number, LogBlockId>();
        const states = db.prepare('SELECT workchain, root_hash, file_hash, boc FROM zerostates ORDER BY workchain').all() as Array<{ workchain: bigint; root_hash: string; file_hash: string; boc: Buffer }>;
        for (const z of states) {
            const workchain = Number(z.workchain);
            assert.equal(z.root_hash, Cell.fromBoc(z.boc)[0].hash().toString('hex'), `zerostate of workchain ${workchain}: root_hash is not the hash of its BOC's root cell`);
            assert.equal(z.file_hash, sha256Hex(z.boc), `zerostate of workchain ${workchain}: file_hash is not the sha256 of its BOC`);
            zerostates.set(workchain, { workchain, shard: WHOLE_SHARD, seqno: 0, rootHash: z.root_hash, fileHash: z.file_hash });
        }

        // The latest state of every account (the seq order of account_history is block order).
        const history = db.prepare('SELECT address, seq, shard_account FROM account_history ORDER BY address, seq').all() as Array<{ address: string; seq: bigint; shard_account: Buffer }>;
        const accounts = new Map<string, LogAccountState>();
        for (const row of history) {
            const shardAccount = loadShardAccount(Cell.fromBoc(row.shard_account)[0].beginParse());
            const account = shardAccount.account;
            const state = account?.storage.state;
            accounts.set(row.address, {
                seq: Number(row.seq),
                status: !account ? 'nonexist' : state!.type,
                balance: account?.storage.balance.coins ?? 0n,
                lastTransLt: shardAccount.lastTransactionLt,
                lastTransHash: shardAccount.lastTransactionHash.toString(16).padStart(64, '0'),
            });
        }
        return { blocks, zerostates, accounts };
    } finally {
        db.close();
    }
}

const blockKey = (workchain: number, seqno: number) => `${workchain}:${seqno}`;
const formatId = (id: { workchain: number; shard: string; seqno: number }) => `(${id.workchain},${id.shard},${id.seqno})`;

function sameId(actual: LogBlockId | undefined, expected: LogBlockId, what: string): void {
    assert.ok(actual, `${what}: missing`);
    assert.deepEqual(
        { workchain: actual.workchain, shard: actual.shard, seqno: actual.seqno, rootHash: actual.rootHash, fileHash: actual.fileHash },
        { workchain: expected.workchain, shard: expected.shard, seqno: expected.seqno, rootHash: expected.rootHash, fileHash: expected.fileHash },
        what,
    );
}

/**
 * The chain log is one chain: per workchain seqnos 1..N in log order, each block's parent the block
 * before it by root hash (the first one's the workchain's zerostate), time and lt moving forward, and
 * its state update starting from the state the previous block ended with (the zerostate's for the
 * first block) — so every restart continued from the right state. Masterchain block N commits
 * basechain block N, whose masterchain reference is masterchain block N-1 (the zerostate for N = 1).
 */
export function verifyChainLog({ blocks: log, zerostates }: ChainLogContents): { byWorkchain: Map<number, LogBlock[]> } {
    const masterZerostate = zerostates.get(-1);
    const basechainZerostate = zerostates.get(0);
    assert.ok(masterZerostate && basechainZerostate && zerostates.size === 2, `the chain log's zerostates are not one masterchain and one basechain state: ${[...zerostates.keys()]}`);

    const byWorkchain = new Map<number, LogBlock[]>([[-1, []], [0, []]]);
    for (const block of log) {
        const list = byWorkchain.get(block.id.workchain);
        assert.ok(list, `chain log seq ${block.seq}: unexpected workchain ${block.id.workchain}`);
        list.push(block);
    }
    const masters = byWorkchain.get(-1)!;
    const shards = byWorkchain.get(0)!;
    assert.ok(masters.length > 0, 'the chain log has no masterchain block');
    assert.equal(masters.length, shards.length, 'the chain log does not have as many masterchain as basechain blocks');

    for (const [workchain, blocks] of byWorkchain) {
        const zerostate = zerostates.get(workchain)!;
        blocks.forEach((block, i) => {
            const where = `chain log ${formatId(block.id)}`;
            assert.equal(block.id.seqno, i + 1, `${where}: seqnos of workchain ${workchain} are not 1..N in log order (gap or duplicate)`);
            assert.equal(block.id.shard, WHOLE_SHARD, `${where}: shard`);
            assert.ok(block.startLt < block.endLt, `${where}: empty lt range`);
            for (const tx of block.txs) {
                assert.ok(tx.lt > block.startLt && tx.lt < block.endLt, `${where}: transaction ${tx.hash} lt ${tx.lt} outside the block's lt range`);
                assert.equal(tx.now, block.utime, `${where}: transaction ${tx.hash} time differs from the block's`);
            }
            assert.equal(block.parents.length, 1, `${where}: expected one parent`);
            const prev = i > 0 ? blocks[i - 1] : null;
            if (prev) {
                sameId(block.parents[0], prev.id, `${where}: its parent is not the previous block (chain broken across a restart?)`);
                assert.equal(block.stateUpdate.oldHash, prev.stateUpdate.newHash, `${where}: its state update does not start from the state the previous block ended with (a restart lost or changed state?)`);
                assert.ok(block.utime >= prev.utime, `${where}: utime ${block.utime} before its parent's ${prev.utime}`);
                assert.ok(block.startLt >= prev.endLt, `${where}: lt range [${block.startLt}, ${block.endLt}) overlaps its parent's [${prev.startLt}, ${prev.endLt})`);
            } else {
                sameId(block.parents[0], zerostate, `${where}: its parent is not the workchain's zerostate`);
                assert.equal(block.stateUpdate.oldHash, zerostate.rootHash, `${where}: its state update does not start from the zerostate`);
            }
        });
    }
    shards.forEach((shard, i) => {
        const master = masters[i];
        assert.ok(master.seq > shard.seq, `chain log: masterchain block ${master.id.seqno} precedes the basechain block it commits`);
        assert.equal(master.shardBlocks.length, 1, `chain log ${formatId(master.id)}: expected one shard block`);
        sameId(master.shardBlocks[0], shard.id, `chain log ${formatId(master.id)}: does not commit basechain block ${shard.id.seqno}`);
        assert.equal(master.masterRef, undefined, `chain log ${formatId(master.id)}: a masterchain block with a masterchain reference`);
        // Every basechain block refers to the masterchain block before it, the first to the zerostate.
        sameId(shard.masterRef, i > 0 ? masters[i - 1].id : masterZerostate, `chain log ${formatId(shard.id)}: masterchain reference`);
    });
    return { byWorkchain };
}

export interface IngestSummary {
    blocksPerWorkchain: number;
    transactions: number;
    messages: number;
    traces: number;
    multiTxTraces: number;
    accounts: number;
}

/**
 * The chain log (`chainFile`) is one chain (verifyChainLog) ending at masterchain `finalMaster`, and
 * the index holds exactly its blocks (each once, with the log's hashes and as many transaction rows
 * as its BOC has transactions), transactions, messages, traces and latest account states.
 */
export async function verifyIngest(chainFile: string, index: IndexReader, finalMaster: number): Promise<IngestSummary> {
    const chainLog = readChainLog(chainFile);
    const { blocks: log, zerostates } = chainLog;
    const { byWorkchain } = verifyChainLog(chainLog);
    const n = byWorkchain.get(0)!.length;
    const lastMaster = byWorkchain.get(-1)!.at(-1)!.id.seqno;
    assert.equal(lastMaster, finalMaster, `the chain log ends at masterchain ${lastMaster}, the service reported ${finalMaster} when it had caught up`);

    const txs = log.flatMap(b => b.txs);
    const txByHash = new Map<string, LogTx>();
    for (const tx of txs) {
        assert.ok(!txByHash.has(tx.hash), `transaction ${tx.hash} appears twice in the chain log`);
        txByHash.set(tx.hash, tx);
    }

    // Cursor: the index has consumed the whole chain log.
    const [cursor] = await index.all("SELECT cursor FROM source_cursors WHERE source = 'devnet'");
    assert.equal(cursor?.cursor, String(log[log.length - 1].seq), 'the index cursor is not the chain log\'s last block');

    // Blocks: every block of the log exactly once, equal to the log's.
    const indexed = (await index.all('SELECT workchain, shard, seqno, root_hash, file_hash, utime, start_lt, end_lt, is_key_block, parents, master_ref, shard_blocks, tx_count FROM blocks ORDER BY workchain, seqno, shard')).map(r => ({
        workchain: Number(r.workchain), shard: String(r.shard), seqno: Number(r.seqno), root_hash: String(r.root_hash), file_hash: String(r.file_hash),
        utime: Number(r.utime), start_lt: BigInt(r.start_lt as bigint), end_lt: BigInt(r.end_lt as bigint), is_key_block: Number(r.is_key_block),
        parents: String(r.parents), master_ref: r.master_ref === null ? null : String(r.master_ref), shard_blocks: String(r.shard_blocks), tx_count: Number(r.tx_count),
    }));
    for (const [workchain, blocks] of byWorkchain) {
        const rows = indexed.filter(r => r.workchain === workchain);
        assert.deepEqual(rows.map(r => r.seqno), blocks.map(b => b.id.seqno), `indexed seqnos of workchain ${workchain} are not exactly the chain log's 1..${blocks.length} (gap or duplicate)`);
        rows.forEach((row, i) => {
            const block = blocks[i];
            const where = `indexed block ${formatId(block.id)}`;
            assert.deepEqual(
                {
                    shard: row.shard, root_hash: row.root_hash, file_hash: row.file_hash, utime: row.utime, start_lt: row.start_lt, end_lt: row.end_lt, is_key: row.is_key_block === 1,
                    parents: JSON.parse(row.parents) as string[], master_ref: row.master_ref, shard_blocks: JSON.parse(row.shard_blocks) as string[], tx_count: row.tx_count,
                },
                {
                    shard: block.id.shard, root_hash: block.id.rootHash, file_hash: block.id.fileHash, utime: block.utime, start_lt: block.startLt, end_lt: block.endLt, is_key: block.isKey,
                    parents: block.parents.map(formatId), master_ref: block.masterRef ? formatId(block.masterRef) : null, shard_blocks: block.shardBlocks.map(formatId), tx_count: block.txs.length,
                },
                `${where} differs from the chain log`,
            );
            if (i > 0) {
                const prev = rows[i - 1];
                assert.equal(block.parents[0].rootHash, prev.root_hash, `${where}: parent root hash is not the indexed previous block's`);
                assert.ok(row.utime >= prev.utime, `${where}: utime goes back`);
                assert.ok(row.start_lt >= prev.end_lt, `${where}: lt range overlaps the previous block's`);
            } else {
                // The zerostates are states, not blocks: the index starts at seqno 1, whose parent is the zerostate.
                assert.equal(block.parents[0].rootHash, zerostates.get(workchain)!.rootHash, `${where}: parent root hash is not the zerostate's`);
            }
        });
    }
    assert.equal(indexed.length, log.length, 'the index has blocks the chain log does not have');

    // Transactions: exactly the log's, each in its block; no block without all of its transactions.
    const indexedTxs = (await index.all('SELECT hash, account, lt, workchain, shard, seqno, trace_id FROM transactions')).map(r => ({
        hash: String(r.hash), account: String(r.account), lt: BigInt(r.lt as bigint), workchain: Number(r.workchain), shard: String(r.shard), seqno: Number(r.seqno), trace_id: String(r.trace_id),
    }));
    const rowsPerBlock = new Map<string, number>();
    for (const row of indexedTxs) rowsPerBlock.set(blockKey(row.workchain, row.seqno), (rowsPerBlock.get(blockKey(row.workchain, row.seqno)) ?? 0) + 1);
    const halfWritten = log.filter(b => (rowsPerBlock.get(blockKey(b.id.workchain, b.id.seqno)) ?? 0) !== b.txs.length)
        .map(b => `${formatId(b.id)}: ${rowsPerBlock.get(blockKey(b.id.workchain, b.id.seqno)) ?? 0} of ${b.txs.length}`);
    assert.deepEqual(halfWritten, [], 'blocks whose transaction rows are not exactly their transactions (half-written)');
    const indexedTxHashes = new Set(indexedTxs.map(r => r.hash));
    const missing = txs.filter(tx => !indexedTxHashes.has(tx.hash)).map(tx => `${tx.hash} (block ${blockKey(tx.workchain, tx.seqno)})`);
    assert.deepEqual(missing, [], 'chain log transactions missing from the index');
    const extra = indexedTxs.filter(r => !txByHash.has(r.hash)).map(r => r.hash);
    assert.deepEqual(extra, [], 'indexed transactions the chain log does not have');
    assert.equal(indexedTxs.length, txs.length, 'transaction count differs');
    for (const row of indexedTxs) {
        const tx = txByHash.get(row.hash)!;
        assert.deepEqual(
            { account: row.account, lt: row.lt, block: blockKey(row.workchain, row.seqno), shard: row.shard },
            { account: tx.account, lt: tx.lt, block: blockKey(tx.workchain, tx.seqno), shard: WHOLE_SHARD },
            `indexed transaction ${row.hash} differs from the chain log`,
        );
    }

    // Messages: every message of the log once, linked to its sending and receiving transactions.
    const expectedMessages = new Map<string, { type: string; in: string | null; out: string | null }>();
    const messageOf = (m: LogMessage) => {
        let e = expectedMessages.get(m.hash);
        if (!e) expectedMessages.set(m.hash, e = { type: m.type, in: null, out: null });
        return e;
    };
    for (const tx of txs) {
        if (tx.inMsg) messageOf(tx.inMsg).in = tx.hash;
        for (const out of tx.outMsgs) messageOf(out).out = tx.hash;
    }
    const typeName = { internal: 'int_msg', 'external-in': 'ext_in_msg', 'external-out': 'ext_out_msg' } as const;
    const indexedMessages = await index.all('SELECT hash, msg_type, tx_in_hash, tx_out_hash FROM messages');
    assert.equal(indexedMessages.length, expectedMessages.size, 'the index has a different number of messages than the chain log');
    for (const row of indexedMessages) {
        const e = expectedMessages.get(String(row.hash));
        assert.ok(e, `indexed message ${row.hash} is not in the chain log`);
        assert.deepEqual(
            { msg_type: row.msg_type, tx_in_hash: row.tx_in_hash, tx_out_hash: row.tx_out_hash },
            { msg_type: typeName[e.type as keyof typeof typeName], tx_in_hash: e.in, tx_out_hash: e.out },
            `indexed message ${row.hash} differs from the chain log`,
        );
    }

    // Traces, rebuilt from the log: a transaction belongs to the trace of the transaction that
    // sent its internal in-message; the root is the one with an external (or no) in-message.
    const senderOf = new Map<string, string>();
    const received = new Set<string>();
    for (const tx of txs) {
        for (const out of tx.outMsgs) if (out.type === 'internal') senderOf.set(out.hash, tx.hash);
        if (tx.inMsg?.type === 'internal') received.add(tx.inMsg.hash);
    }
    const traceOf = new Map<string, string>();
    const expectedTraces = new Map<string, { txCount: number; pending: number }>();
    const ordered = [...txs].sort((a, b) => (a.lt < b.lt ? -1 : a.lt > b.lt ? 1 : 0));
    for (const tx of ordered) {
        const sender = tx.inMsg?.type === 'internal' ? senderOf.get(tx.inMsg.hash) : undefined;
        const trace = sender ? traceOf.get(sender) : tx.hash;
        assert.ok(trace, `transaction ${tx.hash} was sent a message by ${sender}, which has a later lt`);
        traceOf.set(tx.hash, trace);
        const e = expectedTraces.get(trace) ?? { txCount: 0, pending: 0 };
        e.txCount += 1;
        e.pending += tx.outMsgs.filter(m => m.type === 'internal' && !received.has(m.hash)).length;
        expectedTraces.set(trace, e);
    }
    for (const row of indexedTxs) assert.equal(row.trace_id, traceOf.get(row.hash), `transaction ${row.hash} is in the wrong trace`);
    const traces = await index.all('SELECT t.trace_id, t.tx_count, t.pending, t.orphan, (SELECT COUNT(*) FROM transactions x WHERE x.trace_id = t.trace_id) AS actual FROM traces t');
    assert.deepEqual(traces.map(r => String(r.trace_id)).sort(), [...expectedTraces.keys()].sort(), 'the traces are not the chain log\'s traces');
    for (const row of traces) {
        const e = expectedTraces.get(String(row.trace_id))!;
        assert.equal(Number(row.tx_count), Number(row.actual), `trace ${row.trace_id}: tx_count ${row.tx_count} but ${row.actual} transactions have this trace id`);
        assert.equal(Number(row.tx_count), e.txCount, `trace ${row.trace_id}: tx_count differs from the chain log`);
        assert.equal(Number(row.pending), e.pending, `trace ${row.trace_id}: pending differs from the chain log`);
        assert.equal(Number(row.orphan), 0, `trace ${row.trace_id}: orphan, but its root's sender is in the index`);
        // The devnet runs every cascade to its end inside one block: each trace is complete.
        assert.equal(e.pending, 0, `trace ${row.trace_id}: the chain log has messages of it that were never received`);
        assert.equal(Number(row.pending), 0, `trace ${row.trace_id}: complete, but pending is ${row.pending}`);
    }

    // Account states: every account a block changed, as the chain log's account_history last
    // saved it (a ShardAccount BOC). Accounts only in the zerostates (seq 0) are not indexed, nor
    // are addresses that got a transaction but still do not exist (a bounced message to nobody).
    const lastState = new Map([...chainLog.accounts].filter(([, s]) => s.seq > 0 && s.status !== 'nonexist'));
    const accounts = await index.all('SELECT address, status, balance, last_tx_lt, last_tx_hash FROM account_states');
    assert.deepEqual(accounts.map(a => String(a.address)).sort(), [...lastState.keys()].sort(), 'the indexed accounts are not the chain log\'s');
    for (const row of accounts) {
        const s = lastState.get(String(row.address))!;
        assert.deepEqual(
            { status: row.status, balance: BigInt(row.balance as bigint), last_tx_lt: BigInt(row.last_tx_lt as bigint), last_tx_hash: row.last_tx_hash },
            { status: s.status, balance: s.balance, last_tx_lt: s.lastTransLt, last_tx_hash: s.lastTransHash },
            `account ${row.address} differs from its last state in the chain log`,
        );
        assert.ok(txByHash.has(s.lastTransHash), `account ${row.address}: its last transaction ${s.lastTransHash} is not in the chain log's blocks`);
    }

    return {
        blocksPerWorkchain: n,
        transactions: txs.length,
        messages: expectedMessages.size,
        traces: expectedTraces.size,
        multiTxTraces: [...expectedTraces.values()].filter(e => e.txCount > 1).length,
        accounts: accounts.length,
    };
}

/**
 * Blocks as the index lists them (workchain, shard, seqno): every shard's seqnos are contiguous (no
 * block missing or twice) and the masterchain reaches past `reachedPast`.
 */
export function assertContiguousBlocks(rows: Array<{ workchain: unknown; shard: unknown; seqno: unknown }>, reachedPast: number, what: string): void {
    const byShard = new Map<string, number[]>();
    for (const row of rows) {
        const key = `${Number(row.workchain)}:${String(row.shard)}`;
        byShard.set(key, [...(byShard.get(key) ?? []), Number(row.seqno)]);
    }
    const masterchain = [...byShard].find(([key]) => key.startsWith('-1:'))![1];
    assert.ok(masterchain[masterchain.length - 1] > reachedPast, `the blocks made ${what} are indexed`);
    for (const [shard, seqnos] of byShard) {
        const expected = Array.from({ length: seqnos[seqnos.length - 1] - seqnos[0] + 1 }, (_, i) => seqnos[0] + i);
        assert.deepEqual(seqnos, expected, `shard ${shard}: blocks missing or twice`);
    }
}
