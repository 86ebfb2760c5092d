import { Cell } from '@ton/core';
import type { Kysely, Migration } from 'kysely';
import { memberEntries, multisigLayoutOf, readMultisigMembers, type MultisigLayout, type MultisigMembers } from '../../ton/interfaces/multisig-data.ts';
import { inChunks } from '../chunks.ts';

/**
 * Who takes part in which multisig: v2 signers and proposers by address, v1 owners by public key.
 * Multisigs indexed before this migration are filled in from their stored account state.
 */
export function multisigMembers(): Migration {
    return {
        async up(db: Kysely<any>) {
            await db.schema.createTable('multisig_members')
                .addColumn('multisig', 'text', c => c.notNull())
                .addColumn('member', 'text', c => c.notNull())
                /** address | public_key */
                .addColumn('kind', 'text', c => c.notNull())
                .addPrimaryKeyConstraint('multisig_members_pk', ['multisig', 'member', 'kind'])
                .execute();
            await db.schema.createIndex('multisig_members_member').on('multisig_members').columns(['member', 'kind']).execute();
            await backfill(db);
        },
    };
}

async function backfill(db: Kysely<any>): Promise<void> {
    const states: Array<{ address: string; interfaces: string; data: Buffer | null }> = await db.selectFrom('account_states')
        .select(['address', 'interfaces', 'data'])
        .where('status', '=', 'active')
        .where(eb => eb.or([eb('interfaces', 'like', '%"multisig_v1"%'), eb('interfaces', 'like', '%"multisig_v2"%')]))
        .execute();
    const rows = states.flatMap(state => {
        const layout = multisigLayoutOf(JSON.parse(state.interfaces) as string[]);
        const members = layout && state.data ? membersIn(layout, state.data) : null;
        return members ? memberEntries(members).map(entry => ({ multisig: state.address, ...entry })) : [];
    });
    await inChunks(rows, 500, chunk => db.insertInto('multisig_members').values(chunk).execute());
}

function membersIn(layout: MultisigLayout, data: Buffer): MultisigMembers | null {
    try {
        return readMultisigMembers(layout, Cell.fromBoc(data)[0]);
    } catch {
        return null; // not a BOC
    }
}
