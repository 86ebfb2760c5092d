import test from 'node:test';
import assert from 'node:assert/strict';
import { Cell, beginCell } from '@ton/core';
import {
    decodeBody,
    loadJettonBurn,
    loadJettonInternalTransfer,
    loadJettonMint,
    loadJettonTransfer,
    parseBody,
    tryLoad,
} from '../../../src/ton/bodies/index.ts';
import {
    ALICE,
    BOB,
    JETTON_WALLET,
    MINTER,
    comment,
    excess,
    jettonBurn,
    jettonBurnNotification,
    jettonInternalTransfer,
    jettonNotify,
    jettonTransfer,
    truncateBits,
} from './builders.ts';

const BIG = 123_456_789_012_345_678_901n; // > 2^64, fits VarUInteger 16
const QID = 0xfedcba9876543210n; // > 2^53

test('jetton_transfer with a text comment in a ref', () => {
    const body = jettonTransfer({
        queryId: QID,
        amount: BIG,
        destination: BOB,
        response: ALICE,
        forwardTon: 50_000_000n,
        forward: { ref: comment('for coffee') },
    });
    const d = decodeBody(body);
    assert.equal(d?.name, 'jetton_transfer');
    assert.equal(d?.opCode, 0x0f8a7ea5);
    assert.deepEqual(d?.value, {
        query_id: QID.toString(),
        amount: BIG.toString(),
        destination: BOB.toRawString(),
        response_destination: ALICE.toRawString(),
        custom_payload: null,
        forward_ton_amount: '50000000',
        forward_payload: { is_right: true, value: { sum_type: 'TextComment', op_code: 0, value: { text: 'for coffee' } } },
    });

    const typed = tryLoad(loadJettonTransfer, body);
    assert.ok(typed);
    assert.equal(typed.amount, BIG);
    assert.ok(typed.destination?.equals(BOB));
    assert.equal(typed.forwardPayload.isRight, true);
    assert.equal(typed.forwardPayload.value?.hash().toString('hex'), comment('for coffee').hash().toString('hex'));
});

test('jetton_transfer with inline unknown forward payload, custom payload and addr_none response', () => {
    const unknown = beginCell().storeUint(0x12345678, 32).storeUint(7, 16).endCell();
    const custom = beginCell().storeUint(0xabcdef01, 32).endCell();
    const body = jettonTransfer({
        queryId: 1n,
        amount: 5n,
        destination: BOB,
        response: null,
        customPayload: custom,
        forwardTon: 0n,
        forward: { inline: unknown },
    });
    const v = decodeBody(body)?.value as Record<string, unknown>;
    assert.equal(v.response_destination, null);
    assert.deepEqual(v.custom_payload, { sum_type: 'Cell', op_code: 0xabcdef01, value: custom.toBoc().toString('hex') });
    assert.deepEqual(v.forward_payload, {
        is_right: false,
        value: { sum_type: 'Cell', op_code: 0x12345678, value: unknown.toBoc().toString('hex') },
    });
});

test('jetton_transfer without any forward payload bit is still decoded (as tongo does)', () => {
    const full = jettonTransfer({ queryId: 9n, amount: 10n, destination: BOB, response: ALICE, forwardTon: 0n, forward: null });
    const noBit = truncateBits(full, full.bits.length - 1);
    const d = decodeBody(noBit);
    assert.equal(d?.name, 'jetton_transfer');
    assert.deepEqual((d?.value as Record<string, unknown>).forward_payload, { is_right: false, value: {} });
});

test('jetton_internal_transfer carrying a notify-worthy forward payload', () => {
    const body = jettonInternalTransfer({
        queryId: 42n,
        amount: 1_000_000n,
        from: ALICE,
        response: ALICE,
        forwardTon: 1n,
        forward: { inline: comment('gm') },
    });
    const d = decodeBody(body);
    assert.equal(d?.name, 'jetton_internal_transfer');
    assert.deepEqual(d?.value, {
        query_id: '42',
        amount: '1000000',
        from: ALICE.toRawString(),
        response_address: ALICE.toRawString(),
        forward_ton_amount: '1',
        forward_payload: { is_right: false, value: { sum_type: 'TextComment', op_code: 0, value: { text: 'gm' } } },
    });
    const typed = parseBody(body);
    assert.equal(typed?.name, 'jetton_internal_transfer');
    if (typed?.name === 'jetton_internal_transfer') {
        assert.equal(typed.value.amount, 1_000_000n);
        assert.ok(typed.value.from?.equals(ALICE));
    }
});

test('jetton_notify whose forward payload is itself a known body', () => {
    const inner = jettonBurn({ queryId: 3n, amount: 77n, response: BOB });
    const body = jettonNotify({ queryId: 8n, amount: 900n, sender: ALICE, forward: { ref: inner } });
    const d = decodeBody(body);
    assert.equal(d?.name, 'jetton_notify');
    const v = d?.value as { sender: string; amount: string; forward_payload: { is_right: boolean; value: Record<string, unknown> } };
    assert.equal(v.sender, ALICE.toRawString());
    assert.equal(v.amount, '900');
    assert.equal(v.forward_payload.value.sum_type, 'JettonBurn');
    assert.equal(v.forward_payload.value.op_code, 0x595f07bc);
    assert.deepEqual(v.forward_payload.value.value, {
        query_id: '3',
        amount: '77',
        response_destination: BOB.toRawString(),
        custom_payload: null,
    });
});

test('excess, burn, burn_notification', () => {
    assert.deepEqual(decodeBody(excess(QID)), { name: 'excess', opCode: 0xd53276db, value: { query_id: QID.toString() } });

    const burn = jettonBurn({ queryId: 11n, amount: BIG, response: ALICE, customPayload: comment('why') });
    assert.deepEqual(decodeBody(burn)?.value, {
        query_id: '11',
        amount: BIG.toString(),
        response_destination: ALICE.toRawString(),
        custom_payload: { sum_type: 'TextComment', op_code: 0, value: { text: 'why' } },
    });
    assert.equal(tryLoad(loadJettonBurn, burn)?.amount, BIG);

    const note = jettonBurnNotification({ queryId: 11n, amount: BIG, sender: ALICE, response: null });
    assert.deepEqual(decodeBody(note), {
        name: 'jetton_burn_notification',
        opCode: 0x7bdd97de,
        value: { query_id: '11', amount: BIG.toString(), sender: ALICE.toRawString(), response_destination: null },
    });
});

test('TEP-89 provide_wallet_address / take_wallet_address', () => {
    const provide = beginCell().storeUint(0x2c76b973, 32).storeUint(5, 64).storeAddress(ALICE).storeBit(1).endCell();
    assert.deepEqual(decodeBody(provide), {
        name: 'provide_wallet_address',
        opCode: 0x2c76b973,
        value: { query_id: '5', owner_address: ALICE.toRawString(), include_address: true },
    });

    const take = beginCell()
        .storeUint(0xd1735400, 32)
        .storeUint(5, 64)
        .storeAddress(JETTON_WALLET)
        .storeMaybeRef(beginCell().storeAddress(ALICE).endCell())
        .endCell();
    assert.deepEqual(decodeBody(take)?.value, {
        query_id: '5',
        wallet_address: JETTON_WALLET.toRawString(),
        owner_address: ALICE.toRawString(),
    });
    const takeNoOwner = beginCell().storeUint(0xd1735400, 32).storeUint(5, 64).storeAddress(JETTON_WALLET).storeBit(0).endCell();
    assert.equal((decodeBody(takeNoOwner)?.value as Record<string, unknown>).owner_address, null);
});

test('jetton_mint: stablecoin 0x642b7d07 and reference-minter op 21, both with ^internal_transfer', () => {
    const master = jettonInternalTransfer({ queryId: 0n, amount: 10n ** 12n, from: MINTER, response: ALICE, forwardTon: 1n, forward: null });
    for (const op of [0x642b7d07, 0x15]) {
        const body = beginCell().storeUint(op, 32).storeUint(77, 64).storeAddress(BOB).storeCoins(20_000_000n).storeRef(master).endCell();
        const d = decodeBody(body);
        assert.equal(d?.name, 'jetton_mint', `op ${op}`);
        assert.equal(d?.opCode, op);
        assert.deepEqual(d?.value, {
            query_id: '77',
            to_address: BOB.toRawString(),
            ton_amount: '20000000',
            master_msg: {
                sum_type: 'JettonInternalTransfer',
                op_code: 0x178d4519,
                value: {
                    query_id: '0',
                    amount: (10n ** 12n).toString(),
                    from: MINTER.toRawString(),
                    response_address: ALICE.toRawString(),
                    forward_ton_amount: '1',
                    forward_payload: { is_right: false, value: {} },
                },
            },
        });
    }
    const typed = tryLoad(loadJettonMint, beginCell().storeUint(0x642b7d07, 32).storeUint(1, 64).storeAddress(BOB).storeCoins(1n).storeRef(master).endCell());
    assert.equal(typed?.internalTransfer?.amount, 10n ** 12n);
    assert.equal(tryLoad(loadJettonInternalTransfer, master)?.from?.equals(MINTER), true);

    // op 21 is generic: without an internal_transfer inside it is not called a mint
    const other21 = beginCell().storeUint(0x15, 32).storeUint(77, 64).storeAddress(BOB).storeCoins(1n).storeRef(comment('x')).endCell();
    assert.equal(decodeBody(other21), null);
    // the stablecoin op keeps the raw master_msg when it is something else
    const odd = beginCell().storeUint(0x642b7d07, 32).storeUint(77, 64).storeAddress(BOB).storeCoins(1n).storeRef(Cell.EMPTY).endCell();
    assert.deepEqual((decodeBody(odd)?.value as Record<string, unknown>).master_msg, {});
});

test('truncated jetton bodies give null', () => {
    const bodies = [
        jettonTransfer({ queryId: QID, amount: BIG, destination: BOB, response: ALICE, forwardTon: 1n, forward: null }),
        jettonInternalTransfer({ queryId: QID, amount: BIG, from: ALICE, response: ALICE, forwardTon: 1n, forward: null }),
        jettonNotify({ queryId: QID, amount: BIG, sender: ALICE, forward: null }),
        jettonBurnNotification({ queryId: QID, amount: BIG, sender: ALICE, response: BOB }),
        excess(QID),
    ];
    for (const body of bodies) {
        // cut inside query_id, inside the amount and inside the first address
        for (const cut of [40, 32 + 64 + 4, 32 + 64 + 4 + 72 + 100]) {
            const t = truncateBits(body, Math.min(cut, body.bits.length - 1));
            assert.equal(decodeBody(t), null, `op ${body.bits.substring(0, 32).toString()} cut at ${cut}`);
        }
    }
    // custom payload flag set but the ref missing
    const withCustom = jettonTransfer({ queryId: 1n, amount: 1n, destination: BOB, response: ALICE, customPayload: Cell.EMPTY, forwardTon: 0n, forward: null });
    assert.equal(decodeBody(beginCell().storeBits(withCustom.bits).endCell()), null);
});
