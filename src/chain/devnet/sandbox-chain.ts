import '../../ton/fast-hash.ts';
import { Address, Cell, Dictionary, beginCell, loadMessage, loadShardAccount, storeMessage, storeShardAccount, type Message } from '@ton/core';
import { Blockchain, Executor, LocalBlockchainStorage, type BlockchainTransaction, type MessageParams, type SmartContract } from '@ton/sandbox';
import type { PersistedAccount } from './chain-log.ts';

/**
 * @ton/sandbox's Blockchain (the real TVM in WASM) with what a long-running chain needs and the
 * sandbox leaves out: draining executed transactions (the sandbox keeps all of them forever),
 * the balance after every transaction, restoring logical time, and account state persistence.
 */
export class SandboxChain extends Blockchain {
    private readonly contracts = new Map<string, SmartContract>();
    private readonly balances = new WeakMap<BlockchainTransaction, bigint>();
    /** Message cells as their sender made them, by the hash of the sandbox's re-serialization of them. */
    private readonly originalMessages = new Map<string, Cell>();

    static async start(): Promise<SandboxChain> {
        const executor = await Executor.create();
        const chain = new SandboxChain({ executor, storage: new LocalBlockchainStorage() });
        // The sandbox hands the executor its own re-serialization of every message (storeMessage), which
        // can lay out init and body differently from the cell the sender made; a real chain delivers
        // the very cell, so the receiver's in_msg hash equals the sender's out_msg hash. Restore it.
        const runTransaction = executor.runTransaction.bind(executor);
        executor.runTransaction = args => runTransaction({ ...args, message: chain.originalMessage(args.message) });
        chain.verbosity = { ...chain.verbosity, print: false, blockchainLogs: false, vmLogs: 'none', debugLogs: false };
        return chain;
    }

    override async getContract(address: Address): Promise<SmartContract> {
        const contract = await super.getContract(address);
        this.contracts.set(address.toRawString(), contract);
        return contract;
    }

    protected override createQueueManager() {
        const manager = super.createQueueManager();
        const queue = manager as unknown as { blockchain: { onTransaction: (tx: BlockchainTransaction) => void } };
        const record = queue.blockchain.onTransaction;
        queue.blockchain.onTransaction = tx => {
            // Called right after the executor updated the account, so its balance is the post-transaction one.
            const contract = this.contracts.get(accountOf(tx));
            if (contract) this.balances.set(tx, contract.balance);
            const outMessages = tx.raw.refs[0].beginParse();
            if (outMessages.loadBit()) outMessages.loadRef();
            for (const cell of outMessages.loadDict(Dictionary.Keys.Uint(15), Dictionary.Values.Cell()).values()) this.rememberMessage(cell);
            record(tx);
        };
        return manager;
    }

    override async sendMessage(message: Message | Cell, params?: MessageParams) {
        if (message instanceof Cell) this.rememberMessage(message);
        try {
            return await super.sendMessage(message, params);
        } finally {
            // The whole cascade has run: what is left was never delivered (e.g. a rejected external message).
            this.originalMessages.clear();
        }
    }

    private rememberMessage(cell: Cell): void {
        const again = beginCell().store(storeMessage(loadMessage(cell.beginParse()))).endCell();
        if (!again.hash().equals(cell.hash())) this.originalMessages.set(again.hash().toString('hex'), cell);
    }

    private originalMessage(cell: Cell): Cell {
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

    balanceAfter(tx: BlockchainTransaction): bigint | undefined {
        return this.balances.get(tx);
    }

    setLogicalTime(lt: bigint): void {
        this.currentLt = lt;
    }

    async persistedAccount(address: string): Promise<PersistedAccount> {
        const contract = await this.getContract(Address.parseRaw(address));
        const snapshot = contract.snapshot();
        return {
            address,
            shardAccount: beginCell().store(storeShardAccount(snapshot.account)).endCell().toBoc(),
            lastTxTime: snapshot.lastTxTime,
        };
    }

    async restoreAccount(saved: PersistedAccount): Promise<void> {
        const address = Address.parseRaw(saved.address);
        const contract = await this.getContract(address);
        contract.loadFrom({
            address,
            account: loadShardAccount(Cell.fromBoc(saved.shardAccount)[0].beginParse()),
            lastTxTime: saved.lastTxTime,
        } as Parameters<SmartContract['loadFrom']>[0]);
    }
}

/** Raw address of the account a sandbox transaction ran on. */
export function accountOf(tx: BlockchainTransaction): string {
    const info = tx.inMessage?.info;
    const workchain = info && info.type !== 'external-out' ? info.dest.workChain : -1;
    return `${workchain}:${tx.address.toString(16).padStart(64, '0')}`;
}
