import type { IndexDb } from '../schema.ts';

/** BOCs of the public libraries with these hashes (hex), those the index knows. */
export async function publicLibraryBocs(db: IndexDb, hashes: readonly string[]): Promise<Map<string, Buffer>> {
    const found = new Map<string, Buffer>();
    for (let i = 0; i < hashes.length; i += 500) {
        const rows = await db.selectFrom('public_libraries').select(['hash', 'boc'])
            .where('hash', 'in', hashes.slice(i, i + 500)).execute();
        for (const row of rows) found.set(row.hash, row.boc);
    }
    return found;
}
