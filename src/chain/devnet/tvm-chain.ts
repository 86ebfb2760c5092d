import {
    Address, Cell, loadShardAccount, loadTransaction, parseTuple, storeMessage, storeShardAccount, TupleReader,
    type Message, type ShardAccount, type Transaction, type TupleItem,
} from '@ton/core';
import { InputFormatError } from '../../ton/input.ts';
import { bocDeeperThan, MAX_TVM_MESSAGE_DEPTH, ResilientExecutor, TVM_LIMITS, withBoc } from '../../ton/tvm-executor.ts';
import { writeBoc } from '../../ton/boc/boc-writer.ts';
import { readBoc } from '../../ton/boc/boc-reader.ts';
import { cellBuilder } from '../../ton/cells/core-cells.ts';
import { hashmapRefValues } from '../../ton/hashmap-refs.ts';
import { methodId } from '../../ton/interfaces/get-methods.ts';
import { trimConfig } from '../../ton/interfaces/get-method-runner.ts';
import type { PersistedAccount } from './chain-log.ts';

export type TickOrTock = 'tick' | 'tock';

/** A transaction the chain ran: its cell as the TVM wrote it, parsed, and the account it ran on. */
export interface ExecutedTransaction {
    /** Raw address of the account. */
    account: string;
    workchain: number;
    cell: Cell;
    parsed: Transaction;
    /** Its out-messages' cells (`out_msgs`), in their order: the very cells it made. */
    outMessages: Cell[];
}

/** The destination did not accept the message: no transaction (an external message its contract refused, or an emulator error). */
export class MessageNotAccepted extends Error {
    override readonly name = 'MessageNotAccepted';

    constructor(
        /** What the emulator said. */
        readonly reason: string,
        /** The TVM's exit code, when the compute phase ran. */
        readonly exitCode?: number,
    ) {
        super(exitCode === undefined ? `the message was not accepted: ${reason}` : `the message was not accepted: ${reason} (exit code ${exitCode})`);
    }
}

/** A message or tick-tock waiting in a cascade, with the raw address it runs on. */
type Pending =
    | { kind: 'message'; cell: Cell; account: string }
    | { kind: 'tick-tock'; which: TickOrTock; account: string };

/** An account as the chain holds it: its ShardAccount BOC (base64) exactly as the TVM wrote it, and its parse once asked for. */
interface HeldAccount {
    state: string;
    lastTxTime: number;
    parsed?: ShardAccount;
}

/**
 * Every transaction starts a million lt past the one before, so the out-messages a transaction
 * creates (at its lt + 1, + 2, …) never reach the next one's lt.
 */
const LT_PER_TRANSACTION = 1_000_000n;
const GET_METHOD_GAS_LIMIT = 10_000_000n;

/**
 * The devnet's accounts and their transactions on the real TVM (@ton/sandbox's emulator, called
 * directly). A message runs with its whole cascade: the transactions' internal out-messages are
 * delivered in the order they were made (first made, first run), each as the very cell its sender's
 * transaction holds, so a receiver's in_msg hash is its sender's out_msg hash. Transactions and
 * states are read with our own BOC reader (cells hash when first asked) and kept as the TVM wrote
 * them: this is what the producer's loaded rate rests on.
 *
 * Accounts live in memory; a chain started with `loadAccount` keeps only those used last
 * (keepRecent) and loads the others back from their saved states when a message reaches them.
 */
export class TvmChain {
    /** Unix time the next transactions run at. */
    now = Math.floor(Date.now() / 1000);
    /** The block's random seed the next transactions see. */
    random: Buffer = Buffer.alloc(32);
    /** Told when a failure cut a message's cascade short after some of its transactions ran (they stand; the rest never happens). */
    onCascadeCut?: (error: Error, transactionsMade: number) => void;
    /**
     * Whether an internal message from one account to another (raw addresses) runs in the same step;
     * one that does not waits (it goes to another shard, which imports it in a later block). Unset: all do.
     */
    deliversNow?: (from: string, to: string) => boolean;

    private currentLt = 0n;
    private configBase64Value: string;
    private configCell: Cell;
    private getMethodConfig: string | null = null;
    private libraries: Cell | null = null;
    private readonly accounts = new Map<string, HeldAccount>();
    private executed: ExecutedTransaction[] = [];

    private constructor(
        private readonly tvm: ResilientExecutor,
        config: string,
        private readonly loadAccount: ((address: string) => PersistedAccount | null) | undefined,
    ) {
        this.configBase64Value = config;
        this.configCell = readBoc(Buffer.from(config, 'base64'))[0];
    }

    /**
     * `loadAccount`: where accounts the chain let go of are loaded back from (their state as last
     * saved); with it the chain keeps only the accounts used last (keepRecent), else all.
     */
    static async start(options: { loadAccount?: (address: string) => PersistedAccount | null } = {}): Promise<TvmChain> {
        // The sandbox's default config is mainnet's: the chain's config until one is set.
        const { defaultConfig } = await import('@ton/sandbox');
        return new TvmChain(new ResilientExecutor(), defaultConfig, options.loadAccount);
    }

    get lt(): bigint {
        return this.currentLt;
    }

    setLogicalTime(lt: bigint): void {
        this.currentLt = lt;
    }

    /** The config dictionary the transactions run on. */
    get config(): Cell {
        return this.configCell;
    }

    get configBase64(): string {
        return this.configBase64Value;
    }

    setConfig(config: Cell): void {
        this.configCell = config;
        this.configBase64Value = writeBoc(config).toString('base64');
        this.getMethodConfig = null;
    }

    /** The chain's public libraries (a dictionary of library cells by hash), as the TVM resolves library cells. */
    get libs(): Cell | undefined {
        return this.libraries ?? undefined;
    }

    set libs(libraries: Cell | undefined) {
        // Serialized once: the executor takes every cell as a BOC, on every transaction.
        this.libraries = libraries ? withBoc(libraries, writeBoc(libraries)) : null;
    }

    /** The account's ShardAccount as the TVM last wrote it (no account, `account: null`, at an address no message reached). */
    shardAccount(address: Address): ShardAccount {
        const held = this.held(address.toRawString());
        held.parsed ??= loadShardAccount(readBoc(Buffer.from(held.state, 'base64'))[0].beginParse());
        return held.parsed;
    }

    /** Sets an account's state directly (the genesis' accounts). */
    setShardAccount(address: Address, account: ShardAccount): void {
        const held = this.held(address.toRawString());
        held.state = serializeShardAccount(account);
        held.lastTxTime = account.account?.storageStats.lastPaid ?? 0;
        held.parsed = undefined;
    }

    /** The account's state to save: its ShardAccount BOC exactly as the TVM wrote it (its Account cell hash is what its transactions name). */
    persistedAccount(address: string): PersistedAccount {
        const held = this.held(address);
        return { address, shardAccount: Buffer.from(held.state, 'base64'), lastTxTime: held.lastTxTime };
    }

    /** Lets go of the accounts not used lately beyond the `limit` used last (a chain started with loadAccount; their states must be saved). */
    keepRecent(limit: number): void {
        if (!this.loadAccount) return;
        // A parse (an Address with its closures, the storage objects: ~1.5 KB an account) is a cache of the state kept anyway.
        for (const held of this.accounts.values()) held.parsed = undefined;
        for (const address of this.accounts.keys()) {
            if (this.accounts.size <= limit) return;
            this.accounts.delete(address);
        }
    }

    /** Transactions executed since the last call, in execution order. */
    drainTransactions(): ExecutedTransaction[] {
        const executed = this.executed;
        this.executed = [];
        return executed;
    }

    /**
     * Runs a message and its cascade; resolves with the transactions made, in execution order. A
     * message deeper than the emulator takes is refused before it reaches the TVM. If the message's
     * own transaction fails, nothing happened and the error rejects (MessageNotAccepted, or a
     * TvmFault when the emulator itself failed); a failure later in the cascade leaves the
     * transactions made so far standing (they are the chain's now) and drops the rest (onCascadeCut).
     */
    async sendMessage(message: Cell | Message): Promise<ExecutedTransaction[]> {
        const cell = message instanceof Cell ? message : cellBuilder().store(storeMessage(message)).endCell();
        if (cell.depth() > MAX_TVM_MESSAGE_DEPTH) {
            throw new InputFormatError(`the message is ${cell.depth()} cells deep; the devnet's TVM (compiled to WASM) runs messages at most ${MAX_TVM_MESSAGE_DEPTH} cells deep`);
        }
        const destination = inboundDestination(cell);
        if (destination === null) throw new InputFormatError('an outbound external message cannot be sent to the chain: it has no destination');
        return this.runCascade({ kind: 'message', cell, account: destination });
    }

    /** Runs the account's tick (or tock) transaction and the cascade of its out-messages. */
    async runTickTock(address: Address, which: TickOrTock): Promise<ExecutedTransaction[]> {
        return this.runCascade({ kind: 'tick-tock', which, account: address.toRawString() });
    }

    /** Runs a get-method on the account's current state; rejects when the account has no code or the TVM could not run the method. */
    async runGetMethod(address: Address, method: string | number, stack: TupleItem[] = []): Promise<{ exitCode: number; stackReader: TupleReader }> {
        const account = this.shardAccount(address).account;
        const state = account?.storage.state;
        if (state?.type !== 'active' || !state.state.code || !state.state.data) {
            throw new Error(`get-method ${method} of ${address.toRawString()}: the account has no code to run`);
        }
        const other = account!.storage.balance.other;
        // The config in the TVM's reach of a get-method (the whole mainnet config costs ~10 ms a call to parse).
        this.getMethodConfig ??= trimConfig(this.configBase64Value);
        const { output } = await this.tvm.runGetMethod({
            code: state.state.code, data: state.state.data, methodId: typeof method === 'number' ? method : methodId(method), stack,
            config: this.getMethodConfig, verbosity: 'short', libs: this.libs, address, unixTime: this.now,
            balance: account!.storage.balance.coins, randomSeed: this.random, gasLimit: GET_METHOD_GAS_LIMIT, debugEnabled: false,
            extraCurrency: other && other.size > 0 ? Object.fromEntries(other) : undefined,
        });
        if (!output.success) throw new Error(`get-method ${method} of ${address.toRawString()}: ${output.error}`);
        return { exitCode: output.vm_exit_code, stackReader: new TupleReader(parseTuple(readBoc(Buffer.from(output.stack, 'base64'))[0])) };
    }

    private async runCascade(first: Pending): Promise<ExecutedTransaction[]> {
        const made: ExecutedTransaction[] = [];
        const queue: Pending[] = [first];
        for (let next = 0; next < queue.length; next++) {
            let tx: ExecutedTransaction;
            try {
                tx = await this.execute(queue[next]);
            } catch (error) {
                if (made.length === 0) throw error;
                this.onCascadeCut?.(error as Error, made.length);
                break;
            }
            made.push(tx);
            this.executed.push(tx);
            for (const out of internalOutMessages(tx)) if (this.deliversNow?.(tx.account, out.account) ?? true) queue.push({ kind: 'message', ...out });
        }
        return made;
    }

    private async execute(next: Pending): Promise<ExecutedTransaction> {
        const held = this.held(next.account);
        this.currentLt += LT_PER_TRANSACTION;
        const common = {
            config: this.configBase64Value, libs: this.libraries, verbosity: 'short' as const, shardAccount: held.state,
            now: this.now, lt: this.currentLt, randomSeed: this.random, ignoreChksig: false, debugEnabled: false,
        };
        const { result } = next.kind === 'message'
            ? await this.tvm.runTransaction({ ...common, message: withBoc(next.cell) })
            : await this.tvm.runTickTock({ ...common, which: next.which });
        if (!result.success) throw new MessageNotAccepted(result.error, result.vmResults?.vmExitCode);
        const limit = TVM_LIMITS.serializedDepth;
        if ([result.transaction, result.shardAccount, result.actions].some(boc => boc !== null && bocDeeperThan(boc, limit))) {
            // Writing a cell that deep out ran the emulator's stack over its globals: the instance is replaced, the transaction refused.
            throw await this.tvm.discard(this.configBase64Value, `a transaction wrote out a cell deeper than ${limit} (deeper ones overflow its stack)`);
        }
        const cell = readBoc(Buffer.from(result.transaction, 'base64'))[0];
        held.state = result.shardAccount;
        held.lastTxTime = this.now;
        held.parsed = undefined;
        return { account: next.account, workchain: Number(next.account.split(':')[0]), cell, parsed: loadTransaction(cell.beginParse()), outMessages: outMessageCellsOf(cell) };
    }

    /** The account of a raw address, now the one used last; loaded from its saved state, or an empty one, when not held. */
    private held(address: string): HeldAccount {
        let held = this.accounts.get(address);
        if (held) {
            this.accounts.delete(address);
        } else {
            const saved = this.loadAccount?.(address);
            held = saved
                ? { state: saved.shardAccount.toString('base64'), lastTxTime: saved.lastTxTime }
                : { state: NO_ACCOUNT, lastTxTime: 0 };
        }
        this.accounts.set(address, held);
        return held;
    }
}

function serializeShardAccount(account: ShardAccount): string {
    return writeBoc(cellBuilder().store(storeShardAccount(account)).endCell()).toString('base64');
}

/** No account at the address (`account_none`): as on a real chain, its first transaction starts from nonexist. */
const NO_ACCOUNT = serializeShardAccount({ account: null, lastTransactionLt: 0n, lastTransactionHash: 0n });

/**
 * The raw destination of a message sent to the chain: `int_msg_info$0 … src dest …` or
 * `ext_in_msg_info$10 src dest …`; null for an outbound external message (`ext_out_msg_info$11`).
 */
function inboundDestination(message: Cell): string | null {
    const slice = message.beginParse();
    if (!slice.loadBit()) {
        slice.skip(3);
        slice.loadAddress();
        return slice.loadAddress().toRawString();
    }
    if (slice.loadBit()) return null;
    slice.loadAddressAny();
    return slice.loadAddress().toRawString();
}

/** The transaction's `out_msgs:(HashmapE 15 ^(Message Any))` cells, in their order. */
function outMessageCellsOf(transaction: Cell): Cell[] {
    const io = transaction.refs[0].beginParse();
    if (io.loadBit()) io.loadRef();
    return hashmapRefValues(io.loadMaybeRef(), 15);
}

/** The internal out-messages of a transaction with their destinations. */
function internalOutMessages(tx: ExecutedTransaction): Array<{ cell: Cell; account: string }> {
    const out: Array<{ cell: Cell; account: string }> = [];
    for (const [index, message] of tx.parsed.outMessages) {
        if (message.info.type === 'internal') out.push({ cell: tx.outMessages[index], account: message.info.dest.toRawString() });
    }
    return out;
}
