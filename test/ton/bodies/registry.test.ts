import test from 'node:test';
import assert from 'node:assert/strict';
import { BODY_NAMES, KNOWN_OPS, WALLET_V3R2, WALLET_V4R2, decodeBody, parseBody } from '../../../src/ton/bodies/index.ts';
import { ALICE, jettonTransfer } from './builders.ts';

// The registry only assembles what the families declare (src/ton/bodies/registry/*): the names,
// the ops and the order of the op-less wallet requests are what they were when it declared them itself.

test('BODY_NAMES: every body name, by its upper-case key', () => {
    const names = [
        'text_comment', 'encrypted_text_comment', 'jetton_transfer', 'jetton_internal_transfer', 'jetton_notify', 'excess', 'jetton_burn',
        'jetton_burn_notification', 'jetton_mint', 'provide_wallet_address', 'take_wallet_address', 'nft_transfer', 'nft_ownership_assigned',
        'get_static_data', 'report_static_data', 'get_royalty_params', 'report_royalty_params', 'bounce', 'wallet_signed_v3', 'wallet_signed_v4',
        'wallet_signed_external_v5_r1', 'wallet_signed_internal_v5_r1', 'wallet_extension_action_v5_r1', 'highload_wallet_signed_v3',
    ];
    assert.deepEqual({ ...BODY_NAMES }, Object.fromEntries(names.map((n) => [n.toUpperCase(), n])));
});

test('KNOWN_OPS: exactly the ops of the families, internal and external', () => {
    const ops = KNOWN_OPS.map((k) => `${k.external ? 'ext' : 'int'} 0x${k.op.toString(16).padStart(8, '0')} ${k.name}`).sort();
    assert.deepEqual(ops, [
        'ext 0x7369676e wallet_signed_external_v5_r1',
        'int 0x00000000 text_comment',
        'int 0x00000015 jetton_mint',
        'int 0x05138d91 nft_ownership_assigned',
        'int 0x0f8a7ea5 jetton_transfer',
        'int 0x178d4519 jetton_internal_transfer',
        'int 0x2167da4b encrypted_text_comment',
        'int 0x2c76b973 provide_wallet_address',
        'int 0x2fcb26a2 get_static_data',
        'int 0x595f07bc jetton_burn',
        'int 0x5fcc3d14 nft_transfer',
        'int 0x642b7d07 jetton_mint',
        'int 0x6578746e wallet_extension_action_v5_r1',
        'int 0x693d3950 get_royalty_params',
        'int 0x7362d09c jetton_notify',
        'int 0x73696e74 wallet_signed_internal_v5_r1',
        'int 0x7bdd97de jetton_burn_notification',
        'int 0x8b771735 report_static_data',
        'int 0xa8cb00ad report_royalty_params',
        'int 0xd1735400 take_wallet_address',
        'int 0xd53276db excess',
        'int 0xffffffff bounce',
    ]);
});

test('an internal body is not read as an external one, and the JSON is the family\'s', () => {
    const body = jettonTransfer({ queryId: 1n, amount: 5n, destination: ALICE, response: null, forwardTon: 0n, forward: null });
    assert.equal(parseBody(body, { external: true, destinationInterfaces: [WALLET_V3R2, WALLET_V4R2] }), null);
    assert.deepEqual(decodeBody(body, { external: false }), {
        name: 'jetton_transfer', opCode: 0x0f8a7ea5,
        value: {
            query_id: '1', amount: '5', destination: ALICE.toRawString(), response_destination: null, custom_payload: null, forward_ton_amount: '0',
            forward_payload: { is_right: false, value: {} },
        },
    });
});
