import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { readBlockBoc as blockRecordFromBoc } from '../../src/chain/block-reading.ts';
import { indexBlock } from '../../src/indexer/index-block.ts';
import { indexGeneration } from '../../src/store/read/index-generation.ts';
import type { Store } from '../../src/store/store.ts';
import { readBlockBoc } from '../helpers/fixtures.ts';
import { storeBackends } from '../helpers/stores.ts';

for (const backend of storeBackends()) {
    describe(`index generation (${backend.name})`, () => {
        let store: Store & { dispose(): Promise<void> };
        before(async () => {
            store = await backend.open();
        });
        after(() => store.dispose());

        test('moves once with each block written, not when a block already indexed comes again', async () => {
            assert.equal(await indexGeneration(store.db), 0n);
            const block4 = await blockRecordFromBoc(readBlockBoc('block-4'));
            const block5 = await blockRecordFromBoc(readBlockBoc('block-5'));
            await indexBlock(store, block4);
            assert.equal(await indexGeneration(store.db), 1n);
            await indexBlock(store, block5);
            assert.equal(await indexGeneration(store.db), 2n);
            await indexBlock(store, block5);
            assert.equal(await indexGeneration(store.db), 2n);
        });
    });
}
