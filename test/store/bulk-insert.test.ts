import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import type { Insertable } from 'kysely';
import { BulkInsert } from '../../src/store/bulk-insert.ts';
import type { MessagesTable } from '../../src/store/schema.ts';
import { storeBackends } from '../helpers/stores.ts';

const SENDER = '0:' + 'a1'.repeat(32);
const RECEIVER = '-1:' + '3'.repeat(64);

function hashOf(label: string): string {
    return createHash('sha256').update(label).digest('hex');
}

/** Messages with values and lts past 2^53, a null and a full op code, alternating directions. */
function messages(count: number, label: string): Insertable<MessagesTable>[] {
    return Array.from({ length: count }, (_, i) => ({
        hash: hashOf(`${label}-${i}`),
        msg_type: 'int_msg' as const,
        source: i % 2 ? SENDER : RECEIVER,
        destination: i % 2 ? RECEIVER : SENDER,
        created_lt: 2n ** 62n + BigInt(i),
        value: i % 3 === 0 ? null : 2n ** 61n * 3n + BigInt(i),
        op_code: i % 5 === 0 ? null : 0xffffffff - i,
        tx_out_hash: hashOf(`tx-${label}-${i}`),
        tx_in_hash: null,
    }));
}

/** The same upsert the indexer runs: a later sighting of a message fills in the transaction that received it. */
function messageUpsert(maxRows: number): BulkInsert<Insertable<MessagesTable>> {
    return new BulkInsert<Insertable<MessagesTable>>((db, rows) => db.insertInto('messages').values(rows)
        .onConflict(oc => oc.column('hash').doUpdateSet(eb => ({
            tx_in_hash: eb.fn.coalesce(eb.ref('excluded.tx_in_hash'), eb.ref('messages.tx_in_hash')),
            tx_out_hash: eb.fn.coalesce(eb.ref('excluded.tx_out_hash'), eb.ref('messages.tx_out_hash')),
        }))), maxRows);
}

for (const backend of storeBackends()) {
    describe(`bulk insert (${backend.name})`, () => {
        test('rows of every count land exactly, whether the statement is compiled or reused', async () => {
            const store = await backend.open();
            try {
                const insert = messageUpsert(8);
                const written: Insertable<MessagesTable>[] = [];
                // 13 = 8 + 4 + 1 and 7 = 4 + 2 + 1: the second and third runs reuse the SQL kept for sizes 4 and 1.
                for (const [count, label] of [[13, 'a'], [7, 'b'], [13, 'c'], [0, 'd'], [1, 'e']] as const) {
                    const rows = messages(count, label);
                    await insert.run(store.db, rows);
                    written.push(...rows);
                }
                const stored = await store.db.selectFrom('messages').selectAll().orderBy('hash').execute();
                const expected = [...written].sort((x, y) => (x.hash < y.hash ? -1 : 1));
                assert.equal(stored.length, 34);
                assert.deepEqual(stored.map(row => ({ ...row, op_code: row.op_code === null ? null : Number(row.op_code) })), expected);
            } finally {
                await store.dispose();
            }
        });

        test('a reused statement binds by column name, not by the order a row was built in', async () => {
            const store = await backend.open();
            try {
                const insert = messageUpsert(4);
                await insert.run(store.db, messages(4, 'first'));
                const reordered = messages(4, 'second').map(row => {
                    const { tx_in_hash, tx_out_hash, value, hash, ...rest } = row;
                    return { tx_in_hash, value, ...rest, tx_out_hash, hash };
                });
                await insert.run(store.db, reordered);
                for (const row of reordered) {
                    const stored = await store.db.selectFrom('messages').selectAll().where('hash', '=', row.hash).executeTakeFirstOrThrow();
                    assert.equal(stored.value, row.value ?? null);
                    assert.equal(stored.tx_out_hash, row.tx_out_hash);
                    assert.equal(stored.created_lt, row.created_lt);
                }
            } finally {
                await store.dispose();
            }
        });

        test('the conflict clause applies to reused statements: a receipt fills tx_in_hash and keeps tx_out_hash', async () => {
            const store = await backend.open();
            try {
                const insert = messageUpsert(4);
                const sent = messages(4, 'm');
                await insert.run(store.db, sent);
                const received = sent.map(row => ({ ...row, tx_out_hash: null, tx_in_hash: hashOf(`in-${row.hash}`) }));
                await insert.run(store.db, received);
                const stored = await store.db.selectFrom('messages').select(['hash', 'tx_in_hash', 'tx_out_hash']).orderBy('hash').execute();
                assert.deepEqual(stored, sent.map(row => ({ hash: row.hash, tx_in_hash: hashOf(`in-${row.hash}`), tx_out_hash: row.tx_out_hash }))
                    .sort((x, y) => (x.hash < y.hash ? -1 : 1)));
            } finally {
                await store.dispose();
            }
        });

        test('rows that leave a column out take the ordinary path and still insert', async () => {
            const store = await backend.open();
            try {
                const insert = messageUpsert(4);
                await insert.run(store.db, messages(4, 'full'));
                // Same count as the kept statement but without tx_in_hash: binding it by position would shift every value.
                const partial = messages(4, 'partial').map(({ tx_in_hash: _omitted, ...rest }) => rest);
                await insert.run(store.db, partial);
                const stored = await store.db.selectFrom('messages').selectAll().where('hash', 'in', partial.map(row => row.hash)).execute();
                assert.equal(stored.length, 4);
                for (const row of stored) {
                    const source = partial.find(p => p.hash === row.hash)!;
                    assert.equal(row.tx_in_hash, null);
                    assert.equal(row.tx_out_hash, source.tx_out_hash);
                    assert.equal(row.created_lt, source.created_lt);
                }
            } finally {
                await store.dispose();
            }
        });
    });
}
