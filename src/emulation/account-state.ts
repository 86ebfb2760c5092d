import { Address, beginCell, loadShardAccount, storeShardAccount, type Account, type Cell, type ShardAccount } from '@ton/core';
import { readBoc } from '../ton/boc/boc-reader.ts';
import { writeBoc } from '../ton/boc/boc-writer.ts';
import { extraCurrencyDict } from '../ton/extra-currencies.ts';

/** An account as the indexer last saw it (the columns of `account_states` emulation needs). */
export interface StoredAccount {
    status: string;
    balance: bigint;
    /** Extra currencies held, amount by currency id. */
    extraBalance?: ReadonlyMap<number, bigint>;
    code: Buffer | null;
    data: Buffer | null;
    /** Lt of the account's last transaction. */
    lastTransLt: bigint;
    /** The account's own last_trans_lt: the end of its last transaction (its lt + out-messages + 1). */
    accountLastTransLt: bigint;
    lastTransHash: string;
    lastUtime: number;
}

/**
 * ShardAccount (what the emulator takes and gives back) of an account as indexed. An account the
 * index does not know is `account_none`. Storage usage is counted over code and data, which is what
 * storage fees are charged on (the account header adds a few bits the index does not keep).
 */
export function shardAccountOf(address: Address, stored: StoredAccount | undefined): ShardAccount {
    if (!stored || stored.status === 'nonexist') return { account: null, lastTransactionHash: 0n, lastTransactionLt: 0n };
    const code = stored.code ? readBoc(stored.code)[0] : null;
    const data = stored.data ? readBoc(stored.data)[0] : null;
    const active = stored.status === 'active' && code !== null;
    const account: Account = {
        addr: address,
        storageStats: { used: storageUsed([code, data]), storageExtra: null, lastPaid: stored.lastUtime, duePayment: null },
        storage: {
            lastTransLt: stored.accountLastTransLt,
            balance: { coins: stored.balance, other: extraCurrencyDict(stored.extraBalance) },
            state: active
                ? { type: 'active', state: { code, data } }
                : stored.status === 'frozen'
                    // The index keeps no hash of a frozen state; a message with the original StateInit is
                    // needed to unfreeze it either way, and it will not match, as on chain it would not.
                    ? { type: 'frozen', stateHash: 0n }
                    : { type: 'uninit' },
        },
    };
    return { account, lastTransactionHash: BigInt(`0x${stored.lastTransHash}`), lastTransactionLt: stored.lastTransLt };
}

/** The same account with another balance; an account that does not exist becomes uninit with it. */
export function withBalance(address: Address, shardAccount: ShardAccount, balance: bigint, now: number): ShardAccount {
    if (!shardAccount.account) {
        return {
            account: {
                addr: address,
                storageStats: { used: { cells: 0n, bits: 0n }, storageExtra: null, lastPaid: now, duePayment: null },
                storage: { lastTransLt: 0n, balance: { coins: balance }, state: { type: 'uninit' } },
            },
            lastTransactionHash: 0n,
            lastTransactionLt: 0n,
        };
    }
    const account = shardAccount.account;
    return {
        ...shardAccount,
        account: {
            ...account,
            storageStats: { ...account.storageStats, storageExtra: null },
            storage: { ...account.storage, balance: { ...account.storage.balance, coins: balance } },
        },
    };
}

export function serializeShardAccount(shardAccount: ShardAccount): string {
    return writeBoc(beginCell().store(storeShardAccount(shardAccount)).endCell()).toString('base64');
}

export function parseShardAccount(base64: string): ShardAccount {
    return loadShardAccount(readBoc(Buffer.from(base64, 'base64'))[0].beginParse());
}

/** Distinct cells and their bits, as storage accounting counts them. */
function storageUsed(roots: Array<Cell | null>): { cells: bigint; bits: bigint } {
    const seen = new Set<string>();
    let bits = 0;
    const visit = (cell: Cell) => {
        const key = cell.hash().toString('hex');
        if (seen.has(key)) return;
        seen.add(key);
        bits += cell.bits.length;
        for (const ref of cell.refs) visit(ref);
    };
    for (const root of roots) if (root) visit(root);
    return { cells: BigInt(seen.size), bits: BigInt(bits) };
}
