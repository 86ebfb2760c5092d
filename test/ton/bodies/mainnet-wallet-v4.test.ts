// Real signed external messages of a mainnet wallet v4 (../shared/fixtures/mainnet/risk).
import test from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { Cell, loadMessage } from '@ton/core';
import { WALLET_V4R2, decodeBody, formatOpCode, parseBody, readOpCode } from '../../../src/ton/bodies/index.ts';
import { MAINNET_AVAILABLE, mainnetFile, mainnetSkip } from '../../helpers/fixtures.ts';

interface Case {
    name: string;
    boc_base64: string;
    expected: { gram: string; transfer_all_remaining_balance: boolean; jettons: Record<string, string>; nfts: string[] };
}

const fixture = (MAINNET_AVAILABLE ? JSON.parse(readFileSync(mainnetFile('risk/wallet-v4-messages.json'), 'utf8')) : { cases: [] }) as { cases: Case[] };

const WALLET = '0:6ccd325a858c379693fae2bcaab1c2906831a4e10a6c3bb44ee8b615bca1d220';
const hint = { external: true, destinationInterfaces: [WALLET_V4R2] };

function extIn(c: Case) {
    const msg = loadMessage(Cell.fromBase64(c.boc_base64).beginParse());
    if (msg.info.type !== 'external-in') throw new Error(`${c.name}: not an external-in message`);
    return { body: msg.body, dest: msg.info.dest };
}

/** What the risk fixture computes, derived from the typed decode. */
function riskOf(body: Cell) {
    const parsed = parseBody(body, hint);
    assert.equal(parsed?.name, 'wallet_signed_v4');
    if (parsed?.name !== 'wallet_signed_v4') throw new Error('unreachable');
    let gram = 0n;
    let all = false;
    const jettons: Record<string, string> = {};
    const nfts: string[] = [];
    for (const m of parsed.value.messages) {
        const info = m.message.info;
        assert.equal(info.type, 'internal');
        if (info.type !== 'internal') continue;
        gram += info.value.coins;
        if (m.mode & 128) all = true;
        const inner = parseBody(m.message.body, { external: false });
        const dest = info.dest.toRawString();
        if (inner?.name === 'jetton_transfer' || inner?.name === 'jetton_burn') {
            jettons[dest] = (BigInt(jettons[dest] ?? '0') + inner.value.amount).toString();
        } else if (inner?.name === 'nft_transfer') {
            nfts.push(dest);
        }
    }
    return { gram: gram.toString(), transfer_all_remaining_balance: all, jettons, nfts };
}

test('the fixture has the four cases', { skip: mainnetSkip }, () => {
    assert.deepEqual(
        fixture.cases.map((c) => c.name),
        ['transfer native coin', 'transfer jettons', 'transfer nft', 'jetton burn'],
    );
});

for (const c of fixture.cases) {
    test(`mainnet wallet v4: ${c.name} matches the fixture's expected risk`, { skip: mainnetSkip }, () => {
        const msg = extIn(c);
        assert.equal(msg.dest.toRawString(), WALLET);
        assert.deepEqual(riskOf(msg.body), c.expected);

        // without the interface hint the op-less body is not guessed at
        assert.equal(decodeBody(msg.body, { external: true }), null);
        assert.equal(decodeBody(msg.body, { external: true, destinationInterfaces: ['wallet_v3r2'] }), null);

        const d = decodeBody(msg.body, hint);
        assert.equal(d?.name, 'wallet_signed_v4');
        assert.equal(d?.opCode, readOpCode(msg.body));
        assert.match(formatOpCode(d!.opCode!), /^0x[0-9a-f]{8}$/);
        assert.doesNotThrow(() => JSON.stringify(d));
        const v = d?.value as { subwallet_id: number; op: number; signature: string; payload: unknown[] };
        assert.equal(v.subwallet_id, 698983191);
        assert.equal(v.op, 0);
        assert.equal(v.signature.length, 128);
        assert.equal(v.payload.length, 1);
    });
}

type Inner = { mode: number; message: { message_internal: { dest: string; value: { grams: string }; body: { is_right: boolean; value: { sum_type: string; op_code?: number; value: Record<string, unknown> } } } } };

function innerOf(name: string): { seqno: number; valid_until: number; inner: Inner } {
    const c = fixture.cases.find((x) => x.name === name)!;
    const v = decodeBody(extIn(c).body, hint)!.value as { seqno: number; valid_until: number; payload: Inner[] };
    return { seqno: v.seqno, valid_until: v.valid_until, inner: v.payload[0] };
}

test('mainnet: native transfer — 3 TON, mode 3, empty body', { skip: mainnetSkip }, () => {
    const { seqno, valid_until, inner } = innerOf('transfer native coin');
    assert.equal(seqno, 30);
    assert.equal(valid_until, 1683798794);
    assert.equal(inner.mode, 3);
    assert.equal(inner.message.message_internal.dest, '0:533f30de5722157b8471f5503b9fc5800c8d8397e79743f796b11e609adae69f');
    assert.equal(inner.message.message_internal.value.grams, '3000000000');
    assert.deepEqual(inner.message.message_internal.body, { is_right: false, value: {} });
});

test('mainnet: jetton transfer — 1794099 units to the recipient, empty comment forward payload', { skip: mainnetSkip }, () => {
    const { seqno, inner } = innerOf('transfer jettons');
    assert.equal(seqno, 36);
    const m = inner.message.message_internal;
    assert.equal(m.dest, '0:96ac9b952d050f79c07a2e5e0b94872a5bc189f8633882ac33ea82f5f9670a38');
    assert.equal(m.value.grams, '640000000');
    assert.equal(m.body.is_right, true);
    assert.equal(m.body.value.sum_type, 'JettonTransfer');
    assert.equal(m.body.value.op_code, 0x0f8a7ea5);
    assert.deepEqual(m.body.value.value, {
        query_id: '0',
        amount: '1794099',
        destination: '0:533f30de5722157b8471f5503b9fc5800c8d8397e79743f796b11e609adae69f',
        response_destination: WALLET,
        custom_payload: null,
        forward_ton_amount: '1',
        forward_payload: { is_right: false, value: { sum_type: 'TextComment', op_code: 0, value: { text: '' } } },
    });
});

test('mainnet: NFT transfer — item gets the new owner, wallet gets the excess', { skip: mainnetSkip }, () => {
    const { inner } = innerOf('transfer nft');
    const m = inner.message.message_internal;
    assert.equal(m.dest, '0:c3c4273815dd438aeecb41031bedb8415b7697830a65fcc6743d2e7e06dc0292');
    assert.equal(m.value.grams, '48572001');
    assert.equal(m.body.value.sum_type, 'NftTransfer');
    assert.deepEqual(m.body.value.value, {
        query_id: '0',
        new_owner: '0:533f30de5722157b8471f5503b9fc5800c8d8397e79743f796b11e609adae69f',
        response_destination: WALLET,
        custom_payload: null,
        forward_amount: '10000000',
        forward_payload: { is_right: false, value: {} },
    });
});

test('mainnet: jetton burn — 1625650 units burned via the wallet', { skip: mainnetSkip }, () => {
    const { seqno, inner } = innerOf('jetton burn');
    assert.equal(seqno, 58);
    const m = inner.message.message_internal;
    assert.equal(m.dest, '0:120ecd442f6521f9951e37f15180e3f0baa4d0776a69a669b25f4c58acfe0653');
    assert.equal(m.value.grams, '1000000000');
    assert.equal(m.body.is_right, false);
    assert.equal(m.body.value.sum_type, 'JettonBurn');
    const b = m.body.value.value;
    assert.equal(b.amount, '1625650');
    assert.equal(b.query_id, BigInt('0x7698a36403d7d58f').toString());
    assert.equal(b.response_destination, null);
    // this burn carries a custom payload cell (op 0xf5c0025c), kept as a raw cell
    assert.equal((b.custom_payload as { sum_type: string; op_code: number }).sum_type, 'Cell');
    assert.equal((b.custom_payload as { op_code: number }).op_code, 0xf5c0025c);
});
