import type { TraceFacts } from './trace-input.ts';

/** Stands in for an address the trace does not reveal (e.g. a receiving jetton wallet never reached). */
export const UNKNOWN_ADDRESS = `0:${'0'.repeat(64)}`;

export function masterOfWallet(facts: TraceFacts, wallet: string | undefined): string | undefined {
    return wallet === undefined ? undefined : facts.jettonWallets.get(wallet)?.master;
}

export function ownerOfWallet(facts: TraceFacts, wallet: string | undefined): string | undefined {
    return wallet === undefined ? undefined : facts.jettonWallets.get(wallet)?.owner;
}

/** The jetton wallet of `owner` for `master`, when the facts hold it. */
export function walletOfOwner(facts: TraceFacts, owner: string | undefined, master: string | undefined): string | undefined {
    if (owner === undefined || master === undefined) return undefined;
    for (const [wallet, w] of facts.jettonWallets) if (w.owner === owner && w.master === master) return wallet;
    return undefined;
}
