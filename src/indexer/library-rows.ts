import type { Transaction as DbTransaction } from 'kysely';
import type { AccountStateRecord } from '../chain/chain-source.ts';
import type { IndexDatabase } from '../store/schema.ts';
import { inChunks } from '../store/chunks.ts';
import { writeBoc } from '../ton/boc/boc-writer.ts';
import { publicLibrariesInField } from '../ton/libraries.ts';

/**
 * The public libraries each masterchain account publishes, as its newest state has them (`current`,
 * see current-states.ts): its rows are replaced, so a library it withdrew (or an account that is gone)
 * leaves the index.
 */
export async function writePublicLibraries(trx: DbTransaction<IndexDatabase>, current: AccountStateRecord[]): Promise<void> {
    const masterchain = current.filter(state => state.address.startsWith('-1:'));
    await inChunks(masterchain, 500, chunk => trx.deleteFrom('public_libraries').where('publisher', 'in', chunk.map(state => state.address)).execute());
    const rows = masterchain.flatMap(state => {
        const published = state.status === 'active' && state.libraries ? publicLibrariesInField(state.libraries) : new Map();
        return [...published].map(([hash, root]) => ({ hash, publisher: state.address, boc: writeBoc(root) }));
    });
    await inChunks(rows, 200, chunk => trx.insertInto('public_libraries').values(chunk).execute());
}
