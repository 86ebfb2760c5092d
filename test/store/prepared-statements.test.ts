import assert from 'node:assert/strict';
import { tmpdir } from 'node:os';
import { describe, it } from 'node:test';
import { sql } from 'kysely';
import { StatementNames } from '../../src/store/postgres/prepared-statements.ts';
import { walletsByPublicKeys } from '../../src/store/read/wallets.ts';
import { accountInterfaces } from '../../src/store/read/accounts.ts';
import { openStore } from '../../src/store/store.ts';
import { createTestDatabase } from '../helpers/stores.ts';

describe('statement names', () => {
    it('names reads with few parameters, one name a text, up to the limit', () => {
        const names = new StatementNames(3, 4);
        const first = names.nameOf('select "a" from "t" where "b" = $1', 1);
        assert.ok(first);
        assert.equal(names.nameOf('select "a" from "t" where "b" = $1', 1), first);
        assert.equal(names.nameOf('insert into "t" ("a") values ($1)', 1), undefined, 'a write');
        assert.equal(names.nameOf('update "t" set "a" = $1', 1), undefined, 'a write');
        assert.equal(names.nameOf('select "a" from "t" where "b" in ($1, $2, $3, $4, $5)', 5), undefined, 'too many parameters');
        const second = names.nameOf('SELECT 1', 0);
        const third = names.nameOf('select "a" from "t" where "b" = any($1::text[])', 1);
        assert.ok(second && third);
        assert.equal(new Set([first, second, third]).size, 3);
        assert.equal(names.nameOf('select 2', 0), undefined, 'past the limit');
        assert.equal(names.nameOf('select "a" from "t" where "b" = $1', 1), first, 'named before the limit was reached');
        assert.equal(names.size, 3);
    });
});

const pgUrl = process.env.TEST_PG_URL;

describe('prepared reads on PostgreSQL', { skip: pgUrl ? false : 'TEST_PG_URL is not set' }, () => {
    it('run a read of any number of keys as one statement a connection; IN lists, writes and failures as before', async () => {
        const database = await createTestDatabase(pgUrl!);
        // One connection: pg_prepared_statements shows the statements of the session that asks.
        const store = await openStore({ url: database.url, dataDir: tmpdir(), maxConnections: 1 });
        try {
            const prepared = async () => (await sql<{ statement: string }>`select statement from pg_prepared_statements`.execute(store.db)).rows.map(r => r.statement);
            const key = (n: number) => n.toString(16).padStart(64, '0');
            await store.db.insertInto('account_states').values({
                address: `0:${'a'.repeat(64)}`, balance: 5n, status: 'active', code_hash: null, data_hash: null, code: null, data: null,
                last_tx_lt: 7n, last_tx_hash: 'h', last_utime: 1, interfaces: '["wallet_v4r2"]',
            }).execute();
            await store.db.insertInto('wallets').values({ address: `0:${'a'.repeat(64)}`, public_key: key(3), seqno: 1n, wallet_id: null, signature_allowed: null, plugins: '[]', last_tx_lt: 7n }).execute();

            for (const count of [1, 3, 7, 100]) {
                const wallets = await walletsByPublicKeys(store.db, Array.from({ length: count }, (_, i) => key(i + 1)));
                assert.deepEqual(wallets.map(w => w.address), count >= 3 ? [`0:${'a'.repeat(64)}`] : [], `${count} keys`);
                assert.equal(wallets[0]?.balance, count >= 3 ? 5n : undefined);
            }
            const walletReads = (await prepared()).filter(text => text.includes('"wallets"'));
            assert.equal(walletReads.length, 1, 'wallets by key: one statement for 1, 3, 7 and 100 keys');
            assert.match(walletReads[0], /"public_key" = any\(\$\d+::text\[\]\)/);

            assert.deepEqual([...await accountInterfaces(store.db, Array.from({ length: 40 }, (_, i) => (i === 7 ? `0:${'a'.repeat(64)}` : `0:${key(i)}`)))],
                [[`0:${'a'.repeat(64)}`, ['wallet_v4r2']]]);
            const many = Array.from({ length: 20 }, (_, i) => key(i));
            assert.equal((await store.db.selectFrom('wallets').select('address').where('public_key', 'in', many).execute()).length, 1);
            const statements = await prepared();
            assert.deepEqual(statements.filter(text => text.includes('"public_key" in (')), [], 'an IN list of 20 stays unnamed');
            assert.ok(!statements.some(text => /^\s*insert/i.test(text)), 'writes stay unnamed');

            // A named read that fails fails again the same way, and the connection goes on.
            const bad = () => sql`select "no_such_column" from "wallets" where "public_key" = ${key(3)}`.execute(store.db);
            await assert.rejects(bad, /no_such_column/);
            await assert.rejects(bad, /no_such_column/);
            assert.equal((await walletsByPublicKeys(store.db, [key(3)])).length, 1);
        } finally {
            await store.close();
            await database.drop();
        }
    });
});
