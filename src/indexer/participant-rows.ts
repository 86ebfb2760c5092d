import { Cell } from '@ton/core';
import type { Transaction as DbTransaction } from 'kysely';
import type { AccountStateRecord } from '../chain/chain-source.ts';
import { memberEntries, multisigLayoutOf, readMultisigMembers } from '../ton/interfaces/multisig-data.ts';
import type { IndexDatabase } from '../store/schema.ts';
import { inChunks } from '../store/chunks.ts';
import { poolStakerRows } from '../store/pool-stakers.ts';
import { interfacesOf, type InspectedAccount } from './inspect-accounts.ts';
import { readBoc } from '../ton/boc/boc-reader.ts';

type Trx = DbTransaction<IndexDatabase>;

// Who takes part in which contract: multisig signers and proposers, staking pools' stakers.

/**
 * Replaces the members of every account the block touched with those its newest state names (none
 * when it is not, or no longer, a multisig). `current`: the block's states that are the accounts'
 * newest (see current-states.ts), so a block delivered out of order changes nothing.
 */
export async function writeMultisigMembers(trx: Trx, current: AccountStateRecord[], inspected: Map<string, InspectedAccount>): Promise<void> {
    await inChunks(current, 500, chunk => trx.deleteFrom('multisig_members').where('multisig', 'in', chunk.map(state => state.address)).execute());
    const rows = current.flatMap(state => membersOf(state, inspected.get(state.address)).map(entry => ({ multisig: state.address, ...entry })));
    await inChunks(rows, 500, chunk => trx.insertInto('multisig_members').values(chunk).execute());
}

/** Stakers of the staking pools among the block's accounts, as their newest states have them (see writeMultisigMembers). */
export async function writePoolStakers(trx: Trx, current: AccountStateRecord[], inspected: Map<string, InspectedAccount>): Promise<void> {
    await inChunks(current, 500, chunk => trx.deleteFrom('pool_stakers').where('pool', 'in', chunk.map(state => state.address)).execute());
    const rows = current.flatMap(state => state.status === 'active'
        ? poolStakerRows(state.address, interfacesOf(state, inspected.get(state.address)), state.data)
        : []);
    await inChunks(rows, 500, chunk => trx.insertInto('pool_stakers').values(chunk).execute());
}

function membersOf(state: AccountStateRecord, inspected: InspectedAccount | undefined) {
    const layout = multisigLayoutOf(interfacesOf(state, inspected));
    if (!layout || state.status !== 'active' || !state.data) return [];
    let data: Cell;
    try {
        data = readBoc(state.data)[0];
    } catch {
        return [];
    }
    const members = readMultisigMembers(layout, data);
    return members ? memberEntries(members) : [];
}
