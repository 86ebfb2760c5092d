import assert from 'node:assert/strict';
import type { Cell, Transaction } from '@ton/core';

/** What a contract test asserts about one transaction the sandbox ran. */
export interface Executed {
    account: string;
    op: number | undefined;
    /** The inbound message was a bounce. */
    bounced: boolean;
    exitCode: number | undefined;
    success: boolean;
    gasUsed: bigint;
    value: bigint;
    lt: bigint;
    body: Cell | undefined;
    out: Array<{ to: string; op: number | undefined; body: Cell; value: bigint; bounce: boolean }>;
    tx: Transaction;
}

function opOf(cell: Cell | undefined): number | undefined {
    return cell && cell.bits.length >= 32 ? cell.beginParse().preloadUint(32) : undefined;
}

export function describeTx(tx: Transaction): Executed {
    const d = tx.description;
    assert.equal(d.type, 'generic');
    const compute = d.computePhase;
    const info = tx.inMessage?.info;
    return {
        account: accountOf(tx),
        op: opOf(tx.inMessage?.body),
        bounced: info?.type === 'internal' && info.bounced,
        exitCode: compute.type === 'vm' ? compute.exitCode : undefined,
        success: compute.type === 'vm' && compute.success && !d.aborted,
        gasUsed: compute.type === 'vm' ? compute.gasUsed : 0n,
        value: info?.type === 'internal' ? info.value.coins : 0n,
        lt: tx.lt,
        body: tx.inMessage?.body,
        out: tx.outMessages.values().map(m => {
            assert.equal(m.info.type, 'internal');
            const i = m.info as Extract<typeof m.info, { type: 'internal' }>;
            return { to: i.dest.toRawString(), op: opOf(m.body), body: m.body, value: i.value.coins, bounce: i.bounce };
        }),
        tx,
    };
}

/** Raw address of the account a transaction ran on (its workchain is its inbound message's destination's). */
function accountOf(tx: Transaction): string {
    const info = tx.inMessage?.info;
    const workchain = info && info.type !== 'external-out' ? info.dest.workChain : -1;
    return `${workchain}:${tx.address.toString(16).padStart(64, '0')}`;
}
