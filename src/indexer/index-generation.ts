import type { Transaction } from 'kysely';
import type { IndexDatabase } from '../store/schema.ts';

/** The index has changed: API processes check again what they kept (schema.ts, IndexGenerationTable). */
export async function bumpGeneration(trx: Transaction<IndexDatabase>): Promise<void> {
    await trx.updateTable('index_generation').set(eb => ({ generation: eb('generation', '+', 1) })).where('id', '=', 1).execute();
}
