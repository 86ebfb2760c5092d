import { Address, Cell, Dictionary, beginCell, storeMessage, storeTransaction, type Message, type Transaction } from '@ton/core';
import type { AccountStateRecord, BlockRecord, TransactionRecord } from '../../src/chain/chain-source.ts';
import { formatRawAddress } from '../../src/ton/address.ts';
import { OP_INIT, signersCell, type OrderFields } from '../ton/interfaces/multisig-order-cells.ts';

/**
 * Blocks carrying multisig v2 orders for the indexer's and the API's tests: account states with
 * constructed data cells (the code known by its hash alone, so nothing runs) and real transaction
 * cells (storeTransaction) for the orders' `init`.
 */

/** Code hashes of ton-blockchain/multisig-contract-v2's build (as in known-code.ts). */
export const MULTISIG_V2_CODE_HASH = 'd3d14da9a627f0ec3533341829762af92b9540b21bf03665fac09c2b46eabbac';
/** An order account's code: the library cell pointing at the order code. */
export const ORDER_CODE_HASH = 'a01e057fbd4288402b9898d78d67bd4e90254c93c5866879bc2d1d12865436bc';

export const hashOf = (lt: bigint) => lt.toString(16).padStart(64, '0');

/** An active account whose code is known by its hash; `code` when it should run. */
export function activeState(address: Address, data: Cell, lt: bigint, options: { codeHash?: string; code?: Cell; balance?: bigint } = {}): AccountStateRecord {
    return {
        address: formatRawAddress(address), status: 'active', balance: options.balance ?? 1_000_000_000n,
        codeHash: options.code ? options.code.hash().toString('hex') : options.codeHash ?? ORDER_CODE_HASH,
        dataHash: data.hash().toString('hex'),
        code: options.code?.toBoc(), data: data.toBoc(),
        lastTransLt: lt, lastTransHash: hashOf(lt),
    };
}

export function frozenState(address: Address, lt: bigint): AccountStateRecord {
    return { address: formatRawAddress(address), status: 'frozen', balance: 0n, lastTransLt: lt, lastTransHash: hashOf(lt) };
}

/**
 * init#9c73fba2 query_id:uint64 threshold:uint8 signers:^(Hashmap 8 MsgAddressInt) expiration_date:uint48
 *   order:^Order approve_on_init:(## 1) signer_index:approve_on_init?uint8
 */
export function initBody(f: OrderFields, signerIndex: number | null): Cell {
    const b = beginCell().storeUint(OP_INIT, 32).storeUint(0, 64).storeUint(f.threshold, 8).storeRef(signersCell(f.signers))
        .storeUint(f.expirationDate, 48).storeRef(f.order).storeBit(signerIndex !== null);
    if (signerIndex !== null) b.storeUint(signerIndex, 8);
    return b.endCell();
}

/** A transaction of `account` at `lt` and `now`, processing an internal message from `from`. */
export function internalTransaction(account: Address, from: Address, body: Cell, lt: bigint, now: number, success = true): TransactionRecord {
    const inMessage: Message = {
        info: {
            type: 'internal', ihrDisabled: true, bounce: true, bounced: false, src: from, dest: account,
            value: { coins: 100_000_000n }, ihrFee: 0n, forwardFee: 0n, createdLt: lt - 1n, createdAt: now,
        },
        body,
    };
    const outs = Dictionary.empty<number, Message>(Dictionary.Keys.Uint(15), { serialize: (m, b) => b.storeRef(beginCell().store(storeMessage(m))), parse: () => { throw new Error('unused'); } });
    const tx = {
        address: BigInt('0x' + account.hash.toString('hex')), lt, prevTransactionHash: 0n, prevTransactionLt: 0n, now,
        outMessagesCount: 0, oldStatus: 'uninitialized', endStatus: success ? 'active' : 'uninitialized',
        inMessage, outMessages: outs, totalFees: { coins: 1_000_000n }, stateUpdate: { oldHash: Buffer.alloc(32), newHash: Buffer.alloc(32, 1) },
        description: {
            type: 'generic', creditFirst: true, storagePhase: null,
            creditPhase: { dueFeesColelcted: undefined, credit: { coins: 100_000_000n } },
            computePhase: {
                type: 'vm', success, messageStateUsed: false, accountActivated: success, gasFees: 1_000_000n, gasUsed: 1000n, gasLimit: 1_000_000n,
                gasCredit: null, mode: 0, exitCode: success ? 0 : 111, exitArg: null, vmSteps: 10, vmInitStateHash: 0n, vmFinalStateHash: 0n,
            },
            actionPhase: success ? {
                success: true, valid: true, noFunds: false, statusChange: 'unchanged', totalFwdFees: null, totalActionFees: null,
                resultCode: 0, resultArg: null, totalActions: 0, specActions: 0, skippedActions: 0, messagesCreated: 0,
                actionListHash: 0n, totalMessageSize: { cells: 0n, bits: 0n },
            } : null,
            bouncePhase: null, aborted: !success, destroyed: false,
        },
    } as unknown as Transaction;
    const cell = beginCell().store(storeTransaction(tx)).endCell();
    return { boc: cell.toBoc(), cell };
}

export function block(seqno: number, accountStates: AccountStateRecord[], transactions: TransactionRecord[] = []): BlockRecord {
    const lts = accountStates.map(s => s.lastTransLt);
    return {
        id: { workchain: 0, shard: '8000000000000000', seqno, rootHash: hashOf(BigInt(seqno)), fileHash: hashOf(BigInt(seqno)) },
        utime: 1_700_000_000 + seqno, startLt: lts.reduce((a, b) => (a < b ? a : b), 1n), endLt: lts.reduce((a, b) => (a > b ? a : b), 1n) + 1n,
        isKeyBlock: false, parents: [], shardBlocks: [], transactions, accountStates,
    };
}
