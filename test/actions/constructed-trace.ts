import { Address, Cell, Dictionary, beginCell, storeMessage, storeTransaction, type Message, type Transaction } from '@ton/core';
import { parseTransactionCell } from '../../src/ton/transaction.ts';
import type { ActionTraceNode } from '../../src/actions/trace-input.ts';

/**
 * Traces of protocols the devnet does not run, built from their documented message layouts:
 * real transaction cells (storeTransaction) with the messages a protocol exchanges, parsed back
 * by the same parser as real ones.
 */
export interface TxSpec {
    account: string;
    interfaces?: string[];
    /** value of the inbound internal message (default 0.1 gram) */
    value?: bigint;
    body?: Cell;
    /** an external inbound message (the root of a wallet's trace) */
    external?: boolean;
    /** sender of the inbound message; default the parent's account */
    from?: string;
    success?: boolean;
    exitCode?: number;
    externalOut?: Cell[];
    deploys?: boolean;
    children?: TxSpec[];
}

const FEES = 1_000_000n;
const UTIME = 1_751_461_310;

export function constructTrace(spec: TxSpec): ActionTraceNode {
    let lt = 1_000_000n;
    const build = (s: TxSpec, inMessage: Message): ActionTraceNode => {
        const txLt = (lt += 10n);
        const account = Address.parse(s.account);
        const childMessages = (s.children ?? []).map((c) => {
            const info = {
                type: 'internal' as const, ihrDisabled: true, bounce: true, bounced: false, src: Address.parse(c.from ?? s.account),
                dest: Address.parse(c.account), value: { coins: c.value ?? 100_000_000n }, ihrFee: 0n, forwardFee: 0n, createdLt: (lt += 1n), createdAt: UTIME,
            };
            return { spec: c, message: { info, body: c.body ?? Cell.EMPTY } as Message };
        });
        const outs = Dictionary.empty<number, Message>(Dictionary.Keys.Uint(15), { serialize: (m, b) => b.storeRef(beginCell().store(storeMessage(m))), parse: () => { throw new Error('unused'); } });
        const extOuts = (s.externalOut ?? []).map((body) => ({ info: { type: 'external-out' as const, src: account, dest: null, createdLt: (lt += 1n), createdAt: UTIME }, body }) as Message);
        [...childMessages.map((c) => c.message), ...extOuts].forEach((m, i) => outs.set(i, m));
        const success = s.success ?? true;
        const tx = {
            address: BigInt('0x' + account.hash.toString('hex')), lt: txLt, prevTransactionHash: 0n, prevTransactionLt: 0n, now: UTIME,
            outMessagesCount: outs.size, oldStatus: s.deploys ? 'uninitialized' : 'active', endStatus: 'active',
            inMessage, outMessages: outs, totalFees: { coins: FEES }, stateUpdate: { oldHash: Buffer.alloc(32), newHash: Buffer.alloc(32, 1) },
            description: {
                type: 'generic', creditFirst: !inMessage.info.type.startsWith('external'), storagePhase: null,
                creditPhase: inMessage.info.type === 'internal' ? { dueFeesColelcted: undefined, credit: { coins: inMessage.info.value.coins } } : null,
                computePhase: {
                    type: 'vm', success, messageStateUsed: false, accountActivated: false, gasFees: FEES, gasUsed: 1000n, gasLimit: 1_000_000n,
                    gasCredit: null, mode: 0, exitCode: s.exitCode ?? (success ? 0 : 100), exitArg: null, vmSteps: 10, vmInitStateHash: 0n, vmFinalStateHash: 0n,
                },
                actionPhase: success ? {
                    success: true, valid: true, noFunds: false, statusChange: 'unchanged', totalFwdFees: null, totalActionFees: null,
                    resultCode: 0, resultArg: null, totalActions: childMessages.length, specActions: 0, skippedActions: 0, messagesCreated: childMessages.length,
                    actionListHash: 0n, totalMessageSize: { cells: 0n, bits: 0n },
                } : null,
                bouncePhase: null, aborted: !success, destroyed: false,
            },
        } as unknown as Transaction;
        const cell = beginCell().store(storeTransaction(tx)).endCell();
        return {
            transaction: parseTransactionCell(cell, account.workChain),
            interfaces: s.interfaces ?? [],
            children: childMessages.map((c) => build(c.spec, c.message)),
        };
    };
    const account = Address.parse(spec.account);
    const root: Message = spec.external
        ? { info: { type: 'external-in', src: null, dest: account, importFee: 0n }, body: spec.body ?? Cell.EMPTY }
        : {
            info: {
                type: 'internal', ihrDisabled: true, bounce: true, bounced: false, src: Address.parse(spec.from ?? `0:${'0'.repeat(63)}1`), dest: account,
                value: { coins: spec.value ?? 100_000_000n }, ihrFee: 0n, forwardFee: 0n, createdLt: 1n, createdAt: UTIME,
            },
            body: spec.body ?? Cell.EMPTY,
        };
    return build(spec, root);
}

/** A distinct raw address for a test role. */
export function addr(n: number, workchain = 0): string {
    return `${workchain}:${n.toString(16).padStart(64, '0')}`;
}
