import { beginCell, storeStateInit, type StateInit } from '@ton/core';
import { writeBoc } from '../../ton/boc/boc-writer.ts';
import { decodeBody, formatOpCode } from '../../ton/bodies/index.ts';
import { interfacesByCodeHash } from '../../ton/interfaces/known-code.ts';
import { extraCurrencyAmounts } from '../../ton/extra-currencies.ts';
import type { TransactionMessage } from '../../ton/transaction.ts';
import type { AccountDirectory } from './account-address.ts';
import { BoundedMap } from '../../emulation/bounded-map.ts';

/** Message (spec 2.12) from a message cell of an indexed transaction. */
export function presentMessage(m: TransactionMessage, accounts: AccountDirectory) {
    const info = m.message.info;
    const body = m.message.body;
    const init = m.message.init;
    const decoded = decodeBody(body, {
        external: m.msgType === 'ext_in_msg',
        destinationInterfaces: m.destination ? accounts.interfaces(m.destination) : undefined,
    });
    const common = {
        msg_type: m.msgType,
        hash: m.hash,
        op_code: m.opCode !== null ? formatOpCode(m.opCode) : undefined,
        init: init
            ? {
                boc: stateInitBoc(init),
                interfaces: interfacesByCodeHash(init.code?.hash().toString('hex')),
            }
            : undefined,
        raw_body: body.bits.length > 0 || body.refs.length > 0 ? writeBoc(body).toString('hex') : undefined,
        decoded_op_name: decoded?.name,
        decoded_body: decoded?.value,
    };
    switch (info.type) {
        case 'internal':
            return {
                ...common,
                created_lt: info.createdLt,
                ihr_disabled: info.ihrDisabled,
                bounce: info.bounce,
                bounced: info.bounced,
                value: info.value.coins,
                value_extra: extraCurrencies(info.value.other, accounts),
                fwd_fee: info.forwardFee,
                ihr_fee: info.ihrFee,
                import_fee: 0n,
                created_at: info.createdAt,
                source: accounts.accountAddress(m.source!),
                destination: accounts.accountAddress(m.destination!),
            };
        case 'external-in':
            return {
                ...common,
                ...EXTERNAL,
                created_lt: 0n,
                import_fee: info.importFee,
                created_at: 0,
                destination: accounts.accountAddress(m.destination!),
            };
        case 'external-out':
            return {
                ...common,
                ...EXTERNAL,
                created_lt: info.createdLt,
                import_fee: 0n,
                created_at: info.createdAt,
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

type ExtraCurrencyDict = NonNullable<import('@ton/core').CurrencyCollection['other']>;

/** ExtraCurrency (spec) of every currency the message carries, in id order, with its preview from the service's table. */
function extraCurrencies(other: ExtraCurrencyDict | null | undefined, accounts: AccountDirectory) {
    const amounts = extraCurrencyAmounts(other);
    if (amounts.size === 0) return undefined;
    return [...amounts].map(([id, amount]) => ({ amount: amount.toString(), preview: accounts.extraCurrency(id) }));
}
