import { type CurrencyCollection, loadCurrencyCollection, type Slice } from '@ton/core';

// value_flow#b8e48dfb ^[ from_prev_blk:CurrencyCollection
//   to_next_blk:CurrencyCollection
//   imported:CurrencyCollection
//   exported:CurrencyCollection ]
//   fees_collected:CurrencyCollection
//   ^[
//   fees_imported:CurrencyCollection
//   recovered:CurrencyCollection
//   created:CurrencyCollection
//   minted:CurrencyCollection
//   ] = ValueFlow;
//
// value_flow_v2#3ebf98b7 (same fields, plus burned:CurrencyCollection after fees_collected)

const VALUE_FLOW_V1 = 0xb8e48dfb;
const VALUE_FLOW_V2 = 0x3ebf98b7;

export interface ValueFlow {
    fromPrevBlk: CurrencyCollection;
    toNextBlk: CurrencyCollection;
    imported: CurrencyCollection;
    exported: CurrencyCollection;
    feesCollected: CurrencyCollection;
    /** Present only in value_flow_v2. */
    burned?: CurrencyCollection;
    feesImported: CurrencyCollection;
    recovered: CurrencyCollection;
    created: CurrencyCollection;
    minted: CurrencyCollection;
}

export function loadValueFlow(slice: Slice): ValueFlow {
    const tag = slice.loadUint(32);
    if (tag !== VALUE_FLOW_V1 && tag !== VALUE_FLOW_V2) {
        throw new Error(`Invalid ValueFlow tag ${tag.toString(16)}`);
    }
    const balances = slice.loadRef().beginParse();
    const feesCollected = loadCurrencyCollection(slice);
    const burned = tag === VALUE_FLOW_V2 ? loadCurrencyCollection(slice) : undefined;
    const fees = slice.loadRef().beginParse();
    return {
        fromPrevBlk: loadCurrencyCollection(balances),
        toNextBlk: loadCurrencyCollection(balances),
        imported: loadCurrencyCollection(balances),
        exported: loadCurrencyCollection(balances),
        feesCollected,
        burned,
        feesImported: loadCurrencyCollection(fees),
        recovered: loadCurrencyCollection(fees),
        created: loadCurrencyCollection(fees),
        minted: loadCurrencyCollection(fees),
    };
}
