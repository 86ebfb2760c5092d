import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { Address, Cell, Dictionary, beginCell } from '@ton/core';
import { Migrator, sql } from 'kysely';
import { WalletContractV4, WalletContractV5R1 } from '@ton/ton';
import type { AccountStateRecord, BlockRecord } from '../../src/chain/chain-source.ts';
import { keyPairFromSeed } from '../../src/chain/devnet/keys.ts';
import { buildServer } from '../../src/api/server.ts';
import { indexBlock } from '../../src/indexer/index-block.ts';
import { AccountInspector } from '../../src/indexer/inspect-accounts.ts';
import { migrationProvider } from '../../src/store/migrations/index.ts';
import { walletsByPublicKeys } from '../../src/store/read/wallets.ts';
import type { Store } from '../../src/store/store.ts';
import { formatRawAddress } from '../../src/ton/address.ts';
import { call } from '../api/api-call.ts';
import { storeBackends } from '../helpers/stores.ts';

/** Code hashes of ton-blockchain/nominator-pool and orbs-network/single-nominator v1.1 (as in known-code.ts). */
const TF_POOL_CODE_HASH = '9a3ec14bc098f6b44064c305222caea2800f17dda85ee6a8198a7095ede10dcf';
const SINGLE_NOMINATOR_CODE_HASH = 'cc0d39589eb2c0cfe0fde28456657a3bdd3d953955ae3f98f25664ab3c904fbd';
const GRAM = 1_000_000_000n;

const bobKey = keyPairFromSeed(Buffer.alloc(32, 0xb0)).publicKey;
const aliceKey = keyPairFromSeed(Buffer.alloc(32, 0xa1)).publicKey;
const bobV4 = WalletContractV4.create({ workchain: 0, publicKey: bobKey });
const bobV5 = WalletContractV5R1.create({ workchain: 0, publicKey: bobKey });
const alice = WalletContractV4.create({ workchain: 0, publicKey: aliceKey });
const validator = new Address(-1, Buffer.alloc(32, 0x7a));
const poolA = new Address(-1, Buffer.alloc(32, 0xa0));
const poolB = new Address(-1, Buffer.alloc(32, 0xb0));
const single = new Address(-1, Buffer.alloc(32, 0x51));

/**
 * A TF nominator pool's data cell, built from the layout of ton-blockchain/nominator-pool `load_data`
 * (constructed: the pool's code is not run, its hash says what it is).
 */
function tfPoolData(nominators: Array<[Address, bigint, bigint]>): Cell {
    const dict = Dictionary.empty(Dictionary.Keys.BigUint(256), {
        serialize: (src: { amount: bigint; pending: bigint }, b) => { b.storeCoins(src.amount).storeCoins(src.pending); },
        parse: s => ({ amount: s.loadCoins(), pending: s.loadCoins() }),
    });
    for (const [address, amount, pending] of nominators) dict.set(BigInt(`0x${address.hash.toString('hex')}`), { amount, pending });
    const config = beginCell().storeBuffer(validator.hash).storeUint(3000, 16).storeUint(40, 16).storeCoins(10_000n * GRAM).storeCoins(10n * GRAM).endCell();
    return beginCell().storeUint(0, 8).storeUint(nominators.length, 16).storeCoins(0n).storeCoins(20_000n * GRAM).storeRef(config)
        .storeDict(dict).storeDict(null).storeUint(0, 32).storeUint(0, 256).storeUint(0, 8).storeUint(0, 32).storeUint(0, 32).storeDict(null)
        .endCell();
}

/** A single-nominator pool's data cell (orbs-network/single-nominator): owner, then validator. */
function singleNominatorData(owner: Address): Cell {
    return beginCell().storeAddress(owner).storeAddress(validator).endCell();
}

const hashOf = (lt: bigint) => lt.toString(16).padStart(64, '0');

function account(address: Address, codeHash: string, data: Cell, lt: bigint): AccountStateRecord {
    return {
        address: formatRawAddress(address), status: 'active', balance: 100n * GRAM, codeHash, dataHash: data.hash().toString('hex'),
        data: data.toBoc(), lastTransLt: lt, lastTransHash: hashOf(lt),
    };
}

function wallet(w: typeof bobV4 | typeof bobV5, lt: bigint): AccountStateRecord {
    return {
        address: formatRawAddress(w.address), status: 'active', balance: GRAM, codeHash: w.init.code.hash().toString('hex'),
        dataHash: w.init.data.hash().toString('hex'), code: w.init.code.toBoc(), data: w.init.data.toBoc(), lastTransLt: lt, lastTransHash: hashOf(lt),
    };
}

function block(seqno: number, accountStates: AccountStateRecord[]): BlockRecord {
    const lts = accountStates.map(s => s.lastTransLt);
    return {
        id: { workchain: -1, shard: '8000000000000000', seqno, rootHash: hashOf(BigInt(seqno)), fileHash: hashOf(BigInt(seqno)) },
        utime: 1_700_000_000 + seqno, startLt: lts.reduce((a, b) => (a < b ? a : b)), endLt: lts.reduce((a, b) => (a > b ? a : b)) + 1n,
        isKeyBlock: false, parents: [], shardBlocks: [], transactions: [], accountStates,
    };
}

const raw = (a: Address) => formatRawAddress(a);

async function counts(store: Store) {
    const wallets = await walletsByPublicKeys(store.db, [bobKey.toString('hex'), aliceKey.toString('hex')]);
    const result = new Map(wallets.map(w => [w.address, w.stats.stakingPools]));
    return { bobV4: result.get(raw(bobV4.address)), bobV5: result.get(raw(bobV5.address)), alice: result.get(raw(alice.address)) };
}

describe('staking pool stakers from indexed account states', () => {
    let inspector: AccountInspector;
    before(async () => {
        inspector = await AccountInspector.create();
    });

    for (const backend of storeBackends()) {
        describe(backend.name, () => {
            let store: Awaited<ReturnType<typeof backend.open>>;
            before(async () => {
                store = await backend.open();
            });
            after(async () => {
                await store?.dispose();
            });

            test('TF pool nominators (staked or pending) and single-nominator owners count once per pool', async () => {
                await indexBlock(store, block(1, [
                    wallet(bobV4, 90n), wallet(bobV5, 91n), wallet(alice, 92n),
                    account(poolA, TF_POOL_CODE_HASH, tfPoolData([[bobV4.address, 500n * GRAM, 0n], [alice.address, 0n, 20n * GRAM]]), 100n),
                    account(poolB, TF_POOL_CODE_HASH, tfPoolData([[bobV4.address, 11n * GRAM, 1n]]), 101n),
                    account(single, SINGLE_NOMINATOR_CODE_HASH, singleNominatorData(bobV5.address), 102n),
                ]), undefined, { inspector });
                const rows = await store.db.selectFrom('pool_stakers').selectAll().orderBy('pool').orderBy('staker').execute();
                assert.deepEqual(rows.map(r => [r.pool, r.staker, r.amount, r.pending_deposit]), [
                    [raw(poolA), raw(alice.address), '0', '20000000000'],
                    [raw(poolA), raw(bobV4.address), '500000000000', '0'],
                    [raw(single), raw(bobV5.address), null, null],
                    [raw(poolB), raw(bobV4.address), '11000000000', '1'],
                ].sort((a, b) => (`${a[0]}${a[1]}` < `${b[0]}${b[1]}` ? -1 : 1)));
                const interfaces = await store.db.selectFrom('account_states').select(['address', 'interfaces']).where('address', 'in', [raw(poolA), raw(single)]).execute();
                assert.deepEqual(Object.fromEntries(interfaces.map(r => [r.address, JSON.parse(r.interfaces)])), { [raw(poolA)]: ['tv_pool'], [raw(single)]: ['single_nominator_pool'] });
                assert.deepEqual(await counts(store), { bobV4: 2, bobV5: 1, alice: 1 });
            });

            test('POST /v2/pubkeys/wallets/_bulk reports the staking count of each wallet', async () => {
                const app = await buildServer({ store, chain: { source: 'test', live: false, head: async () => null } });
                const url = await app.listen({ host: '127.0.0.1', port: 0 });
                try {
                    const response = await call('getWalletsByPublicKeyBulk', `${url}/v2/pubkeys/wallets/_bulk`, { method: 'POST', json: { public_keys: [bobKey.toString('hex'), aliceKey.toString('hex')] } });
                    assert.equal(response.status, 200, response.text);
                    const stats = Object.fromEntries(response.body.items.flatMap((item: any) => item.wallets.map((w: any) => [w.address, w.stats.staking_count])));
                    assert.deepEqual(stats, { [raw(bobV4.address)]: 2, [raw(bobV5.address)]: 1, [raw(alice.address)]: 1 });
                } finally {
                    await app.close();
                }
            });

            test('a newer state replaces the stakers; an older state delivered later changes nothing', async () => {
                await indexBlock(store, block(3, [
                    account(poolA, TF_POOL_CODE_HASH, tfPoolData([[alice.address, 30n * GRAM, 0n]]), 300n),
                    { address: raw(single), status: 'frozen', balance: 0n, lastTransLt: 301n, lastTransHash: hashOf(301n) },
                ]), undefined, { inspector });
                assert.deepEqual(await counts(store), { bobV4: 1, bobV5: 0, alice: 1 });
                await indexBlock(store, block(2, [
                    account(poolA, TF_POOL_CODE_HASH, tfPoolData([[bobV5.address, 30n * GRAM, 0n]]), 200n),
                    account(single, SINGLE_NOMINATOR_CODE_HASH, singleNominatorData(bobV5.address), 201n),
                ]), undefined, { inspector });
                assert.deepEqual(await counts(store), { bobV4: 1, bobV5: 0, alice: 1 });
            });

            test('migration 0006 fills in the stakers of pools indexed before it, from their stored state', async () => {
                const fresh = await backend.open();
                try {
                    await indexBlock(fresh, block(1, [
                        account(poolA, TF_POOL_CODE_HASH, tfPoolData([[bobV4.address, 500n * GRAM, 0n], [alice.address, 1n, 0n]]), 100n),
                        account(single, SINGLE_NOMINATOR_CODE_HASH, singleNominatorData(alice.address), 102n),
                    ]));
                    const expected = await fresh.db.selectFrom('pool_stakers').selectAll().orderBy('pool').orderBy('staker').execute();
                    assert.equal(expected.length, 3);
                    await fresh.db.schema.dropTable('pool_stakers').execute();
                    await sql`delete from kysely_migration where name = '0006-pool-stakers'`.execute(fresh.db);
                    const migrator = new Migrator({ db: fresh.db, provider: migrationProvider(fresh.dialect), allowUnorderedMigrations: true });
                    const { error, results } = await migrator.migrateToLatest();
                    assert.equal(error, undefined);
                    assert.deepEqual(results?.map(r => [r.migrationName, r.status]), [['0006-pool-stakers', 'Success']]);
                    assert.deepEqual(await fresh.db.selectFrom('pool_stakers').selectAll().orderBy('pool').orderBy('staker').execute(), expected);
                } finally {
                    await fresh.dispose();
                }
            });
        });
    }
});
