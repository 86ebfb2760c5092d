import { type Cell, CellType } from '@ton/core';
import { type Block, loadBlock } from './block.ts';
import { loadShardStateUnsplit } from './shard-state.ts';
import { type PrefixTotal, walkShardAccounts, walkShardAccountsAll } from './shard-accounts.ts';
import { parseTransactionCell, type ParsedTransaction } from '../transaction.ts';

// The balance of an account after each of its transactions in a block, from what the block carries:
// the account's balance before the block (old side of the state_update MERKLE_UPDATE), the
// transactions themselves, and the balance after the block (new side) to check the result against.
//
// Every transaction moves the account's balance (in nanograms) by
//
//   Δ = in_value − total_fees − Σ_{internal out messages} (value + fwd_fee)
//
// where in_value is the value.grams of an internal inbound message (0 for external/none).
// total_fees gathers everything the account pays to validators in the transaction: the storage
// fees collected (storage phase), the storage debt taken from the inbound value (credit phase
// due_fees_collected), the import fee of an external message, the gas fees (compute phase), the
// part of every forwarding fee kept by the sending shard (action phase total_action_fees, for
// internal and external out messages alike, and bounce phase msg_fees). What leaves with an
// internal out message is its value plus the rest of its forwarding fee, fwd_fee, which is paid to
// the validators that route it. External out messages carry no value, and their whole forwarding
// fee is already in total_action_fees. The bounce message is an ordinary out message: its value is
// what is left of the inbound value after gas and forwarding fees, so the credit comes back out.
//
// The header field after value (ihr_fee in early versions, extra_flags since) is not counted. It is
// 0 on every message of the fixture blocks, so its part in the identity is unverified; where it is
// not 0 and did count, the account's chain does not land and its balances are left out (see below).
//
// Only the grams are followed; extra currencies are not.
//
// The balance before the block: the old side of the update often prunes the account's own entry
// (the old ShardAccount leaf), so it is read, in order, from
// - the entry itself, or a label on the way that leaves the key (no account: 0);
// - otherwise the totals of the dictionary (HashmapAugE with DepthBalanceInfo, the total balance of
//   the accounts under each node): the deepest old node on the key's way covers the accounts with
//   some key prefix P and gives their total before; the new state gives their total after. When no
//   other account under P changed in the block, before = after − (total after − total before).
//
// The balances are given only where they are proven: the chain from the old balance through all
// the account's transactions must land exactly on the account's balance in the new state. Otherwise
// (an old or new state left out of the update, a transaction kind the identity does not cover)
// only the last transaction gets a balance, straight from the new state.

/** A transaction's balance movement. */
export interface TransactionBalanceDelta {
    /** value.grams of the internal inbound message; 0 for external or no inbound message. */
    inValue: bigint;
    totalFees: bigint;
    /** Σ over internal out messages of value.grams. */
    outValue: bigint;
    /** Σ over internal out messages of the fwd_fee header field. */
    outFwdFees: bigint;
}

/** A transaction's balance movement, from its decoded headers (internal messages only carry value and forwarding fees). */
export function balanceDelta(tx: ParsedTransaction): TransactionBalanceDelta {
    let outValue = 0n;
    let outFwdFees = 0n;
    for (const out of tx.outMsgs) {
        if (out.msgType !== 'int_msg') continue;
        outValue += out.value!;
        outFwdFees += out.forwardFee!;
    }
    const inValue = tx.inMsg?.msgType === 'int_msg' ? tx.inMsg.value! : 0n;
    return { inValue, totalFees: tx.tx.totalFees.coins, outValue, outFwdFees };
}

/** The balance change a transaction makes, by the identity above. */
export function balanceChange(delta: TransactionBalanceDelta): bigint {
    return delta.inValue - delta.totalFees - delta.outValue - delta.outFwdFees;
}

export interface AccountBalanceChain {
    /** Raw address 'wc:64hex', lowercase. */
    account: string;
    /** The account's transactions in lt order, with their hashes and balance movements. */
    transactions: Array<{ lt: bigint; hash: string; delta: TransactionBalanceDelta }>;
    /** Balance before the block; undefined when the update does not tell. */
    before?: bigint;
    /** How `before` was read: the account's own entry (or its absence) in the old state, or the balance totals of the dictionary (see oldBalanceFromTotals). */
    beforeFrom?: 'entry' | 'totals';
    /** Balance after the block; undefined when the new state leaves the account out. */
    after?: bigint;
    /** Balance after each transaction by the identity, from `before`; undefined without `before`. */
    chained?: bigint[];
    /** The chain lands on `after`. */
    exact: boolean;
}

/**
 * For every account with transactions in the block, its balance chain through the block. `decoded`
 * gives a transaction cell's decoding when the caller has it already.
 */
export function accountBalanceChains(blockRoot: Cell, block: Block = loadBlock(blockRoot.beginParse()), decoded?: (tx: Cell) => ParsedTransaction | undefined): AccountBalanceChain[] {
    const { shard } = block.info;
    const decode = (tx: Cell) => decoded?.(tx) ?? parseTransactionCell(tx, shard.workchainId);
    if (block.stateUpdate.type !== CellType.MerkleUpdate) {
        throw new Error('Block state_update is not a Merkle update');
    }
    // !merkle_update#04 old_hash new_hash old_depth new_depth old:^ShardState new:^ShardState
    const newAccounts = unsplitStateAccounts(block.stateUpdate.refs[1]);
    const oldSide = block.stateUpdate.refs[0];
    // after a merge the old state is split_state#5f327da5 left:^ShardStateUnsplit right:^ShardStateUnsplit
    const merged = !oldSide.isExotic && oldSide.beginParse().preloadUint(32) === 0x5f327da5;
    const changed = [...block.extra.accountBlocks.keys()];
    // After a merge each account was in the old state of its side (the bit after the merged shard's prefix).
    const oldSides = merged ? [unsplitStateAccounts(oldSide.refs[0]), unsplitStateAccounts(oldSide.refs[1])] : [unsplitStateAccounts(oldSide)];
    const sideOf = (address: bigint) => (merged ? Number((address >> BigInt(255 - shard.shardPrefixBits)) & 1n) : 0);
    const newWalks = walkShardAccountsAll(newAccounts, changed);
    const oldWalks = oldSides.map((accounts, side) => walkShardAccountsAll(accounts, changed.filter(address => sideOf(address) === side)));

    const chains: AccountBalanceChain[] = [];
    for (const [address, accountBlock] of block.extra.accountBlocks) {
        const transactions = [...accountBlock.transactions]
            .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
            .map(([lt, { cell }]) => ({ lt, hash: cell.hash().toString('hex'), delta: balanceDelta(decode(cell)) }));
        const next = newWalks.get(address)!;
        const after = next.kind === 'leaf' ? next.entry.balance : next.kind === 'absent' ? 0n : undefined;
        const old = oldWalks[sideOf(address)].get(address)!;
        let before: bigint | undefined;
        let beforeFrom: AccountBalanceChain['beforeFrom'];
        if (old.kind === 'leaf' || old.kind === 'absent') {
            before = old.kind === 'leaf' ? old.entry.balance : 0n;
            beforeFrom = 'entry';
        } else if (!merged && after !== undefined && old.deepest) {
            before = oldBalanceFromTotals(address, after, old.deepest, newAccounts, changed);
            beforeFrom = before === undefined ? undefined : 'totals';
        }
        let chained: bigint[] | undefined;
        if (before !== undefined) {
            let balance = before;
            chained = transactions.map(t => (balance += balanceChange(t.delta)));
        }
        const exact = chained !== undefined && after !== undefined && chained.length > 0 && chained[chained.length - 1] === after;
        chains.push({
            account: `${shard.workchainId}:${accountBlock.accountAddr.toString('hex')}`,
            transactions,
            before,
            beforeFrom,
            after,
            chained,
            exact,
        });
    }
    return chains;
}

/**
 * The balance of every transaction of the block right after it, by transaction hash (hex):
 * every transaction of an account whose balance chain lands exactly on its new state, and the
 * last transaction of any other account whose new state the update carries.
 */
export function transactionEndBalances(blockRoot: Cell, block?: Block, decoded?: (tx: Cell) => ParsedTransaction | undefined): Map<string, bigint> {
    const balances = new Map<string, bigint>();
    for (const chain of accountBalanceChains(blockRoot, block, decoded)) {
        if (chain.exact) {
            chain.transactions.forEach((t, i) => balances.set(t.hash, chain.chained![i]));
        } else if (chain.after !== undefined && chain.transactions.length > 0) {
            balances.set(chain.transactions[chain.transactions.length - 1].hash, chain.after);
        }
    }
    return balances;
}

/** The ShardAccounts (HashmapAugE) cell of a ShardStateUnsplit side of the update; null when pruned. */
function unsplitStateAccounts(state: Cell | undefined): Cell | null {
    if (!state || state.isExotic) {
        return null;
    }
    const accounts = loadShardStateUnsplit(state.beginParse()).accounts;
    return accounts.isExotic ? null : accounts;
}

/**
 * The balance of an account before the block when the old state prunes its entry, from the totals the
 * dictionary keeps: the deepest old node on its way covers the accounts with some key prefix P and
 * says their total balance before the block. The new state says their total after it. When no other
 * account under P changed in the block (every account that changed has an account block), the
 * difference is this account's alone, so before = after − (new total − old total).
 * An account new in the block comes out as 0.
 */
function oldBalanceFromTotals(key: bigint, after: bigint, oldDeepest: PrefixTotal, newAccounts: Cell | null, changed: bigint[]): bigint | undefined {
    const { prefixLength } = oldDeepest;
    const shift = BigInt(256 - prefixLength);
    if (changed.some(other => other !== key && other >> shift === key >> shift)) {
        return undefined;
    }
    const walk = walkShardAccounts(newAccounts, key, prefixLength);
    let newTotal: bigint;
    if (walk.kind === 'absent') {
        newTotal = 0n; // nothing under P after the block
    } else if (walk.kind === 'pruned' && walk.deepest && walk.deepest.prefixLength >= prefixLength) {
        newTotal = walk.deepest.total;
    } else {
        return undefined;
    }
    return after - (newTotal - oldDeepest.total);
}
