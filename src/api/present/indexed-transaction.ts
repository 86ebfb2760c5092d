import { formatBlockId } from '../../ton/block-id.ts';
import type { ExtraCurrencyCatalog } from '../../ton/extra-currencies.ts';
import type { IndexedTransaction, IndexedTransactions } from '../../store/read/transactions.ts';
import { AccountDirectory } from './account-address.ts';
import { presentTransaction } from './transaction.ts';

/** Transaction (spec 2.13) of an indexed transaction. */
export function presentIndexedTransaction(item: IndexedTransaction, accounts: AccountDirectory) {
    return presentTransaction(item.parsed, { block: formatBlockId(item.block), endBalance: item.endBalance, raw: item.boc }, accounts);
}

/** Transactions (spec 2.13) in the order given. */
export function presentTransactions(set: IndexedTransactions, currencies?: ExtraCurrencyCatalog) {
    const accounts = new AccountDirectory(set.interfaces, currencies);
    return set.transactions.map(item => presentIndexedTransaction(item, accounts));
}
