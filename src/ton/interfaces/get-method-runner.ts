import type { IExecutor } from '@ton/sandbox';
import {
    Address,
    Cell,
    Dictionary,
    TupleReader,
    beginCell,
    parseTuple,
    type TupleItem,
} from '@ton/core';
import { methodId } from './get-methods.ts';
import { librariesDictionary, libraryLookup, type LibraryLookup } from '../libraries.ts';
import { MAX_TVM_MESSAGE_DEPTH, ResilientExecutor, TVM_LIMITS, withBoc } from '../tvm-executor.ts';
import { writeBoc } from '../boc/boc-writer.ts';
import { readBoc } from '../boc/boc-reader.ts';
import { DictKeys } from '../cells/dict-keys.ts';

/**
 * Runs get-methods on the real TVM (@ton/sandbox's emulator, `Executor.runGetMethod`).
 *
 * The emulator parses the whole config for every get-method call, and @ton/sandbox's default
 * (mainnet) config is ~115 KB, mostly the validator set (param 34): a get-method with it costs
 * ~10 ms, with the trimmed config below well under 1 ms (see the runner test for the figures).
 */

/**
 * Config params a get-method can observe: 0/1 (config and elector addresses), 8 (global version:
 * which TVM instructions exist), 9 (mandatory params), and those in the unpacked config tuple of
 * c7 — 18 (storage prices), 19 (global id), 20/21 (gas prices), 24/25 (forward prices), 43 (size
 * limits) — plus 45 (precompiled contracts, gas accounting).
 */
export const GET_METHOD_CONFIG_PARAMS: readonly number[] = [0, 1, 8, 9, 18, 19, 20, 21, 24, 25, 43, 45];

/** `config` (base64 BOC of the config dictionary) keeping only `params`. */
export function trimConfig(config: string, params: readonly number[] = GET_METHOD_CONFIG_PARAMS): string {
    const full = Dictionary.loadDirect(DictKeys.Int(32), Dictionary.Values.Cell(), Cell.fromBase64(config));
    const trimmed = Dictionary.empty(DictKeys.Int(32), Dictionary.Values.Cell());
    for (const param of params) {
        const value = full.get(param);
        if (value) trimmed.set(param, value);
    }
    if (trimmed.size === 0) throw new Error('trimConfig: none of the params is in the config');
    return beginCell().storeDictDirect(trimmed).endCell().toBoc().toString('base64');
}

let trimmedDefault: Promise<string> | undefined;
/**
 * @ton/sandbox's default (mainnet) config trimmed to {@link GET_METHOD_CONFIG_PARAMS}. The package is
 * loaded when first asked, as the emulator is: a process that runs no get-method starts without it.
 */
export function trimmedDefaultConfig(): Promise<string> {
    trimmedDefault ??= import('@ton/sandbox').then(sandbox => trimConfig(sandbox.defaultConfig));
    return trimmedDefault;
}

let sharedExecutor: ResilientExecutor | undefined;
/**
 * One emulator per process for get-methods (creating one loads a 5 MB WASM module), replaced
 * whenever it faults so that one bad account never breaks the get-methods of the others.
 */
export function getSharedExecutor(): ResilientExecutor {
    sharedExecutor ??= new ResilientExecutor();
    return sharedExecutor;
}

/** The account state a get-method runs against. */
export interface GetMethodAccount {
    address: Address;
    code: Cell;
    data: Cell;
    balance: bigint;
}

export interface GetMethodSuccess {
    ok: true;
    /** 0 or 1 (both mean success). */
    exitCode: number;
    gasUsed: bigint;
    /** The result stack, bottom first (the first returned value is `stack[0]`). */
    stack: TupleItem[];
    /** A fresh reader over `stack` (each call starts at the first value). */
    reader(): TupleReader;
}

export interface GetMethodFailure {
    ok: false;
    /** TVM exit code when the VM ran (e.g. 11: no such method), else null. */
    exitCode: number | null;
    gasUsed: bigint | null;
    error: string;
}

export type GetMethodResult = GetMethodSuccess | GetMethodFailure;

export interface GetMethodRunnerOptions {
    /** Emulator to use; default the process-wide shared one (a {@link ResilientExecutor}). */
    executor?: IExecutor;
    /** Config dictionary as a base64 BOC; default {@link trimmedDefaultConfig}. */
    config?: string;
    /** Gas limit per call; default 1,000,000 (what liteservers allow for runSmcMethod). */
    gasLimit?: bigint;
    /** Libraries dictionary (`HashmapE 256 ^Cell`) for library code cells. */
    libs?: Cell | null;
    /** Unix time the get-methods see; default the wall clock. */
    now?: () => number;
}

export interface RunOptions {
    gasLimit?: bigint;
    now?: number;
}

export const DEFAULT_GET_METHOD_GAS_LIMIT = 1_000_000n;
const ZERO_SEED = Buffer.alloc(32);

export class GetMethodRunner {
    readonly config: string;
    readonly gasLimit: bigint;
    /** What the emulator is given: the dictionary's BOC made once, not at every call. */
    private libsForEmulator: Cell | undefined;
    private lookup: LibraryLookup = () => undefined;
    private readonly added = new Map<string, Cell>();
    private readonly now: () => number;

    private constructor(
        private readonly executor: IExecutor,
        options: GetMethodRunnerOptions & { config: string },
    ) {
        this.config = options.config;
        this.gasLimit = options.gasLimit ?? DEFAULT_GET_METHOD_GAS_LIMIT;
        this.now = options.now ?? (() => Math.floor(Date.now() / 1000));
        this.useLibraries(options.libs ?? undefined);
    }

    static async create(options: GetMethodRunnerOptions = {}): Promise<GetMethodRunner> {
        const executor = options.executor ?? getSharedExecutor();
        return new GetMethodRunner(executor, { ...options, config: options.config ?? await trimmedDefaultConfig() });
    }

    /** Replaces the libraries dictionary (e.g. after a block published libraries). */
    setLibraries(libs: Cell | null): void {
        this.added.clear();
        this.useLibraries(libs ?? undefined);
    }

    /**
     * Adds libraries (by hash, hex) to those the runner had added before; public libraries are the
     * chain's, so a runner shared by concurrent callers only ever gains them.
     */
    addLibraries(libraries: ReadonlyMap<string, Cell>): void {
        let changed = false;
        for (const [hash, root] of libraries) {
            if (this.added.has(hash)) continue;
            this.added.set(hash, root);
            changed = true;
        }
        if (changed) this.useLibraries(librariesDictionary(this.added) ?? undefined);
    }

    private useLibraries(libs: Cell | undefined): void {
        this.lookup = libraryLookup(libs);
        this.libsForEmulator = libs ? withBoc(libs, writeBoc(libs)) : undefined;
    }

    /** Finds a library root by hash in the runner's libraries. */
    get libraries(): LibraryLookup {
        return this.lookup;
    }

    /**
     * Runs `method` (a name or a method id) with `args` (first argument first). Never throws:
     * emulator errors, non-zero exit codes and unreadable stacks are failures.
     */
    async run(
        account: GetMethodAccount,
        method: string | number,
        args: TupleItem[] = [],
        options: RunOptions = {},
    ): Promise<GetMethodResult> {
        const id = typeof method === 'number' ? method : methodId(method);
        // The emulator frees and writes back the stack recursively: a deep argument would overflow its WASM stack.
        const argumentDepth = deepestCell(args);
        if (argumentDepth > MAX_TVM_MESSAGE_DEPTH) {
            return failure(null, null, `an argument is ${argumentDepth} cells deep; get-methods take arguments at most ${MAX_TVM_MESSAGE_DEPTH} cells deep`);
        }
        let response;
        try {
            response = await this.executor.runGetMethod({
                code: account.code,
                data: account.data,
                methodId: id,
                stack: args,
                config: this.config,
                verbosity: 'short',
                libs: this.libsForEmulator,
                address: account.address,
                unixTime: options.now ?? this.now(),
                balance: account.balance,
                randomSeed: ZERO_SEED,
                gasLimit: options.gasLimit ?? this.gasLimit,
                debugEnabled: false,
            });
        } catch (err) {
            return failure(null, null, `emulator: ${err instanceof Error ? err.message : String(err)}`);
        }
        const output = response.output;
        if (!output.success) return failure(null, null, `emulator: ${output.error}`);
        const gasUsed = parseGas(output.gas_used);
        if (output.missing_library) return failure(output.vm_exit_code, gasUsed, `missing library ${output.missing_library}`);
        if (output.vm_exit_code !== 0 && output.vm_exit_code !== 1) {
            return failure(output.vm_exit_code, gasUsed, `exit code ${output.vm_exit_code}`);
        }
        let stackCell: Cell;
        let stack: TupleItem[];
        try {
            stackCell = readBoc(Buffer.from(output.stack, 'base64'))[0];
            stack = parseTuple(stackCell);
        } catch (err) {
            return failure(output.vm_exit_code, gasUsed, `unreadable stack: ${err instanceof Error ? err.message : String(err)}`);
        }
        if (stackCell.depth() > TVM_LIMITS.serializedDepth) {
            // Writing it out ran the emulator's stack over its globals: the answer and the instance are suspect.
            if (this.executor instanceof ResilientExecutor) await this.executor.discard(this.config, `a get-method's result stack is ${stackCell.depth()} cells deep`);
            return failure(output.vm_exit_code, gasUsed, `the result stack is ${stackCell.depth()} cells deep; the emulator writes out at most ${TVM_LIMITS.serializedDepth}`);
        }
        return {
            ok: true,
            exitCode: output.vm_exit_code,
            gasUsed,
            stack,
            reader: () => new TupleReader(stack),
        };
    }
}

/** Depth of the deepest cell among get-method arguments (cells, slices, builders, inside tuples too). */
function deepestCell(items: readonly TupleItem[]): number {
    let deepest = 0;
    for (const item of items) {
        if (item.type === 'cell' || item.type === 'slice' || item.type === 'builder') deepest = Math.max(deepest, item.cell.depth());
        else if (item.type === 'tuple') deepest = Math.max(deepest, deepestCell(item.items));
    }
    return deepest;
}

function failure(exitCode: number | null, gasUsed: bigint | null, error: string): GetMethodFailure {
    return { ok: false, exitCode, gasUsed, error };
}

function parseGas(value: string): bigint {
    try {
        return BigInt(value);
    } catch {
        return 0n;
    }
}
