import type { IndexDb } from '../schema.ts';
import { readAmong } from './among.ts';

/** BOCs of the public libraries with these hashes (hex), those the index knows. */
export async function publicLibraryBocs(db: IndexDb, hashes: readonly string[]): Promise<Map<string, Buffer>> {
    const rows = await readAmong(db, 'hash', hashes, condition => db.selectFrom('public_libraries').select(['hash', 'boc'])
        .where(condition).execute());
    return new Map(rows.map(row => [row.hash, row.boc]));
}
