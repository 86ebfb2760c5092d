import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { beginCell, Cell, Dictionary } from '@ton/core';
import { defaultConfig } from '@ton/sandbox';
import type { BlockRecord } from '../../src/chain/chain-source.ts';
import { EmulationFailure } from '../../src/emulation/errors.ts';
import { StoreChainState } from '../../src/emulation/store-chain-state.ts';
import { indexBlock } from '../../src/indexer/index-block.ts';
import { storeBackends } from '../helpers/stores.ts';

const hashOf = (n: number) => n.toString(16).padStart(64, '0');

/** The mainnet config @ton/sandbox ships, and the same dictionary without parameter 79. */
const mainnetConfig = Cell.fromBase64(defaultConfig);
const trimmedConfig = (() => {
    const dict = Dictionary.loadDirect(Dictionary.Keys.Int(32), Dictionary.Values.Cell(), mainnetConfig);
    dict.delete(79);
    return beginCell().storeDictDirect(dict).endCell();
})();

function masterBlock(seqno: number, config?: Cell): BlockRecord {
    return {
        id: { workchain: -1, shard: '8000000000000000', seqno, rootHash: hashOf(seqno), fileHash: hashOf(seqno) },
        utime: 1_700_000_000 + seqno, startLt: BigInt(seqno) * 1000n, endLt: BigInt(seqno) * 1000n + 10n,
        isKeyBlock: config !== undefined, parents: [], shardBlocks: [], transactions: [],
        config: config?.toBoc(),
    };
}

for (const backend of storeBackends()) {
    describe(`chain config in the index (${backend.name})`, () => {
        let store: Awaited<ReturnType<typeof backend.open>>;
        before(async () => {
            store = await backend.open();
        });
        after(async () => {
            await store?.dispose();
        });

        test('emulation has no config before a key block, then the newest key block\'s, whatever the arrival order', async () => {
            const state = new StoreChainState(store.db);
            await indexBlock(store, masterBlock(1));
            await assert.rejects(state.config(), (error: unknown) => error instanceof EmulationFailure && error.kind === 'unavailable');

            await indexBlock(store, masterBlock(5, trimmedConfig));
            assert.ok(Cell.fromBase64(await state.config()).equals(trimmedConfig));
            // An older key block indexed later does not take over.
            await indexBlock(store, masterBlock(2, mainnetConfig));
            assert.ok(Cell.fromBase64(await state.config()).equals(trimmedConfig));
            await indexBlock(store, masterBlock(9, mainnetConfig));
            assert.ok(Cell.fromBase64(await state.config()).equals(mainnetConfig));
            const rows = await store.db.selectFrom('chain_config').selectAll().execute();
            assert.deepEqual(rows.map(r => Number(r.block_seqno)), [9]);
        });
    });
}
