import type { EmulatedTransaction } from '../emulation/trace-emulator.ts';
import type { WalletConsequences } from '../emulation/message-consequences.ts';
import { formatBlockId } from '../ton/block-id.ts';
import type { AccountDirectory } from './account-address.ts';
import { presentTransaction } from './transaction.ts';

/** Emulated transactions belong to no block; they carry the whole shard of their workchain at seqno 0. */
const EMULATED_SHARD = '8000000000000000';

/** MessageConsequences: the emulated trace, the risk and the event of the signing wallet. */
export function presentMessageConsequences(consequences: WalletConsequences<AccountDirectory>) {
    return {
        trace: presentEmulatedTrace(consequences.trace.root, consequences.accounts),
        risk: consequences.risk,
        event: consequences.event,
    };
}

/** Trace (spec 2.14) of an emulation, every node marked `emulated`. */
export function presentEmulatedTrace(node: EmulatedTransaction, accounts: AccountDirectory): unknown {
    const children = node.children.map(child => presentEmulatedTrace(child, accounts));
    return {
        transaction: presentTransaction(node.parsed, {
            block: formatBlockId({ workchain: node.parsed.workchain, shard: EMULATED_SHARD, seqno: 0 }),
            endBalance: node.endBalance,
            raw: node.boc,
        }, accounts),
        interfaces: accounts.interfaces(node.parsed.account),
        children: children.length > 0 ? children : undefined,
        emulated: true,
    };
}
