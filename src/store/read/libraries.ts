import type { IndexDb } from '../schema.ts';
import { readInChunks } from '../chunks.ts';

/** BOCs of the public libraries with these hashes (hex), those the index knows. */
export async function publicLibraryBocs(db: IndexDb, hashes: readonly string[]): Promise<Map<string, Buffer>> {
    const rows = await readInChunks(hashes, 500, chunk => db.selectFrom('public_libraries').select(['hash', 'boc'])
        .where('hash', 'in', chunk).execute());
    return new Map(rows.map(row => [row.hash, row.boc]));
}
