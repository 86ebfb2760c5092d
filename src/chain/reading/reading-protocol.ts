import type { AccountStateRecord, BlockRecord } from '../chain-source.ts';
import type { BlockIdExt } from '../../ton/block-id.ts';
import { hasCells, summarizeTransaction } from '../../ton/transaction.ts';

export interface ReadingThreadData {
    /** Whether the source has an account-state reader to ask about pruned accounts. */
    hasReader: boolean;
    /** Whether to make the transactions' stored texts (readBlockBoc's `texts`). */
    texts: boolean;
}

/** From the indexing thread to a reading thread. */
export type ToReader =
    | { type: 'read'; id: number; boc: Uint8Array }
    /** The answer to an `account` question: the whole Account cell as a BOC, or null when the source has none. */
    | { type: 'account'; id: number; boc: Uint8Array | null; error?: string };

/** From a reading thread to the indexing thread. */
export type FromReader =
    /** The thread's modules are loaded: it can take blocks. */
    | { type: 'loaded' }
    | { type: 'record'; id: number; record: BlockRecord }
    | { type: 'failed'; id: number; message: string }
    /** A pruned account the thread cannot complete from cells it has read: the source's account-state reader answers. */
    | { type: 'account'; id: number; block: BlockIdExt; address: string };

/**
 * A block record as it crosses to another thread: transactions keep their BOCs and plain summaries,
 * not their cells (a cell does not survive a structured clone, and the indexer needs only the values).
 */
export function transferableRecord(record: BlockRecord): BlockRecord {
    return {
        ...record,
        transactions: record.transactions.map(({ boc, summary, endBalance, text }) => ({
            boc,
            summary: summary && hasCells(summary) ? summarizeTransaction(summary) : summary,
            endBalance,
            text,
        })),
    };
}

/** A record received from another thread: its byte fields arrive as Uint8Arrays and become Buffers again (no copy). */
export function receivedRecord(record: BlockRecord): BlockRecord {
    for (const tx of record.transactions) {
        tx.boc = asBuffer(tx.boc);
        if (tx.text) tx.text.text = asBuffer(tx.text.text);
    }
    if (record.listText) record.listText.text = asBuffer(record.listText.text);
    for (const state of record.accountStates ?? []) reviveState(state);
    if (record.config) record.config = asBuffer(record.config);
    return record;
}

function reviveState(state: AccountStateRecord): void {
    if (state.code) state.code = asBuffer(state.code);
    if (state.data) state.data = asBuffer(state.data);
    if (state.libraries) state.libraries = asBuffer(state.libraries);
}

export function asBuffer(bytes: Uint8Array): Buffer {
    return Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}
