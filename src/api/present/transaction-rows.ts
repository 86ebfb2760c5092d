import { formatBlockId } from '../../ton/block-id.ts';
import { parseTransactionCell, type ParsedTransaction } from '../../ton/transaction.ts';
import { accountInterfaces } from '../../store/read/accounts.ts';
import type { TransactionRow } from '../../store/read/transactions.ts';
import type { IndexDb } from '../../store/schema.ts';
import { toNumber } from '../../store/schema.ts';
import { AccountDirectory } from './account-address.ts';
import { presentTransaction } from './transaction.ts';
import { readBoc } from '../../ton/boc/boc-reader.ts';
import type { ExtraCurrencyCatalog } from '../../ton/extra-currencies.ts';

export interface LoadedTransaction {
    row: TransactionRow;
    parsed: ParsedTransaction;
}

export function parseRows(rows: TransactionRow[]): LoadedTransaction[] {
    return rows.map(row => ({ row, parsed: parseTransactionCell(readBoc(row.boc)[0], toNumber(row.workchain)) }));
}

/** Every account a set of transactions mentions (sorted, once each). */
export function accountsOf(loaded: LoadedTransaction[]): string[] {
    const addresses = new Set<string>();
    for (const { parsed } of loaded) {
        addresses.add(parsed.account);
        for (const m of [parsed.inMsg, ...parsed.outMsgs]) {
            if (m?.source) addresses.add(m.source);
            if (m?.destination) addresses.add(m.destination);
        }
    }
    return [...addresses].sort();
}

/** Every account a set of transactions mentions, with what the index knows about it. */
export async function directoryFor(db: IndexDb, loaded: LoadedTransaction[], currencies?: ExtraCurrencyCatalog): Promise<AccountDirectory> {
    return new AccountDirectory(await accountInterfaces(db, accountsOf(loaded)), currencies);
}

export function presentLoaded(item: LoadedTransaction, accounts: AccountDirectory) {
    const { row, parsed } = item;
    return presentTransaction(parsed, {
        block: formatBlockId({ workchain: toNumber(row.workchain), shard: row.shard, seqno: toNumber(row.seqno) }),
        endBalance: row.end_balance,
        raw: row.boc,
    }, accounts);
}

export async function presentTransactionRows(db: IndexDb, rows: TransactionRow[], currencies?: ExtraCurrencyCatalog) {
    const loaded = parseRows(rows);
    const accounts = await directoryFor(db, loaded, currencies);
    return loaded.map(item => presentLoaded(item, accounts));
}
