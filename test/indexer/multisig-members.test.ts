import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { Address, Cell, Dictionary, beginCell, type StateInit } from '@ton/core';
import { Migrator, sql } from 'kysely';
import { MultisigWallet, WalletContractV4, WalletContractV5R1 } from '@ton/ton';
import type { AccountStateRecord, BlockRecord } from '../../src/chain/chain-source.ts';
import { keyPairFromSeed } from '../../src/chain/devnet/keys.ts';
import { indexBlock } from '../../src/indexer/index-block.ts';
import { AccountInspector } from '../../src/indexer/inspect-accounts.ts';
import { migrationProvider } from '../../src/store/migrations/index.ts';
import { walletsByPublicKeys } from '../../src/store/read/wallets.ts';
import type { Store } from '../../src/store/store.ts';
import { formatRawAddress } from '../../src/ton/address.ts';
import { storeBackends } from '../helpers/stores.ts';

/** Code hash of ton-blockchain/multisig-contract-v2 `build/Multisig.compiled.json` (as in known-code.ts). */
const MULTISIG_V2_CODE_HASH = 'd3d14da9a627f0ec3533341829762af92b9540b21bf03665fac09c2b46eabbac';

const bobKey = keyPairFromSeed(Buffer.alloc(32, 0xb0)).publicKey;
const aliceKey = keyPairFromSeed(Buffer.alloc(32, 0xa1)).publicKey;
const carolKey = keyPairFromSeed(Buffer.alloc(32, 0xc2)).publicKey;
const daveKey = keyPairFromSeed(Buffer.alloc(32, 0xd3)).publicKey;

const bobV4 = WalletContractV4.create({ workchain: 0, publicKey: bobKey });
const bobV5 = WalletContractV5R1.create({ workchain: 0, publicKey: bobKey });
const alice = WalletContractV4.create({ workchain: 0, publicKey: aliceKey });
const carol = WalletContractV4.create({ workchain: 0, publicKey: carolKey });
const dave = WalletContractV4.create({ workchain: 0, publicKey: daveKey });
/** Owned by bob's key (shared by his two wallets) and alice's. */
const multisigV1 = new MultisigWallet([bobKey, aliceKey], 0, 0, 2);
const multisigV2Address = new Address(0, Buffer.alloc(32, 0x77));

/** A multisig v2 data cell built from the layout of ton-blockchain/multisig-contract-v2. */
function multisigV2Data(signers: Address[], proposers: Address[]): Cell {
    const dict = (list: Address[]) => {
        const d = Dictionary.empty(Dictionary.Keys.Uint(8), Dictionary.Values.Address());
        list.forEach((address, i) => d.set(i, address));
        return d;
    };
    return beginCell().storeUint(0, 256).storeUint(1, 8).storeRef(beginCell().storeDictDirect(dict(signers)))
        .storeUint(signers.length, 8).storeDict(proposers.length ? dict(proposers) : null).storeBit(false).endCell();
}

const hashOf = (lt: bigint) => lt.toString(16).padStart(64, '0');

function active(address: Address, init: StateInit | { code?: Cell | null; codeHash: string; data: Cell }, lt: bigint): AccountStateRecord {
    const code = 'codeHash' in init ? undefined : init.code!;
    return {
        address: formatRawAddress(address), status: 'active', balance: 1_000_000_000n,
        codeHash: code ? code.hash().toString('hex') : (init as { codeHash: string }).codeHash,
        dataHash: init.data!.hash().toString('hex'),
        code: code?.toBoc(), data: init.data!.toBoc(),
        lastTransLt: lt, lastTransHash: hashOf(lt),
    };
}

function frozen(address: Address, lt: bigint): AccountStateRecord {
    return { address: formatRawAddress(address), status: 'frozen', balance: 0n, lastTransLt: lt, lastTransHash: hashOf(lt) };
}

function block(seqno: number, accountStates: AccountStateRecord[]): BlockRecord {
    const lts = accountStates.map(s => s.lastTransLt);
    return {
        id: { workchain: 0, shard: '8000000000000000', seqno, rootHash: hashOf(BigInt(seqno)), fileHash: hashOf(BigInt(seqno)) },
        utime: 1_700_000_000 + seqno, startLt: lts.reduce((a, b) => (a < b ? a : b)), endLt: lts.reduce((a, b) => (a > b ? a : b)) + 1n,
        isKeyBlock: false, parents: [], shardBlocks: [], transactions: [], accountStates,
    };
}

const walletsOf = [bobV4, bobV5, alice, carol, dave];

async function counts(store: Store): Promise<Record<string, number>> {
    const rows = await store.db.selectFrom('wallets').select(['address', 'public_key']).execute();
    assert.equal(rows.length, walletsOf.length, 'every wallet was indexed with its key');
    const result = new Map((await walletsByPublicKeys(store.db, rows.map(r => r.public_key))).map(w => [w.address, w.stats.multisigs]));
    const name = new Map([[bobV4, 'bobV4'], [bobV5, 'bobV5'], [alice, 'alice'], [carol, 'carol'], [dave, 'dave']].map(([w, n]) => [formatRawAddress((w as typeof bobV4).address), n as string]));
    return Object.fromEntries(rows.map(r => [name.get(r.address)!, result.get(r.address)!]));
}

async function members(store: Store, multisig: string) {
    const rows = await store.db.selectFrom('multisig_members').select(['member', 'kind']).where('multisig', '=', multisig).execute();
    return rows.map(r => `${r.kind}:${r.member}`).sort();
}

describe('multisig members from indexed account states', () => {
    let inspector: AccountInspector;
    before(async () => {
        inspector = await AccountInspector.create();
    });

    for (const backend of storeBackends()) {
        describe(backend.name, () => {
            let store: Awaited<ReturnType<typeof backend.open>>;
            before(async () => {
                store = await backend.open();
            });
            after(async () => {
                await store?.dispose();
            });

            test('v1 owners by key and v2 signers/proposers by address are counted once per multisig', async () => {
                const v1 = formatRawAddress(multisigV1.address);
                const v2 = formatRawAddress(multisigV2Address);
                await indexBlock(store, block(1, [
                    ...walletsOf.map((w, i) => active(w.address, w.init, 100n + BigInt(i))),
                    active(multisigV1.address, multisigV1.init, 110n),
                    // signers alice and carol, proposer bob's v4r2 (the v2 code is not run: its hash says what it is)
                    active(multisigV2Address, { codeHash: MULTISIG_V2_CODE_HASH, data: multisigV2Data([alice.address, carol.address], [bobV4.address]) }, 111n),
                ]), undefined, { inspector });

                assert.deepEqual(await members(store, v1), [aliceKey, bobKey].map(key => `public_key:${key.toString('hex')}`).sort());
                assert.deepEqual(await members(store, v2), [alice, carol, bobV4].map(w => `address:${formatRawAddress(w.address)}`).sort());
                const interfaces = await store.db.selectFrom('account_states').select(['address', 'interfaces']).where('address', 'in', [v1, v2]).orderBy('address').execute();
                assert.deepEqual(Object.fromEntries(interfaces.map(r => [r.address, JSON.parse(r.interfaces)])), { [v1]: ['multisig_v1'], [v2]: ['multisig_v2'] });
                // bob-v4r2: v1 by key and v2 as proposer; alice: v1 by key and v2 as signer, each multisig once
                assert.deepEqual(await counts(store), { bobV4: 2, bobV5: 1, alice: 2, carol: 1, dave: 0 });
            });

            test('a newer state replaces the members; an older state delivered later changes nothing', async () => {
                const v1 = formatRawAddress(multisigV1.address);
                const v2 = formatRawAddress(multisigV2Address);
                await indexBlock(store, block(3, [
                    frozen(multisigV1.address, 300n),
                    active(multisigV2Address, { codeHash: MULTISIG_V2_CODE_HASH, data: multisigV2Data([alice.address, dave.address], []) }, 301n),
                ]), undefined, { inspector });
                assert.deepEqual(await members(store, v1), [], 'a frozen account is no longer a multisig');
                assert.deepEqual(await members(store, v2), [alice, dave].map(w => `address:${formatRawAddress(w.address)}`).sort());
                assert.deepEqual(await counts(store), { bobV4: 0, bobV5: 0, alice: 1, carol: 0, dave: 1 });

                // Block 2 arrives late with states older than block 3's.
                await indexBlock(store, block(2, [
                    active(multisigV1.address, multisigV1.init, 200n),
                    active(multisigV2Address, { codeHash: MULTISIG_V2_CODE_HASH, data: multisigV2Data([carol.address], [bobV5.address]) }, 201n),
                ]), undefined, { inspector });
                assert.deepEqual(await counts(store), { bobV4: 0, bobV5: 0, alice: 1, carol: 0, dave: 1 });

                // The v2 account's code changes to a plain wallet's: its members go.
                await indexBlock(store, block(4, [active(multisigV2Address, dave.init, 400n)]), undefined, { inspector });
                assert.deepEqual(await members(store, v2), []);
            });

            test('migration 0003 fills in the members of multisigs indexed before it, from their stored state', async () => {
                const fresh = await backend.open();
                try {
                    await indexBlock(fresh, block(1, [
                        active(multisigV1.address, multisigV1.init, 110n),
                        active(multisigV2Address, { codeHash: MULTISIG_V2_CODE_HASH, data: multisigV2Data([carol.address], [alice.address]) }, 111n),
                        active(dave.address, dave.init, 112n),
                    ]));
                    const expected = await fresh.db.selectFrom('multisig_members').selectAll().orderBy('multisig').orderBy('member').execute();
                    assert.equal(expected.length, 4);
                    // As if the index was built before 0003: no table, migration not recorded.
                    await fresh.db.schema.dropTable('multisig_members').execute();
                    await sql`delete from kysely_migration where name = '0003-multisig-members'`.execute(fresh.db);
                    const migrator = new Migrator({ db: fresh.db, provider: migrationProvider(fresh.dialect), allowUnorderedMigrations: true });
                    const { error, results } = await migrator.migrateToLatest();
                    assert.equal(error, undefined);
                    assert.deepEqual(results?.map(r => [r.migrationName, r.status]), [['0003-multisig-members', 'Success']]);
                    const backfilled = await fresh.db.selectFrom('multisig_members').selectAll().orderBy('multisig').orderBy('member').execute();
                    assert.deepEqual(backfilled, expected);
                } finally {
                    await fresh.dispose();
                }
            });
        });
    }
});
