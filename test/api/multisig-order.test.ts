import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Address, beginCell, internal } from '@ton/core';
import type { FastifyInstance } from 'fastify';
import { buildServer } from '../../src/api/server.ts';
import { indexBlock } from '../../src/indexer/index-block.ts';
import { formatRawAddress } from '../../src/ton/address.ts';
import { findOperation } from '../helpers/openapi-assert.ts';
import { storeBackends } from '../helpers/stores.ts';
import { MULTISIG_V2_CODE_HASH, activeState, block, initBody, internalTransaction } from '../indexer/multisig-order-blocks.ts';
import { jettonBurn, jettonTransfer, nftTransfer } from '../ton/bodies/builders.ts';
import { testAddress } from '../ton/interfaces/helpers.ts';
import {
    maskOf, orderCell, orderData, sendMessageAction, transferAction, updateParamsAction, type OrderFields,
} from '../ton/interfaces/multisig-order-cells.ts';
import { assertError, call } from './api-call.ts';

/**
 * GET /v2/multisig/order/{account_id} over real HTTP against a store the indexer filled from
 * constructed order states; every response is checked against the OpenAPI document.
 */

const multisig = testAddress(0x77);
const [alice, bob, carol, dave] = [0xa1, 0xb0, 0xc2, 0xd3].map(seed => testAddress(seed));
const destination = testAddress(0x42);
const master = testAddress(0x60);
const [ownJettonWallet, foreignJettonWallet, unverifiedJettonWallet, item] = [0x61, 0x62, 0x63, 0x64].map(seed => testAddress(seed));
const [pending, executed, sendAll, huge] = [0x01, 0x02, 0x03, 0x04].map(seed => testAddress(seed));
const raw = (a: Address) => formatRawAddress(a);
const T0 = 1_760_000_000;
const MULTISIG_BALANCE = 50_000_000_000n;
const MAX_SEQNO = (1n << 256n) - 2n;
const MAX_EXPIRATION = 2 ** 48 - 1;

function fields(orderSeqno: bigint, overrides: Partial<OrderFields> = {}): OrderFields {
    return {
        multisig, orderSeqno, threshold: 2, sentForExecution: false, signers: [alice, bob, carol],
        approvalsMask: maskOf([1]), approvalsNum: 1, expirationDate: T0 + 86_400,
        order: orderCell([transferAction(destination, 1_500_000_000n)]), ...overrides,
    };
}

const jettonMessage = (to: Address, amount: bigint) => internal({
    to, value: 50_000_000n, bounce: true,
    body: jettonTransfer({ queryId: 1n, amount, destination: dave, response: multisig, forwardTon: 1n }),
});

const ORDERS = {
    /** proposed by bob; a transfer, jetton transfers (one from a wallet of the multisig's, one from another owner's, one unverified), a burn and an NFT */
    pending: fields(0n, {
        order: orderCell([
            transferAction(destination, 1_500_000_000n, 3, beginCell().storeUint(0, 32).storeStringTail('rent').endCell()),
            sendMessageAction(3, jettonMessage(ownJettonWallet, 1_000n)),
            sendMessageAction(3, jettonMessage(foreignJettonWallet, 2_000n)),
            sendMessageAction(3, jettonMessage(unverifiedJettonWallet, 3_000n)),
            sendMessageAction(3, internal({ to: ownJettonWallet, value: 10_000_000n, bounce: true, body: jettonBurn({ queryId: 2n, amount: 5n, response: multisig }) })),
            sendMessageAction(1, internal({ to: item, value: 60_000_000n, bounce: true, body: nftTransfer({ queryId: 3n, newOwner: dave, response: multisig, forwardAmount: 0n }) })),
        ]),
    }),
    /** approved by all three and sent; it changes the parameters twice, the last one counts */
    executed: fields(1n, {
        threshold: 3, sentForExecution: true, approvalsMask: maskOf([0, 1, 2]), approvalsNum: 3,
        order: orderCell([updateParamsAction(1, [dave], [carol]), updateParamsAction(2, [alice, dave], [])]),
    }),
    /** a send-all message */
    sendAll: fields(2n, { approvalsMask: maskOf([0, 2]), approvalsNum: 2, order: orderCell([transferAction(destination, 1n, 128)]) }),
    /** the largest values the layout holds */
    huge: fields(MAX_SEQNO, { expirationDate: MAX_EXPIRATION }),
};

for (const backend of storeBackends()) {
    describe(`GET /v2/multisig/order/{account_id} (${backend.name})`, () => {
        let store: Awaited<ReturnType<typeof backend.open>>;
        let app: FastifyInstance;
        let base: string;

        before(async () => {
            store = await backend.open();
            await indexBlock(store, block(1, [
                activeState(multisig, beginCell().storeUint(4, 256).endCell(), 10n, { codeHash: MULTISIG_V2_CODE_HASH, balance: MULTISIG_BALANCE }),
                activeState(pending, orderData(ORDERS.pending), 11n),
                activeState(executed, orderData(ORDERS.executed), 12n),
                activeState(sendAll, orderData(ORDERS.sendAll), 13n),
                activeState(huge, orderData(ORDERS.huge), 14n),
            ], [
                internalTransaction(pending, multisig, initBody(ORDERS.pending, 1), 11n, T0 + 11),
                internalTransaction(executed, multisig, initBody(ORDERS.executed, 0), 12n, T0 + 12),
                internalTransaction(sendAll, multisig, initBody(ORDERS.sendAll, 0), 13n, T0 + 13),
            ]));
            // What the index knows of the jetton wallets and the NFT (as the inspector would have written it).
            await store.db.insertInto('jetton_masters').values({
                address: raw(master), total_supply: '1000000', mintable: 1, admin: null, content: Buffer.alloc(0), wallet_code_hash: null,
                metadata: JSON.stringify({ name: 'Dollar', symbol: 'DUSD', decimals: '6' }), metadata_uri: null, metadata_status: 'none', last_tx_lt: 1n,
            }).execute();
            await store.db.insertInto('jetton_wallets').values([
                { address: raw(ownJettonWallet), owner: raw(multisig), master: raw(master), balance: '10000', verified: 1, last_tx_lt: 1n },
                { address: raw(foreignJettonWallet), owner: raw(dave), master: raw(master), balance: '10000', verified: 1, last_tx_lt: 1n },
                { address: raw(unverifiedJettonWallet), owner: raw(multisig), master: raw(master), balance: '10000', verified: 0, last_tx_lt: 1n },
            ]).execute();
            await store.db.insertInto('nft_items').values({ address: raw(item), collection: null, item_index: '7', owner: raw(multisig), content: Buffer.alloc(0), last_tx_lt: 1n }).execute();
            app = await buildServer({ store, chain: { source: 'test', live: false, head: async () => null } });
            base = `${await app.listen({ host: '127.0.0.1', port: 0 })}/v2`;
        });

        after(async () => {
            await app?.close();
            await store?.dispose();
        });

        const order = (id: string) => call('getMultisigOrder', `${base}/multisig/order/${encodeURIComponent(id)}`);

        it('a pending order: its fields, signed_by, and the risk of its messages for the multisig', async () => {
            const response = await order(raw(pending));
            assert.equal(response.status, 200, response.text);
            assert.deepEqual(response.body, {
                address: raw(pending),
                order_seqno: '0',
                threshold: 2,
                sent_for_execution: false,
                signers: [alice, bob, carol].map(raw),
                approvals_num: 1,
                expiration_date: T0 + 86_400,
                risk: {
                    transfer_all_remaining_balance: false,
                    native: 1_500_000_000 + 3 * 50_000_000 + 10_000_000 + 60_000_000,
                    gram: 1_500_000_000 + 3 * 50_000_000 + 10_000_000 + 60_000_000,
                    // the multisig's own verified wallet only: transfer and burn added up
                    jettons: [{
                        quantity: '1005',
                        wallet_address: { address: raw(ownJettonWallet), is_scam: false, is_wallet: false },
                        jetton: { address: raw(master), name: 'Dollar', symbol: 'DUSD', decimals: 6, image: '', verification: 'none', score: 0 },
                    }],
                    nfts: [{
                        address: raw(item), index: 7, verified: false, metadata: {}, approved_by: [], trust: 'none',
                        owner: { address: raw(multisig), is_scam: false, is_wallet: false },
                    }],
                },
                creation_date: T0 + 11,
                signed_by: [raw(bob)],
                multisig_address: raw(multisig),
            });
            assert.ok(!('changing_parameters' in response.body), 'absent without an update_multisig_params action');
        });

        it('an executed order changing the parameters: the last update, empty proposers as []', async () => {
            const response = await order(raw(executed));
            assert.equal(response.status, 200, response.text);
            assert.equal(response.body.sent_for_execution, true);
            assert.deepEqual(response.body.signed_by, [alice, bob, carol].map(raw));
            assert.equal(response.body.signed_by.length, response.body.approvals_num);
            assert.deepEqual(response.body.changing_parameters, { threshold: 2, signers: [alice, dave].map(raw), proposers: [] });
            assert.deepEqual(response.body.risk, { transfer_all_remaining_balance: false, native: 0, gram: 0, jettons: [], nfts: [] });
            assert.equal(response.body.creation_date, T0 + 12);
        });

        it('a send-all message is flagged', async () => {
            const response = await order(raw(sendAll));
            assert.equal(response.status, 200, response.text);
            assert.equal(response.body.risk.transfer_all_remaining_balance, true);
            assert.equal(response.body.risk.native, 1);
            assert.deepEqual(response.body.signed_by, [alice, carol].map(raw));
        });

        it('order_seqno is exact decimal text, dates exact integers; without an indexed init the creation date is the oldest indexed activity', async () => {
            const response = await order(raw(huge));
            assert.equal(response.status, 200, response.text);
            assert.equal(response.body.order_seqno, MAX_SEQNO.toString());
            assert.match(response.text, new RegExp(`"expiration_date":${MAX_EXPIRATION}[,}]`));
            assert.equal(response.body.creation_date, 1_700_000_001, 'the time of the block that holds its state');
        });

        it('takes the address in any form', async () => {
            const address = Address.parseRaw(raw(pending));
            for (const id of [address.toString(), address.toString({ bounceable: false }), address.toString({ urlSafe: false })]) {
                const response = await order(id);
                assert.equal(response.status, 200, `${id}: ${response.text}`);
                assert.equal(response.body.address, raw(pending));
            }
        });

        it('404 for an account that is not an indexed order', async () => {
            assertError(await order(raw(testAddress(0x99))), 404, raw(testAddress(0x99)));
            assertError(await order(raw(multisig)), 404, 'no multisig order');
            assertError(await order(raw(ownJettonWallet)), 404, 'no multisig order');
        });

        it('400 for a malformed address, naming it', async () => {
            assertError(await order('nope'), 400, "path parameter 'account_id'", "'nope'");
            assertError(await order(`0:${'g'.repeat(64)}`), 400, "path parameter 'account_id'");
            const friendly = Address.parseRaw(raw(pending)).toString();
            const broken = `${friendly.slice(0, 47)}${friendly[47] === 'A' ? 'B' : 'A'}`;
            assertError(await order(broken), 400, broken, 'checksum');
        });
    });
}

describe('the document', () => {
    it('describes the operation as implemented: 200, 400, 404, no 501', () => {
        const { operation } = findOperation('getMultisigOrder');
        assert.deepEqual(Object.keys(operation.responses).sort(), ['200', '400', '404', '405', 'default']);
        assert.doesNotMatch(operation.description, /not implemented/i);
        assert.match(operation.description, /signed_by/);
    });
});
