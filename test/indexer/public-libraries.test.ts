import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { Address, Cell, Dictionary, beginCell, loadSimpleLibrary, storeSimpleLibrary, type SimpleLibrary } from '@ton/core';
import type { AccountStateRecord, BlockRecord } from '../../src/chain/chain-source.ts';
import { contractCode } from '../../src/chain/devnet/contracts/artifacts.ts';
import { jettonMinterAddress, jettonMinterCode, jettonMinterData, jettonWalletAddress, jettonWalletData, type JettonMinterConfig } from '../../src/chain/devnet/contracts/jetton.ts';
import { onchainContent } from '../../src/chain/devnet/contracts/metadata.ts';
import { librarianAddress } from '../../src/chain/devnet/contracts/librarian.ts';
import { indexBlock } from '../../src/indexer/index-block.ts';
import { AccountInspector } from '../../src/indexer/inspect-accounts.ts';
import type { Store } from '../../src/store/store.ts';
import { formatRawAddress } from '../../src/ton/address.ts';
import { encodeLibraryField, libraryCell } from '../../src/ton/libraries.ts';
import { storeBackends } from '../helpers/stores.ts';

const walletCode = contractCode('jetton-wallet');
const itemCode = contractCode('nft-item');
const hex = (cell: Cell) => cell.hash().toString('hex');
const owner = new Address(0, Buffer.alloc(32, 0x0a));
const stranger = new Address(-1, Buffer.alloc(32, 0x5e));
const librarian = librarianAddress(owner);
const config: JettonMinterConfig = { admin: owner, content: onchainContent({ name: 'Library Gold', symbol: 'LGLD', decimals: 9 }), walletCode: libraryCell(walletCode), totalSupply: 1000n };
const minter = jettonMinterAddress(config);
const holder = jettonWalletAddress(owner, minter, config.walletCode);

const hashOf = (lt: bigint) => lt.toString(16).padStart(64, '0');

function libraries(entries: Array<[Cell, boolean]>) {
    const dict = Dictionary.empty<bigint, SimpleLibrary>(Dictionary.Keys.BigUint(256), {
        serialize: (src, b) => storeSimpleLibrary(src)(b), parse: s => loadSimpleLibrary(s),
    });
    for (const [root, isPublic] of entries) dict.set(BigInt(`0x${hex(root)}`), { public: isPublic, root });
    return encodeLibraryField(dict);
}

function state(address: Address, code: Cell, data: Cell, lt: bigint, libs?: Buffer): AccountStateRecord {
    return {
        address: formatRawAddress(address), status: 'active', balance: 1_000_000_000n,
        codeHash: hex(code), dataHash: hex(data), code: code.toBoc(), data: data.toBoc(), libraries: libs,
        lastTransLt: lt, lastTransHash: hashOf(lt),
    };
}

function block(workchain: number, seqno: number, accountStates: AccountStateRecord[]): BlockRecord {
    const lts = accountStates.map(s => s.lastTransLt);
    return {
        id: { workchain, shard: '8000000000000000', seqno, rootHash: hashOf(BigInt(seqno * 2 + workchain)), fileHash: hashOf(BigInt(seqno)) },
        utime: 1_700_000_000 + seqno, startLt: lts.reduce((a, b) => (a < b ? a : b)), endLt: lts.reduce((a, b) => (a > b ? a : b)) + 1n,
        isKeyBlock: false, parents: [], shardBlocks: [], transactions: [], accountStates,
    };
}

const librarianCode = contractCode('librarian');
const librarianData = beginCell().storeAddress(owner).endCell();

async function published(store: Store) {
    const rows = await store.db.selectFrom('public_libraries').select(['hash', 'publisher', 'boc']).orderBy('hash').orderBy('publisher').execute();
    return rows.map(r => ({ hash: r.hash, publisher: r.publisher, same: Cell.fromBoc(r.boc)[0].hash().toString('hex') === r.hash }));
}

async function jettonWallet(store: Store) {
    const row = await store.db.selectFrom('jetton_wallets').select(['owner', 'master', 'balance', 'verified']).where('address', '=', formatRawAddress(holder)).executeTakeFirst();
    return row && { ...row, verified: Number(row.verified) };
}

describe('public libraries in the index', () => {
    for (const backend of storeBackends()) {
        describe(backend.name, () => {
            let store: Awaited<ReturnType<typeof backend.open>>;
            before(async () => {
                store = await backend.open();
            });
            after(async () => {
                await store?.dispose();
            });

            test('keeps the public libraries masterchain accounts publish; private ones and basechain accounts\' are not the chain\'s', async () => {
                await indexBlock(store, block(-1, 1, [
                    state(librarian, librarianCode, librarianData, 100n, libraries([[walletCode, true], [itemCode, false]])),
                    state(stranger, librarianCode, librarianData, 101n, libraries([[walletCode, true]])),
                ]));
                await indexBlock(store, block(0, 1, [state(new Address(0, Buffer.alloc(32, 1)), librarianCode, librarianData, 102n, libraries([[itemCode, true]]))]));
                assert.deepEqual(await published(store), [
                    { hash: hex(walletCode), publisher: formatRawAddress(stranger), same: true },
                    { hash: hex(walletCode), publisher: formatRawAddress(librarian), same: true },
                ].sort((a, b) => (a.publisher < b.publisher ? -1 : 1)));
            });

            test('a jetton wallet running library code is read with the indexed library, and verified', async () => {
                const inspector = await AccountInspector.create();
                await indexBlock(store, block(0, 2, [
                    state(minter, jettonMinterCode(), jettonMinterData(config), 200n),
                    state(holder, config.walletCode!, jettonWalletData(owner, minter, 1000n, config.walletCode), 201n),
                ]), undefined, { inspector });
                assert.deepEqual(await jettonWallet(store), { owner: formatRawAddress(owner), master: formatRawAddress(minter), balance: '1000', verified: 1 });
                const row = await store.db.selectFrom('account_states').select(['interfaces', 'code_hash']).where('address', '=', formatRawAddress(holder)).executeTakeFirstOrThrow();
                assert.equal(row.code_hash, hex(config.walletCode!), 'the code hash is the library cell\'s');
                assert.ok(JSON.parse(row.interfaces).includes('jetton_wallet'));
            });

            test('a withdrawn library leaves the index; an older state delivered later changes nothing', async () => {
                await indexBlock(store, block(-1, 4, [state(librarian, librarianCode, librarianData, 400n)]));
                assert.deepEqual((await published(store)).map(r => r.publisher), [formatRawAddress(stranger)]);
                await indexBlock(store, block(-1, 3, [
                    state(librarian, librarianCode, librarianData, 300n, libraries([[walletCode, true]])),
                    state(stranger, librarianCode, librarianData, 301n),
                ]));
                assert.deepEqual((await published(store)).map(r => r.publisher), [], 'the stranger withdrew too (its block 3 state is newer than block 1\'s); the librarian\'s stays withdrawn');
            });

            test('without the library, the wallet\'s data cannot be read and it is not taken for a jetton wallet', async () => {
                const fresh = await backend.open();
                try {
                    await indexBlock(fresh, block(0, 2, [
                        state(minter, jettonMinterCode(), jettonMinterData(config), 200n),
                        state(holder, config.walletCode!, jettonWalletData(owner, minter, 1000n, config.walletCode), 201n),
                    ]), undefined, { inspector: await AccountInspector.create() });
                    assert.equal(await jettonWallet(fresh), undefined);
                } finally {
                    await fresh.dispose();
                }
            });

            test('a wallet inspected before its library was published is read again once it is, in the same state', async () => {
                const fresh = await backend.open();
                try {
                    const inspector = await AccountInspector.create();
                    const holderState = (lt: bigint) => state(holder, config.walletCode!, jettonWalletData(owner, minter, 1000n, config.walletCode), lt);
                    await indexBlock(fresh, block(0, 2, [state(minter, jettonMinterCode(), jettonMinterData(config), 200n), holderState(201n)]), undefined, { inspector });
                    assert.equal(await jettonWallet(fresh), undefined);
                    await indexBlock(fresh, block(-1, 3, [state(librarian, librarianCode, librarianData, 300n, libraries([[walletCode, true]]))]), undefined, { inspector });
                    // Only the last transaction differs: what was detected without the library is not kept.
                    await indexBlock(fresh, block(0, 4, [holderState(400n)]), undefined, { inspector });
                    assert.deepEqual(await jettonWallet(fresh), { owner: formatRawAddress(owner), master: formatRawAddress(minter), balance: '1000', verified: 1 });
                } finally {
                    await fresh.dispose();
                }
            });
        });
    }
});
