import type { IndexDb } from '../schema.ts';

/**
 * Jetton operations where the account is the source or the destination owner, newest first,
 * strictly below `beforeLt`. Operations sharing the lt at the page boundary are never split
 * between pages (the cursor is an lt, so a split would lose the rest of them).
 */
export async function jettonHistory(db: IndexDb, account: string, beforeLt: bigint | undefined, limit: number) {
    const side = (column: 'source' | 'destination') => {
        let query = db.selectFrom('jetton_operations').selectAll().where(column, '=', account);
        if (beforeLt !== undefined) query = query.where('lt', '<', beforeLt);
        return query.orderBy('lt', 'desc').limit(limit + 1).execute();
    };
    const [sent, received] = await Promise.all([side('source'), side('destination')]);
    const byHash = new Map([...sent, ...received].map(op => [op.transaction_hash, op]));
    const rows = [...byHash.values()].sort((a, b) => (a.lt === b.lt ? (a.transaction_hash < b.transaction_hash ? -1 : 1) : a.lt > b.lt ? -1 : 1));
    if (rows.length <= limit) return { operations: rows, nextFrom: undefined };
    let page = rows.slice(0, limit);
    const boundary = page[page.length - 1].lt;
    if (rows[limit].lt === boundary) {
        page = page.filter(op => op.lt !== boundary);
        if (page.length === 0) {
            const tied = await db.selectFrom('jetton_operations').selectAll()
                .where('lt', '=', boundary)
                .where(eb => eb.or([eb('source', '=', account), eb('destination', '=', account)]))
                .orderBy('transaction_hash').execute();
            return { operations: tied, nextFrom: boundary };
        }
    }
    return { operations: page, nextFrom: page[page.length - 1].lt };
}

export function jettonMasters(db: IndexDb, addresses: string[]) {
    if (addresses.length === 0) return Promise.resolve([]);
    return db.selectFrom('jetton_masters').select(['address', 'metadata']).where('address', 'in', [...new Set(addresses)]).execute();
}
