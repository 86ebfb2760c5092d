import { formatBlockId } from '../ton/block-id.ts';
import type { IndexedTransaction } from '../store/read/transactions.ts';
import type { AccountDirectory } from './account-address.ts';
import { presentTransaction } from './transaction.ts';

/** Transaction (spec 2.13) of an indexed transaction. */
export function presentIndexedTransaction(item: IndexedTransaction, accounts: AccountDirectory) {
    return presentTransaction(item.parsed, { block: formatBlockId(item.block), endBalance: item.endBalance, raw: item.boc }, accounts);
}
