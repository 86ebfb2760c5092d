import test from 'node:test';
import assert from 'node:assert/strict';
import { beginCell } from '@ton/core';
import { decodeBody, loadNftTransfer, loadReportStaticData, parseBody, tryLoad } from '../../../src/ton/bodies/index.ts';
import { ALICE, BOB, COLLECTION, MC_ADDRESS, comment, excess, jettonNotify, nftOwnershipAssigned, nftTransfer, truncateBits } from './builders.ts';

test('nft_transfer with a comment forward payload', () => {
    const body = nftTransfer({
        queryId: 1700000000123n,
        newOwner: BOB,
        response: ALICE,
        forwardAmount: 10_000_000n,
        forward: { inline: comment('your NFT') },
    });
    const d = decodeBody(body);
    assert.deepEqual(d, {
        name: 'nft_transfer',
        opCode: 0x5fcc3d14,
        value: {
            query_id: '1700000000123',
            new_owner: BOB.toRawString(),
            response_destination: ALICE.toRawString(),
            custom_payload: null,
            forward_amount: '10000000',
            forward_payload: { is_right: false, value: { sum_type: 'TextComment', op_code: 0, value: { text: 'your NFT' } } },
        },
    });
    const typed = tryLoad(loadNftTransfer, body);
    assert.ok(typed?.newOwner?.equals(BOB));
    assert.equal(typed?.forwardAmount, 10_000_000n);
});

test('nft_transfer to a masterchain owner, no forward payload', () => {
    const body = nftTransfer({ queryId: 0n, newOwner: MC_ADDRESS, response: null, forwardAmount: 0n, forward: null });
    const v = decodeBody(body)?.value as Record<string, unknown>;
    assert.equal(v.new_owner, '-1:' + 'd4'.repeat(32));
    assert.equal(v.response_destination, null);
    assert.deepEqual(v.forward_payload, { is_right: false, value: {} });
});

test('nft_ownership_assigned with a ref forward payload that is a jetton notify', () => {
    const inner = jettonNotify({ queryId: 1n, amount: 2n, sender: ALICE, forward: null });
    const body = nftOwnershipAssigned({ queryId: 5n, prevOwner: ALICE, forward: { ref: inner } });
    const d = decodeBody(body);
    assert.equal(d?.name, 'nft_ownership_assigned');
    const v = d?.value as { prev_owner: string; forward_payload: { is_right: boolean; value: Record<string, unknown> } };
    assert.equal(v.prev_owner, ALICE.toRawString());
    assert.equal(v.forward_payload.is_right, true);
    assert.equal(v.forward_payload.value.sum_type, 'JettonNotify');
    assert.deepEqual(v.forward_payload.value.value, {
        query_id: '1',
        amount: '2',
        sender: ALICE.toRawString(),
        forward_payload: { is_right: false, value: {} },
    });
});

test('get_static_data / report_static_data / royalty params / shared excess', () => {
    assert.deepEqual(decodeBody(beginCell().storeUint(0x2fcb26a2, 32).storeUint(99, 64).endCell()), {
        name: 'get_static_data',
        opCode: 0x2fcb26a2,
        value: { query_id: '99' },
    });
    const index = 2n ** 200n + 5n;
    const report = beginCell().storeUint(0x8b771735, 32).storeUint(99, 64).storeUint(index, 256).storeAddress(COLLECTION).endCell();
    assert.deepEqual(decodeBody(report)?.value, { query_id: '99', index: index.toString(), collection: COLLECTION.toRawString() });
    assert.equal(tryLoad(loadReportStaticData, report)?.index, index);

    const royalty = beginCell().storeUint(0xa8cb00ad, 32).storeUint(3, 64).storeUint(5, 16).storeUint(100, 16).storeAddress(ALICE).endCell();
    assert.deepEqual(decodeBody(royalty), {
        name: 'report_royalty_params',
        opCode: 0xa8cb00ad,
        value: { query_id: '3', numerator: 5, denominator: 100, destination: ALICE.toRawString() },
    });
    assert.equal(parseBody(excess(7n))?.name, 'excess');
});

test('truncated NFT bodies give null', () => {
    const transfer = nftTransfer({ queryId: 1n, newOwner: BOB, response: ALICE, forwardAmount: 1n, forward: null });
    for (const cut of [31, 50, 32 + 64 + 200, 32 + 64 + 267 + 100]) {
        assert.equal(decodeBody(truncateBits(transfer, cut)), null, `cut ${cut}`);
    }
    const assigned = nftOwnershipAssigned({ queryId: 1n, prevOwner: ALICE, forward: null });
    assert.equal(decodeBody(truncateBits(assigned, 32 + 64 + 10)), null);
    const report = beginCell().storeUint(0x8b771735, 32).storeUint(99, 64).storeUint(1, 256).storeAddress(COLLECTION).endCell();
    assert.equal(decodeBody(truncateBits(report, 32 + 64 + 255)), null);
    assert.equal(decodeBody(beginCell().storeUint(0x2fcb26a2, 32).storeUint(1, 63).endCell()), null);
});
