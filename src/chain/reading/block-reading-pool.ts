import type { Worker } from 'node:worker_threads';
import { readBlockBoc } from '../block-reading.ts';
import type { AccountStateReader, BlockRecord } from '../chain-source.ts';
import { siblingModule, startModuleThread } from '../module-thread.ts';
import { writeBoc } from '../../ton/boc/boc-writer.ts';
import { receivedRecord, type FromReader, type ReadingThreadData, type ToReader } from './reading-protocol.ts';

const READING_THREAD = siblingModule('reading-thread', import.meta.url);

interface ReadingThread {
    worker: Worker;
    pending: Map<number, PendingRead>;
    /** Its modules are loaded: until then blocks go to other threads (or are read here). */
    loaded: boolean;
}

/**
 * Reading makes many short-lived cells: a young generation larger than V8's default (32 MB on the
 * project's machines) cuts the collector's share. 64 MB read a devnet's blocks within 3 % of 128 MB's
 * time, for 64 MB less in each busy thread (indexing a 150k-transaction devnet through 2 threads).
 */
const READING_THREAD_YOUNG_GENERATION_MB = 64;

const BLOCKS_IN_FLIGHT_PER_THREAD = 4;

interface PendingRead {
    boc: Buffer;
    resolve: (record: BlockRecord) => void;
    reject: (error: Error) => void;
}

/**
 * Block reading (readBlockBoc, the one parser) spread over worker threads, so that while the indexer
 * writes one block the next ones are being read. With no threads, blocks are read in this thread,
 * and so are they while no thread has loaded yet (a restart catches up at once instead of waiting
 * for the threads' modules). Pruned accounts a thread cannot complete itself are asked of `reader` here.
 */
export class BlockReadingPool {
    private readonly threads: ReadingThread[] = [];
    private nextId = 1;
    private closed = false;
    private readonly whenLoaded: Promise<void>;
    private onLoaded: () => void = () => undefined;

    constructor(private readonly reader: AccountStateReader | undefined, threadCount: number, private readonly texts = true) {
        this.whenLoaded = new Promise(resolve => { this.onLoaded = resolve; });
        for (let i = 0; i < threadCount; i++) this.threads.push(this.startThread());
        this.checkLoaded();
    }

    /** Threads reading (fewer than asked for once one has died). */
    get threadCount(): number {
        return this.threads.length;
    }

    /** Resolves once every thread still in the pool has loaded (at once with none). */
    loaded(): Promise<void> {
        return this.whenLoaded;
    }

    /**
     * How many blocks are worth having in flight to keep every loaded thread busy: four a thread, so
     * that they read on while the indexer waits for its commit (on two cores, 6 % faster ingest than
     * two a thread; six or ten a thread were no faster than four).
     */
    get depth(): number {
        return Math.max(1, this.loadedThreads().length * BLOCKS_IN_FLIGHT_PER_THREAD);
    }

    async read(boc: Buffer): Promise<BlockRecord> {
        if (this.closed) throw new Error('the block reading pool is closed');
        // An indexer reading and writing here (SQLite answers synchronously) never lets the event
        // loop take the threads' "loaded" messages: one turn of it before each read while they load.
        if (this.threads.length > 0 && !this.threads.some(t => t.loaded)) {
            await new Promise(resolve => setImmediate(resolve));
            if (this.closed) throw new Error('the block reading pool is closed');
        }
        const loaded = this.loadedThreads();
        if (loaded.length === 0) return readBlockBoc(boc, this.reader, undefined, this.texts);
        const thread = loaded.reduce((least, t) => (t.pending.size < least.pending.size ? t : least));
        const id = this.nextId++;
        return new Promise<BlockRecord>((resolve, reject) => {
            thread.pending.set(id, { boc, resolve, reject });
            // An idle thread does not hold the process open; one with work does.
            if (thread.pending.size === 1) thread.worker.ref();
            post(thread.worker, { type: 'read', id, boc });
        });
    }

    async close(): Promise<void> {
        if (this.closed) return;
        this.closed = true;
        const threads = this.threads.splice(0);
        for (const thread of threads) fail(thread, new Error('the block reading pool is closed'));
        await Promise.all(threads.map(t => t.worker.terminate()));
    }

    private startThread(): ReadingThread {
        const workerData: ReadingThreadData = { hasReader: this.reader !== undefined, texts: this.texts };
        const worker = startModuleThread(READING_THREAD, { workerData, resourceLimits: { maxYoungGenerationSizeMb: READING_THREAD_YOUNG_GENERATION_MB } });
        const thread: ReadingThread = { worker, pending: new Map(), loaded: false };
        worker.unref();
        worker.on('message', (message: FromReader) => {
            if (message.type === 'loaded') {
                thread.loaded = true;
                this.checkLoaded();
                return;
            }
            if (message.type === 'account') {
                void this.answer(worker, message.id, message.block, message.address);
                return;
            }
            const waiting = thread.pending.get(message.id);
            if (!waiting) return;
            thread.pending.delete(message.id);
            if (thread.pending.size === 0) worker.unref();
            if (message.type === 'record') waiting.resolve(receivedRecord(message.record));
            else waiting.reject(new Error(message.message));
        });
        // A thread that dies (out of memory, say) leaves the pool; its blocks are read again by the
        // others, or in this thread once none is left, so the indexer sees no gap and no error.
        worker.on('error', () => undefined);
        worker.on('exit', () => {
            if (this.closed) return;
            this.threads.splice(this.threads.indexOf(thread), 1);
            this.checkLoaded();
            const orphaned = [...thread.pending.values()];
            thread.pending.clear();
            for (const read of orphaned) this.read(read.boc).then(read.resolve, read.reject);
        });
        return thread;
    }

    private loadedThreads(): ReadingThread[] {
        return this.threads.filter(t => t.loaded);
    }

    private checkLoaded(): void {
        if (this.threads.every(t => t.loaded)) this.onLoaded();
    }

    private async answer(worker: Worker, id: number, block: Parameters<AccountStateReader['accountCellAt']>[0], address: string): Promise<void> {
        try {
            const cell = this.reader ? await this.reader.accountCellAt(block, address) : null;
            post(worker, { type: 'account', id, boc: cell ? writeBoc(cell) : null });
        } catch (error) {
            post(worker, { type: 'account', id, boc: null, error: error instanceof Error ? error.message : String(error) });
        }
    }
}

function post(worker: Worker, message: ToReader): void {
    worker.postMessage(message);
}

function fail(thread: ReadingThread, error: Error): void {
    for (const waiting of thread.pending.values()) waiting.reject(error);
    thread.pending.clear();
}

/**
 * `items` read through `pool` with up to `pool.depth` reads in flight, yielded in the order given
 * (the indexer needs parents before children) with the record of each.
 */
export async function* readAhead<T extends { boc: Buffer }>(pool: BlockReadingPool, items: Iterable<T>): AsyncGenerator<{ item: T; record: BlockRecord }> {
    const inFlight: Array<{ item: T; record: Promise<BlockRecord> }> = [];
    const iterator = items[Symbol.iterator]();
    let done = false;
    const fill = () => {
        while (!done && inFlight.length < pool.depth) {
            const next = iterator.next();
            if (next.done) done = true;
            else {
                const record = pool.read(next.value.boc);
                // Awaited in order below; a failure further ahead must not count as unhandled meanwhile.
                record.catch(() => undefined);
                inFlight.push({ item: next.value, record });
            }
        }
    };
    fill();
    while (inFlight.length > 0) {
        const head = inFlight.shift()!;
        const record = await head.record;
        fill();
        yield { item: head.item, record };
    }
}
