import { setImmediate as nextTurn } from 'node:timers/promises';
import type { Kysely } from 'kysely';
import type { IndexDatabase } from '../store/schema.ts';
import { jettonOperationsByHash } from '../store/read/jettons.ts';
import { jettonOperationTemplate } from '../present/stored/jetton-operation-text.ts';

/** Operations given their texts in one transaction: short enough that a block waiting to be indexed is hardly delayed. */
const BATCH_OPERATIONS = 500;

/**
 * Gives the history rows without a text (those of operations indexed before texts were stored, and
 * those whose texts a migration cleared when their form changed) the text the indexer writes for new ones, so every page takes the stored-text path. A batch of operations
 * a transaction, in hash order after the last batch, so each batch makes progress and a restart
 * simply finds what is left (migration 0014's partial index). Readers take rows with or without a
 * text alike, so nothing waits for it. Returns how many operations were given texts.
 */
export async function fillHistoryTexts(db: Kysely<IndexDatabase>, signal: AbortSignal, batch = BATCH_OPERATIONS): Promise<number> {
    let after = '';
    let filled = 0;
    while (!signal.aborted) {
        const last = await db.transaction().execute(async trx => {
            const pending = await trx.selectFrom('jetton_history').select('transaction_hash').distinct()
                .where('text', 'is', null).where('transaction_hash', '>', after)
                .orderBy('transaction_hash').limit(batch).execute();
            if (pending.length === 0) return null;
            const operations = await jettonOperationsByHash(trx, pending.map(row => row.transaction_hash));
            for (const [hash, operation] of operations) {
                const { text, holes } = jettonOperationTemplate(operation);
                await trx.updateTable('jetton_history').set({ text, text_holes: holes })
                    .where('transaction_hash', '=', hash).where('text', 'is', null).execute();
            }
            return { after: pending[pending.length - 1].transaction_hash, operations: operations.size };
        });
        if (last === null) break;
        after = last.after;
        filled += last.operations;
        await nextTurn();
    }
    return filled;
}
