import { createHash } from 'node:crypto';
import type { AccountStateRecord, BlockIdExt, BlockRecord, TransactionRecord } from '../chain-source.ts';
import { formatBlockId } from '../../ton/block-id.ts';

export const WHOLE_SHARD = '8000000000000000';

export interface BlockDraft {
    workchain: number;
    seqno: number;
    utime: number;
    startLt: bigint;
    endLt: bigint;
    parents: BlockIdExt[];
    masterRef?: BlockIdExt;
    shardBlocks: BlockIdExt[];
    transactions: Array<TransactionRecord & { hash: string }>;
    accountStates: AccountStateRecord[];
    /** Makes the block a key block carrying this config (BOC of the ConfigParams dictionary). */
    config?: Buffer;
}

/**
 * Seals a devnet block: its root hash is the SHA-256 of a canonical serialization of everything
 * that identifies it (position, time, lt range, links to other blocks, transaction hashes), and
 * its file hash the SHA-256 of that serialization together with the root hash.
 */
export function sealBlock(draft: BlockDraft): BlockRecord {
    const canonical = [
        'devnet-block/1',
        formatBlockId({ workchain: draft.workchain, shard: WHOLE_SHARD, seqno: draft.seqno }),
        draft.utime,
        draft.startLt.toString(),
        draft.endLt.toString(),
        draft.parents.map(p => `${formatBlockId(p)}:${p.rootHash}`).join(','),
        draft.masterRef ? `${formatBlockId(draft.masterRef)}:${draft.masterRef.rootHash}` : '',
        draft.shardBlocks.map(s => `${formatBlockId(s)}:${s.rootHash}`).join(','),
        draft.transactions.map(t => t.hash).join(','),
        draft.config ? createHash('sha256').update(draft.config).digest('hex') : '',
    ].join('|');
    const rootHash = createHash('sha256').update(canonical).digest('hex');
    const fileHash = createHash('sha256').update(canonical).update(rootHash).digest('hex');
    return {
        id: { workchain: draft.workchain, shard: WHOLE_SHARD, seqno: draft.seqno, rootHash, fileHash },
        utime: draft.utime,
        startLt: draft.startLt,
        endLt: draft.endLt,
        isKeyBlock: draft.config !== undefined,
        parents: draft.parents,
        masterRef: draft.masterRef,
        shardBlocks: draft.shardBlocks,
        transactions: draft.transactions.map(({ hash: _hash, ...record }) => record),
        accountStates: draft.accountStates,
        config: draft.config,
    };
}
