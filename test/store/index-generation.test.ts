import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { sql } from 'kysely';
import { readBlockBoc as blockRecordFromBoc } from '../../src/chain/block-reading.ts';
import { indexBlock } from '../../src/indexer/index-block.ts';
import { GenerationListener } from '../../src/store/postgres/generation-listener.ts';
import { indexGeneration } from '../../src/store/read/index-generation.ts';
import type { Store } from '../../src/store/store.ts';
import { mainnetSkip, readBlockBoc } from '../helpers/fixtures.ts';
import { storeBackends } from '../helpers/stores.ts';

/** What writing a block does to the generation (index-block.ts), in its own transaction. */
async function writeBlock(store: Store): Promise<void> {
    await store.db.transaction().execute(trx =>
        trx.updateTable('index_generation').set(eb => ({ generation: eb('generation', '+', 1) })).where('id', '=', 1).execute());
}

async function eventually(what: string, check: () => Promise<boolean>, ms = 3_000): Promise<void> {
    const deadline = Date.now() + ms;
    while (!(await check())) {
        if (Date.now() > deadline) assert.fail(`${what} within ${ms} ms`);
        await new Promise(resolve => setTimeout(resolve, 10));
    }
}

for (const backend of storeBackends()) {
    describe(`index generation (${backend.name})`, { skip: mainnetSkip }, () => {
        let store: Store & { dispose(): Promise<void> };
        before(async () => {
            store = await backend.open();
        });
        after(() => store.dispose());

        it('moves once with each block written, not when a block already indexed comes again', async () => {
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

        it("is what the store's generation() gives, soon after each block written", async () => {
            const start = await indexGeneration(store.db);
            assert.equal(await store.generation(), start);
            for (let i = 1n; i <= 3n; i++) {
                await writeBlock(store);
                await eventually(`generation ${start + i}`, async () => (await store.generation()) === start + i);
            }
        });
    });
}

const pgUrl = process.env.TEST_PG_URL;

describe('GenerationListener (postgres)', { skip: pgUrl ? false : 'TEST_PG_URL not set' }, () => {
    const [postgres] = storeBackends().filter(b => b.name === 'postgres');
    let store: Store & { dispose(): Promise<void> };
    let listener: GenerationListener;
    let asks = 0;
    before(async () => {
        store = await postgres.open();
        const url = (await sql<{ db: string }>`SELECT current_database() AS db`.execute(store.db)).rows[0].db;
        const target = new URL(pgUrl!);
        target.pathname = `/${url}`;
        listener = new GenerationListener(target.toString(), () => {
            asks++;
            return indexGeneration(store.db);
        });
    });
    after(async () => {
        await listener?.close();
        await store?.dispose();
    });

    it('answers from what the server pushed once listening, asks while the listening connection is down, and listens again', async () => {
        assert.equal(await listener.current(), 0n);
        assert.equal(asks, 1);
        // Listening begins in the background; then one more ask and the pushed value is used.
        await eventually('listening', async () => {
            const before = asks;
            await listener.current();
            return asks === before;
        });
        const settled = asks;
        for (let i = 1n; i <= 3n; i++) {
            await writeBlock(store);
            await eventually(`generation ${i} pushed`, async () => (await listener.current()) === i, 900);
        }
        assert.equal(asks, settled, 'no ask while the pushed value is fresh');

        // The listening connection dies (the server restarted it): every call asks until it listens again.
        const killed = await sql<{ ok: boolean }>`
            SELECT pg_terminate_backend(pid) AS ok FROM pg_stat_activity
            WHERE datname = current_database() AND query = 'LISTEN index_generation'`.execute(store.db);
        assert.equal(killed.rows.length, 1);
        await eventually('the listener notices', async () => {
            const before = asks;
            await listener.current();
            return asks > before;
        });
        await writeBlock(store);
        assert.equal(await listener.current(), 4n, 'asked, so no stale answer while not listening');
        await eventually('listening again', async () => {
            const before = asks;
            const generation = await listener.current();
            return asks === before && generation === 4n;
        });
        await writeBlock(store);
        await eventually('generation 5 pushed', async () => (await listener.current()) === 5n, 900);
    });
});
