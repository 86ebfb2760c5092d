import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startDevnetService, waitForSeed, type DevnetService } from '../helpers/devnet-service.ts';
import { accountNamed, assertError, call, eventually, manifestOf } from './api-call.ts';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = any;

const SHARD = '8000000000000000';
const id = (b: Json) => `(${b.workchain_id},${b.shard},${b.seqno})`;

let service: DevnetService;
let genesisUtime: number;
/** Blocks from genesis up to a second that is over (no more blocks can appear in it). */
let settled: Json[];
let settledTo: number;

async function reduced(query: string) {
    return call('getReducedBlockchainBlocks', `${service.base}/blockchain/reduced/blocks?${query}`);
}

async function indexedUtime(): Promise<number> {
    const status = await call('getStatus', `${service.base}/status`);
    const master = status.body.heads.find((h: Json) => h.workchain_id === -1);
    return master?.utime ?? 0;
}

before(async () => {
    service = await startDevnetService();
    await waitForSeed(service);
    genesisUtime = (await manifestOf(service.base)).genesis_utime;
    // Blocks of a second are final once the index holds a block of a later second.
    settledTo = await eventually('the seed blocks to be a second old', async () => {
        const head = await indexedUtime();
        return head > genesisUtime + 1 ? head - 1 : undefined;
    }, 10_000);
    const response = await reduced(`from=${genesisUtime}&to=${settledTo}`);
    assert.equal(response.status, 200);
    settled = response.body.blocks;
});

after(async () => {
    await service?.dispose();
});

describe('GET /v2/blockchain/reduced/blocks', () => {
    it('returns the blocks of both workchains in the range, each shape as documented', () => {
        const master = settled.filter(b => b.workchain_id === -1);
        const base = settled.filter(b => b.workchain_id === 0);
        assert.ok(master.length >= 8, `expected the seed's masterchain blocks, got ${master.length}`);
        // One basechain and one masterchain block per step (the zerostates are states, not blocks).
        assert.equal(base.length, master.length);
        assert.equal(settled.length, master.length + base.length);
        for (const b of settled) {
            assert.equal(b.shard, SHARD);
            assert.ok(b.utime >= genesisUtime && b.utime <= settledTo, `utime ${b.utime} out of range`);
        }
        // Seqnos are contiguous, from 1 on both chains (after the zerostates): nothing is missing.
        assert.deepEqual(master.map(b => b.seqno).sort((x, y) => x - y), master.map((_, i) => i + 1));
        assert.deepEqual(base.map(b => b.seqno).sort((x, y) => x - y), base.map((_, i) => i + 1));
    });

    it('sorts by utime, then workchain, then seqno', () => {
        for (let i = 1; i < settled.length; i++) {
            const [a, b] = [settled[i - 1], settled[i]];
            const order = a.utime - b.utime || a.workchain_id - b.workchain_id || a.seqno - b.seqno;
            assert.ok(order < 0, `${id(a)}@${a.utime} must come before ${id(b)}@${b.utime}`);
        }
    });

    it('starts after the zerostates: the first blocks name them as parents, and only they are not listed', () => {
        const first = settled.find(b => b.workchain_id === -1 && b.seqno === 1);
        assert.ok(first, 'the first masterchain block is indexed');
        assert.equal(first.utime >= genesisUtime, true);
        assert.deepEqual(first.parent, [`(-1,${SHARD},0)`]);
        assert.deepEqual(first.shards_blocks, [`(0,${SHARD},1)`]);
        // The zerostates are states, not blocks: referenced, not listed (as on mainnet).
        assert.equal(settled.find(b => b.seqno === 0), undefined);
        assert.deepEqual(settled.filter(b => b.parent.length === 0), [], 'every block has its parent');
    });

    it('links masterchain blocks to the basechain block they commit and to their parent', () => {
        const byId = new Map(settled.map(b => [id(b), b]));
        for (const b of settled.filter(x => x.workchain_id === -1)) {
            assert.deepEqual(b.shards_blocks, [`(0,${SHARD},${b.seqno})`]);
            const committed = byId.get(b.shards_blocks[0]);
            assert.ok(committed, `the committed block ${b.shards_blocks[0]} is in the range too`);
            assert.equal(committed.utime, b.utime);
            assert.equal(b.master_ref, undefined);
            assert.deepEqual(b.parent, [`(-1,${SHARD},${b.seqno - 1})`]);
        }
    });

    it('links every basechain block to the previous masterchain block and to its parent (the first to both zerostates)', () => {
        for (const b of settled.filter(x => x.workchain_id === 0)) {
            assert.deepEqual(b.shards_blocks, []);
            assert.equal(b.master_ref, `(-1,${SHARD},${b.seqno - 1})`);
            assert.deepEqual(b.parent, [`(0,${SHARD},${b.seqno - 1})`]);
        }
    });

    it('counts transactions as GET /v2/blockchain/blocks/{id}/transactions lists them', async () => {
        let withTransactions = 0;
        const masterchainAccounts: string[] = [];
        for (const b of settled) {
            const response = await call('getBlockchainBlockTransactions', `${service.base}/blockchain/blocks/${id(b)}/transactions`);
            assert.equal(response.status, 200);
            const txs = response.body.transactions;
            assert.equal(b.tx_quantity, txs.length, `tx_quantity of ${id(b)}`);
            for (const tx of txs) {
                if (b.workchain_id === -1) masterchainAccounts.push(tx.account.address);
                assert.equal(tx.block, id(b));
                assert.equal(tx.utime, b.utime);
            }
            for (let i = 1; i < txs.length; i++) assert.ok(BigInt(txs[i - 1].lt) < BigInt(txs[i].lt), 'block transactions in lt order');
            if (txs.length > 0) withTransactions++;
        }
        // The seed executes transfers in its basechain blocks. In the masterchain: the librarian's
        // (publishing the DSTB jetton wallet code, then the multisig v2 order code, as public libraries),
        // and the validator economy's: the elector's and the config contract's tick and tock in every
        // block, the fees the collator sends the elector, the validators' wallets and pools staking.
        assert.ok(withTransactions >= 6, `expected seeded blocks with transactions, got ${withTransactions}`);
        const manifest = await manifestOf(service.base);
        const masterchainNames = new Set(['devnet-librarian', 'elector', 'config', 'validator-pool', 'validator-single', 'validator-direct']);
        const allowed = new Set(manifest.accounts.filter(a => masterchainNames.has(a.name) || a.kind === 'nominator_pool' || a.kind === 'single_nominator_pool').map(a => a.address));
        const others = masterchainAccounts.filter(a => !allowed.has(a));
        assert.deepEqual(others, [], 'masterchain transactions of accounts outside the librarian and the validator economy');
        const elector = accountNamed(manifest, 'elector').address;
        const masterBlocks = settled.filter(b => b.workchain_id === -1);
        assert.ok(masterchainAccounts.filter(a => a === elector).length >= 2 * masterBlocks.length, 'the elector runs tick and tock in every masterchain block');
        assert.equal(settled.find(b => b.workchain_id === 0 && b.seqno === 1).tx_quantity, 2, 'faucet external + alice receiving');
    });

    it('treats both bounds as inclusive', async () => {
        const utimes = [...new Set(settled.map(b => b.utime))];
        for (const u of utimes) {
            const expected = settled.filter(b => b.utime === u).map(id);
            const exact = await reduced(`from=${u}&to=${u}`);
            assert.equal(exact.status, 200);
            assert.deepEqual(exact.body.blocks.map(id), expected, `blocks with utime ${u}`);
            const below = await reduced(`from=${u - 10}&to=${u - 1}`);
            assert.ok(below.body.blocks.every((b: Json) => b.utime < u));
            const above = await reduced(`from=${u + 1}&to=${u + 1}`);
            assert.ok(above.body.blocks.every((b: Json) => b.utime === u + 1));
            if (u === genesisUtime) assert.deepEqual(below.body.blocks, [], 'nothing before genesis');
        }
        const last = settled[settled.length - 1];
        const upTo = await reduced(`from=${last.utime - 600}&to=${last.utime}`);
        assert.ok(upTo.body.blocks.some((b: Json) => id(b) === id(last)), 'to is inclusive');
        const from = await reduced(`from=${genesisUtime}&to=${genesisUtime + 600}`);
        assert.ok(from.body.blocks.some((b: Json) => id(b) === id(settled[0])), 'from is inclusive');
    });

    it('answers a range without blocks with an empty list', async () => {
        const response = await reduced('from=1000&to=1600');
        assert.equal(response.status, 200);
        assert.deepEqual(response.body, { blocks: [] });
    });

    it('accepts a span of exactly 600 s and rejects 601 s', async () => {
        assert.equal((await reduced(`from=${genesisUtime}&to=${genesisUtime + 600}`)).status, 200);
        assertError(await reduced(`from=${genesisUtime}&to=${genesisUtime + 601}`), 400, '601');
        assertError(await reduced('from=0&to=100000'), 400);
    });

    it('rejects from > to', async () => {
        assertError(await reduced(`from=${genesisUtime + 1}&to=${genesisUtime}`), 400, `${genesisUtime + 1}`);
        assert.equal((await reduced(`from=${genesisUtime}&to=${genesisUtime}`)).status, 200);
    });

    it('rejects missing and non-integer bounds, naming the parameter', async () => {
        assertError(await reduced(`from=${genesisUtime}`), 400, 'to');
        assertError(await reduced(`to=${genesisUtime}`), 400, 'from');
        assertError(await reduced(''), 400);
        assertError(await reduced(`from=${genesisUtime}.5&to=${genesisUtime + 1}`), 400, 'from');
        assertError(await reduced(`from=${genesisUtime}&to=soon`), 400, 'to');
        assertError(await reduced('from=&to=5'), 400, 'from');
        assertError(await reduced('from=1e3&to=2000'), 400, 'from');
        assertError(await reduced('from=99999999999999999990&to=99999999999999999999'), 400, 'from');
    });
});

describe('GET /v2/blockchain/blocks/{block_id}/transactions', () => {
    it('answers a block that is not indexed with 404', async () => {
        for (const block of [`(0,${SHARD},99999999)`, `(-1,${SHARD},4000000000)`, '(0,4000000000000000,1)', `(5,${SHARD},1)`]) {
            const response = await call('getBlockchainBlockTransactions', `${service.base}/blockchain/blocks/${block}/transactions`);
            assertError(response, 404);
        }
    });

    it('answers from the list text stored with the block as from its transactions, byte for byte', async () => {
        const db = service.store.db;
        let compared = 0;
        for (const b of settled.filter(x => x.tx_quantity > 0)) {
            const where = { workchain: b.workchain_id, shard: b.shard, seqno: b.seqno };
            const row = await db.selectFrom('block_texts').selectAll()
                .where('workchain', '=', where.workchain).where('shard', '=', where.shard).where('seqno', '=', where.seqno)
                .executeTakeFirst();
            if (!row) {
                // Only a block with a transaction stored without its text (extra currencies) has none.
                const untexted = await db.selectFrom('transactions').select('hash')
                    .where('workchain', '=', where.workchain).where('shard', '=', where.shard).where('seqno', '=', where.seqno).where('text', 'is', null)
                    .execute();
                assert.ok(untexted.length > 0, `block ${id(b)} was stored without its list text`);
                continue;
            }
            const body = async () => {
                const response = await fetch(`${service.base}/blockchain/blocks/${id(b)}/transactions`);
                assert.equal(response.status, 200);
                return response.text();
            };
            const fromText = await body();
            // As a block indexed before list texts were stored: put together from its transactions.
            await db.deleteFrom('block_texts').where('workchain', '=', where.workchain).where('shard', '=', where.shard).where('seqno', '=', where.seqno).execute();
            const fromRows = await body();
            await db.insertInto('block_texts').values(row).execute();
            // The chain moves on meanwhile; an account may have become a wallet between two reads.
            if (fromRows !== fromText) assert.equal(fromRows, await body());
            assert.equal(JSON.parse(fromRows).transactions.length, b.tx_quantity);
            compared++;
        }
        assert.ok(compared >= 8, `compared ${compared} blocks`);
    });

    it('accepts the shard in upper case', async () => {
        const response = await call('getBlockchainBlockTransactions', `${service.base}/blockchain/blocks/(0,${SHARD.toUpperCase()},1)/transactions`);
        assert.equal(response.status, 200);
        assert.equal(response.body.transactions.length, 2);
    });

    it('answers malformed block ids with 400', async () => {
        for (const block of ['garbage', '(0,800000,1)', `(0,${SHARD})`, `0,${SHARD},1`, `(0,${SHARD},-1)`, `(0,${SHARD},99999999999)`, `(x,${SHARD},1)`]) {
            const response = await call('getBlockchainBlockTransactions', `${service.base}/blockchain/blocks/${encodeURIComponent(block)}/transactions`);
            assertError(response, 400);
        }
    });
});
