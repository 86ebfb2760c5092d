import { Address, beginCell, external, parseTuple, storeMessage, storeShardAccount, type Cell, type TupleItem } from '@ton/core';
import type {
    Executor,
    ExecutorEmulationResult,
    ExecutorGetMethodArgs,
    ExecutorGetMethodResult,
    ExecutorRunTickTockArgs,
    ExecutorRunTransactionArgs,
    IExecutor,
} from '@ton/sandbox';
import { bocRootDepth, readBoc } from './boc/boc-reader.ts';
import { writeBoc } from './boc/boc-writer.ts';

/**
 * What @ton/sandbox's emulator (the TVM compiled to WASM) can take, measured on this build
 * (@ton/sandbox 0.41.0, emulator commit f801e1c1, 2025-12-05; test/emulation/tvm-limits.test.ts
 * measures it again).
 *
 * The WASM module has a 64 KiB stack (linear memory 0x210300..0x220300) right above the C++
 * globals, and no stack check: the emulator walks cell trees recursively, one stack frame per
 * level of depth, so a deep enough cell makes the stack run over the globals below it (measured by
 * filling the stack with a pattern and finding the lowest byte a call changed). The overflow itself
 * does not trap: code that then reads a smashed global does ("memory access out of bounds", "table
 * index is out of bounds", "null function or function signature mismatch", a bare number, or
 * output that is not JSON), in that call or a later one, and the instance stays broken for every
 * later call. Two walks are deep:
 *  - writing a cell out as a BOC (the transaction, the new ShardAccount, a get-method's result
 *    stack): 208 bytes per level plus 2,472, so at most 303 levels fit;
 *  - freeing a cell tree (the inbound message, even a refused one): 144 bytes per level plus
 *    about 3,750, so at most 429 levels fit.
 * A transaction cell is 2 deeper than its inbound message, so an accepted message of depth 302 is
 * the first to overflow (silently; from 305 on it traps) and a refused one of depth 430 (from 434
 * on it traps); a ShardAccount is 2 deeper than the account's data.
 */
export const TVM_LIMITS = {
    /** Deepest cell the emulator can write out (transaction, account state, get-method stack) within its stack. */
    serializedDepth: 303,
    /** Deepest inbound message whose transaction (2 deeper) the emulator can write out. */
    acceptedMessageDepth: 301,
    /** Deepest message the emulator can free within its stack (a refused one is only freed). */
    freedDepth: 429,
} as const;

/**
 * The deepest message this service hands to a TVM (emulation, the devnet). Below the emulator's
 * own limit ({@link TVM_LIMITS}.acceptedMessageDepth) with room to spare, and above every standard
 * wallet's deepest message (a v5r1 transfer of 255 actions is 256 deep). The network's own limit
 * (config param 43, max_ext_msg_depth) is 512.
 */
export const MAX_TVM_MESSAGE_DEPTH = 288;

/**
 * Whether the root of a base64 BOC is deeper than `limit`. A bag of no more than `limit` cells
 * cannot be (depth < cell count), which its header tells without reading it; only a bigger one is read.
 */
export function bocDeeperThan(base64: string, limit: number): boolean {
    const header = Buffer.from(base64.slice(0, 24), 'base64');
    if (header.length >= 7 && header.readUInt32BE(0) === 0xb5ee9c72) {
        const size = header[4] & 0x07;
        if (size >= 1 && size <= 4 && header.length >= 6 + size) {
            let cells = 0;
            for (let i = 0; i < size; i++) cells = cells * 256 + header[6 + i];
            if (cells <= limit) return false;
        }
    }
    return bocRootDepth(Buffer.from(base64, 'base64')) > limit;
}


/** The emulator threw instead of answering: its WASM instance is not trusted any more and was replaced. */
export class TvmFault extends Error {
    override readonly name = 'TvmFault';

    constructor(
        /** What the emulator was doing. */
        readonly operation: 'transaction' | 'tick-tock' | 'get-method' | 'output check',
        /** What it threw: a WebAssembly.RuntimeError, a bare number (a C++ exception), a SyntaxError on its output, … */
        override readonly cause: unknown,
    ) {
        super(`the TVM emulator failed (${operation}): ${describeThrown(cause)}; it was restarted`);
    }

    /** A C++ exception the emulator did not catch reaches JavaScript as a bare number. */
    get cppException(): boolean {
        return typeof this.cause === 'number';
    }
}

function describeThrown(thrown: unknown): string {
    if (thrown instanceof WebAssembly.RuntimeError) return `WebAssembly trap (${thrown.message})`;
    if (typeof thrown === 'number') return `uncaught C++ exception (${thrown})`;
    if (thrown instanceof SyntaxError) return 'its output was not JSON';
    return thrown instanceof Error ? thrown.message : String(thrown);
}

/**
 * An @ton/sandbox emulator that survives its own faults. Any throw from the WASM instance (a trap,
 * an uncaught C++ exception, garbage output) means its memory can no longer be trusted, so the
 * instance is dropped and a new one is created and checked (a known get-method runs, and the
 * config of the failed call loads) before the next call runs; the failed call rejects with a
 * {@link TvmFault}. Calls made while the new instance is being made wait for it.
 */
export class ResilientExecutor implements IExecutor {
    private instance: Promise<Executor>;
    private readonly retired = new WeakSet<Executor>();
    private restartCount = 0;

    constructor(private readonly create: () => Promise<Executor> = createEmulator) {
        this.instance = create();
    }

    /** How many times the WASM instance was replaced. */
    get restarts(): number {
        return this.restartCount;
    }

    runTransaction(args: ExecutorRunTransactionArgs): Promise<ExecutorEmulationResult> {
        return this.guarded('transaction', args.config, executor => executor.runTransaction(args));
    }

    runTickTock(args: ExecutorRunTickTockArgs): Promise<ExecutorEmulationResult> {
        return this.guarded('tick-tock', args.config, executor => executor.runTickTock(args));
    }

    runGetMethod(args: ExecutorGetMethodArgs): Promise<ExecutorGetMethodResult> {
        const own = { ...args, code: withBoc(args.code), data: withBoc(args.data) };
        return this.guarded('get-method', args.config, executor => executor.runGetMethod(own));
    }

    /**
     * Replaces the WASM instance although it did not throw: its caller learnt from the output that
     * the stack must have overflowed (a cell deeper than {@link TVM_LIMITS}.serializedDepth came out).
     * Returns the fault to report.
     */
    async discard(config: string, reason: string): Promise<TvmFault> {
        await this.replace(await this.current(), true, config);
        return new TvmFault('output check', new Error(reason));
    }

    private async guarded<T>(operation: TvmFault['operation'], config: string, run: (executor: Executor) => Promise<T>): Promise<T> {
        const executor = await this.current();
        try {
            return await run(executor);
        } catch (error) {
            await this.replace(executor, operation !== 'get-method', config);
            throw new TvmFault(operation, error);
        }
    }

    /** The instance in use; after a replacement that failed its check, another attempt. */
    private async current(): Promise<Executor> {
        const pending = this.instance;
        try {
            return await pending;
        } catch {
            if (this.instance === pending) this.instance = this.create();
            return this.instance;
        }
    }

    /** Retires `broken` and waits for its checked successor (once, however many calls it failed). */
    private async replace(broken: Executor, transactions: boolean, config: string): Promise<void> {
        if (!this.retired.has(broken)) {
            this.retired.add(broken);
            this.restartCount++;
            this.instance = this.fresh(transactions, config);
        }
        await this.instance.catch(() => undefined);
    }

    private async fresh(transactions: boolean, config: string): Promise<Executor> {
        let lastError: unknown;
        for (let attempt = 0; attempt < 2; attempt++) {
            const executor = await this.create();
            try {
                await checkExecutor(executor, config, transactions);
                return executor;
            } catch (error) {
                lastError = error;
            }
        }
        throw new Error(`a new TVM emulator failed its check twice: ${describeThrown(lastError)}`);
    }
}

const CHECK_CODE = beginCell().storeUint(0x77, 8).endCell(); // PUSHINT 7
const CHECK_ADDRESS = new Address(0, Buffer.alloc(32));
/**
 * `cell` standing in for itself with its BOC made by us: the executor serializes every cell it is
 * given (code, data, libraries) for every run, and @ton/core's writer pads each cell's bits one bit at
 * a time (for the indexer's account inspection that was a quarter of an ingest's get-methods). `boc`:
 * the BOC made once, for cells given again and again (the chain's libraries), else written when asked.
 */
export function withBoc(cell: Cell, boc?: Buffer): Cell {
    return Object.create(cell, { toBoc: { value: boc ? () => boc : () => writeBoc(cell) } }) as Cell;
}

const NO_ACCOUNT = beginCell().store(storeShardAccount({ account: null, lastTransactionLt: 0n, lastTransactionHash: 0n })).endCell().toBoc().toString('base64');
const CHECK_MESSAGE = beginCell().store(storeMessage(external({ to: CHECK_ADDRESS, body: beginCell().endCell() }))).endCell();

/**
 * A new instance works: a get-method that returns 7 does, and (for transactions) the config loads
 * into a transaction emulator that answers a message to an account that does not exist.
 */
async function checkExecutor(executor: Executor, config: string, transactions: boolean): Promise<void> {
    const { output } = await executor.runGetMethod({
        code: CHECK_CODE, data: beginCell().endCell(), methodId: 0, stack: [], config, verbosity: 'short',
        address: CHECK_ADDRESS, unixTime: 0, balance: 0n, randomSeed: Buffer.alloc(32), gasLimit: 1000n, debugEnabled: false,
    });
    const stack: TupleItem[] = output.success ? parseTuple(readBoc(Buffer.from(output.stack, 'base64'))[0]) : [];
    if (!output.success || output.vm_exit_code !== 0 || stack.length !== 1 || stack[0].type !== 'int' || stack[0].value !== 7n) {
        throw new Error('a new emulator failed its check (a get-method returning 7)');
    }
    if (!transactions) return;
    const { result } = await executor.runTransaction({
        config, libs: null, verbosity: 'short', shardAccount: NO_ACCOUNT, message: CHECK_MESSAGE, now: 0, lt: 0n,
        randomSeed: Buffer.alloc(32), ignoreChksig: false, debugEnabled: false,
    });
    if (typeof result?.success !== 'boolean') throw new Error('a new emulator failed its check (a transaction with the config)');
}

/**
 * A new emulator instance. @ton/sandbox is loaded on first use: a process that never runs the TVM
 * (an API process nobody asks to emulate yet) starts without it.
 */
async function createEmulator(): Promise<Executor> {
    const { Executor } = await import('@ton/sandbox');
    return Executor.create();
}
