import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { BlockRecord, ChainSource, SourceHead, SourceItem } from '../chain-source.ts';
import { readBlockBoc } from '../block-reading.ts';

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
                parsed.push({ file: path, block: await readBlockBoc(bytes) });
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
