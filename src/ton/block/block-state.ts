import { type Account, type Cell, CellType, loadAccount } from '@ton/core';
import { type Block, loadBlock } from './block.ts';
import { accountBalanceSlice, walkShardAccountsAll } from './shard-accounts.ts';
import { loadShardStateUnsplit } from './shard-state.ts';

// The state an account is left in by a block, read from the new side of the block's
// state_update:^(MERKLE_UPDATE ShardState). The update holds only what the block changed,
// so an account with transactions is there (its Account cell changed), while its unchanged
// code/data are pruned branches whose level-0 hash is still the hash of the original cell.

export type AccountStatusAfterBlock = 'active' | 'uninit' | 'frozen' | 'nonexist';

export interface AccountStateAfterBlock {
    /** Raw address 'wc:64hex', lowercase. */
    account: string;
    balance: bigint;
    status: AccountStatusAfterBlock;
    codeHash?: string;
    dataHash?: string;
    lastTransLt: bigint;
    lastTransHash: string;
    /** The Account cell after the block (pruned where the update prunes it). */
    accountCell: Cell;
    /** The Account as @ton/core reads it, when the cell is complete (none for `account_none`). */
    decoded?: Account;
    /**
     * False when the update prunes part of the account (unchanged code, data, libraries or extra
     * currencies): the fields above are what could be read, the rest must come from the source.
     */
    complete: boolean;
}

/**
 * For every account with transactions in the block (given its root cell), its state after
 * the block, sorted by account. Accounts whose state the update leaves out are skipped.
 */
export function accountStatesAfterBlock(blockRoot: Cell, block: Block = loadBlock(blockRoot.beginParse())): AccountStateAfterBlock[] {
    const workchain = block.info.shard.workchainId;
    const accounts = newStateAccounts(block.stateUpdate);

    const states: AccountStateAfterBlock[] = [];
    const walks = walkShardAccountsAll(accounts, [...block.extra.accountBlocks.keys()]);
    for (const [address, accountBlock] of block.extra.accountBlocks) {
        const walk = walks.get(address)!;
        if (walk.kind !== 'leaf' || walk.entry.account.isExotic) {
            continue;
        }
        const { entry } = walk;
        // HASH_UPDATE Account of the account block names the account cell after the block
        if (!entry.account.hash(0).equals(accountBlock.stateUpdate.newHash)) {
            throw new Error(`State of account ${address.toString(16)} does not match its account block`);
        }
        // A cell above a pruned branch has a level above 0.
        const complete = entry.account.level() === 0;
        states.push({
            account: `${workchain}:${accountBlock.accountAddr.toString('hex')}`,
            ...(complete ? decodeAccount(entry.account) : decodePartialAccount(entry.account)),
            lastTransLt: entry.lastTransLt,
            lastTransHash: entry.lastTransHash.toString('hex'),
            accountCell: entry.account,
            complete,
        });
    }
    return states.sort((a, b) => (a.account < b.account ? -1 : a.account > b.account ? 1 : 0));
}

/** The ShardAccounts of the update's new state; null when the block changed no account (pruned). */
function newStateAccounts(stateUpdate: Cell): Cell | null {
    // !merkle_update#02 {X:Type} old_hash:bits256 new_hash:bits256 old:^X new:^X = MERKLE_UPDATE X;
    if (stateUpdate.type !== CellType.MerkleUpdate) {
        throw new Error('Block state_update is not a Merkle update');
    }
    const newState = stateUpdate.refs[1];
    if (newState.isExotic) {
        throw new Error('The new state of the block is pruned');
    }
    const state = loadShardStateUnsplit(newState.beginParse());
    return state.accounts.isExotic ? null : state.accounts;
}

/**
 * What a partly pruned Account shows: @ton/core's reader stops at a pruned extra-currency dictionary,
 * so on failure the status and balance are read up to it by hand.
 */
function decodePartialAccount(cell: Cell): Pick<AccountStateAfterBlock, 'balance' | 'status' | 'codeHash' | 'dataHash'> {
    try {
        // What @ton/core read of a pruned account is not the account: only the fields are kept.
        const { balance, status, codeHash, dataHash } = decodeAccount(cell);
        return { balance, status, codeHash, dataHash };
    } catch {
        const slice = accountBalanceSlice(cell);
        if (!slice) return { balance: 0n, status: 'nonexist' };
        const balance = slice.loadCoins();
        if (slice.loadBit()) slice.loadRef();
        const status = slice.loadBit() ? 'active' : slice.loadBit() ? 'frozen' : 'uninit';
        return { balance, status };
    }
}

function decodeAccount(cell: Cell): Pick<AccountStateAfterBlock, 'balance' | 'status' | 'codeHash' | 'dataHash' | 'decoded'> {
    const slice = cell.beginParse();
    // account_none$0 = Account;
    if (!slice.loadBit()) {
        return { balance: 0n, status: 'nonexist' };
    }
    const decoded = loadAccount(slice);
    const { storage } = decoded;
    const balance = storage.balance.coins;
    switch (storage.state.type) {
        case 'active':
            return {
                balance,
                status: 'active',
                codeHash: storage.state.state.code?.hash(0).toString('hex'),
                dataHash: storage.state.state.data?.hash(0).toString('hex'),
                decoded,
            };
        case 'frozen':
            return { balance, status: 'frozen', decoded };
        case 'uninit':
            return { balance, status: 'uninit', decoded };
    }
}
