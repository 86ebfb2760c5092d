import type { Transaction as DbTransaction } from 'kysely';
import type { BlockRecord } from '../chain/chain-source.ts';
import type { IndexDatabase } from '../store/schema.ts';
import { insertInChunks } from '../store/chunks.ts';
import { writeBoc } from '../ton/boc/boc-writer.ts';
import { publicLibrariesInField } from '../ton/libraries.ts';
import { currentStates } from './current-states.ts';

/**
 * The public libraries each masterchain account of the block publishes, as its newest state has
 * them: its rows are replaced, so a library it withdrew (or an account that is gone) leaves the index.
 */
export async function writePublicLibraries(trx: DbTransaction<IndexDatabase>, block: BlockRecord): Promise<void> {
    const masterchain = (block.accountStates ?? []).filter(state => state.address.startsWith('-1:'));
    if (masterchain.length === 0) return;
    for (const state of await currentStates(trx, masterchain)) {
        await trx.deleteFrom('public_libraries').where('publisher', '=', state.address).execute();
        const published = state.status === 'active' && state.libraries ? publicLibrariesInField(state.libraries) : new Map();
        const rows = [...published].map(([hash, root]) => ({ hash, publisher: state.address, boc: writeBoc(root) }));
        await insertInChunks(rows, 200, chunk => trx.insertInto('public_libraries').values(chunk).execute());
    }
}
