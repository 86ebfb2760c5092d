import type { Transaction as DbTransaction } from 'kysely';
import type { AccountStateRecord } from '../chain/chain-source.ts';
import type { IndexDatabase } from '../store/schema.ts';
import { insertInChunks } from '../store/chunks.ts';
import { writeBoc } from '../ton/boc/boc-writer.ts';
import { publicLibrariesInField } from '../ton/libraries.ts';

/**
 * The public libraries each masterchain account publishes, as its newest state has them (`current`,
 * see current-states.ts): its rows are replaced, so a library it withdrew (or an account that is gone)
 * leaves the index.
 */
export async function writePublicLibraries(trx: DbTransaction<IndexDatabase>, current: AccountStateRecord[]): Promise<void> {
    const masterchain = current.filter(state => state.address.startsWith('-1:'));
    for (let i = 0; i < masterchain.length; i += 500) {
        const chunk = masterchain.slice(i, i + 500);
        await trx.deleteFrom('public_libraries').where('publisher', 'in', chunk.map(state => state.address)).execute();
        const rows = chunk.flatMap(state => {
            const published = state.status === 'active' && state.libraries ? publicLibrariesInField(state.libraries) : new Map();
            return [...published].map(([hash, root]) => ({ hash, publisher: state.address, boc: writeBoc(root) }));
        });
        await insertInChunks(rows, 200, rowsChunk => trx.insertInto('public_libraries').values(rowsChunk).execute());
    }
}
