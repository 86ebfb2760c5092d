import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { Dictionary } from '@ton/core';
import { readBoc } from '../../ton/boc/boc-reader.ts';
import type { AccountStateReader, BlockRecord, ChainSource, SourceHead, SourceItem } from '../chain-source.ts';
import { readBlockBoc } from '../block-reading.ts';
import { DictKeys } from '../../ton/cells/dict-keys.ts';

/**
 * Raw block BOC files (`block#11ef55aa`, as a liteserver's getBlock returns them). Blocks are given
 * oldest first by logical time (ties in the order given), so senders are indexed before receivers wherever the set allows.
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
        const parsed: Array<{ file: string; block: BlockRecord; index: number }> = [];
        // A `….states.boc` beside a block file is its account states (export-blocks writes them), not a block.
        for (const file of this.files.filter(f => !f.endsWith(STATES_SUFFIX))) {
            if (signal.aborted) return;
            const path = resolve(file);
            let bytes: Buffer;
            try {
                bytes = await readFile(path);
            } catch (error) {
                throw new Error(`cannot read block file ${file}: ${(error as Error).message}`);
            }
            try {
                parsed.push({ file: path, block: await readBlockBoc(bytes, await companionStates(path)), index: parsed.length });
            } catch (error) {
                throw new Error(`${file} is not a block BOC (block#11ef55aa): ${(error as Error).message}`);
            }
        }
        parsed.sort((a, b) => (a.block.startLt < b.block.startLt ? -1 : a.block.startLt > b.block.startLt ? 1 : a.index - b.index));
        for (const item of parsed) {
            if (signal.aborted) return;
            yield { cursor: `file:${item.file}`, block: item.block };
        }
    }
}

const STATES_SUFFIX = '.states.boc';

/**
 * The account-state reader of a block file: the `HashmapE 256 ^ShardAccount` (by account id) in the
 * `….states.boc` beside it, if there is one; the states are those right after that block.
 */
async function companionStates(blockFile: string): Promise<AccountStateReader | undefined> {
    const statesFile = blockFile.replace(/\.boc$/, '') + STATES_SUFFIX;
    let bytes: Buffer;
    try {
        bytes = await readFile(statesFile);
    } catch {
        return undefined;
    }
    const states = readBoc(bytes)[0].beginParse().loadDict(DictKeys.BigUint(256), Dictionary.Values.Cell());
    return {
        accountCellAt: async (_block, address) => {
            const state = states.get(BigInt(`0x${address.split(':')[1]}`));
            return state ? state.refs[0] : null;
        },
    };
}
