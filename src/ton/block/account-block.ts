import {
    type Cell,
    type CurrencyCollection,
    Dictionary,
    type DictionaryValue,
    type HashUpdate,
    loadCurrencyCollection,
    loadHashUpdate,
    type Slice,
} from '@ton/core';
import { DictKeys } from '../cells/dict-keys.ts';

// acc_trans#5 account_addr:bits256
//             transactions:(HashmapAug 64 ^Transaction CurrencyCollection)
//             state_update:^(HASH_UPDATE Account)
//           = AccountBlock;

/** A transaction as the account block stores it: the cell, and its fees (the augmentation). */
export interface AccountBlockTransaction {
    fees: CurrencyCollection;
    cell: Cell;
}

export interface AccountBlock {
    accountAddr: Buffer;
    /** Keyed by logical time. */
    transactions: Dictionary<bigint, AccountBlockTransaction>;
    stateUpdate: HashUpdate;
}

const transactionValue: DictionaryValue<AccountBlockTransaction> = {
    serialize() {
        throw new Error('AccountBlock transactions are read-only');
    },
    // ahmn_leaf#_ extra:Y value:X: the augmentation comes first
    parse(slice) {
        const fees = loadCurrencyCollection(slice);
        return { fees, cell: slice.loadRef() };
    },
};

export function loadAccountBlock(slice: Slice): AccountBlock {
    if (slice.loadUint(4) !== 0x5) {
        throw new Error('Invalid AccountBlock tag');
    }
    const accountAddr = slice.loadBuffer(32);
    // The HashmapAug is inline and never empty; parsing reads its root label and node.
    const transactions = Dictionary.loadDirect(DictKeys.BigUint(64), transactionValue, slice);
    // A root leaf (one transaction) is consumed with its value; a root fork still has
    // its augmentation (extra:CurrencyCollection) left in front of state_update.
    if (transactions.size > 1) {
        loadCurrencyCollection(slice);
    }
    const stateUpdate = loadHashUpdate(slice.loadRef().beginParse());
    return { accountAddr, transactions, stateUpdate };
}
