import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Migrator, sql } from 'kysely';
import pg from 'pg';
import { openStore } from '../../src/store/store.ts';
import type { CopyLiteral } from '../../src/store/postgres/copy-rows.ts';
import { migrationProvider } from '../../src/store/migrations/index.ts';
import { storeBackends, tempDir } from '../helpers/stores.ts';
import type { IndexDb } from '../../src/store/schema.ts';

/** Every table of the index with every column the code reads or writes. */
const EXPECTED_COLUMNS: Record<string, string[]> = {
    blocks: ['workchain', 'shard', 'seqno', 'root_hash', 'file_hash', 'utime', 'start_lt', 'end_lt', 'is_key_block', 'parents', 'master_ref', 'shard_blocks', 'tx_count'],
    transactions: ['hash', 'account', 'lt', 'utime', 'workchain', 'shard', 'seqno', 'trace_id', 'in_msg_hash', 'success', 'end_balance', 'boc', 'text', 'text_holes'],
    block_texts: ['workchain', 'shard', 'seqno', 'text', 'holes'],
    messages: ['hash', 'msg_type', 'source', 'destination', 'created_lt', 'value', 'op_code', 'tx_out_hash', 'tx_in_hash'],
    traces: ['trace_id', 'tx_count', 'pending', 'orphan', 'start_lt', 'end_lt', 'start_utime'],
    account_states: ['address', 'status', 'balance', 'extra_balance', 'code_hash', 'data_hash', 'code', 'data', 'last_tx_lt', 'last_tx_hash', 'last_utime', 'interfaces', 'get_methods'],
    source_cursors: ['source', 'cursor'],
    jetton_masters: ['address', 'total_supply', 'mintable', 'admin', 'content', 'wallet_code_hash', 'metadata', 'metadata_uri', 'metadata_status', 'last_tx_lt'],
    jetton_wallets: ['address', 'owner', 'master', 'balance', 'verified', 'last_tx_lt'],
    jetton_operations: ['transaction_hash', 'lt', 'utime', 'operation', 'master', 'amount', 'source', 'destination', 'source_wallet', 'destination_wallet', 'query_id', 'payload', 'trace_id', 'success', 'awaiting_message'],
    jetton_history: ['account', 'lt', 'transaction_hash', 'master', 'source', 'destination', 'text', 'text_holes'],
    nft_items: ['address', 'collection', 'item_index', 'owner', 'content', 'last_tx_lt'],
    wallets: ['address', 'public_key', 'seqno', 'wallet_id', 'signature_allowed', 'plugins', 'last_tx_lt'],
    multisig_members: ['multisig', 'member', 'kind'],
    chain_config: ['id', 'block_workchain', 'block_seqno', 'utime', 'config'],
    public_libraries: ['hash', 'publisher', 'boc'],
    pool_stakers: ['pool', 'staker', 'amount', 'pending_deposit'],
    multisig_orders: [
        'address', 'multisig', 'order_seqno', 'threshold', 'sent_for_execution', 'signers', 'signed_by', 'approvals_num',
        'expiration_date', 'actions', 'creation_date', 'last_tx_lt',
    ],
    index_generation: ['id', 'generation'],
};

/** Every migration, in the order they apply. */
const MIGRATIONS = ['0001-initial', '0002-tokens-and-wallets', '0003-multisig-members', '0004-chain-config', '0005-public-libraries', '0006-pool-stakers', '0007-extra-balances', '0008-multisig-orders', '0009-index-generation', '0010-generation-notify', '0011-transaction-texts', '0012-block-texts', '0013-jetton-history', '0014-untexted-history', '0015-protocol-interfaces', '0016-history-templates'];

/** A mainnet-looking account (the elector) and transaction hash, with integers past 2^53. */
const ADDRESS = '-1:3333333333333333333333333333333333333333333333333333333333333333';
const TX_HASH = '9c953c51e6cb6388e5ccd6690b94d11326f5a254dfb69fc566a674a527de810f';
const MSG_HASH = 'd93787d0225a1c5b2a0bce2599b755fbd29c251f056bd1da83839f3db765f4bb';
const BIG_BALANCE = 2n ** 62n + 7n;
const MAX_LT = 2n ** 63n - 1n;
const NEAR_MAX_LT = 2n ** 63n - 3n;

async function insertBigRows(db: IndexDb): Promise<void> {
    await db.insertInto('account_states').values({
        address: ADDRESS, status: 'active', balance: BIG_BALANCE, code_hash: null, data_hash: null, code: null, data: null,
        last_tx_lt: MAX_LT, last_tx_hash: TX_HASH, last_utime: 1642757054, interfaces: '[]',
    }).execute();
    await db.insertInto('blocks').values({
        workchain: -1, shard: '8000000000000000', seqno: 17734191, root_hash: '04c2c26fa7f6f84255d142ff2c4f98666db56879911fc2e83b3a284f20ca48ec',
        file_hash: '00'.repeat(32), utime: 1642757054, start_lt: NEAR_MAX_LT - 1n, end_lt: MAX_LT, is_key_block: 0,
        parents: '[]', master_ref: null, shard_blocks: '[]', tx_count: 1,
    }).execute();
    await db.insertInto('transactions').values({
        hash: TX_HASH, account: ADDRESS, lt: NEAR_MAX_LT, utime: 1642757054, workchain: -1, shard: '8000000000000000', seqno: 17734191,
        trace_id: TX_HASH, in_msg_hash: MSG_HASH, success: 1, end_balance: BIG_BALANCE, boc: Buffer.from([0xb5, 0xee, 0x9c, 0x72]),
    }).execute();
    await db.insertInto('messages').values({
        hash: MSG_HASH, msg_type: 'int_msg', source: ADDRESS, destination: ADDRESS, created_lt: NEAR_MAX_LT - 1n,
        value: BIG_BALANCE + 1n, op_code: 0xffffffff, tx_out_hash: null, tx_in_hash: TX_HASH,
    }).execute();
    await db.insertInto('traces').values({
        trace_id: TX_HASH, tx_count: 1, pending: 0, orphan: 0, start_lt: NEAR_MAX_LT, end_lt: MAX_LT, start_utime: 1642757054,
    }).execute();
}

for (const backend of storeBackends()) {
    describe(`store (${backend.name})`, () => {
        test('a fresh store has every table with every column, and the migration recorded', async () => {
            const store = await backend.open();
            try {
                const tables = await store.db.introspection.getTables();
                const byName = new Map(tables.map(t => [t.name, t.columns.map(c => c.name).sort()]));
                for (const [table, columns] of Object.entries(EXPECTED_COLUMNS)) {
                    assert.ok(byName.has(table), `table ${table} missing; have ${[...byName.keys()].join(', ')}`);
                    assert.deepEqual(byName.get(table), [...columns].sort(), `columns of ${table}`);
                }
                const applied = await sql<{ name: string }>`select name from kysely_migration order by name`.execute(store.db);
                assert.deepEqual(applied.rows.map(r => r.name), MIGRATIONS);
                for (const table of Object.keys(EXPECTED_COLUMNS)) {
                    const count = await sql<{ n: number | bigint | string }>`select count(*) as n from ${sql.table(table)}`.execute(store.db);
                    // The generation's one row is there from the start, at 0.
                    assert.equal(Number(count.rows[0].n), table === 'index_generation' ? 1 : 0, `${table} starts empty`);
                }
                const generation = await store.db.selectFrom('index_generation').select(['id', 'generation']).execute();
                assert.deepEqual(generation.map(row => [Number(row.id), Number(row.generation)]), [[1, 0]]);
            } finally {
                await store.dispose();
            }
        });

        test('running the migrations again on a migrated store changes nothing and keeps the data', async () => {
            const store = await backend.open();
            try {
                await insertBigRows(store.db);
                const migrator = new Migrator({ db: store.db, provider: migrationProvider(store.dialect) });
                const { error, results } = await migrator.migrateToLatest();
                assert.equal(error, undefined);
                assert.deepEqual(results, [], 'no migration runs twice');
                const row = await store.db.selectFrom('account_states').select(['balance', 'last_tx_lt']).where('address', '=', ADDRESS).executeTakeFirstOrThrow();
                assert.equal(row.balance, BIG_BALANCE);
                assert.equal(row.last_tx_lt, MAX_LT);
            } finally {
                await store.dispose();
            }
        });

        test('a transaction that throws leaves nothing behind, and the next one runs', async () => {
            const store = await backend.open();
            try {
                await assert.rejects(store.db.transaction().execute(async trx => {
                    await insertBigRows(trx);
                    throw new Error('the indexer failed halfway through a block');
                }), /halfway/);
                for (const table of ['account_states', 'blocks', 'transactions', 'messages', 'traces']) {
                    const count = await sql<{ n: number | bigint | string }>`select count(*) as n from ${sql.table(table)}`.execute(store.db);
                    assert.equal(Number(count.rows[0].n), 0, `${table} rolled back`);
                }
                await store.db.transaction().execute(trx => insertBigRows(trx));
                const row = await store.db.selectFrom('transactions').select('lt').where('hash', '=', TX_HASH).executeTakeFirstOrThrow();
                assert.equal(row.lt, NEAR_MAX_LT);
            } finally {
                await store.dispose();
            }
        });

        test('int8 columns round-trip exactly above 2^53 and read back as bigint', async () => {
            const store = await backend.open();
            try {
                await insertBigRows(store.db);
                // Beyond 2^53 a double cannot tell these apart: the test fails if any layer goes through number.
                assert.equal(Number(BIG_BALANCE), Number(BIG_BALANCE - 7n));
                assert.notEqual(BigInt(Number(BIG_BALANCE)), BIG_BALANCE);

                const account = await store.db.selectFrom('account_states').selectAll().where('address', '=', ADDRESS).executeTakeFirstOrThrow();
                assert.equal(typeof account.balance, 'bigint');
                assert.equal(account.balance, BIG_BALANCE);
                assert.equal(typeof account.last_tx_lt, 'bigint');
                assert.equal(account.last_tx_lt, MAX_LT);

                const tx = await store.db.selectFrom('transactions').selectAll().where('hash', '=', TX_HASH).executeTakeFirstOrThrow();
                assert.equal(typeof tx.lt, 'bigint');
                assert.equal(tx.lt, NEAR_MAX_LT);
                assert.equal(tx.end_balance, BIG_BALANCE);
                assert.deepEqual(Buffer.from(tx.boc), Buffer.from([0xb5, 0xee, 0x9c, 0x72]));

                const block = await store.db.selectFrom('blocks').select(['start_lt', 'end_lt', 'seqno']).executeTakeFirstOrThrow();
                assert.equal(block.start_lt, NEAR_MAX_LT - 1n);
                assert.equal(block.end_lt, MAX_LT);
                assert.equal(Number(block.seqno), 17734191);

                const message = await store.db.selectFrom('messages').selectAll().where('hash', '=', MSG_HASH).executeTakeFirstOrThrow();
                assert.equal(message.created_lt, NEAR_MAX_LT - 1n);
                assert.equal(message.value, BIG_BALANCE + 1n);
                assert.equal(BigInt(message.op_code!), 0xffffffffn);

                const trace = await store.db.selectFrom('traces').selectAll().executeTakeFirstOrThrow();
                assert.equal(trace.start_lt, NEAR_MAX_LT);
                assert.equal(trace.end_lt, MAX_LT);

                // The database itself holds the exact value (not a rounded float), as its own text shows.
                const text = await sql<{ balance: string; lt: string }>`select cast(balance as text) as balance, cast(last_tx_lt as text) as lt from account_states`.execute(store.db);
                assert.deepEqual(text.rows, [{ balance: '4611686018427387911', lt: '9223372036854775807' }]);

                // Comparisons and arithmetic on those columns are exact in the database too.
                const found = await store.db.selectFrom('transactions').select('hash').where('lt', '=', NEAR_MAX_LT).execute();
                assert.deepEqual(found.map(r => r.hash), [TX_HASH]);
                const notFound = await store.db.selectFrom('transactions').select('hash').where('lt', '=', NEAR_MAX_LT - 1n).execute();
                assert.deepEqual(notFound, []);
                await store.db.updateTable('account_states').set(eb => ({ balance: eb('balance', '+', 1n) })).execute();
                const bumped = await store.db.selectFrom('account_states').select('balance').executeTakeFirstOrThrow();
                assert.equal(bumped.balance, BIG_BALANCE + 1n);
            } finally {
                await store.dispose();
            }
        });

        test('PostgreSQL reads a list text through a binary COPY, byte for byte, with literals for its parameters; SQLite has no such query', async () => {
            const store = await backend.open();
            try {
                if (backend.name !== 'postgres') {
                    assert.equal(store.copyRows, undefined);
                    return;
                }
                // A list text's kind of bytes (JSON with NUL marks, characters of several UTF-8 lengths), and bytes that are not UTF-8.
                const text = Buffer.from('[{"a":"\u00e9\u4e2d\ud83d\ude00"\u0000,"b":1}]');
                assert.ok(text.includes(0));
                const notUtf8 = Buffer.from([0xff, 0xfe, 0x00, 0x80, 0xc3]);
                await store.db.insertInto('block_texts').values([
                    { workchain: 0, shard: '8000000000000000', seqno: 7, text, holes: '[1,[]]' },
                    { workchain: 0, shard: "it's", seqno: 8, text: notUtf8, holes: '[1,["0:ab"]]' },
                ]).execute();
                const query = store.db.selectFrom('block_texts').select(['text', 'holes', 'seqno']).where('shard', '=', '8000000000000000').where('seqno', '=', 7).compile();
                const [row] = await store.copyRows!(query.sql, query.parameters as CopyLiteral[]);
                assert.deepEqual(row[0], text);
                assert.equal(row[1]!.toString('utf8'), '[1,[]]');
                assert.equal(row[2]!.readBigInt64BE(0), 7n, 'an int8 comes as its eight bytes');
                // A string parameter is quoted, quotes inside it too; a bigint is written exactly.
                const quoted = store.db.selectFrom('block_texts').select(['text']).where('shard', '=', "it's").where('seqno', '=', 8).compile();
                assert.deepEqual(await store.copyRows!(quoted.sql, quoted.parameters as CopyLiteral[]), [[notUtf8]]);
                assert.deepEqual(await store.copyRows!('select text from block_texts where seqno = $1', [2n ** 62n]), []);
                await assert.rejects(store.copyRows!('select text from block_texts where seqno = $1', [1.5]), /integers only/);
                await assert.rejects(store.copyRows!('select no_such_column from block_texts', []), /no_such_column/);
                // Every connection is back in the pool after the failed statements, and still answers.
                const use = store.poolUse!();
                assert.equal(use.idle, use.total);
                assert.equal((await store.copyRows!('select holes from block_texts where seqno = $1', [8])).length, 1);
                // Block lists are compressed with lz4 where the server has it.
                const lz4 = await sql<{ has: boolean }>`select 'lz4' = any(enumvals) as has from pg_settings where name = 'default_toast_compression'`.execute(store.db);
                const compression = await sql<{ c: string }>`select attcompression as c from pg_attribute where attrelid = 'block_texts'::regclass and attname = 'text'`.execute(store.db);
                assert.equal(compression.rows[0].c, lz4.rows[0]?.has ? 'l' : '');
            } finally {
                await store.dispose();
            }
        });

        test('a value beyond int8 is rejected rather than silently stored', async () => {
            const store = await backend.open();
            try {
                await assert.rejects(store.db.insertInto('traces').values({
                    trace_id: TX_HASH, tx_count: 1, pending: 0, orphan: 0, start_lt: 2n ** 63n, end_lt: 2n ** 63n, start_utime: 0,
                }).execute());
                const traces = await store.db.selectFrom('traces').selectAll().execute();
                assert.deepEqual(traces, []);
            } finally {
                await store.dispose();
            }
        });
    });
}

describe('store (sqlite file reopened)', () => {
    test('opening the same SQLite file twice migrates once and keeps the data', async () => {
        const dir = tempDir();
        try {
            const first = await openStore({ dataDir: dir.path });
            assert.equal(first.dialect, 'sqlite');
            await insertBigRows(first.db);
            await first.db.insertInto('source_cursors').values({ source: 'files', cursor: 'file:/blocks/block-5.boc' }).execute();
            await first.close();
            assert.ok(existsSync(join(dir.path, 'index.sqlite')));

            const second = await openStore({ dataDir: dir.path });
            try {
                const applied = await sql<{ name: string }>`select name from kysely_migration`.execute(second.db);
                assert.deepEqual(applied.rows.map(r => r.name), MIGRATIONS);
                const account = await second.db.selectFrom('account_states').select(['balance', 'last_tx_lt']).executeTakeFirstOrThrow();
                assert.deepEqual(account, { balance: BIG_BALANCE, last_tx_lt: MAX_LT });
                const cursor = await second.db.selectFrom('source_cursors').selectAll().execute();
                assert.deepEqual(cursor, [{ source: 'files', cursor: 'file:/blocks/block-5.boc' }]);
                assert.equal((await second.db.selectFrom('transactions').select('hash').execute()).length, 1);
            } finally {
                await second.close();
            }

            // The same file through an explicit `sqlite:` url is the same index.
            const third = await openStore({ url: `sqlite:${join(dir.path, 'index.sqlite')}`, dataDir: '/nonexistent' });
            try {
                const account = await third.db.selectFrom('account_states').select('balance').executeTakeFirstOrThrow();
                assert.equal(account.balance, BIG_BALANCE);
            } finally {
                await third.close();
            }
        } finally {
            dir.remove();
        }
    });
});

describe('store (sqlite connection settings)', () => {
    test('the index keeps temporary data (statement journals of multi-row inserts) in memory, and writes through WAL', async () => {
        const dir = tempDir();
        const store = await openStore({ dataDir: dir.path });
        try {
            const pragma = async (name: string) => Object.values((await sql.raw<Record<string, unknown>>(`pragma ${name}`).execute(store.db)).rows[0])[0];
            // 2 = MEMORY: a block's insert of hundreds of rows spilled its journal to a temporary file past 64 KB.
            assert.equal(Number(await pragma('temp_store')), 2);
            assert.equal(await pragma('journal_mode'), 'wal');
        } finally {
            await store.close();
            dir.remove();
        }
    });

    test('rows come back as objects of their columns, as better-sqlite3 makes them, through the kept statements', async () => {
        const dir = tempDir();
        const store = await openStore({ dataDir: dir.path });
        try {
            const db = store.db;
            await sql`create table t (id integer primary key, name text, amount integer, blob blob)`.execute(db);
            await sql`insert into t values (1, 'one', ${2n ** 62n}, x'0102'), (2, null, -5, null)`.execute(db);
            const read = async (query: string) => (await sql.raw<Record<string, unknown>>(query).execute(db)).rows;
            const expected = [
                { id: 1n, name: 'one', amount: 2n ** 62n, blob: Buffer.from([1, 2]) },
                { id: 2n, name: null, amount: -5n, blob: null },
            ];
            assert.deepEqual(await read('select * from t order by id'), expected);
            // The same statement again, from the cache; and no rows at all.
            assert.deepEqual(await read('select * from t order by id'), expected);
            assert.deepEqual(await read('select * from t where id > 2'), []);
            // Columns of one name: the last wins, as in better-sqlite3's own objects.
            assert.deepEqual(await read("select 1 as x, 2 as x, 'y' as y"), [{ x: 2n, y: 'y' }]);
            // A column named __proto__ is a member, not the row's prototype.
            const [odd] = await read("select 'p' as __proto__, 3 as n");
            assert.equal(Object.getPrototypeOf(odd), Object.prototype);
            assert.deepEqual(Object.entries(odd), [['__proto__', 'p'], ['n', 3n]]);
            // A kept `select *` after the table gained a column (SQLite prepares it again): the new column too.
            await sql`alter table t add column extra text default 'e'`.execute(db);
            assert.deepEqual(await read('select * from t order by id'), expected.map(row => ({ ...row, extra: 'e' })));
            // Streamed rows, one at a time, likewise.
            const streamed = [];
            for await (const row of db.selectFrom('t' as never).select(['id' as never, 'name' as never]).orderBy('id' as never).stream()) streamed.push(row);
            assert.deepEqual(streamed, [{ id: 1n, name: 'one' }, { id: 2n, name: null }]);
            // Statements that return no rows still report what they changed.
            const updated = await sql`update t set name = 'two' where id = 2`.execute(db);
            assert.equal(updated.numAffectedRows, 1n);
        } finally {
            await store.close();
            dir.remove();
        }
    });
});

const pgUrl = process.env.TEST_PG_URL;
describe('store (postgres database reopened)', { skip: pgUrl ? false : 'TEST_PG_URL not set' }, () => {
    test('opening the same PostgreSQL database twice migrates once and keeps the data', async () => {
        const name = `ne_test_reopen_${process.pid}_${Math.random().toString(36).slice(2, 8)}`;
        const admin = new pg.Client({ connectionString: pgUrl });
        await admin.connect();
        await admin.query(`CREATE DATABASE ${name}`);
        const target = new URL(pgUrl!);
        target.pathname = `/${name}`;
        try {
            const first = await openStore({ url: target.toString(), dataDir: tmpdir() });
            assert.equal(first.dialect, 'postgres');
            await insertBigRows(first.db);
            await first.close();
            const second = await openStore({ url: target.toString(), dataDir: tmpdir() });
            try {
                const applied = await sql<{ name: string }>`select name from kysely_migration`.execute(second.db);
                assert.deepEqual(applied.rows.map(r => r.name), MIGRATIONS);
                const account = await second.db.selectFrom('account_states').select(['balance', 'last_tx_lt']).executeTakeFirstOrThrow();
                assert.deepEqual(account, { balance: BIG_BALANCE, last_tx_lt: MAX_LT });
            } finally {
                await second.close();
            }
        } finally {
            await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
            await admin.end();
        }
    });
});
