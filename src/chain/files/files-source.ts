import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { BlockRecord, ChainSource, SourceHead, SourceItem } from '../chain-source.ts';
import { parseBlockCell, readBlockRoot, type ParsedBlock } from '../../ton/block/block-file.ts';
import { accountStatesAfterBlock, type AccountStateAfterBlock } from '../../ton/block/block-state.ts';
import { sha256 } from '../../ton/fast-hash.ts';
import { writeBoc } from '../../ton/boc/boc-writer.ts';

/**
 * Raw block BOC files (`block#11ef55aa`, as a liteserver's getBlock returns them). Blocks are given
 * oldest first by logical time, so senders are indexed before receivers wherever the set allows.
 * The source is finite; it has no cursor of its own because re-indexing a known block is a no-op.
 */
export class BlockFilesSource implements ChainSource {
    readonly name = 'files';
    readonly live = false;

    constructor(private readonly files: string[]) {}

    async start(): Promise<void> {}
    async stop(): Promise<void> {}

    async head(): Promise<SourceHead | null> {
        return null;
    }

    async *blocksAfter(_cursor: string | null, signal: AbortSignal): AsyncIterable<SourceItem> {
        const parsed: Array<{ file: string; block: BlockRecord }> = [];
        for (const file of this.files) {
            if (signal.aborted) return;
            const path = resolve(file);
            let bytes: Buffer;
            try {
                bytes = await readFile(path);
            } catch (error) {
                throw new Error(`cannot read block file ${file}: ${(error as Error).message}`);
            }
            try {
                parsed.push({ file: path, block: blockRecordFromBoc(bytes) });
            } catch (error) {
                throw new Error(`${file} is not a block BOC (block#11ef55aa): ${(error as Error).message}`);
            }
        }
        parsed.sort((a, b) => (a.block.startLt < b.block.startLt ? -1 : a.block.startLt > b.block.startLt ? 1 : a.block.id.workchain - b.block.id.workchain));
        for (const item of parsed) {
            if (signal.aborted) return;
            yield { cursor: `file:${item.file}`, block: item.block };
        }
    }
}

/** A block record from a block file, with the state of every account it changed (from its state update). */
export function blockRecordFromBoc(boc: Buffer): BlockRecord {
    const root = readBlockRoot(boc);
    return blockRecordFromFile(parseBlockCell(root, sha256(boc).toString('hex')), accountStatesAfterBlock(root));
}

export function blockRecordFromFile(block: ParsedBlock, states: AccountStateAfterBlock[] = []): BlockRecord {
    // The state after the block gives the exact end balance of each account's last transaction in it.
    const finalBalance = new Map(states.map(s => [s.lastTransHash, s.balance]));
    return {
        id: block.id,
        utime: block.utime,
        startLt: block.startLt,
        endLt: block.endLt,
        isKeyBlock: block.isKeyBlock,
        parents: block.prev,
        masterRef: block.masterRef,
        shardBlocks: block.shardTops.map(({ workchain, shard, seqno, rootHash, fileHash }) => ({ workchain, shard, seqno, rootHash, fileHash })),
        transactions: block.transactions.map(t => ({ boc: writeBoc(t.cell), cell: t.cell, endBalance: finalBalance.get(t.hash) })),
        accountStates: states.map(s => ({
            address: s.account, status: s.status, balance: s.balance, codeHash: s.codeHash, dataHash: s.dataHash,
            lastTransLt: s.lastTransLt, lastTransHash: s.lastTransHash,
        })),
        config: block.config ? writeBoc(block.config) : undefined,
    };
}
