import { createHash } from 'node:crypto';
import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import { Address, Cell, loadMessage, loadShardAccount, type ShardAccount } from '@ton/core';
import { formatRawAddress } from '../ton/address.ts';
import { readBoc } from '../ton/boc/boc-reader.ts';
import { writeBoc } from '../ton/boc/boc-writer.ts';
import { exitCodeDescription } from '../ton/exit-codes.ts';
import { interfacesByCodeHash } from '../ton/interfaces/known-code.ts';
import { librariesDictionary, libraryRefsIn } from '../ton/libraries.ts';
import { parseTransactionCell, type ParsedTransaction } from '../ton/transaction.ts';
import { bocDeeperThan, ResilientExecutor, TVM_LIMITS, TvmFault } from '../ton/tvm-executor.ts';
import { parseShardAccount, serializeShardAccount, shardAccountOf, withBalance, type StoredAccount } from './account-state.ts';
import { BoundedMap } from '../lru.ts';
import { EmulationFailure } from './errors.ts';

/** The chain state an emulation starts from. */
export interface EmulationChainState {
    /** Base64 BOC of the config dictionary in force. */
    config(): Promise<string>;
    account(address: string): Promise<StoredAccount | undefined>;
    /** Unix time the emulated transactions run at. */
    now(): Promise<number>;
    /** Public libraries with these hashes (hex) and those they use, by hash; unknown ones are left out. */
    libraries(hashes: string[]): Promise<Map<string, Cell>>;
}

export interface EmulationLimits {
    /** Most transactions one emulation may run (the root included). */
    maxTransactions: number;
    /** Wall-clock budget of one emulation, in milliseconds. */
    timeBudgetMs: number;
}

export const DEFAULT_EMULATION_LIMITS: EmulationLimits = { maxTransactions: 1000, timeBudgetMs: 10_000 };

export interface EmulateOptions {
    /** Which transactions run with signature checks switched off (CHKSIG always succeeds). */
    skipSignatureChecks: 'none' | 'first' | 'all';
    /** Balance overrides per raw address, applied before the first transaction. */
    balances?: ReadonlyMap<string, bigint>;
    limits?: Partial<EmulationLimits>;
    /** Run the root message only, leaving its out-messages undelivered. */
    onlyRoot?: boolean;
    /** The root message's destination (raw), when the caller has already read the message. */
    rootDestination?: string;
}

export interface EmulatedTransaction {
    parsed: ParsedTransaction;
    /** The transaction's BOC as the emulator produced it. */
    boc: Buffer;
    endBalance: bigint;
    /** Transactions caused by this one's internal out-messages, by the message's created lt. */
    children: EmulatedTransaction[];
}

export interface EmulatedTrace {
    root: EmulatedTransaction;
    transactionCount: number;
    /** Unix time the transactions ran at. */
    now: number;
    /** States of every account the trace touched, after it. */
    after: Map<string, ShardAccount>;
    /** The public libraries the trace's code used, by hash (hex). */
    libraries: ReadonlyMap<string, Cell>;
}

interface PendingMessage {
    cell: Cell;
    createdLt: bigint;
    destination: string;
    parent: EmulatedTransaction | null;
    order: number;
}

/** An account's state as the emulator takes it (base64 ShardAccount), its last transaction lt and the libraries its code uses. */
interface PreparedState {
    state: string;
    lastLt: bigint;
    libraries: string[];
    /** Depth of the ShardAccount cell: the emulator writes the state out again after a transaction. */
    depth: number;
}

/** A state of one emulation: as prepared, or as a transaction left it (then also parsed, once). */
interface CurrentState extends PreparedState {
    parsed?: ShardAccount;
}

/** Indexed account states as the emulator takes them, by address, last transaction and balance. */
const preparedStates = new BoundedMap<string, PreparedState>(10_000);

/** Longest stretch of emulation before other work on the event loop gets a turn. */
const YIELD_EVERY_MS = 5;

let sharedExecutor: ResilientExecutor | undefined;
/**
 * Its own emulator instance (the get-method runner keeps a trimmed config loaded in the shared
 * one), replaced whenever it faults, so one bad trace never breaks the next emulation.
 */
export function emulationExecutor(): ResilientExecutor {
    sharedExecutor ??= new ResilientExecutor();
    return sharedExecutor;
}

/**
 * Runs a message and everything it causes on the real TVM: the root message first, then every
 * internal message it produced, lowest created lt first across all accounts, until none is left.
 * Each account's state carries over from one of its transactions to the next. Nothing is written
 * anywhere: the chain and the index are untouched.
 */
export async function emulateTrace(root: Cell, chain: EmulationChainState, options: EmulateOptions): Promise<EmulatedTrace> {
    const limits = { ...DEFAULT_EMULATION_LIMITS, ...options.limits };
    const deadline = Date.now() + limits.timeBudgetMs;
    const executor = emulationExecutor();
    const [config, now] = await Promise.all([chain.config(), chain.now()]);
    const seed = createHash('sha256').update(root.hash()).digest();

    const current = new Map<string, CurrentState>();
    const stateOf = async (address: string): Promise<CurrentState> => {
        const known = current.get(address);
        if (known !== undefined) return known;
        const stored = await chain.account(address);
        const override = options.balances?.get(address);
        const key = stored && override === undefined ? `${address}|${stored.lastTransHash}|${stored.balance}` : undefined;
        let entry = key ? preparedStates.get(key) : undefined;
        if (!entry) {
            const parsed = Address.parseRaw(address);
            let state = shardAccountOf(parsed, stored);
            if (override !== undefined) state = withBalance(parsed, state, override, now);
            const active = state.account?.storage.state.type === 'active' ? state.account.storage.state.state : null;
            const code = active?.code ?? null;
            // ShardAccount → ^Account → code and data: two cells above the deeper of them.
            const depth = 2 + Math.max(code?.depth() ?? 0, active?.data?.depth() ?? 0);
            entry = { state: serializeShardAccount(state), lastLt: state.lastTransactionLt, libraries: code ? [...libraryRefsIn(code)] : [], depth };
            if (key) preparedStates.set(key, entry);
        }
        current.set(address, entry);
        return entry;
    };
    for (const address of options.balances?.keys() ?? []) await stateOf(address);
    const libraries = new EmulationLibraries(chain);

    const queue: PendingMessage[] = [{ cell: root, createdLt: 0n, destination: options.rootDestination ?? destinationOf(root), parent: null, order: 0 }];
    let order = 1;
    let rootTx: EmulatedTransaction | undefined;
    let count = 0;
    let lastYield = Date.now();
    while (queue.length > 0) {
        const next = takeEarliest(queue);
        if (count >= limits.maxTransactions) {
            throw new EmulationFailure('too_many_transactions', `the trace needs more than ${limits.maxTransactions} transactions; emulation stopped`);
        }
        if (Date.now() > deadline) {
            throw new EmulationFailure('timeout', `emulation ran past its ${limits.timeBudgetMs} ms budget after ${count} transactions`);
        }
        const account = await stateOf(next.destination);
        if (account.depth > TVM_LIMITS.serializedDepth) {
            throw new EmulationFailure('rejected', `the state of ${next.destination} is ${account.depth} cells deep; the emulator (the TVM compiled to WASM) `
                + `cannot write out a state deeper than ${TVM_LIMITS.serializedDepth} cells, so it cannot run transaction ${count + 1} of the trace`, undefined, count + 1);
        }
        const lt = (account.lastLt > next.createdLt ? account.lastLt : next.createdLt) + 1n;
        const skipChecks = options.skipSignatureChecks === 'all' || (options.skipSignatureChecks === 'first' && count === 0);
        const libs = await libraries.for(account.libraries, next.cell);
        let result;
        try {
            ({ result } = await executor.runTransaction({
                config, libs, verbosity: 'short', shardAccount: account.state, message: withFastBoc(next.cell), now, lt,
                randomSeed: seed, ignoreChksig: skipChecks, debugEnabled: false,
            }));
        } catch (error) {
            // The executor has replaced its WASM instance already: the next emulation runs on a sound one.
            if (!(error instanceof TvmFault)) throw error;
            // A bare number is a C++ exception the emulator does not catch (known trigger: sending more of an
            // extra currency than the sender holds, which a real chain fails in the action phase).
            const known = error.cppException ? '; it does so on a transfer of more of an extra currency than the sender holds' : '';
            throw new EmulationFailure('rejected', `the emulator failed on transaction ${count + 1} of the trace (a message to ${next.destination}) instead of producing it `
                + `(${error.message})${known}`, undefined, count + 1);
        }
        if (!result.success) {
            if (count === 0) throw await rejection(result.error, result.vmResults?.vmExitCode, account.state);
            throw new EmulationFailure('rejected', `the emulator could not run transaction ${count + 1} of the trace (a message to ${next.destination}): ${result.error}`, undefined, count + 1);
        }
        const boc = Buffer.from(result.transaction, 'base64');
        const txCell = readBoc(boc)[0];
        const stateCell = readBoc(Buffer.from(result.shardAccount, 'base64'))[0];
        const deepest = Math.max(txCell.depth(), stateCell.depth());
        if (deepest > TVM_LIMITS.serializedDepth || (result.actions !== null && bocDeeperThan(result.actions, TVM_LIMITS.serializedDepth))) {
            // Writing a cell this deep out ran the emulator's stack over its globals: its answer and its instance are suspect.
            await executor.discard(config, `transaction ${count + 1} wrote out a cell deeper than ${TVM_LIMITS.serializedDepth}`);
            throw new EmulationFailure('rejected', `transaction ${count + 1} of the trace (a message to ${next.destination}) made a cell more than ${TVM_LIMITS.serializedDepth} cells deep, `
                + 'deeper than the emulator (the TVM compiled to WASM) can write out within its stack; the emulator was restarted', undefined, count + 1);
        }
        const parsed = parseTransactionCell(txCell, Number(next.destination.split(':')[0]));
        // Parsed once: its balance is the node's, and the last one of each account is the trace's `after`.
        const state = loadShardAccount(stateCell.beginParse());
        current.set(next.destination, { state: result.shardAccount, lastLt: parsed.lt, libraries: account.libraries, parsed: state, depth: stateCell.depth() });
        const node: EmulatedTransaction = { parsed, boc, endBalance: state.account?.storage.balance.coins ?? 0n, children: [] };
        if (next.parent) next.parent.children.push(node);
        else rootTx = node;
        count++;
        for (const out of options.onlyRoot ? [] : parsed.outMsgs) {
            if (out.msgType !== 'int_msg' || !out.destination) continue;
            queue.push({ cell: out.cell, createdLt: out.createdLt, destination: out.destination, parent: node, order: order++ });
        }
        // The TVM runs synchronously; let other requests in now and then.
        if (Date.now() - lastYield > YIELD_EVERY_MS) {
            await yieldToEventLoop();
            lastYield = Date.now();
        }
    }
    for (const node of walkTrace(rootTx!)) node.children.sort((a, b) => compareLt(a.parsed.inMsg!.createdLt, b.parsed.inMsg!.createdLt));
    const afterStates = new Map([...current].map(([address, entry]) => [address, entry.parsed ?? parseShardAccount(entry.state)]));
    return { root: rootTx!, transactionCount: count, now, after: afterStates, libraries: libraries.found };
}

/**
 * The libraries an emulation has needed so far: those of the accounts' code and of the messages
 * (a StateInit deploying library code), fetched the first time one is needed.
 */
class EmulationLibraries {
    readonly found = new Map<string, Cell>();
    private readonly asked = new Set<string>();
    private dictionary: Cell | null = null;

    constructor(private readonly chain: EmulationChainState) {}

    async for(accountLibraries: readonly string[], message: Cell): Promise<Cell | null> {
        const wanted = [...accountLibraries, ...libraryRefsIn(message)].filter(hash => !this.asked.has(hash));
        if (wanted.length === 0) return this.dictionary;
        for (const hash of wanted) this.asked.add(hash);
        const found = await this.chain.libraries(wanted);
        if (found.size === 0) return this.dictionary;
        for (const [hash, root] of found) this.found.set(hash, root);
        const bytes = writeBoc(librariesDictionary(this.found)!);
        this.dictionary = { toBoc: () => bytes } as unknown as Cell;
        return this.dictionary;
    }
}

/**
 * The emulator serializes the message it is given with `toBoc()`; @ton/core's serializer rehashes
 * every cell, our writer reuses the bytes the cell was read from.
 */
function withFastBoc(cell: Cell): Cell {
    return { toBoc: () => writeBoc(cell) } as unknown as Cell;
}

function destinationOf(message: Cell): string {
    const info = loadMessage(message.beginParse()).info;
    if (info.type === 'external-out') throw new EmulationFailure('invalid_input', 'an outbound external message has no destination to emulate');
    return formatRawAddress(info.dest);
}

function takeEarliest(queue: PendingMessage[]): PendingMessage {
    let best = 0;
    for (let i = 1; i < queue.length; i++) {
        const a = queue[i];
        const b = queue[best];
        if (a.createdLt < b.createdLt || (a.createdLt === b.createdLt && a.order < b.order)) best = i;
    }
    return queue.splice(best, 1)[0];
}

export function* walkTrace(node: EmulatedTransaction): Generator<EmulatedTransaction> {
    yield node;
    for (const child of node.children) yield* walkTrace(child);
}

function compareLt(a: bigint, b: bigint): number {
    return a < b ? -1 : a > b ? 1 : 0;
}

async function rejection(error: string, exitCode: number | undefined, shardAccount: string): Promise<EmulationFailure> {
    const state = parseShardAccount(shardAccount).account?.storage.state;
    const interfaces = state?.type === 'active' && state.state.code ? interfacesByCodeHash(state.state.code.hash().toString('hex')) : [];
    if (exitCode === undefined) return new EmulationFailure('rejected', `the destination did not accept the message: ${error}`, undefined, 1);
    const meaning = exitCodeDescription(exitCode, interfaces);
    return new EmulationFailure(
        'rejected',
        `the destination did not accept the message: exit code ${exitCode}${meaning ? ` (${meaning})` : ''}`,
        { exit_code: exitCode, ...(meaning ? { meaning } : {}) },
        1,
    );
}
