import { Address, Cell, Dictionary, loadMessage, loadShardAccount, storeMessage, type Message, type ShardAccount } from '@ton/core';
import {
    Blockchain, LocalBlockchainStorage, SmartContract, type BlockchainStorage, type BlockchainTransaction, type ExecutorEmulationResult, type IExecutor, type MessageParams, type TickOrTock,
} from '@ton/sandbox';
import { InputFormatError } from '../../ton/input.ts';
import { bocDeeperThan, MAX_TVM_MESSAGE_DEPTH, ResilientExecutor, TVM_LIMITS, TvmFault, withBoc } from '../../ton/tvm-executor.ts';
import { writeBoc } from '../../ton/boc/boc-writer.ts';
import type { PersistedAccount } from './chain-log.ts';
import { cellBuilder } from '../../ton/cells/core-cells.ts';
import { readBoc } from '../../ton/boc/boc-reader.ts';
import { DictKeys } from '../../ton/cells/dict-keys.ts';

/**
 * @ton/sandbox's Blockchain (the real TVM in WASM) with what a long-running chain needs and the
 * sandbox leaves out: draining executed transactions (the sandbox keeps all of them forever),
 * restoring logical time, account state persistence, and an
 * emulator that survives its own faults (a fault never breaks the chain for later messages).
 */
export class SandboxChain extends Blockchain {
    /** Message cells as their sender made them, by the hash of the sandbox's re-serialization of them. */
    private readonly originalMessages = new Map<string, Cell>();
    /** Internal messages as their sender's transaction made them, by sender and creation lt. */
    private readonly originalInternal = new Map<string, Cell>();
    /** The emulator the sandbox runs every transaction and get-method on. */
    private tvm!: ResilientExecutor;

    /**
     * `loadAccount`: where accounts the chain let go of are loaded back from (their state as last
     * saved); with it the chain keeps only the accounts used last (keepRecentContracts), else all.
     */
    static async start(options: { loadAccount?: (address: string) => PersistedAccount | null } = {}): Promise<SandboxChain> {
        const tvm = new ResilientExecutor();
        let chain!: SandboxChain;
        const executor: IExecutor = {
            // The sandbox hands the executor its own re-serialization of every message (storeMessage), which
            // can lay out init and body differently from the cell the sender made; a real chain delivers
            // the very cell, so the receiver's in_msg hash equals the sender's out_msg hash. Restore it.
            runTransaction: async args => chain.checkOutput(args.config, await tvm.runTransaction({ ...args, libs: serializedOnce(args.libs), message: chain.originalMessage(args.message) })),
            runTickTock: async args => chain.checkOutput(args.config, await tvm.runTickTock({ ...args, libs: serializedOnce(args.libs) })),
            runGetMethod: args => tvm.runGetMethod(args),
        };
        const storage = options.loadAccount ? new RecentContracts(options.loadAccount) : new LocalBlockchainStorage();
        chain = new SandboxChain({ executor, storage });
        chain.tvm = tvm;
        chain.verbosity = { ...chain.verbosity, print: false, blockchainLogs: false, vmLogs: 'none', debugLogs: false };
        return chain;
    }

    /** How many times the chain's emulator faulted and was replaced. */
    get emulatorRestarts(): number {
        return this.tvm.restarts;
    }

    /**
     * A transaction that wrote out a cell deeper than the emulator's stack holds (TVM_LIMITS) ran the
     * stack over the module's globals: the instance is replaced and the transaction refused.
     */
    private async checkOutput(config: string, emulation: ExecutorEmulationResult): Promise<ExecutorEmulationResult> {
        const result = emulation.result;
        if (!result.success) return emulation;
        const limit = TVM_LIMITS.serializedDepth;
        if ([result.transaction, result.shardAccount, result.actions].some(boc => boc !== null && bocDeeperThan(boc, limit))) {
            throw await this.tvm.discard(config, `a transaction wrote out a cell deeper than ${limit} (deeper ones overflow its stack)`);
        }
        return emulation;
    }

    /** Lets go of the accounts not used lately beyond the `limit` used last (a chain started with loadAccount; their states must be saved). */
    keepRecentContracts(limit: number): void {
        if (this.storage instanceof RecentContracts) this.storage.keep(limit);
    }

    protected override createQueueManager() {
        const manager = super.createQueueManager();
        const queue = manager as unknown as { blockchain: { onTransaction: (tx: BlockchainTransaction) => void } };
        const record = queue.blockchain.onTransaction;
        queue.blockchain.onTransaction = tx => {
            // The queue reads the account's new state next (to see its workchain): parsed here, our way.
            const contract = this.storage instanceof RecentContracts ? this.storage.known(accountOf(tx)) : undefined;
            if (contract) parseOwnWay(contract);
            const outMessages = tx.raw.refs[0].beginParse();
            if (outMessages.loadBit()) outMessages.loadRef();
            // Internal messages are known by sender and creation lt (unique on a chain), so they need no re-serialization to be found again.
            for (const cell of outMessages.loadDict(DictKeys.Uint(15), Dictionary.Values.Cell()).values()) {
                const key = internalMessageKey(cell);
                if (key) this.originalInternal.set(key, cell);
            }
            record(tx);
        };
        return manager;
    }

    /**
     * Runs a message and its cascade. A message deeper than the emulator takes is refused before it
     * reaches the TVM. When the emulator faults after the message's own transaction ran, the
     * transactions made so far stand (they are the chain's now) and the rest of the cascade is
     * dropped; a fault on the message's own transaction rejects with the {@link TvmFault}.
     */
    /** Told when a fault cut a message's cascade short after some of its transactions ran (they stand; the rest never happens). */
    onCascadeCut?: (fault: TvmFault, transactionsMade: number) => void;

    override async sendMessage(message: Message | Cell, params?: MessageParams) {
        const cell = message instanceof Cell ? message : cellBuilder().store(storeMessage(message)).endCell();
        if (cell.depth() > MAX_TVM_MESSAGE_DEPTH) {
            throw new InputFormatError(`the message is ${cell.depth()} cells deep; the devnet's TVM (compiled to WASM) runs messages at most ${MAX_TVM_MESSAGE_DEPTH} cells deep`);
        }
        if (message instanceof Cell) this.rememberMessage(message);
        const before = this.transactions.length;
        try {
            return await super.sendMessage(message, params);
        } catch (error) {
            // Messages of the failed cascade still queued would otherwise run ahead of the next message.
            this.clearQueue();
            const made = this.transactions.slice(before);
            if (!(error instanceof TvmFault) || made.length === 0) throw error;
            this.onCascadeCut?.(error, made.length);
            return { transactions: made, events: made.flatMap(tx => tx.events), externals: made.flatMap(tx => tx.externals) };
        } finally {
            // The whole cascade has run: what is left was never delivered (e.g. a rejected external message).
            this.originalMessages.clear();
            this.originalInternal.clear();
        }
    }

    override async runTickTock(on: Address | Address[], which: TickOrTock, params?: MessageParams) {
        try {
            return await super.runTickTock(on, which, params);
        } catch (error) {
            this.clearQueue();
            throw error;
        }
    }

    private clearQueue(): void {
        const manager = this.defaultQueueManager as unknown as { messageQueue?: unknown[] };
        if (Array.isArray(manager.messageQueue)) manager.messageQueue.length = 0;
    }

    private rememberMessage(cell: Cell): void {
        const again = cellBuilder().store(storeMessage(loadMessage(cell.beginParse()))).endCell();
        if (!again.hash().equals(cell.hash())) this.originalMessages.set(again.hash().toString('hex'), cell);
    }

    private originalMessage(cell: Cell): Cell {
        const internalKey = internalMessageKey(cell);
        if (internalKey) {
            const original = this.originalInternal.get(internalKey);
            if (original) {
                this.originalInternal.delete(internalKey);
                return original;
            }
        }
        const key = cell.hash().toString('hex');
        const original = this.originalMessages.get(key);
        if (!original) return cell;
        this.originalMessages.delete(key);
        return original;
    }

    /** Transactions executed since the last call, in execution order; the sandbox forgets them. */
    drainTransactions(): BlockchainTransaction[] {
        const executed = this.transactions;
        this.transactions = [];
        return executed;
    }

    setLogicalTime(lt: bigint): void {
        this.currentLt = lt;
    }

    /** The account's ShardAccount as the TVM last wrote it (parsed as `parseOwnWay` says). */
    async shardAccount(address: Address): Promise<ShardAccount> {
        const contract = await this.getContract(address);
        parseOwnWay(contract);
        return contract.account;
    }

    /**
     * The account's ShardAccount BOC exactly as the TVM last wrote it (or the sandbox serialized a state
     * set directly): its Account cell hash is what the account's transactions name, so it is kept as is.
     */
    async persistedAccount(address: string): Promise<PersistedAccount> {
        const contract = await this.getContract(Address.parseRaw(address));
        const raw = contract as unknown as SandboxContractInternals;
        return { address, shardAccount: Buffer.from(raw._account, 'base64'), lastTxTime: raw.lastTxTime };
    }
}

/**
 * Gives the contract the parse of its state that its `account` getter would make, made with our own
 * BOC reader. The sandbox's own parse makes its cells with @ton/core, which hashes each with
 * @ton/crypto's SHA-256 in JavaScript as it is made; the sandbox reads each account's new state after
 * every transaction, and for the elector's and the config's states (thousands of cells, a tick-tock
 * every block) that took more time than running the transactions. Our cells hash when first asked.
 */
function parseOwnWay(contract: SmartContract): void {
    const raw = contract as unknown as SandboxContractInternals;
    if (raw.parsedAccount === undefined) raw.parsedAccount = loadShardAccount(readBoc(Buffer.from(raw._account, 'base64'))[0].beginParse());
}

/** Sets a sandbox contract's state to a saved one, byte for byte as the TVM wrote it. */
function restoreInto(contract: SmartContract, saved: PersistedAccount): void {
    const raw = contract as unknown as SandboxContractInternals;
    raw._account = saved.shardAccount.toString('base64');
    raw.parsedAccount = undefined;
    raw.lastTxTime = saved.lastTxTime;
}

/**
 * The sandbox's contracts by raw address, least recently used first. Those past the limit are let
 * go (keep) and made again from their saved state when used, so memory follows the accounts in use,
 * not all the chain's accounts.
 */
class RecentContracts implements BlockchainStorage {
    private readonly contracts = new Map<string, SmartContract>();
    /** Used since the last keep(): the sandbox parses each account it runs a message on, and keeps that parse. */
    private readonly used = new Set<SmartContract>();

    constructor(private readonly load: (address: string) => PersistedAccount | null) {}

    async getContract(blockchain: Blockchain, address: Address): Promise<SmartContract> {
        const key = address.toRawString();
        let contract = this.contracts.get(key);
        if (contract) {
            this.contracts.delete(key);
        } else {
            contract = SmartContract.empty(blockchain, address);
            const saved = this.load(key);
            if (saved) restoreInto(contract, saved);
        }
        this.contracts.set(key, contract);
        this.used.add(contract);
        return contract;
    }

    /** The contract of a raw address if it is held now. */
    known(address: string): SmartContract | undefined {
        return this.contracts.get(address);
    }

    knownContracts(): SmartContract[] {
        return [...this.contracts.values()];
    }

    clearKnownContracts(): void {
        this.contracts.clear();
        this.used.clear();
    }

    keep(limit: number): void {
        // The parse (an Address with its closures, the storage objects: ~1.5 KB an account) is a cache
        // of the serialized state the contract keeps anyway; kept for every account it doubled the
        // sandbox's share of the memory.
        for (const contract of this.used) (contract as unknown as SandboxContractInternals).parsedAccount = undefined;
        this.used.clear();
        for (const key of this.contracts.keys()) {
            if (this.contracts.size <= limit) return;
            this.contracts.delete(key);
        }
    }
}

/**
 * `int_msg_info$0 ihr_disabled:Bool bounce:Bool bounced:Bool src:MsgAddressInt dest:MsgAddressInt
 * value:CurrencyCollection extra_flags:(VarUInteger 16) fwd_fee:Grams created_lt:uint64 ...`:
 * the sender and creation lt of an internal message; null for other messages.
 */
function internalMessageKey(message: Cell): string | null {
    const slice = message.beginParse();
    if (slice.loadBit()) return null;
    slice.skip(3);
    const source = slice.loadAddress();
    slice.loadAddress();
    slice.loadCoins();
    slice.loadMaybeRef();
    slice.loadCoins();
    slice.loadCoins();
    return `${source.toRawString()}:${slice.loadUintBig(64)}`;
}

const librariesBoc = new WeakMap<Cell, Cell>();

/** The chain's public libraries change only when one is published: their BOC is made once (withBoc). */
function serializedOnce(libs: Cell | null): Cell | null {
    if (!libs) return libs;
    let cached = librariesBoc.get(libs);
    if (!cached) librariesBoc.set(libs, cached = withBoc(libs, writeBoc(libs)));
    return cached;
}

/** The fields of @ton/sandbox's SmartContract that hold its state as the TVM wrote it. */
interface SandboxContractInternals {
    _account: string;
    parsedAccount: ShardAccount | undefined;
    lastTxTime: number;
}

/** Raw address of the account a sandbox transaction ran on. */
export function accountOf(tx: BlockchainTransaction): string {
    const info = tx.inMessage?.info;
    const workchain = info && info.type !== 'external-out' ? info.dest.workChain : -1;
    return `${workchain}:${tx.address.toString(16).padStart(64, '0')}`;
}
