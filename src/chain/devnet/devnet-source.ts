import { EventEmitter, once } from 'node:events';
import type { Readable } from 'node:stream';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { type Address, type Cell } from '@ton/core';
import type { AccountStateReader, ChainSource, SourceHead, SourceItem } from '../chain-source.ts';
import type { BlockIdExt } from '../../ton/block-id.ts';
import { BlockReadingPool, readAhead } from '../reading/block-reading-pool.ts';
import { defaultReadingThreads } from '../../config/defaults.ts';
import { siblingModule, startModuleThread } from '../module-thread.ts';
import { withKnownCells } from '../known-cells.ts';
import { MessageRejectedError, type MessageSink } from '../message-sink.ts';
import { formatRawAddress } from '../../ton/address.ts';
import { InputFormatError, parseMessageCell } from '../../ton/input.ts';
import { MAX_TVM_MESSAGE_DEPTH } from '../../ton/tvm-executor.ts';
import { ChainLog } from './chain-log.ts';
import type { DevnetOptions, SeedProgress, StepStats, SubmittedMessage } from './devnet-producer.ts';
import type { DevnetManifest } from './manifest.ts';
import type { FaucetResult, ProducerCommand, ProducerEvent, SerializedError } from './producer-protocol.ts';

export type { DevnetOptions, SeedProgress, StepStats, SubmittedMessage } from './devnet-producer.ts';

const PRODUCER_THREAD = siblingModule('producer-thread', import.meta.url);

/**
 * The embedded devnet as a chain source. Its producer (the TVM and the collator) runs in a thread
 * of its own and commits real blocks to the chain log; this side reads them from the log like any
 * block BOCs, completes the account states the updates prune from the log's account history, and
 * passes messages and faucet requests to the producer.
 */
export class DevnetSource implements ChainSource, MessageSink, AccountStateReader {
    readonly name = 'devnet';
    readonly live = true;
    readonly faucetCap: bigint;

    private readonly events = new EventEmitter();
    /** The chain log, after cells read before: the elector and the config contract change every block but keep their large data. */
    private readonly reader = withKnownCells({ accountCellAt: async (block, address) => this.log?.accountCellAt(block, address) ?? null });
    private worker: Worker | null = null;
    private log: ChainLog | null = null;
    private manifestCache: DevnetManifest | null = null;
    private lastHead: SourceHead | null = null;
    private isSeeded = false;
    private stopped = false;
    private nextId = 1;
    private readonly pending = new Map<number, { resolve: (value: SubmittedMessage | FaucetResult | undefined) => void; reject: (error: Error) => void }>();

    private pool: BlockReadingPool | null = null;

    constructor(private readonly options: DevnetOptions, private readonly reading: { readingThreads: number; transactionTexts?: boolean } = { readingThreads: defaultReadingThreads() }) {
        this.faucetCap = options.faucetCap;
        this.events.setMaxListeners(0);
    }

    async start(): Promise<void> {
        // Producing blocks makes many short-lived cells: a young generation larger than the default
        // cuts the collector's share of a loaded devnet (BENCHMARKS, devnet).
        const threadOptions = { workerData: this.options, resourceLimits: { maxYoungGenerationSizeMb: 128 } };
        const worker = startModuleThread(PRODUCER_THREAD, threadOptions);
        this.worker = worker;
        const started = new Promise<void>((resolve, reject) => {
            worker.on('message', (event: ProducerEvent) => {
                if (event.type === 'started') {
                    this.manifestCache = event.manifest;
                    this.lastHead = event.head;
                    this.isSeeded = event.seeded;
                    resolve();
                } else if (event.type === 'fatal') {
                    reject(new Error(event.message));
                    this.events.emit('fatal', new Error(event.message));
                } else {
                    this.handle(event);
                }
            });
            worker.on('error', error => {
                reject(error);
                this.failAll(error);
                this.events.emit('failure', error);
            });
            worker.on('exit', code => {
                if (!this.stopped) {
                    const error = new Error(`the devnet's producer thread exited (code ${code})`);
                    reject(error);
                    this.failAll(error);
                }
                this.events.emit('exit');
                this.events.emit('produced');
            });
        });
        await started;
        this.log = new ChainLog(join(this.options.dataDir, 'devnet', 'chain.sqlite'), { readonly: true });
        this.pool = new BlockReadingPool(this, this.reading.readingThreads, this.reading.transactionTexts ?? true);
    }

    async stop(): Promise<void> {
        if (this.stopped) return;
        this.stopped = true;
        const worker = this.worker;
        if (worker) {
            const exited = once(this.events, 'exit');
            const done = new Promise<void>(resolve => {
                const onMessage = (event: ProducerEvent) => {
                    if (event.type === 'stopped' || event.type === 'fatal') {
                        worker.off('message', onMessage);
                        resolve();
                    }
                };
                worker.on('message', onMessage);
            });
            this.post({ type: 'stop' });
            await Promise.race([done, exited]);
            await worker.terminate();
        }
        this.failAll(new Error('the devnet is shutting down'));
        this.events.emit('produced');
        await this.pool?.close();
        this.pool = null;
        this.log?.close();
        this.log = null;
    }

    manifest(): DevnetManifest {
        if (!this.manifestCache) throw new Error('the devnet has not started');
        return this.manifestCache;
    }

    async head(): Promise<SourceHead | null> {
        return this.lastHead;
    }

    /** True once every seed step has been produced (a restored chain may be seeded already). */
    get seeded(): boolean {
        return this.isSeeded;
    }

    /** The account's state after a block, from the chain log (the account-state reader of the one ingestion path). */
    async accountCellAt(block: BlockIdExt, address: string, pruned?: Cell): Promise<Cell | null> {
        return this.reader.accountCellAt(block, address, pruned);
    }

    async *blocksAfter(cursor: string | null, signal: AbortSignal): AsyncIterable<SourceItem> {
        let seq = cursor === null ? 0 : Number(cursor);
        while (!signal.aborted && this.log && this.pool) {
            const batch = this.log.blocksAfter(seq, 64);
            // Blocks are read (parsed) in the reading threads ahead of the one being indexed.
            for await (const { item, record } of readAhead(this.pool, batch)) {
                seq = item.seq;
                yield { cursor: String(item.seq), block: record };
            }
            if (batch.length > 0) continue;
            if (this.stopped) return;
            await once(this.events, 'produced', { signal }).catch(() => undefined);
        }
    }

    sendExternalMessage(message: Cell): Promise<SubmittedMessage> {
        // Refused here, before it waits for a block: a deeper message would overflow the TVM's stack (see TVM_LIMITS).
        if (message.depth() > MAX_TVM_MESSAGE_DEPTH) {
            throw new InputFormatError(`boc is ${message.depth()} cells deep; the devnet runs messages at most ${MAX_TVM_MESSAGE_DEPTH} cells deep `
                + '(its TVM, compiled to WASM, overflows its stack on deeper ones; the network itself takes up to 512)');
        }
        const parsed = parseMessageCell(message);
        if (parsed.info.type !== 'external-in') throw new InputFormatError(`boc is an ${parsed.info.type} message; only external-in messages can be sent`);
        return this.request(id => ({ type: 'send', id, boc: message.toBoc() })) as Promise<SubmittedMessage>;
    }

    faucet(to: Address, amount: bigint): Promise<FaucetResult> {
        return this.request(id => ({ type: 'faucet', id, to: formatRawAddress(to), amount })) as Promise<FaucetResult>;
    }

    /**
     * Stops block production (messages sent meanwhile wait for resume()); resolves once the last step is
     * committed, so the chain's head stays where it is (tests compare indexes at a fixed head).
     */
    async pause(): Promise<void> {
        await this.request(id => ({ type: 'pause', id }));
    }

    resume(): void {
        this.post({ type: 'resume' });
    }

    /** Something the chain did differently from a real one (it keeps going). */
    onWarning(listener: (message: string) => void): void {
        this.events.on('warning', listener);
    }

    /** A block could not be produced (the chain keeps going with the next one). */
    onFailure(listener: (error: Error) => void): void {
        this.events.on('failure', listener);
    }

    /** Called after each seed step's block is committed (a new chain runs one step per block). */
    onSeedProgress(listener: (progress: SeedProgress) => void): void {
        this.events.on('seeded', listener);
    }

    /** Called after every production step with what making its blocks cost (benchmarks). */
    onStep(listener: (stats: StepStats) => void): void {
        this.events.on('step', listener);
    }

    /** A V8 heap snapshot of the producer thread, where the chain's accounts live (benchmarks, diagnostics). */
    producerHeapSnapshot(): Promise<Readable> {
        if (!this.worker) return Promise.reject(new Error('the devnet has not started'));
        return this.worker.getHeapSnapshot();
    }

    /** Resolves after the next block is committed (tests and tools use it to step the chain). */
    nextBlock(): Promise<void> {
        return once(this.events, 'produced').then(() => undefined);
    }

    private handle(event: ProducerEvent): void {
        switch (event.type) {
            case 'produced':
                this.lastHead = event.head;
                this.isSeeded = event.seeded;
                this.events.emit('produced');
                this.events.emit('step', event.stats);
                return;
            case 'seeded':
                this.events.emit('seeded', event.progress);
                return;
            case 'warning':
                this.events.emit('warning', event.message);
                return;
            case 'failure':
                this.events.emit('failure', new Error(event.message));
                return;
            case 'result': {
                const waiting = this.pending.get(event.id);
                if (!waiting) return;
                this.pending.delete(event.id);
                if (event.error) waiting.reject(restoreError(event.error));
                else waiting.resolve(event.sent);
                return;
            }
            default:
                return;
        }
    }

    private request(command: (id: number) => ProducerCommand): Promise<SubmittedMessage | FaucetResult | undefined> {
        if (this.stopped || !this.worker) return Promise.reject(new Error('the devnet is shutting down'));
        const id = this.nextId++;
        return new Promise((resolve, reject) => {
            this.pending.set(id, { resolve, reject });
            this.post(command(id));
        });
    }

    private post(command: ProducerCommand): void {
        this.worker?.postMessage(command);
    }

    private failAll(error: Error): void {
        for (const waiting of this.pending.values()) waiting.reject(error);
        this.pending.clear();
    }
}

function restoreError(error: SerializedError): Error {
    if (error.kind === 'rejected') return new MessageRejectedError(error.message);
    if (error.kind === 'input') return new InputFormatError(error.message);
    return new Error(error.message);
}
