import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { Migrator, sql } from 'kysely';
import { migrationProvider } from '../../src/store/migrations/index.ts';
import type { AccountStateRecord } from '../../src/chain/chain-source.ts';
import { interfacesOf } from '../../src/indexer/inspect-accounts.ts';
import { storeBackends } from '../helpers/stores.ts';

const TONCO_POOL_CODE = 'bc947d16346c2fdc845b7a446382f59c86acb075e2a31dbfa956cd0c9e54678e';
const STONFI_V1_ROUTER = '0:779dcc815138d9500e449c5291e7f12738c23d575b5310000f6a253bd607384e';
const POOL = `0:${'a1'.repeat(32)}`;
const OTHER = `0:${'b2'.repeat(32)}`;

function state(address: string, codeHash: string | null, interfaces: string[]) {
    return {
        address, status: 'active', balance: 1n, code_hash: codeHash, data_hash: null, code: null, data: null,
        last_tx_lt: 1n, last_tx_hash: 'ab'.repeat(32), last_utime: 1n, interfaces: JSON.stringify(interfaces),
    };
}

describe('mainnet protocol interfaces of accounts indexed before the table', () => {
    for (const backend of storeBackends()) {
        test(`${backend.name}: migration 0015 adds the table's interfaces to the stored ones, by code hash and by address`, async () => {
            const store = await backend.open();
            try {
                await store.db.insertInto('account_states').values([
                    state(POOL, TONCO_POOL_CODE, ['nft_collection']),
                    state(STONFI_V1_ROUTER, 'cd'.repeat(32), []),
                    state(OTHER, 'ef'.repeat(32), ['wallet_v4r2', 'wallet']),
                ]).execute();
                await sql`delete from kysely_migration where name = '0015-protocol-interfaces'`.execute(store.db);
                const { error, results } = await new Migrator({ db: store.db, provider: migrationProvider(store.dialect), allowUnorderedMigrations: true }).migrateToLatest();
                assert.equal(error, undefined);
                assert.deepEqual(results?.map((r) => [r.migrationName, r.status]), [['0015-protocol-interfaces', 'Success']]);
                const rows = await store.db.selectFrom('account_states').select(['address', 'interfaces']).orderBy('address').execute();
                assert.deepEqual(Object.fromEntries(rows.map((r) => [r.address, JSON.parse(r.interfaces)])), {
                    [STONFI_V1_ROUTER]: ['stonfi_router'],
                    [POOL]: ['nft_collection', 'tonco_pool'],
                    [OTHER]: ['wallet_v4r2', 'wallet'],
                });
            } finally {
                await store.dispose();
            }
        });
    }

    test('an account indexed without running its code gets the tables interfaces: by address and by code hash', () => {
        const base: Omit<AccountStateRecord, 'address'> = { status: 'active', balance: 0n, lastTransLt: 1n, lastTransHash: 'ab'.repeat(32) };
        assert.deepEqual(interfacesOf({ ...base, address: STONFI_V1_ROUTER, codeHash: 'cd'.repeat(32) }, undefined), ['stonfi_router']);
        assert.deepEqual(interfacesOf({ ...base, address: POOL, codeHash: TONCO_POOL_CODE }, undefined), ['tonco_pool']);
    });
});
