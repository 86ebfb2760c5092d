import { Address, Cell, beginCell, loadShardAccount, storeShardAccount } from '@ton/core';
import { Blockchain, Executor, LocalBlockchainStorage, type BlockchainTransaction, type SmartContract } from '@ton/sandbox';
import type { PersistedAccount } from './chain-log.ts';

/**
 * @ton/sandbox's Blockchain (the real TVM in WASM) with what a long-running chain needs and the
 * sandbox leaves out: draining executed transactions (the sandbox keeps all of them forever),
 * the balance after every transaction, restoring logical time, and account state persistence.
 */
export class SandboxChain extends Blockchain {
    private readonly contracts = new Map<string, SmartContract>();
    private readonly balances = new WeakMap<BlockchainTransaction, bigint>();

    static async start(): Promise<SandboxChain> {
        const chain = new SandboxChain({ executor: await Executor.create(), storage: new LocalBlockchainStorage() });
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
            record(tx);
        };
        return manager;
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
