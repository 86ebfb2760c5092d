import test from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { Cell, Dictionary, beginCell, contractAddress, type TupleItem } from '@ton/core';
import {
    WalletContractV1R1,
    WalletContractV1R2,
    WalletContractV1R3,
    WalletContractV2R1,
    WalletContractV2R2,
    WalletContractV3R1,
    WalletContractV3R2,
    WalletContractV4,
    WalletContractV5Beta,
    WalletContractV5R1,
} from '@ton/ton';
import { formatRawAddress } from '../../../src/ton/address.ts';
import { detectInterfaces, jettonWalletAddressOf, type DetectAccount } from '../../../src/ton/interfaces/detect.ts';
import { DetectionCache } from '../../../src/ton/interfaces/detection-cache.ts';
import { GetMethodRunner } from '../../../src/ton/interfaces/get-method-runner.ts';
import { readGetMethodNames } from '../../../src/ton/interfaces/get-methods.ts';
import { interfacesByCodeHash, knownCode } from '../../../src/ton/interfaces/known-code.ts';
import { assemble, libraryCell, testAddress } from './helpers.ts';
import {
    jettonMasterData,
    jettonWalletData,
    keyedWalletData,
    namedItemData,
    protocolData,
    nftCollectionData,
    nftItemData,
    tolkContracts,
} from './tolk-contracts.ts';

const KEY = Buffer.from('a1b2c3d4'.repeat(8), 'hex');
const KEY_HEX = KEY.toString('hex');
const runnerPromise = GetMethodRunner.create();

function account(code: Cell, data: Cell, balance = 10n ** 9n, workchain = 0): DetectAccount {
    return { address: contractAddress(workchain, { code, data }), code, data, balance };
}

/** A runner that counts the get-methods it runs. */
function counting(runner: GetMethodRunner) {
    const calls: string[] = [];
    return {
        calls,
        libraries: runner.libraries,
        run: (acc: DetectAccount, method: string | number, args?: TupleItem[], options?: { gasLimit?: bigint }) => {
            calls.push(String(method));
            return runner.run(acc, method, args, options);
        },
    };
}

const WALLETS = [
    { name: 'wallet_v1r1', contract: WalletContractV1R1.create({ workchain: 0, publicKey: KEY }) },
    { name: 'wallet_v1r2', contract: WalletContractV1R2.create({ workchain: 0, publicKey: KEY }) },
    { name: 'wallet_v1r3', contract: WalletContractV1R3.create({ workchain: 0, publicKey: KEY }) },
    { name: 'wallet_v2r1', contract: WalletContractV2R1.create({ workchain: 0, publicKey: KEY }) },
    { name: 'wallet_v2r2', contract: WalletContractV2R2.create({ workchain: 0, publicKey: KEY }) },
    { name: 'wallet_v3r1', contract: WalletContractV3R1.create({ workchain: 0, publicKey: KEY, walletId: 42 }) },
    { name: 'wallet_v3r2', contract: WalletContractV3R2.create({ workchain: 0, publicKey: KEY, walletId: 42 }) },
    { name: 'wallet_v4r2', contract: WalletContractV4.create({ workchain: 0, publicKey: KEY, walletId: 42 }) },
    { name: 'wallet_v5_beta', contract: WalletContractV5Beta.create({ walletId: { networkGlobalId: -239 }, publicKey: KEY }) },
    { name: 'wallet_v5r1', contract: WalletContractV5R1.create({ workchain: 0, publicKey: KEY }) },
    { name: 'wallet_v5r1', contract: WalletContractV5R1.create({ workchain: -1, publicKey: KEY }) },
];

test('every @ton/ton wallet: interface by code hash, key and state read from data, same as its get-methods', async () => {
    const runner = await runnerPromise;
    for (const { name, contract } of WALLETS) {
        const acc: DetectAccount = { address: contract.address, code: contract.init.code, data: contract.init.data, balance: 1n };
        const detected = await detectInterfaces(acc, runner);
        assert.deepEqual(detected.interfaces, [name], name);
        assert.deepEqual(interfacesByCodeHash(acc.code.hash().toString('hex')), [name], name);
        assert.equal(detected.wallet?.publicKey, KEY_HEX, name);
        if (name !== 'wallet_v1r1' && name !== 'wallet_v5_beta') assert.equal(detected.wallet?.seqno, 0, name);

        // the data cell and the contract's own get-methods agree
        const tvm = async (method: string) => {
            const r = await runner.run(acc, method);
            assert.ok(r.ok, `${name} ${method}`);
            return r.reader().readBigNumber();
        };
        if (detected.getMethods.includes('get_public_key')) assert.equal((await tvm('get_public_key')).toString(16).padStart(64, '0'), KEY_HEX, name);
        if (detected.getMethods.includes('seqno')) assert.equal(Number(await tvm('seqno')), detected.wallet?.seqno, name);
        if (detected.getMethods.includes('get_subwallet_id')) assert.equal(Number(await tvm('get_subwallet_id')), detected.wallet?.walletId, name);
        if (detected.getMethods.includes('is_signature_allowed')) assert.equal((await tvm('is_signature_allowed')) !== 0n, detected.wallet?.signatureAllowed, name);
    }
});

test('get-method names of wallets: dictionary for FunC wallets, the table for assembly wallets', async () => {
    const runner = await runnerPromise;
    const expected: Record<string, string[]> = {
        wallet_v1r1: [],
        wallet_v1r2: ['seqno'],
        wallet_v1r3: ['get_public_key', 'seqno'],
        wallet_v2r1: ['seqno'],
        wallet_v2r2: ['get_public_key', 'seqno'],
        wallet_v3r1: ['seqno'],
        wallet_v3r2: ['get_public_key', 'seqno'],
        wallet_v4r2: ['get_plugin_list', 'get_public_key', 'get_subwallet_id', 'is_plugin_installed', 'seqno'],
        wallet_v5r1: ['get_extensions', 'get_public_key', 'get_subwallet_id', 'is_signature_allowed', 'seqno'],
    };
    for (const { name, contract } of WALLETS) {
        if (!(name in expected)) continue;
        const acc: DetectAccount = { address: contract.address, code: contract.init.code, data: contract.init.data, balance: 1n };
        const detected = await detectInterfaces(acc, runner);
        assert.deepEqual(detected.getMethods, expected[name], name);
        // the table's names really are the contract's get-methods (and argument-free ones succeed)
        for (const method of detected.getMethods) {
            if (method === 'is_plugin_installed') continue;
            assert.ok((await runner.run(acc, method)).ok, `${name} ${method}`);
        }
    }
});

test('wallet v4: subwallet and plugins (empty, and two installed, matching get_plugin_list)', async () => {
    const runner = await runnerPromise;
    const w = WalletContractV4.create({ workchain: 0, publicKey: KEY, walletId: 698983191 });
    const fresh = await detectInterfaces({ address: w.address, code: w.init.code, data: w.init.data, balance: 1n }, runner);
    assert.deepEqual(fresh.wallet, { seqno: 0, walletId: 698983191, publicKey: KEY_HEX, plugins: [] });

    const plugins = Dictionary.empty(Dictionary.Keys.BigUint(264), Dictionary.Values.Cell());
    const p1 = testAddress(0x11, -1);
    const p2 = testAddress(0x22, 0);
    for (const p of [p1, p2]) {
        const key = (BigInt.asUintN(8, BigInt(p.workChain)) << 256n) | BigInt('0x' + p.hash.toString('hex'));
        plugins.set(key, Cell.EMPTY);
    }
    const data = beginCell().storeUint(5, 32).storeUint(698983191, 32).storeBuffer(KEY).storeDict(plugins).endCell();
    const acc = { address: w.address, code: w.init.code, data, balance: 1n };
    const detected = await detectInterfaces(acc, runner);
    assert.equal(detected.wallet?.seqno, 5);
    assert.deepEqual(detected.wallet?.plugins, [formatRawAddress(p2), formatRawAddress(p1)], 'key order: wc 0 before wc -1 (0xff)');

    const listed = await runner.run(acc, 'get_plugin_list');
    assert.ok(listed.ok);
    const fromTvm: string[] = [];
    let node = listed.stack[0];
    while (node.type === 'tuple') {
        const [pair, rest] = node.items;
        assert.equal(pair.type, 'tuple');
        if (pair.type !== 'tuple') break;
        const [wc, hash] = pair.items;
        assert.ok(wc.type === 'int' && hash.type === 'int');
        fromTvm.push(`${wc.value}:${hash.value.toString(16).padStart(64, '0')}`);
        node = rest;
    }
    assert.deepEqual(fromTvm.sort(), [...(detected.wallet?.plugins ?? [])].sort());
});

test('wallet v5r1: signature flag and extensions', async () => {
    const runner = await runnerPromise;
    const w = WalletContractV5R1.create({ workchain: 0, publicKey: KEY });
    const on = await detectInterfaces({ address: w.address, code: w.init.code, data: w.init.data, balance: 1n }, runner);
    assert.equal(on.wallet?.signatureAllowed, true);
    assert.deepEqual(on.wallet?.extensions, []);
    assert.equal(on.wallet?.plugins, undefined, 'plugins are v4 only');

    const ext = testAddress(0x33);
    const extensions = Dictionary.empty(Dictionary.Keys.BigUint(256), Dictionary.Values.BigInt(1));
    extensions.set(BigInt('0x' + ext.hash.toString('hex')), -1n);
    const original = w.init.data.beginParse();
    original.skip(1);
    const seqnoAndId = original.loadBits(64);
    const data = beginCell().storeBit(false).storeBits(seqnoAndId).storeBuffer(KEY).storeDict(extensions).endCell();
    const acc = { address: w.address, code: w.init.code, data, balance: 1n };
    const off = await detectInterfaces(acc, runner);
    assert.equal(off.wallet?.signatureAllowed, false);
    assert.deepEqual(off.wallet?.extensions, [formatRawAddress(ext)]);
    const tvm = await runner.run(acc, 'is_signature_allowed');
    assert.ok(tvm.ok);
    assert.equal(tvm.reader().readBoolean(), false);
});

test('Tolk jetton wallet and master (compiled with @ton/tolk-js): probed, typed, data per account', async () => {
    const runner = await runnerPromise;
    const contracts = await tolkContracts();
    const owner = testAddress(1);
    const master = testAddress(2, 0);
    const wallet = account(contracts.jettonWallet, jettonWalletData(12345n, owner, master, contracts.jettonWallet));
    const detected = await detectInterfaces(wallet, runner);
    assert.deepEqual(detected.interfaces, ['jetton_wallet']);
    assert.deepEqual(detected.getMethods, ['get_wallet_data']);
    assert.deepEqual(detected.jettonWallet, { balance: 12345n, owner: formatRawAddress(owner), master: formatRawAddress(master) });
    assert.equal(detected.wallet, undefined);
    assert.equal(knownCode(contracts.jettonWallet), undefined, 'not in the table: really probed');

    const content = beginCell().storeUint(1, 8).storeStringTail('https://example.com/jetton.json').endCell();
    const admin = testAddress(3);
    const minter = account(contracts.jettonMaster, jettonMasterData(10n ** 18n, admin, content, contracts.jettonWallet));
    const m = await detectInterfaces(minter, runner);
    assert.deepEqual(m.interfaces, ['jetton_master']);
    assert.deepEqual(m.getMethods, ['get_jetton_data', 'get_wallet_address']);
    assert.equal(m.jettonMaster?.totalSupply, 10n ** 18n);
    assert.equal(m.jettonMaster?.mintable, true);
    assert.equal(m.jettonMaster?.admin, formatRawAddress(admin));
    assert.ok(m.jettonMaster?.content.equals(content));
    assert.ok(m.jettonMaster?.walletCode.equals(contracts.jettonWallet));
    assert.equal(await jettonWalletAddressOf(minter, owner, runner), formatRawAddress(owner));

    // admin dropped: addr_none → null, not mintable
    const noAdmin = await detectInterfaces(account(contracts.jettonMaster, jettonMasterData(7n, null, content, contracts.jettonWallet)), runner);
    assert.equal(noAdmin.jettonMaster?.admin, null);
    assert.equal(noAdmin.jettonMaster?.mintable, false);
});

test('Tolk NFT item (initialized or not) and collection', async () => {
    const runner = await runnerPromise;
    const contracts = await tolkContracts();
    const collection = testAddress(4);
    const owner = testAddress(5, -1);
    const content = beginCell().storeStringTail('item-7.json').endCell();
    const item = await detectInterfaces(
        account(contracts.nftItem, nftItemData({ initialized: true, index: 7n, collection, owner, content })),
        runner,
    );
    assert.deepEqual(item.interfaces, ['nft_item']);
    assert.equal(item.nftItem?.initialized, true);
    assert.equal(item.nftItem?.index, 7n);
    assert.equal(item.nftItem?.collection, formatRawAddress(collection));
    assert.equal(item.nftItem?.owner, formatRawAddress(owner));
    assert.ok(item.nftItem?.content?.equals(content));

    const fresh = await detectInterfaces(
        account(contracts.nftItem, nftItemData({ initialized: false, index: 8n, collection, owner, content: null })),
        runner,
    );
    assert.deepEqual(fresh.interfaces, ['nft_item']);
    assert.deepEqual(fresh.nftItem, { initialized: false, index: 8n, collection: formatRawAddress(collection), owner: null, content: null });

    const collectionContent = beginCell().storeUint(1, 8).storeStringTail('https://example.com/c.json').endCell();
    const c = await detectInterfaces(account(contracts.nftCollection, nftCollectionData(-1n, collectionContent, owner)), runner);
    assert.deepEqual(c.interfaces, ['nft_collection']);
    assert.equal(c.nftCollection?.nextItemIndex, -1n);
    assert.equal(c.nftCollection?.owner, formatRawAddress(owner));
    assert.ok(c.nftCollection?.content.equals(collectionContent));
});

test('DNS items: the name from get_domain (.ton) or get_full_domain (Telegram); junk names are not names', async () => {
    const runner = await runnerPromise;
    const contracts = await tolkContracts();
    const collection = testAddress(6);
    const owner = testAddress(7);
    const index = (1n << 255n) + 12345n;
    const text = (bytes: Buffer | string) => beginCell().storeBuffer(Buffer.from(bytes)).endCell();
    const named = (code: Cell, name: Cell) => detectInterfaces(account(code, namedItemData(index, collection, owner, name)), runner);

    const ton = await named(contracts.namedItem, text('alice-2'));
    assert.deepEqual(ton.interfaces, ['nft_item']);
    assert.deepEqual(ton.getMethods, ['get_domain', 'get_nft_data']);
    assert.equal(ton.nftItem?.index, index);
    assert.equal(ton.nftItem?.dns, 'alice-2.ton');

    const telegram = await named(contracts.telegramItem, text('me\0t\0durov_1\0'));
    assert.equal(telegram.nftItem?.dns, 'durov_1.t.me');
    // A long name continues in the cell's first ref.
    const long = 'a'.repeat(100) + 'b'.repeat(26);
    const split = beginCell().storeBuffer(Buffer.from(long.slice(0, 100))).storeRef(text(long.slice(100))).endCell();
    assert.equal((await named(contracts.namedItem, split)).nftItem?.dns, `${long}.ton`);

    for (const junk of [text('Alice'), text('al ice'), text(Buffer.from([0xff, 0xfe])), text('a\nb'), beginCell().storeUint(1, 3).endCell(), beginCell().endCell()]) {
        const item = await named(contracts.namedItem, junk);
        assert.deepEqual(item.interfaces, ['nft_item']);
        assert.equal(item.nftItem?.dns, undefined);
    }
    // One label is no Telegram name; nor is a name with a dot inside a label.
    assert.equal((await named(contracts.telegramItem, text('durov\0'))).nftItem?.dns, undefined);
    assert.equal((await named(contracts.telegramItem, text('me\0t.x\0durov\0'))).nftItem?.dns, undefined);
    // An item without those get-methods has no name.
    const plain = await detectInterfaces(account(contracts.nftItem, nftItemData({ initialized: true, index: 1n, collection, owner, content: text('1.json') })), runner);
    assert.equal(plain.nftItem?.dns, undefined);
});

test('protocol contracts by their get-methods: sales, auctions, subscriptions, DEX vaults and pools', async () => {
    const runner = await runnerPromise;
    const contracts = await tolkContracts();
    const [market, nft, owner] = [testAddress(8), testAddress(9), testAddress(10)];
    const detect = (code: Cell) => detectInterfaces(account(code, protocolData(market, nft, owner, 5_000_000_000n)), runner);
    const raw = formatRawAddress;

    const sale = await detect(contracts.getgemsSale);
    assert.deepEqual(sale.interfaces, ['nft_sale']);
    assert.deepEqual(sale.nftSale, { kind: 'sale', market: raw(market), nft: raw(nft), owner: raw(owner), price: 5_000_000_000n });
    const auction = await detect(contracts.getgemsAuction);
    assert.deepEqual(auction.interfaces, ['nft_auction_v1']);
    assert.equal(auction.nftSale?.kind, 'auction');
    assert.equal(auction.nftSale?.price, 5_000_000_000n);
    const plugin = await detect(contracts.subscriptionPlugin);
    assert.deepEqual(plugin.interfaces, ['subscription_v1']);
    assert.deepEqual(plugin.subscription, { wallet: raw(nft), beneficiary: raw(owner), amount: 5_000_000_000n, period: 2592000n });
    assert.deepEqual((await detect(contracts.dedustVault)).interfaces, ['dedust_vault']);
    assert.deepEqual((await detect(contracts.stonfiPool)).interfaces, ['stonfi_pool']);
    // The same method ids with other layouts declare nothing.
    assert.deepEqual((await detect(contracts.liar)).interfaces, []);
});

test('unknown code with get_public_key: key, seqno and subwallet from its get-methods', async () => {
    const runner = await runnerPromise;
    const contracts = await tolkContracts();
    const detected = await detectInterfaces(account(contracts.keyedWallet, keyedWalletData(9, 4242, KEY)), runner);
    assert.deepEqual(detected.interfaces, []);
    assert.deepEqual(detected.getMethods, ['get_public_key', 'get_subwallet_id', 'seqno']);
    assert.deepEqual(detected.wallet, { publicKey: KEY_HEX, seqno: 9, walletId: 4242 });
});

test('standard method ids with the wrong result types declare nothing', async () => {
    const runner = await runnerPromise;
    const contracts = await tolkContracts();
    const detected = await detectInterfaces(account(contracts.liar, Cell.EMPTY), runner);
    assert.deepEqual(detected.interfaces, []);
    assert.deepEqual(detected.getMethods, ['get_collection_data', 'get_jetton_data', 'get_nft_data', 'get_public_key', 'get_wallet_data']);
    assert.equal(detected.wallet, undefined, 'a negative "public key" is not one');
    assert.equal(detected.jettonWallet, undefined);

    // a jetton wallet's code on data that does not parse: no interface, no throw
    const broken = await detectInterfaces(account(contracts.jettonWallet, beginCell().storeUint(1, 3).endCell()), runner);
    assert.deepEqual(broken.interfaces, []);
});

test('junk never throws', async () => {
    const runner = await runnerPromise;
    const junk: [Cell, Cell][] = [
        [Cell.EMPTY, Cell.EMPTY],
        [beginCell().storeUint(0xdeadbeef, 32).endCell(), Cell.EMPTY],
        [assemble({ 0: 'DROP', 97026: 'PUSHCONT {\n    NOP\n}\nAGAIN', 106029: 'PUSHCONT {\n    NOP\n}', 78748: 'PUSHINT_4 1\nPUSHINT_4 0\nDIV' }), Cell.EMPTY],
        [libraryCell(beginCell().storeUint(1, 1).endCell()), Cell.EMPTY],
        // a known wallet code with junk data: the interface stays, the wallet state is unknown
        [WalletContractV4.create({ workchain: 0, publicKey: KEY }).init.code, beginCell().storeUint(1, 8).endCell()],
    ];
    const results = [];
    for (const [code, data] of junk) results.push(await detectInterfaces(account(code, data), runner));
    for (const r of results.slice(0, 4)) {
        assert.deepEqual(r.interfaces, []);
        assert.equal(r.wallet, undefined);
    }
    assert.deepEqual(results[2].getMethods, ['get_jetton_data', 'get_public_key', 'get_wallet_data']);
    assert.deepEqual(results[4].interfaces, ['wallet_v4r2']);
    assert.equal(results[4].wallet, undefined);
});

test('probing results are cached by code hash; account data is read for every account', async () => {
    const runner = await runnerPromise;
    const contracts = await tolkContracts();
    const counted = counting(runner);
    const cache = new DetectionCache(100);
    const master = testAddress(2);
    const wallets = [1n, 2n, 3n].map((balance) =>
        account(contracts.jettonWallet, jettonWalletData(balance, testAddress(Number(balance) + 10), master, contracts.jettonWallet)),
    );
    const first = await detectInterfaces(wallets[0], counted, { cache });
    assert.deepEqual(counted.calls, ['get_wallet_data'], 'probe and data share one run');
    const rest = await Promise.all(wallets.slice(1).map((w) => detectInterfaces(w, counted, { cache })));
    assert.deepEqual(counted.calls, ['get_wallet_data', 'get_wallet_data', 'get_wallet_data'], 'one data run per account, no re-probe');
    assert.deepEqual([first, ...rest].map((d) => d.jettonWallet?.balance), [1n, 2n, 3n]);
    assert.deepEqual(rest.map((d) => d.interfaces), [['jetton_wallet'], ['jetton_wallet']]);
    assert.deepEqual(cache.stats(), { size: 1, hits: 2, misses: 1 });

    // concurrent first sightings of one code probe once
    const liarCache = new DetectionCache(100);
    const liarCalls = counting(runner);
    await Promise.all([1, 2, 3].map((i) => detectInterfaces(account(contracts.liar, beginCell().storeUint(i, 8).endCell()), liarCalls, { cache: liarCache })));
    const probes = liarCalls.calls.filter((c) => c === 'get_wallet_data').length;
    assert.equal(probes, 1);
    assert.equal(liarCache.stats().misses, 1);

    // a cached negative is final for that code
    const liarAgain = await detectInterfaces(account(contracts.liar, Cell.EMPTY), liarCalls, { cache: liarCache });
    assert.deepEqual(liarAgain.interfaces, []);
});

test('DetectionCache is an LRU', () => {
    const cache = new DetectionCache(2);
    const profile = (codeHash: string) => ({ codeHash, interfaces: [], getMethods: [], known: false });
    cache.set('a', profile('a'));
    cache.set('b', profile('b'));
    assert.ok(cache.get('a'));
    cache.set('c', profile('c'));
    assert.equal(cache.size, 2);
    assert.ok(cache.has('a') && cache.has('c') && !cache.has('b'), 'b was least recently used');
    assert.throws(() => new DetectionCache(0));
});

test('library code: known by the target hash without the library, get-methods once it is available', async () => {
    const v4 = WalletContractV4.create({ workchain: 0, publicKey: KEY, walletId: 3 });
    const lib = libraryCell(v4.init.code);
    const acc: DetectAccount = { address: v4.address, code: lib, data: v4.init.data, balance: 1n };
    const cache = new DetectionCache();
    const runner = await runnerPromise;
    const without = await detectInterfaces(acc, runner, { cache });
    assert.deepEqual(without.interfaces, ['wallet_v4r2']);
    assert.deepEqual(without.getMethods, []);
    assert.equal(without.wallet?.publicKey, KEY_HEX);
    assert.equal(cache.size, 0, 'not cached while the library is missing');

    const libs = Dictionary.empty(Dictionary.Keys.Buffer(32), Dictionary.Values.Cell());
    libs.set(v4.init.code.hash(), v4.init.code);
    const withLibs = await GetMethodRunner.create({ libs: beginCell().storeDictDirect(libs).endCell() });
    const resolved = await detectInterfaces(acc, withLibs, { cache });
    assert.deepEqual(resolved.getMethods, readGetMethodNames(v4.init.code));
    assert.equal(cache.size, 1);
});

test('multisig v2 and its order are known by mainnet\'s code hashes', () => {
    assert.deepEqual(interfacesByCodeHash('d3d14da9a627f0ec3533341829762af92b9540b21bf03665fac09c2b46eabbac'), ['multisig_v2']);
    // the order's code, and the library cell an order account's code is on chain
    assert.deepEqual(interfacesByCodeHash('6305a8061c856c2ccf05dcb0df5815c71475870567cab5f049e340bcf59251f3'), ['multisig_order_v2']);
    assert.deepEqual(interfacesByCodeHash('a01e057fbd4288402b9898d78d67bd4e90254c93c5866879bc2d1d12865436bc'), ['multisig_order_v2']);
    // an order deployed by the multisig: its code is the library cell pointing at the order's code
    const orderLibrary = beginCell().storeUint(2, 8).storeBuffer(Buffer.from('6305a8061c856c2ccf05dcb0df5815c71475870567cab5f049e340bcf59251f3', 'hex')).endCell({ exotic: true });
    assert.equal(orderLibrary.hash().toString('hex'), 'a01e057fbd4288402b9898d78d67bd4e90254c93c5866879bc2d1d12865436bc');
    assert.deepEqual(knownCode(orderLibrary)?.interfaces, ['multisig_order_v2']);
    // the pre-release build's hashes are not mainnet's
    assert.deepEqual(interfacesByCodeHash('77cd68912cd5e23ecf749d92282f924da209a7e738a11746b376c7baf1b92e83'), []);
    assert.deepEqual(interfacesByCodeHash(null), []);
    assert.deepEqual(interfacesByCodeHash('00'.repeat(32)), []);
});

test("the devnet's compiled Tolk contracts (when built) expose the standard get-methods", async (t) => {
    const build = new URL('../../../src/chain/devnet/contracts/build/', import.meta.url);
    const expected: Record<string, string[]> = {
        'jetton-minter': ['get_jetton_data', 'get_wallet_address'],
        'jetton-wallet': ['get_wallet_data'],
        'nft-collection': ['get_collection_data', 'get_nft_address_by_index', 'get_nft_content'],
        'nft-item': ['get_nft_data'],
        'dns-collection': ['dnsresolve', 'get_collection_data', 'get_nft_address_by_index', 'get_nft_content'],
        'dns-item': ['dnsresolve', 'get_domain', 'get_editor', 'get_last_fill_up_time', 'get_nft_data'],
    };
    for (const [name, getters] of Object.entries(expected)) {
        const file = new URL(`${name}.json`, build);
        if (!existsSync(file)) {
            t.diagnostic(`${name}.json not built: skipped`);
            continue;
        }
        const artifact = JSON.parse(readFileSync(file, 'utf8')) as { codeBoc64: string };
        const names = readGetMethodNames(Cell.fromBase64(artifact.codeBoc64));
        for (const getter of getters) assert.ok(names.includes(getter), `${name}: ${getter} in ${names.join(',')}`);
    }
});

test.describe("the devnet's own contracts", () => {
    test.it('are known by code hash, with the interfaces their get-methods prove', async () => {
        const { contractCodeHashes } = await import('../../../src/chain/devnet/contracts/artifacts.ts');
        const { knownCodeByHash } = await import('../../../src/ton/interfaces/known-code.ts');
        const expected: Record<string, string> = { 'jetton-minter': 'jetton_master', 'jetton-wallet': 'jetton_wallet', 'nft-collection': 'nft_collection', 'nft-item': 'nft_item', 'librarian': 'librarian', 'dns-collection': 'nft_collection', 'dns-item': 'nft_item', 'multisig-v2': 'multisig_v2', 'multisig-order-v2': 'multisig_order_v2', 'nominator-pool': 'tv_pool', 'single-nominator': 'single_nominator_pool' };
        // The elector and the config contract are found by their addresses (config params 1 and 0), as on mainnet, not by code.
        const system = new Set(['elector', 'config']);
        for (const [name, hash] of Object.entries(contractCodeHashes())) {
            if (system.has(name)) {
                assert.equal(knownCodeByHash(hash), undefined, `${name} is not in the known-code table`);
                continue;
            }
            assert.deepEqual(knownCodeByHash(hash)?.interfaces, [expected[name]], `${name} (${hash}) is in the known-code table`);
        }
    });
});
