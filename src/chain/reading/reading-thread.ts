/**
 * A block-reading thread: reads block BOCs with the one block parser (readBlockBoc) and posts the
 * records back. Accounts a block's update prunes are completed from cells this thread has read
 * before; the rest are asked of the source's reader in the indexing thread.
 */
import { parentPort, workerData } from 'node:worker_threads';
import type { Cell } from '@ton/core';
import { readBlockBoc } from '../block-reading.ts';
import { withKnownCells } from '../known-cells.ts';
import { readBoc } from '../../ton/boc/boc-reader.ts';
import type { BlockIdExt } from '../../ton/block-id.ts';
import { asBuffer, transferableRecord, type FromReader, type ReadingThreadData, type ToReader } from './reading-protocol.ts';

const port = parentPort!;
const questions = new Map<number, { resolve: (cell: Cell | null) => void; reject: (error: Error) => void }>();
let nextQuestion = 1;

const askSource = (block: BlockIdExt, address: string): Promise<Cell | null> => new Promise((resolve, reject) => {
    const id = nextQuestion++;
    questions.set(id, { resolve, reject });
    post({ type: 'account', id, block, address });
});
/** Without a reader in the indexing thread, pruned accounts keep what the block shows (as readBlockBoc does without one). */
const reader = (workerData as ReadingThreadData).hasReader ? withKnownCells({ accountCellAt: askSource }) : undefined;

function post(message: FromReader): void {
    port.postMessage(message);
}

port.on('message', (message: ToReader) => {
    if (message.type === 'account') {
        const question = questions.get(message.id);
        questions.delete(message.id);
        if (!question) return;
        if (message.error !== undefined) question.reject(new Error(message.error));
        else question.resolve(message.boc ? readBoc(asBuffer(message.boc))[0] : null);
        return;
    }
    readBlockBoc(asBuffer(message.boc), reader, undefined, (workerData as ReadingThreadData).texts).then(
        record => post({ type: 'record', id: message.id, record: transferableRecord(record) }),
        (error: unknown) => post({ type: 'failed', id: message.id, message: error instanceof Error ? error.message : String(error) }),
    );
});

post({ type: 'loaded' });
