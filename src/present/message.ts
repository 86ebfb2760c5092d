import { beginCell, Dictionary, storeStateInit, type Cell, type StateInit } from '@ton/core';
import { writeBoc } from '../ton/boc/boc-writer.ts';
import { formatOpCode } from '../ton/bodies/index.ts';
import { interfacesByCodeHash } from '../ton/interfaces/known-code.ts';
import { extraCurrencyAmounts } from '../ton/extra-currencies.ts';
import type { TransactionMessage } from '../ton/transaction.ts';
import type { AccountView } from './account-address.ts';
import { BoundedMap } from '../lru.ts';
import { DictKeys } from '../ton/cells/dict-keys.ts';

/** Message (spec 2.12) from a message cell of an indexed transaction. */
export function presentMessage(m: TransactionMessage, accounts: AccountView) {
    const body = m.body;
    const init = m.init;
    const decoded = accounts.decodedBody(m);
    const msg_type = m.msgType;
    const hash = m.hash;
    const op_code = m.opCode !== null ? formatOpCode(m.opCode) : undefined;
    const initJson = init ? { boc: stateInitBoc(init), interfaces: interfacesByCodeHash(init.code?.hash().toString('hex')) } : undefined;
    const raw_body = body.bits.length > 0 || body.refs.length > 0 ? writeBoc(body).toString('hex') : undefined;
    const decoded_op_name = decoded?.name;
    const decoded_body = decoded?.value;
    switch (m.msgType) {
        case 'int_msg':
            return {
                msg_type, hash, op_code, init: initJson, raw_body, decoded_op_name, decoded_body,
                created_lt: m.createdLt,
                ihr_disabled: m.ihrDisabled,
                bounce: m.bounce,
                bounced: m.bounced,
                value: m.value!,
                value_extra: m.extraCurrencies ? extraCurrencies(m.extraCurrencies, accounts) : undefined,
                fwd_fee: m.forwardFee!,
                ihr_fee: m.ihrFee,
                import_fee: 0n,
                created_at: m.createdAt,
                source: accounts.accountAddress(m.source!),
                destination: accounts.accountAddress(m.destination!),
            };
        case 'ext_in_msg':
            return {
                msg_type, hash, op_code, init: initJson, raw_body, decoded_op_name, decoded_body,
                ...EXTERNAL,
                created_lt: 0n,
                import_fee: m.importFee,
                created_at: 0,
                destination: accounts.accountAddress(m.destination!),
            };
        case 'ext_out_msg':
            return {
                msg_type, hash, op_code, init: initJson, raw_body, decoded_op_name, decoded_body,
                ...EXTERNAL,
                created_lt: m.createdLt,
                import_fee: 0n,
                created_at: m.createdAt,
                source: accounts.accountAddress(m.source!),
            };
    }
}

/**
 * BOCs (hex, as @ton/core writes them) of StateInit cells by the cell's hash: one hash is one cell
 * tree, which @ton/core always writes the same way, and writing it is the slow part (a deployed
 * jetton wallet's StateInit comes in every transfer to a new holder).
 */
const stateInitBocs = new BoundedMap<string, string>(1_000);

function stateInitBoc(init: StateInit): string {
    const cell = beginCell().store(storeStateInit(init)).endCell();
    const key = cell.hash().toString('hex');
    let boc = stateInitBocs.get(key);
    if (boc === undefined) {
        boc = cell.toBoc().toString('hex');
        stateInitBocs.set(key, boc);
    }
    return boc;
}

/** External messages carry no coins and pay no forwarding. */
const EXTERNAL = { ihr_disabled: true, bounce: false, bounced: false, value: 0n, fwd_fee: 0n, ihr_fee: 0n } as const;

/**
 * ExtraCurrency (spec) of every currency an internal message carries, in id order, with its preview
 * from the service's table; `root`: its ExtraCurrencyCollection (HashmapE 32 (VarUInteger 32)).
 */
function extraCurrencies(root: Cell, accounts: AccountView) {
    const amounts = extraCurrencyAmounts(Dictionary.loadDirect(DictKeys.Uint(32), Dictionary.Values.BigVarUint(5), root));
    if (amounts.size === 0) return undefined;
    return [...amounts].map(([id, amount]) => ({ amount: amount.toString(), preview: accounts.extraCurrency(id) }));
}
