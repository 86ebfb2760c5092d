import test from 'node:test';
import assert from 'node:assert/strict';
import { Address, Cell, SendMode, beginCell, internal, storeMessageRelaxed, toNano } from '@ton/core';
import { keyPairFromSeed, sign, signVerify } from '@ton/crypto';
import { WalletContractV3R2, WalletContractV4, WalletContractV5R1 } from '@ton/ton';
import {
    WALLET_HIGHLOAD_V3,
    WALLET_V3R1,
    WALLET_V3R2,
    WALLET_V4R2,
    WALLET_V5R1,
    decodeBody,
    loadWalletV3Body,
    loadWalletV4Body,
    loadWalletV5Body,
    parseBody,
    tryLoad,
} from '../../../src/ton/bodies/index.ts';
import { ALICE, BOB, JETTON_WALLET, comment, jettonTransfer, truncateBits } from './builders.ts';

const keys = keyPairFromSeed(Buffer.from('5a'.repeat(32), 'hex'));
const otherKeys = keyPairFromSeed(Buffer.from('a5'.repeat(32), 'hex'));
const VALID_UNTIL = 1_900_000_000;

/** The signed part of a body: everything except the 512-bit signature at the front or the tail. */
function signedPart(body: Cell, where: 'front' | 'tail'): Cell {
    const s = body.beginParse();
    const b = beginCell();
    if (where === 'front') {
        s.skip(512);
        b.storeBits(s.loadBits(s.remainingBits));
    } else {
        b.storeBits(s.loadBits(s.remainingBits - 512));
    }
    while (s.remainingRefs > 0) b.storeRef(s.loadRef());
    return b.endCell();
}

function jettonTransferMsg() {
    return internal({
        to: JETTON_WALLET,
        value: toNano('0.05'),
        bounce: true,
        body: jettonTransfer({
            queryId: 7n,
            amount: 2_500_000n,
            destination: BOB,
            response: ALICE,
            forwardTon: 1n,
            forward: { ref: comment('invoice #12') },
        }),
    });
}

type Msg = { sum_type: string; message_internal: Record<string, unknown> & { body: { is_right: boolean; value: Record<string, unknown> } } };

test('wallet v3r2 transfer (two messages) decodes only with the v3 hint', () => {
    const wallet = WalletContractV3R2.create({ workchain: 0, publicKey: keys.publicKey });
    const body = wallet.createTransfer({
        seqno: 17,
        secretKey: keys.secretKey,
        timeout: VALID_UNTIL,
        sendMode: SendMode.PAY_GAS_SEPARATELY | SendMode.IGNORE_ERRORS,
        messages: [internal({ to: BOB, value: toNano('1.5'), bounce: false, body: 'thanks' }), jettonTransferMsg()],
    });

    // no op prefix: nothing without a hint, nothing for a non-external hint
    assert.equal(decodeBody(body), null);
    assert.equal(decodeBody(body, { external: false, destinationInterfaces: [WALLET_V3R2] }), null);

    for (const iface of [WALLET_V3R1, WALLET_V3R2]) {
        const d = decodeBody(body, { external: true, destinationInterfaces: [iface] });
        assert.equal(d?.name, 'wallet_signed_v3', iface);
    }
    const d = decodeBody(body, { external: true, destinationInterfaces: [WALLET_V3R2] })!;
    assert.equal(d.opCode, body.beginParse().preloadUint(32));
    const v = d.value as { signature: string; subwallet_id: number; valid_until: number; seqno: number; payload: { mode: number; message: Msg }[] };
    assert.equal(v.subwallet_id, 698983191);
    assert.equal(v.valid_until, VALID_UNTIL);
    assert.equal(v.seqno, 17);
    assert.equal(v.payload.length, 2);
    assert.equal(v.payload[0].mode, 3);
    const m0 = v.payload[0].message.message_internal;
    assert.equal(m0.dest, BOB.toRawString());
    assert.deepEqual(m0.value, { grams: '1500000000', other: {} });
    assert.equal(m0.bounce, false);
    assert.deepEqual(m0.body.value, { sum_type: 'TextComment', op_code: 0, value: { text: 'thanks' } });
    const m1 = v.payload[1].message.message_internal;
    assert.equal(m1.dest, JETTON_WALLET.toRawString());
    assert.equal(m1.body.value.sum_type, 'JettonTransfer');
    assert.equal((m1.body.value.value as Record<string, unknown>).amount, '2500000');

    // the signature we extract verifies against the signed part
    const typed = tryLoad(loadWalletV3Body, body)!;
    assert.equal(v.signature, typed.signature.toString('hex'));
    assert.ok(signVerify(signedPart(body, 'front').hash(), typed.signature, keys.publicKey));
    assert.ok(!signVerify(signedPart(body, 'front').hash(), typed.signature, otherKeys.publicKey));
    assert.equal(typed.messages[1].message.info.type, 'internal');
});

test('wallet v4 transfer decodes as wallet_signed_v4; v3 hint rejects the v4 layout', () => {
    const wallet = WalletContractV4.create({ workchain: 0, publicKey: keys.publicKey });
    const body = wallet.createTransfer({
        seqno: 3,
        secretKey: keys.secretKey,
        timeout: VALID_UNTIL,
        sendMode: SendMode.PAY_GAS_SEPARATELY,
        messages: [jettonTransferMsg(), internal({ to: ALICE, value: 12345n, bounce: true })],
    });
    const d = decodeBody(body, { external: true, destinationInterfaces: [WALLET_V4R2] });
    assert.equal(d?.name, 'wallet_signed_v4');
    const v = d?.value as { op: number; seqno: number; payload: { mode: number; message: Msg }[] };
    assert.equal(v.op, 0);
    assert.equal(v.seqno, 3);
    assert.deepEqual(v.payload.map((p) => p.message.message_internal.dest), [JETTON_WALLET.toRawString(), ALICE.toRawString()]);
    assert.deepEqual(v.payload.map((p) => (p.message.message_internal.value as { grams: string }).grams), ['50000000', '12345']);
    assert.deepEqual(v.payload[1].message.message_internal.body, { is_right: false, value: {} });

    // the extra op byte makes it an invalid v3 body
    assert.equal(decodeBody(body, { external: true, destinationInterfaces: [WALLET_V3R2] }), null);

    const typed = tryLoad(loadWalletV4Body, body)!;
    assert.ok(signVerify(signedPart(body, 'front').hash(), typed.signature, keys.publicKey));
    const first = typed.messages[0].message;
    assert.ok(first.info.type === 'internal' && first.info.dest.equals(JETTON_WALLET));
    const inner = parseBody(first.body);
    assert.equal(inner?.name, 'jetton_transfer');
    if (inner?.name === 'jetton_transfer') assert.equal(inner.value.amount, 2_500_000n);
});

test('wallet v4 plugin ops (install / remove / deploy+install)', () => {
    const wallet = WalletContractV4.create({ workchain: 0, publicKey: keys.publicKey });
    const plugin = Address.parseRaw('0:' + '7e'.repeat(32));
    const hint = { external: true, destinationInterfaces: [WALLET_V4R2] };

    const add = wallet.createAddPlugin({ seqno: 4, secretKey: keys.secretKey, timeout: VALID_UNTIL, address: plugin, forwardAmount: toNano('0.1'), queryId: 55n }) as Cell;
    assert.deepEqual((decodeBody(add, hint)?.value as Record<string, unknown>).plugin, {
        type: 'install_plugin',
        address: plugin.toRawString(),
        amount: '100000000',
        query_id: '55',
    });
    assert.equal((decodeBody(add, hint)?.value as Record<string, unknown>).op, 2);

    const remove = wallet.createRemovePlugin({ seqno: 5, secretKey: keys.secretKey, timeout: VALID_UNTIL, address: plugin, forwardAmount: 1n }) as Cell;
    const rv = decodeBody(remove, hint)?.value as Record<string, unknown>;
    assert.equal(rv.op, 3);
    assert.equal((rv.plugin as Record<string, unknown>).type, 'remove_plugin');

    const code = beginCell().storeUint(0xc0de, 16).endCell();
    const data = beginCell().storeUint(0xda7a, 16).endCell();
    const deploy = wallet.createAddAndDeployPlugin({
        seqno: 6,
        secretKey: keys.secretKey,
        timeout: VALID_UNTIL,
        workchain: -1,
        stateInit: { code, data },
        body: comment('hi plugin'),
        forwardAmount: toNano('2'),
    }) as Cell;
    const typed = tryLoad(loadWalletV4Body, deploy)!;
    assert.equal(typed.op, 1);
    assert.ok(typed.plugin?.type === 'deploy_and_install_plugin');
    if (typed.plugin?.type === 'deploy_and_install_plugin') {
        assert.equal(typed.plugin.workchain, -1);
        assert.equal(typed.plugin.balance, toNano('2'));
        assert.equal(typed.plugin.body.hash().toString('hex'), comment('hi plugin').hash().toString('hex'));
    }
});

test('wallet v5r1 signed external: actions in send order, signature at the tail', () => {
    const wallet = WalletContractV5R1.create({ workchain: 0, publicKey: keys.publicKey });
    const messages = [
        internal({ to: ALICE, value: 1n, bounce: false, body: 'first' }),
        jettonTransferMsg(),
        internal({ to: BOB, value: 3n, bounce: false, body: 'third' }),
    ];
    const body = wallet.createTransfer({ seqno: 9, secretKey: keys.secretKey, timeout: VALID_UNTIL, sendMode: SendMode.PAY_GAS_SEPARATELY, messages });
    assert.equal(body.beginParse().preloadUint(32), 0x7369676e);

    for (const hint of [undefined, { external: true }, { external: true, destinationInterfaces: [WALLET_V5R1] }]) {
        const d = decodeBody(body, hint);
        assert.equal(d?.name, 'wallet_signed_external_v5_r1', JSON.stringify(hint));
        assert.equal(d?.opCode, 0x7369676e);
    }
    assert.equal(decodeBody(body, { external: false }), null, 'not an internal-message body');

    const v = decodeBody(body, { external: true })!.value as {
        wallet_id: number;
        valid_until: number;
        seqno: number;
        actions: { mode: number; msg: Msg }[];
        extended: unknown;
        signature: string;
    };
    assert.equal(v.wallet_id, 2147483409);
    assert.equal(v.valid_until, VALID_UNTIL);
    assert.equal(v.seqno, 9);
    assert.equal(v.extended, null);
    // external requests get IGNORE_ERRORS added by @ton/ton: 1 | 2
    assert.deepEqual(v.actions.map((a) => a.mode), [3, 3, 3]);
    assert.deepEqual(v.actions.map((a) => a.msg.message_internal.dest), [ALICE.toRawString(), JETTON_WALLET.toRawString(), BOB.toRawString()]);
    assert.deepEqual(v.actions[0].msg.message_internal.body.value, { sum_type: 'TextComment', op_code: 0, value: { text: 'first' } });
    assert.equal(v.actions[1].msg.message_internal.body.value.sum_type, 'JettonTransfer');

    const typed = tryLoad(loadWalletV5Body, body)!;
    assert.equal(typed.kind, 'signed_external');
    assert.equal(v.signature, typed.signature!.toString('hex'));
    assert.ok(signVerify(signedPart(body, 'tail').hash(), typed.signature!, keys.publicKey));
});

test('wallet v5r1 signed internal and extension action', () => {
    const wallet = WalletContractV5R1.create({ workchain: 0, publicKey: keys.publicKey });
    const messages = [internal({ to: BOB, value: toNano('0.25'), bounce: true })];
    const signedInternal = wallet.createTransfer({ seqno: 1, secretKey: keys.secretKey, timeout: VALID_UNTIL, sendMode: SendMode.PAY_GAS_SEPARATELY, authType: 'internal', messages });
    const d = decodeBody(signedInternal);
    assert.equal(d?.name, 'wallet_signed_internal_v5_r1');
    const iv = d?.value as { seqno: number; actions: { mode: number; msg: Msg }[] };
    assert.equal(iv.seqno, 1);
    assert.deepEqual(iv.actions.map((a) => a.mode), [1], 'internal requests keep their send mode');
    assert.equal(iv.actions[0].msg.message_internal.dest, BOB.toRawString());

    const ext = wallet.createTransfer({ seqno: 1, authType: 'extension', queryId: 900n, sendMode: SendMode.PAY_GAS_SEPARATELY, messages });
    const e = decodeBody(ext);
    assert.equal(e?.name, 'wallet_extension_action_v5_r1');
    const ev = e?.value as { query_id: string; actions: { msg: Msg }[]; extended: unknown };
    assert.equal(ev.query_id, '900');
    assert.equal(ev.actions[0].msg.message_internal.dest, BOB.toRawString());
    assert.equal(ev.extended, null);
});

test('wallet v5r1 extended actions (add / remove extension, signature allowed)', () => {
    const wallet = WalletContractV5R1.create({ workchain: 0, publicKey: keys.publicKey });
    const ext1 = Address.parseRaw('0:' + '01'.repeat(32));
    const ext2 = Address.parseRaw('-1:' + '02'.repeat(32));
    const body = wallet.createRequest({
        seqno: 2,
        secretKey: keys.secretKey,
        timeout: VALID_UNTIL,
        actions: [
            { type: 'sendMsg', mode: SendMode.PAY_GAS_SEPARATELY, outMsg: internal({ to: ALICE, value: 5n }) },
            { type: 'addExtension', address: ext1 },
            { type: 'removeExtension', address: ext2 },
            { type: 'setIsPublicKeyEnabled', isEnabled: false },
        ],
    });
    const v = decodeBody(body)?.value as { actions: { msg: Msg }[]; extended: unknown[] };
    assert.equal(v.actions.length, 1);
    assert.deepEqual(v.extended, [
        { sum_type: 'AddExtension', addr: ext1.toRawString() },
        { sum_type: 'RemoveExtension', addr: ext2.toRawString() },
        { sum_type: 'SetSignatureAllowed', allowed: false },
    ]);
    const typed = tryLoad(loadWalletV5Body, body)!;
    assert.deepEqual(typed.extended?.map((a) => a.type), ['add_extension', 'remove_extension', 'set_signature_allowed']);
    assert.ok(signVerify(signedPart(body, 'tail').hash(), typed.signature!, keys.publicKey));

    const addOnly = wallet.createAddExtension({ seqno: 3, secretKey: keys.secretKey, timeout: VALID_UNTIL, extensionAddress: ext1 });
    const a = decodeBody(addOnly)?.value as { actions: unknown; extended: unknown[] };
    assert.equal(a.actions, null);
    assert.deepEqual(a.extended, [{ sum_type: 'AddExtension', addr: ext1.toRawString() }]);
});

test('highload wallet v3 external (hand-built per its TL-B) with the hint', () => {
    const msg = jettonTransferMsg();
    const msgCell = beginCell().store(storeMessageRelaxed(msg)).endCell();
    const inner = beginCell()
        .storeUint(0x10ad, 32) // subwallet_id
        .storeRef(msgCell)
        .storeUint(3, 8) // send_mode
        .storeUint(5, 13) // query_id.shift
        .storeUint(1001, 10) // query_id.bit_number
        .storeUint(1_700_000_000, 64) // created_at
        .storeUint(3600, 22) // timeout
        .endCell();
    const signature = sign(inner.hash(), keys.secretKey);
    const body = beginCell().storeBuffer(signature).storeRef(inner).endCell();

    assert.equal(decodeBody(body, { external: true, destinationInterfaces: [WALLET_V4R2] }), null);
    const d = decodeBody(body, { external: true, destinationInterfaces: [WALLET_HIGHLOAD_V3] });
    assert.equal(d?.name, 'highload_wallet_signed_v3');
    const v = d?.value as { signature: string; msg: Record<string, unknown> & { message_to_send: Msg } };
    assert.equal(v.signature, signature.toString('hex'));
    assert.equal(v.msg.subwallet_id, 0x10ad);
    assert.equal(v.msg.send_mode, 3);
    assert.deepEqual(v.msg.query_id, { shift: 5, bit_number: 1001 });
    assert.equal(v.msg.created_at, '1700000000');
    assert.equal(v.msg.timeout, 3600);
    assert.equal(v.msg.message_to_send.message_internal.dest, JETTON_WALLET.toRawString());
    assert.equal(v.msg.message_to_send.message_internal.body.value.sum_type, 'JettonTransfer');
});

test('truncated or corrupted wallet bodies give null', () => {
    const v4 = WalletContractV4.create({ workchain: 0, publicKey: keys.publicKey });
    const body = v4.createTransfer({ seqno: 1, secretKey: keys.secretKey, timeout: VALID_UNTIL, messages: [jettonTransferMsg()] });
    const hint = { external: true, destinationInterfaces: [WALLET_V4R2] };
    assert.equal(decodeBody(truncateBits(body, 600), hint), null);
    assert.equal(decodeBody(beginCell().storeBits(body.bits).endCell(), hint), null, 'mode byte without its message ref');
    // a message ref that is not a MessageRelaxed
    const junkRef = beginCell().storeBits(body.bits).storeRef(beginCell().storeUint(0b11, 2).endCell()).endCell();
    assert.equal(decodeBody(junkRef, hint), null);

    const v5 = WalletContractV5R1.create({ workchain: 0, publicKey: keys.publicKey });
    const b5 = v5.createTransfer({ seqno: 1, secretKey: keys.secretKey, timeout: VALID_UNTIL, sendMode: SendMode.PAY_GAS_SEPARATELY, messages: [jettonTransferMsg()] });
    assert.equal(decodeBody(truncateBits(b5, 100)), null);
    assert.equal(decodeBody(truncateBits(b5, b5.bits.length - 1)), null);
    assert.equal(decodeBody(beginCell().storeBits(b5.bits).endCell()), null, 'out_actions flag without its ref');
});
