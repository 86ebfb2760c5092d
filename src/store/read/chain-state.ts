import type { IndexDb } from '../schema.ts';

/** Which key block's config the index holds (without the config itself), or undefined before one is indexed. */
export function latestChainConfigBlock(db: IndexDb) {
    return db.selectFrom('chain_config').select(['block_workchain', 'block_seqno', 'utime']).where('id', '=', 1).executeTakeFirst();
}

/** The config of the newest indexed key block, or undefined before one is indexed. */
export function latestChainConfig(db: IndexDb) {
    return db.selectFrom('chain_config').select(['block_workchain', 'block_seqno', 'utime', 'config']).where('id', '=', 1).executeTakeFirst();
}

/**
 * The latest indexed state of one account, with its code and data, and how many messages its last
 * transaction sent (an account's own last_trans_lt is that transaction's lt plus that plus one).
 */
export function accountState(db: IndexDb, address: string) {
    return db.selectFrom('account_states')
        .select(['address', 'status', 'balance', 'extra_balance', 'code', 'data', 'last_tx_lt', 'last_tx_hash', 'last_utime', 'interfaces'])
        .select(eb => eb.selectFrom('messages').select(m => m.fn.countAll().as('n')).whereRef('messages.tx_out_hash', '=', 'account_states.last_tx_hash').as('last_tx_out_messages'))
        .where('address', '=', address)
        .executeTakeFirst();
}

/** Newest block time the index holds (the chain's "now" as far as the index knows). */
export async function latestBlockUtime(db: IndexDb): Promise<number | undefined> {
    const row = await db.selectFrom('blocks').select(eb => eb.fn.max('utime').as('utime')).executeTakeFirst();
    return row?.utime === null || row?.utime === undefined ? undefined : Number(row.utime);
}
