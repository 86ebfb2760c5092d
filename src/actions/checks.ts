import type { ActionType } from './action.ts';
import { txOf, type Bubble, type BubbleTx, type EngineContext } from './bubble.ts';
import { implementsInterface } from './interfaces.ts';
import type { Check } from './straw.ts';

/** The building blocks of pattern checks. */

export const isTx: Check = (b) => b.info.kind === 'tx';

export function isAction(...types: ActionType[]): Check {
    return (b) => b.info.kind === 'action' && types.includes(b.info.action.type);
}

/** The transaction's in-message body starts with one of these ops. */
export function hasOp(...ops: number[]): Check {
    return (b) => {
        const tx = txOf(b);
        return tx !== undefined && tx.opCode !== null && ops.includes(tx.opCode);
    };
}

/** The transaction's account implements the interface (wallet_v4r2 counts as wallet, …). */
export function hasInterface(name: string): Check {
    return (b) => {
        const tx = txOf(b);
        return tx !== undefined && implementsInterface(tx.interfaces, name);
    };
}

/**
 * A protocol's contract of many instances (a pool): detected by its code, or reached from the
 * protocol's singleton that only talks to its own (a router, a factory) with the op being matched.
 */
export function detectedOrFrom(name: string, sender: string): Check {
    return (b) => {
        const tx = txOf(b);
        return tx !== undefined && (implementsInterface(tx.interfaces, name) || implementsInterface(tx.inputFromInterfaces, sender));
    };
}

export function accountIs(address: string): Check {
    return (b) => txOf(b)?.account === address;
}

export const hasValue: Check = (b) => (txOf(b)?.inputAmount ?? 0n) > 0n;

/** A check on the transaction itself, for conditions the helpers above do not cover. */
export function txWhere(predicate: (tx: BubbleTx, bubble: Bubble) => boolean): Check {
    return (b) => {
        const tx = txOf(b);
        return tx !== undefined && predicate(tx, b);
    };
}

/** Passes when one of the alternatives passes (each alternative: all of its checks). */
export function anyOf(...alternatives: Check[][]): Check {
    return (b, ctx) => alternatives.some((checks) => checks.every((c) => c(b, ctx)));
}

/** Whether `account` (an address an action names) implements the interface, by the trace's nodes. */
export function accountImplements(ctx: EngineContext, account: string | undefined, name: string): boolean {
    if (account === undefined) return false;
    return implementsInterface(ctx.accountInterfaces?.get(account) ?? [], name);
}
