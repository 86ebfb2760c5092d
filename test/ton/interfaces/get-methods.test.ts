import test from 'node:test';
import assert from 'node:assert/strict';
import { Cell, Dictionary, beginCell } from '@ton/core';
import {
    WalletContractV1R1,
    WalletContractV3R2,
    WalletContractV4,
    WalletContractV5Beta,
    WalletContractV5R1,
} from '@ton/ton';
import {
    KNOWN_GET_METHODS,
    KNOWN_GET_METHOD_IDS,
    crc16Xmodem,
    knownGetMethodNames,
    methodId,
    readGetMethodNames,
    readMethodIds,
} from '../../../src/ton/interfaces/get-methods.ts';
import { libraryLookup, libraryTargetHash, resolveLibraryCode } from '../../../src/ton/libraries.ts';
import { hashmapKeys } from '../../../src/ton/interfaces/hashmap-keys.ts';
import { assemble, libraryCell } from './helpers.ts';

const KEY = Buffer.alloc(32, 7);

test('crc16-XMODEM check value and method ids of well-known get-methods', () => {
    assert.equal(crc16Xmodem(Buffer.from('123456789')), 0x31c3);
    assert.equal(methodId('seqno'), 85143);
    assert.equal(methodId('get_public_key'), 78748);
    assert.equal(methodId('get_wallet_data'), 97026);
    assert.equal(methodId('get_jetton_data'), 106029);
    assert.equal(methodId('get_nft_data'), 102351);
    assert.equal(methodId('get_collection_data'), 102491);
    assert.equal(methodId('get_wallet_address'), 103289);
    assert.equal(methodId('get_subwallet_id'), 81467);
    for (const name of KNOWN_GET_METHODS) {
        const id = methodId(name);
        assert.ok(id >= 0x10000 && id <= 0x1ffff, name);
        assert.ok(KNOWN_GET_METHOD_IDS.get(id)?.includes(name), name);
    }
    assert.equal(new Set(KNOWN_GET_METHODS).size, KNOWN_GET_METHODS.length, 'no duplicate names');
});

test('method dictionary of FunC wallets (v4r2, v5r1)', () => {
    const v4 = WalletContractV4.create({ workchain: 0, publicKey: KEY }).init.code;
    const ids = readMethodIds(v4);
    assert.ok(ids.has(0), 'recv_internal');
    assert.ok(ids.has(-1), 'recv_external is a signed key');
    assert.deepEqual(readGetMethodNames(v4), ['get_plugin_list', 'get_public_key', 'get_subwallet_id', 'is_plugin_installed', 'seqno']);

    const v5 = WalletContractV5R1.create({ workchain: 0, publicKey: KEY }).init.code;
    assert.deepEqual(readGetMethodNames(v5), ['get_extensions', 'get_public_key', 'get_subwallet_id', 'is_signature_allowed', 'seqno']);
});

test('hand-written assembly wallets have no method dictionary', () => {
    assert.equal(readMethodIds(WalletContractV1R1.create({ workchain: 0, publicKey: KEY }).init.code).size, 0);
    assert.equal(readMethodIds(WalletContractV3R2.create({ workchain: 0, publicKey: KEY }).init.code).size, 0);
});

test('assembled code with a method dictionary, incl. a negative and a large key', () => {
    const code = assemble({ 0: 'DROP', [-1]: 'DROP', [methodId('get_nft_data')]: 'PUSHINT_4 1', 200000: 'PUSHINT_4 2' });
    assert.deepEqual([...readMethodIds(code)].sort((a, b) => a - b), [-1, 0, methodId('get_nft_data'), 200000]);
    assert.deepEqual(readGetMethodNames(code), ['get_nft_data']);
});

test('library code cell: resolved through the lookup, empty without it', () => {
    const v4 = WalletContractV4.create({ workchain: 0, publicKey: KEY }).init.code;
    const lib = libraryCell(v4);
    assert.deepEqual(libraryTargetHash(lib), v4.hash());
    assert.equal(libraryTargetHash(v4), null);
    assert.equal(readMethodIds(lib).size, 0, 'library not available');
    assert.equal(resolveLibraryCode(lib), null);

    const libs = Dictionary.empty(Dictionary.Keys.Buffer(32), Dictionary.Values.Cell());
    libs.set(v4.hash(), v4);
    const fromDict = libraryLookup(libs);
    const fromCell = libraryLookup(beginCell().storeDictDirect(libs).endCell());
    assert.deepEqual(readGetMethodNames(lib, fromDict), readGetMethodNames(v4));
    assert.deepEqual(readGetMethodNames(lib, fromCell), readGetMethodNames(v4));

    // a lookup returning the wrong cell is not trusted
    assert.equal(readMethodIds(lib, () => Cell.EMPTY).size, 0);

    // @ton/ton ships wallet v5 beta as a library cell
    const v5beta = WalletContractV5Beta.create({ walletId: { networkGlobalId: -239 }, publicKey: KEY }).init.code;
    assert.equal(v5beta.hash().toString('hex'), 'f3d7ca53493deedac28b381986a849403cbac3d2c584779af081065af0ac4b93');
    assert.equal(libraryTargetHash(v5beta)?.toString('hex'), 'e4cf3b2f4c6d6a61ea0f2b5447d266785b26af3637db2deee6bcd1aa826f3412');
});

test('junk code gives an empty set, never throws', () => {
    const junk = [
        Cell.EMPTY,
        beginCell().storeUint(0xdeadbeef, 32).endCell(),
        beginCell().storeUint(0xff00, 16).endCell(),
        // prologue without the dictionary ref
        beginCell().storeUint(0xff00, 16).storeUint(0xf4a413, 24).endCell(),
        // prologue whose "dictionary" is junk
        beginCell().storeUint(0xff00, 16).storeUint(0xf4a413, 24).storeRef(beginCell().storeUint(0xffffffff, 32)).endCell(),
        // DICTPUSHCONST with a 1000-bit key
        beginCell().storeUint(0xff00, 16).storeUint(0b11110100101001, 14).storeUint(1000, 10).storeRef(Cell.EMPTY).endCell(),
        beginCell().storeUint(2, 8).storeBuffer(Buffer.alloc(32, 9)).endCell({ exotic: true }),
    ];
    for (const code of junk) assert.equal(readMethodIds(code).size, 0, code.toString());
});

test('a dictionary DAG that would explode stops at the node cap', () => {
    // 19 levels of forks whose two branches are the same cell: 2^19 leaves if walked naively
    let node = beginCell().storeUint(0, 2).endCell(); // leaf: hml_short with empty label (bits "0" "0")
    for (let level = 0; level < 19; level++) {
        node = beginCell().storeUint(0, 2).storeRef(node).storeRef(node).endCell();
    }
    const started = performance.now();
    const keys = hashmapKeys(node, 19);
    assert.ok(keys.length <= 1 << 16);
    assert.ok(performance.now() - started < 2000);
});

test('knownGetMethodNames handles unknown ids', () => {
    assert.deepEqual(knownGetMethodNames([1, 2, methodId('seqno')]), ['seqno']);
});
