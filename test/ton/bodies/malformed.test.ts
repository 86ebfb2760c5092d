import test from 'node:test';
import assert from 'node:assert/strict';
import { Address, Builder, Cell, beginCell } from '@ton/core';
import {
    KNOWN_OPS,
    WALLET_HIGHLOAD_V3,
    WALLET_V3R2,
    WALLET_V4R2,
    WALLET_V5R1,
    decodeBody,
    parseBody,
    readOpCode,
    type BodyHint,
} from '../../../src/ton/bodies/index.ts';
import { ALICE, BOB, COLLECTION, truncateBits } from './builders.ts';
import { seededRandom } from '../../helpers/seeded-random.ts';

const AMOUNT = 10n ** 20n;

/** A valid body and the bits its mandatory fields take (anything shorter must not decode). */
interface Sample {
    name: string;
    mandatory: Builder; // op + every field that may not be left out
    rest?: (b: Builder) => Builder; // optional tail: forward payload etc.
}

const samples: Sample[] = [
    {
        name: 'jetton_transfer',
        mandatory: beginCell().storeUint(0x0f8a7ea5, 32).storeUint(1, 64).storeCoins(AMOUNT).storeAddress(BOB).storeAddress(ALICE).storeBit(0).storeCoins(5n),
        rest: (b) => b.storeBit(0).storeUint(0, 32).storeStringTail('x'),
    },
    {
        name: 'jetton_internal_transfer',
        mandatory: beginCell().storeUint(0x178d4519, 32).storeUint(1, 64).storeCoins(AMOUNT).storeAddress(BOB).storeAddress(ALICE).storeCoins(5n),
        rest: (b) => b.storeBit(0),
    },
    {
        name: 'jetton_notify',
        mandatory: beginCell().storeUint(0x7362d09c, 32).storeUint(1, 64).storeCoins(AMOUNT).storeAddress(BOB),
        rest: (b) => b.storeBit(0),
    },
    { name: 'excess', mandatory: beginCell().storeUint(0xd53276db, 32).storeUint(1, 64) },
    { name: 'jetton_burn', mandatory: beginCell().storeUint(0x595f07bc, 32).storeUint(1, 64).storeCoins(AMOUNT).storeAddress(ALICE), rest: (b) => b.storeBit(0) },
    {
        name: 'jetton_burn_notification',
        mandatory: beginCell().storeUint(0x7bdd97de, 32).storeUint(1, 64).storeCoins(AMOUNT).storeAddress(BOB).storeAddress(ALICE),
    },
    { name: 'provide_wallet_address', mandatory: beginCell().storeUint(0x2c76b973, 32).storeUint(1, 64).storeAddress(ALICE).storeBit(1) },
    { name: 'take_wallet_address', mandatory: beginCell().storeUint(0xd1735400, 32).storeUint(1, 64).storeAddress(ALICE).storeBit(0) },
    {
        name: 'nft_transfer',
        mandatory: beginCell().storeUint(0x5fcc3d14, 32).storeUint(1, 64).storeAddress(BOB).storeAddress(ALICE).storeBit(0).storeCoins(1n),
        rest: (b) => b.storeBit(0),
    },
    { name: 'nft_ownership_assigned', mandatory: beginCell().storeUint(0x05138d91, 32).storeUint(1, 64).storeAddress(BOB), rest: (b) => b.storeBit(0) },
    { name: 'get_static_data', mandatory: beginCell().storeUint(0x2fcb26a2, 32).storeUint(1, 64) },
    { name: 'report_static_data', mandatory: beginCell().storeUint(0x8b771735, 32).storeUint(1, 64).storeUint(7, 256).storeAddress(COLLECTION) },
    { name: 'report_royalty_params', mandatory: beginCell().storeUint(0xa8cb00ad, 32).storeUint(1, 64).storeUint(1, 16).storeUint(2, 16).storeAddress(ALICE) },
    { name: 'encrypted_text_comment', mandatory: beginCell().storeUint(0x2167da4b, 32).storeUint(0xabcdef, 24) },
];

test('every sample decodes whole, and every cut inside its mandatory fields gives null', () => {
    for (const s of samples) {
        const mandatoryBits = s.mandatory.bits;
        const full = (s.rest ? s.rest(beginCell().storeBuilder(s.mandatory)) : s.mandatory).endCell();
        assert.equal(decodeBody(full)?.name, s.name, `${s.name} whole`);
        assert.equal(decodeBody(s.mandatory.endCell())?.name, s.name, `${s.name} without optional tail`);
        for (let cut = 32; cut < mandatoryBits; cut++) {
            const t = truncateBits(full, cut);
            // byte-aligned cuts of an encrypted comment are still (shorter) encrypted comments
            if (s.name === 'encrypted_text_comment' && cut % 8 === 0) continue;
            assert.equal(decodeBody(t), null, `${s.name} cut at ${cut}/${mandatoryBits}`);
        }
    }
});

test('a body shorter than 32 bits has no op and no decode', () => {
    for (let n = 0; n < 32; n++) {
        const c = beginCell().storeUint(0, n).endCell();
        assert.equal(readOpCode(c), undefined);
        assert.equal(decodeBody(c), null);
    }
});

test('refs required by a known op but missing give null', () => {
    const master = beginCell().storeUint(0x178d4519, 32).storeUint(0, 64).storeCoins(1n).storeAddress(null).storeAddress(null).storeCoins(0n).endCell();
    const mint = beginCell().storeUint(0x642b7d07, 32).storeUint(1, 64).storeAddress(BOB).storeCoins(1n).storeRef(master).endCell();
    assert.equal(decodeBody(mint)?.name, 'jetton_mint');
    assert.equal(decodeBody(beginCell().storeBits(mint.bits).endCell()), null);

    const take = beginCell().storeUint(0xd1735400, 32).storeUint(1, 64).storeAddress(ALICE).storeBit(1).endCell();
    assert.equal(decodeBody(take), null);
    const takeJunkRef = beginCell().storeUint(0xd1735400, 32).storeUint(1, 64).storeAddress(ALICE).storeMaybeRef(beginCell().storeUint(3, 2).endCell()).endCell();
    assert.equal(decodeBody(takeJunkRef), null);
});

test('an external address where an internal one is required gives null', () => {
    const ext = beginCell().storeUint(0x0f8a7ea5, 32).storeUint(1, 64).storeCoins(1n).storeUint(1, 2).storeUint(8, 9).storeUint(0xff, 8);
    const body = ext.storeAddress(ALICE).storeBit(0).storeCoins(0n).storeBit(0).endCell();
    assert.equal(decodeBody(body), null);
});

test('exotic cells are not decoded and do not throw', () => {
    const lib = new Cell({ exotic: true, bits: beginCell().storeUint(2, 8).storeBuffer(Buffer.alloc(32, 7)).endCell().bits });
    assert.equal(lib.isExotic, true);
    assert.equal(readOpCode(lib), undefined);
    assert.equal(decodeBody(lib), null);
    assert.equal(decodeBody(lib, { external: true, destinationInterfaces: [WALLET_V4R2] }), null);
});

// ---- junk: random cells that start with known ops must never make the decoder throw

function randomCell(rand: () => number, depth: number, op?: number): Cell {
    const b = beginCell();
    if (op !== undefined) b.storeUint(op, 32);
    const bits = Math.floor(rand() * (b.availableBits + 1));
    for (let i = 0; i < bits; i++) b.storeBit(rand() < 0.5);
    const refs = depth > 0 ? Math.floor(rand() * 5) : 0;
    for (let i = 0; i < refs; i++) b.storeRef(randomCell(rand, depth - 1, rand() < 0.3 ? pickOp(rand) : undefined));
    return b.endCell();
}

const OPS = [...new Set(KNOWN_OPS.map((k) => k.op))];
function pickOp(rand: () => number): number {
    return OPS[Math.floor(rand() * OPS.length)];
}

const HINTS: (BodyHint | undefined)[] = [
    undefined,
    { external: false },
    { external: true },
    { external: true, destinationInterfaces: [WALLET_V3R2, WALLET_V4R2, WALLET_V5R1, WALLET_HIGHLOAD_V3] },
];

test('random junk behind known ops never throws, and decoded results are JSON-safe', () => {
    const rand = seededRandom(0x5eed).next;
    let decoded = 0;
    for (let i = 0; i < 2000; i++) {
        const op = rand() < 0.9 ? pickOp(rand) : undefined;
        const cell = randomCell(rand, 3, op);
        for (const hint of HINTS) {
            let d: ReturnType<typeof decodeBody> = null;
            assert.doesNotThrow(() => {
                d = decodeBody(cell, hint);
                parseBody(cell, hint);
            });
            if (d) {
                decoded++;
                assert.doesNotThrow(() => JSON.stringify(d), 'JSON.stringify throws on bigint/cycles');
                const json = JSON.stringify(d);
                assert.ok(!/"\d+n"/.test(json));
            }
        }
    }
    // junk behind short-layout ops (excess, get_static_data, comments, bounce...) does decode sometimes
    assert.ok(decoded > 0);
});

test('KNOWN_OPS lists the documented ops', () => {
    const byName = new Map(KNOWN_OPS.map((k) => [`${k.name}:${k.op}`, k]));
    const expected: [string, number][] = [
        ['text_comment', 0x00000000],
        ['encrypted_text_comment', 0x2167da4b],
        ['jetton_transfer', 0x0f8a7ea5],
        ['jetton_internal_transfer', 0x178d4519],
        ['jetton_notify', 0x7362d09c],
        ['excess', 0xd53276db],
        ['jetton_burn', 0x595f07bc],
        ['jetton_burn_notification', 0x7bdd97de],
        ['provide_wallet_address', 0x2c76b973],
        ['take_wallet_address', 0xd1735400],
        ['jetton_mint', 0x642b7d07],
        ['jetton_mint', 0x00000015],
        ['nft_transfer', 0x5fcc3d14],
        ['nft_ownership_assigned', 0x05138d91],
        ['get_static_data', 0x2fcb26a2],
        ['report_static_data', 0x8b771735],
        ['bounce', 0xffffffff],
        ['wallet_signed_external_v5_r1', 0x7369676e],
        ['wallet_signed_internal_v5_r1', 0x73696e74],
        ['wallet_extension_action_v5_r1', 0x6578746e],
    ];
    for (const [name, op] of expected) assert.ok(byName.has(`${name}:${op}`), `${name} ${op.toString(16)}`);
    assert.equal(Address.isAddress(ALICE), true);
});
