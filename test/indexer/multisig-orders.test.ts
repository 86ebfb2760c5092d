import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { Address, beginCell, contractAddress } from '@ton/core';
import { Migrator, sql } from 'kysely';
import { indexBlock } from '../../src/indexer/index-block.ts';
import { AccountInspector } from '../../src/indexer/inspect-accounts.ts';
import { migrationProvider } from '../../src/store/migrations/index.ts';
import { multisigOrder } from '../../src/store/read/multisig-orders.ts';
import type { Store } from '../../src/store/store.ts';
import { formatRawAddress } from '../../src/ton/address.ts';
import { storeBackends } from '../helpers/stores.ts';
import { testAddress } from '../ton/interfaces/helpers.ts';
import {
    maskOf, orderCell, orderData, probedOrderCode, probedOrderData, transferAction, uninitialisedOrderData, updateParamsAction, type OrderFields,
} from '../ton/interfaces/multisig-order-cells.ts';
import { MULTISIG_V2_CODE_HASH, activeState, block, frozenState, initBody, internalTransaction } from './multisig-order-blocks.ts';

const multisig = testAddress(0x77);
const [alice, bob, carol, dave] = [0xa1, 0xb0, 0xc2, 0xd3].map(seed => testAddress(seed));
const destination = testAddress(0x42);
const [pending, executed, updating, lateInit] = [0x01, 0x02, 0x03, 0x04].map(seed => testAddress(seed));
const raw = (a: Address) => formatRawAddress(a);
const T0 = 1_760_000_000;

function fields(orderSeqno: bigint, overrides: Partial<OrderFields> = {}): OrderFields {
    return {
        multisig, orderSeqno, threshold: 2, sentForExecution: false, signers: [alice, bob, carol],
        approvalsMask: maskOf([1]), approvalsNum: 1, expirationDate: T0 + 86_400,
        order: orderCell([transferAction(destination, 1_500_000_000n)]), ...overrides,
    };
}

/** The multisig_orders row, as comparable values. */
async function row(store: Store, order: Address) {
    const found = await store.db.selectFrom('multisig_orders').selectAll().where('address', '=', raw(order)).executeTakeFirst();
    if (!found) return undefined;
    return {
        multisig: found.multisig, order_seqno: found.order_seqno, threshold: Number(found.threshold), sent: Number(found.sent_for_execution) === 1,
        signers: JSON.parse(found.signers), signed_by: JSON.parse(found.signed_by), approvals_num: Number(found.approvals_num),
        expiration_date: BigInt(found.expiration_date), creation_date: found.creation_date === null ? null : BigInt(found.creation_date),
        last_tx_lt: BigInt(found.last_tx_lt),
    };
}

describe('multisig orders from indexed account states', () => {
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

            test('a pending order proposed by signer 1: its state, signed_by and the creation date of its init', async () => {
                const f = fields(0n);
                const init = internalTransaction(pending, multisig, initBody(f, 1), 100n, T0 + 5);
                await indexBlock(store, block(1, [
                    activeState(multisig, beginCell().storeUint(1, 256).endCell(), 99n, { codeHash: MULTISIG_V2_CODE_HASH, balance: 50_000_000_000n }),
                    activeState(pending, orderData(f), 100n),
                ], [init]), undefined, { inspector });
                assert.deepEqual(await row(store, pending), {
                    multisig: raw(multisig), order_seqno: '0', threshold: 2, sent: false,
                    signers: [alice, bob, carol].map(raw), signed_by: [raw(bob)], approvals_num: 1,
                    expiration_date: BigInt(T0 + 86_400), creation_date: BigInt(T0 + 5), last_tx_lt: 100n,
                });
                // re-delivery of the block changes nothing
                await indexBlock(store, block(1, [activeState(pending, orderData(fields(0n, { approvalsMask: 0n, approvalsNum: 0 })), 100n)]), undefined, { inspector });
                assert.deepEqual((await row(store, pending))?.signed_by, [raw(bob)]);
            });

            test('partially approved, then executed; an older state arriving late changes nothing', async () => {
                const seqno = (1n << 256n) - 2n;
                const approved = fields(seqno, { threshold: 3, approvalsMask: maskOf([0, 2]), approvalsNum: 2 });
                await indexBlock(store, block(3, [activeState(executed, orderData(approved), 300n)], [
                    internalTransaction(executed, multisig, initBody(approved, 0), 290n, T0 + 30),
                ]), undefined, { inspector });
                const partial = await row(store, executed);
                assert.equal(partial?.order_seqno, seqno.toString(), 'uint256 in decimal');
                assert.deepEqual(partial?.signed_by, [alice, carol].map(raw));
                assert.equal(partial?.sent, false);

                const done = fields(seqno, { threshold: 3, sentForExecution: true, approvalsMask: maskOf([0, 1, 2]), approvalsNum: 3 });
                await indexBlock(store, block(5, [activeState(executed, orderData(done), 500n)]), undefined, { inspector });
                // block 4 comes late: an approval by signer 1 alone, older than block 5's state
                const older = fields(seqno, { threshold: 3, approvalsMask: maskOf([1]), approvalsNum: 1 });
                await indexBlock(store, block(4, [activeState(executed, orderData(older), 400n)]), undefined, { inspector });
                assert.deepEqual(await row(store, executed), {
                    ...partial!, sent: true, signed_by: [alice, bob, carol].map(raw), approvals_num: 3, last_tx_lt: 500n,
                });
            });

            test('an order changing the parameters keeps its actions; the read side gives them typed', async () => {
                const f = fields(2n, { order: orderCell([transferAction(destination, 7n, 128), updateParamsAction(1, [dave], []), updateParamsAction(2, [alice, dave], [bob])]) });
                await indexBlock(store, block(6, [activeState(updating, orderData(f), 600n)], [internalTransaction(updating, multisig, initBody(f, 1), 600n, T0 + 60)]), undefined, { inspector });
                const read = await multisigOrder(store.db, raw(updating));
                assert.ok(read);
                assert.deepEqual(read.actions.map(a => a.type), ['send_message', 'update_multisig_params', 'update_multisig_params']);
                assert.equal(read.orderSeqno, 2n);
                assert.equal(read.creationDate, BigInt(T0 + 60));
                assert.equal(read.multisigBalance, 50_000_000_000n, 'the multisig balance as indexed');
                assert.deepEqual(read.signedBy, [raw(bob)]);
                assert.equal(await multisigOrder(store.db, raw(multisig)), undefined, 'the multisig is not an order');
            });

            test('creation date: the first successful init, even when its block arrives after the order state', async () => {
                const f = fields(3n);
                // the order's state is indexed first, with only a later init (an approval the multisig relays in arbitrary-seqno mode)
                await indexBlock(store, block(9, [activeState(lateInit, orderData(f), 900n)], [
                    internalTransaction(lateInit, multisig, initBody(f, 2), 900n, T0 + 900),
                ]), undefined, { inspector });
                assert.equal((await row(store, lateInit))?.creation_date, BigInt(T0 + 900), 'a second init (arbitrary seqno mode) as the only one known');
                // the first init arrives late, with a failed one even earlier
                await indexBlock(store, block(8, [], [
                    internalTransaction(lateInit, multisig, initBody(f, 1), 700n, T0 + 700, false),
                    internalTransaction(lateInit, multisig, initBody(f, 1), 800n, T0 + 800),
                ]), undefined, { inspector });
                assert.equal((await row(store, lateInit))?.creation_date, BigInt(T0 + 800));
                // a newer state rewrites the row; the creation date stays
                await indexBlock(store, block(10, [activeState(lateInit, orderData(fields(3n, { approvalsMask: maskOf([1, 2]), approvalsNum: 2 })), 1000n)]), undefined, { inspector });
                assert.equal((await row(store, lateInit))?.creation_date, BigInt(T0 + 800));
                assert.equal((await multisigOrder(store.db, raw(lateInit)))?.creationDate, BigInt(T0 + 800));
            });

            test('without an indexed init the read gives the oldest indexed activity of the order', async () => {
                const order = testAddress(0x05);
                await indexBlock(store, block(11, [activeState(order, orderData(fields(4n)), 1100n)]), undefined, { inspector });
                assert.equal((await row(store, order))?.creation_date, null);
                assert.equal((await multisigOrder(store.db, raw(order)))?.creationDate, 1_700_000_011n, 'the state\'s time (block 11), no transaction being indexed');
            });

            test('not orders: an uninitialised order, malformed data, another contract, an order that is frozen', async () => {
                const [uninit, junk, frozen] = [0x06, 0x07, 0x08].map(seed => testAddress(seed));
                await indexBlock(store, block(12, [
                    activeState(uninit, uninitialisedOrderData(multisig, 9n), 1200n),
                    activeState(junk, beginCell().storeUint(1, 8).endCell(), 1201n),
                    activeState(frozen, orderData(fields(5n)), 1202n),
                ]), undefined, { inspector });
                assert.equal(await row(store, uninit), undefined);
                assert.equal(await row(store, junk), undefined);
                assert.ok(await row(store, frozen));
                await indexBlock(store, block(13, [frozenState(frozen, 1300n)]), undefined, { inspector });
                assert.equal(await row(store, frozen), undefined);
            });

            test('an order known only by probing get_order_data is read from the get-method', async () => {
                const code = await probedOrderCode();
                const f = fields(6n, { approvalsMask: maskOf([0]) });
                const data = probedOrderData(f);
                const address = contractAddress(0, { code, data });
                await indexBlock(store, block(14, [activeState(address, data, 1400n, { code })]), undefined, { inspector });
                const found = await row(store, address);
                assert.equal(found?.order_seqno, '6');
                assert.deepEqual(found?.signed_by, [raw(alice)]);
                const interfaces = await store.db.selectFrom('account_states').select('interfaces').where('address', '=', raw(address)).executeTakeFirstOrThrow();
                assert.deepEqual(JSON.parse(interfaces.interfaces), ['multisig_order_v2']);
            });

            test('migration 0008 fills in the orders indexed before it, with their creation dates', async () => {
                const fresh = await backend.open();
                try {
                    const f = fields(0n);
                    await indexBlock(fresh, block(1, [activeState(pending, orderData(f), 100n), activeState(executed, orderData(fields(1n)), 101n)], [
                        internalTransaction(pending, multisig, initBody(f, 1), 100n, T0 + 5),
                    ]));
                    const expected = await fresh.db.selectFrom('multisig_orders').selectAll().orderBy('address').execute();
                    assert.equal(expected.length, 2);
                    await fresh.db.schema.dropTable('multisig_orders').execute();
                    await sql`delete from kysely_migration where name = '0008-multisig-orders'`.execute(fresh.db);
                    const migrator = new Migrator({ db: fresh.db, provider: migrationProvider(fresh.dialect), allowUnorderedMigrations: true });
                    const { error, results } = await migrator.migrateToLatest();
                    assert.equal(error, undefined);
                    assert.deepEqual(results?.map(r => [r.migrationName, r.status]), [['0008-multisig-orders', 'Success']]);
                    assert.deepEqual(await fresh.db.selectFrom('multisig_orders').selectAll().orderBy('address').execute(), expected);
                } finally {
                    await fresh.dispose();
                }
            });
        });
    }
});
