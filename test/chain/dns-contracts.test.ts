import { before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Address, Cell, Dictionary, beginCell, type TupleItem } from '@ton/core';
import { Blockchain, GetMethodError, type SandboxContract, type TreasuryContract } from '@ton/sandbox';
import { contractCode } from '../../src/chain/devnet/contracts/artifacts.ts';
import {
    DNS_CATEGORY,
    DNS_EXIT,
    DNS_OP,
    DNS_TON,
    changeDnsRecordBody,
    dnsCollectionAddress,
    dnsCollectionStateInit,
    dnsItemAddress,
    dnsItemContent,
    dnsItemIndex,
    dnsWalletRecord,
    isValidDnsDomain,
    loadDnsNextResolver,
    registerDomainBody,
    renewDomainBody,
    type DnsCollectionConfig,
} from '../../src/chain/devnet/contracts/dns.ts';
import { offchainContent, onchainContent } from '../../src/chain/devnet/contracts/metadata.ts';
import { commentPayload } from '../../src/chain/devnet/contracts/payload.ts';
import { nftGetStaticDataBody, nftTransferBody } from '../../src/chain/devnet/contracts/nft.ts';
import { cellText } from '../../src/ton/interfaces/standard-getters.ts';
import { describeTx, type Executed } from './executed-transaction.ts';

const GRAM = 1_000_000_000n;
const UTIME = 1_751_461_310;
const ROOT = join(import.meta.dirname, '..', '..');

/** Op codes as the TEPs and mainnet's .ton DNS define them (written out here, not taken from dns.ts). */
const OP = {
    nftTransfer: 0x5fcc3d14,
    ownershipAssigned: 0x05138d91,
    excesses: 0xd53276db,
    getStaticData: 0x2fcb26a2,
    reportStaticData: 0x8b771735,
    changeDnsRecord: 0x4eb1f0f9,
    bounced: 0xffffffff,
} as const;

function sha256n(text: string): bigint {
    return BigInt(`0x${createHash('sha256').update(text).digest('hex')}`);
}




/** The one transaction of `account` whose inbound op is `op`. */
function txOf(txs: Executed[], account: Address, op: number): Executed {
    const found = txs.filter(t => t.account === account.toRawString() && t.op === op);
    assert.equal(found.length, 1, `one tx of ${account.toRawString()} with op 0x${op.toString(16)}; got ${txs.map(t => `${t.account.slice(0, 8)}/${t.op?.toString(16)}`).join(', ')}`);
    return found[0];
}

function txsOf(txs: Executed[], account: Address): Executed[] {
    return txs.filter(t => t.account === account.toRawString());
}

function textSlice(text: string | Buffer): TupleItem {
    return { type: 'slice', cell: beginCell().storeBuffer(Buffer.isBuffer(text) ? text : Buffer.from(text, 'latin1')).endCell() };
}

/** The item's data read with mainnet's layout: index:uint256 collection owner ^content ^domain auction:(Maybe ^Cell) last_fill_up_time:uint64. */
function mainnetItemLayout(data: Cell) {
    const s = data.beginParse();
    const layout = {
        index: s.loadUintBig(256),
        collection: s.loadAddress(),
        owner: s.loadAddress(),
        content: s.loadRef(),
        domain: s.loadRef(),
        auction: s.loadMaybeRef(),
        lastFillUpTime: s.loadUint(64),
    };
    s.endParse();
    return layout;
}

// The artifacts' freshness is checked for every contract of CONTRACT_NAMES in devnet-contracts.test.ts.
describe('devnet DNS contracts: item index', () => {
    test('item index: the hash of the cell holding the domain (mainnet\'s slice_hash), not sha256 of the bytes', () => {
        const alice = Buffer.from('alice');
        // A cell's representation hash: sha256(d1 = refs, d2 = 2 * whole bytes, data).
        const expected = BigInt(`0x${createHash('sha256').update(Buffer.concat([Buffer.from([0, 2 * alice.length]), alice])).digest('hex')}`);
        assert.equal(dnsItemIndex('alice'), expected);
        assert.notEqual(dnsItemIndex('alice'), sha256n('alice'));
    });

    test('the renewal body is what the action engine recognises as DomainRenew', () => {
        const body = renewDomainBody(7n);
        assert.equal(body.bits.length, 32 + 64 + 256);
        assert.equal(body.refs.length, 0);
        const s = body.beginParse();
        assert.deepEqual([s.loadUint(32), s.loadUintBig(64), s.loadUintBig(256)], [OP.changeDnsRecord, 7n, 0n]);
    });

    test('isValidDnsDomain', () => {
        for (const ok of ['alice', 'a', '0', 'a-b', 'x'.repeat(126)]) assert.ok(isValidDnsDomain(ok), ok);
        for (const bad of ['', 'Alice', '-a', 'a-', 'a.b', 'a_b', 'é', 'x'.repeat(127)]) assert.ok(!isValidDnsDomain(bad), bad);
    });
});

describe('devnet DNS contracts on the TVM', () => {
    let chain: Blockchain;
    let registrar: SandboxContract<TreasuryContract>;
    let alice: SandboxContract<TreasuryContract>;
    let bob: SandboxContract<TreasuryContract>;
    let carol: SandboxContract<TreasuryContract>;
    let config: DnsCollectionConfig;
    let collection: Address;
    let aliceItem: Address;
    let registration: Executed[];

    const send = async (from: SandboxContract<TreasuryContract>, to: Address, value: bigint, body?: Cell, init?: { code: Cell; data: Cell }) => {
        const result = await from.send({ to, value, body, init, bounce: true });
        return result.transactions.map(describeTx).slice(1);
    };

    const get = async (address: Address, method: string, args: TupleItem[] = []) => {
        const result = await chain.runGetMethod(address, method, args);
        assert.equal(result.exitCode, 0, `${method} exit code`);
        return result.stackReader;
    };

    const getExitCode = async (address: Address, method: string, args: TupleItem[]) => {
        try {
            return (await chain.runGetMethod(address, method, args)).exitCode;
        } catch (e) {
            if (e instanceof GetMethodError) return e.exitCode;
            throw e;
        }
    };

    const rawItemData = async (item: Address) => {
        const state = (await chain.getContract(item)).accountState;
        assert.equal(state?.type, 'active');
        return state.type === 'active' ? state.state.data! : Cell.EMPTY;
    };
    const itemData = async (item: Address) => mainnetItemLayout(await rawItemData(item));

    const nftData = async (item: Address) => {
        const r = await get(item, 'get_nft_data');
        return { init: r.readBoolean(), index: r.readBigNumber(), collection: r.readAddress(), owner: r.readAddressOpt(), content: r.readCellOpt() };
    };

    const lastFillUp = async (item: Address) => (await get(item, 'get_last_fill_up_time')).readNumber();

    const resolve = async (address: Address, subdomain: string | Buffer, category = 0n) => {
        const r = await get(address, 'dnsresolve', [textSlice(subdomain), { type: 'int', value: category }]);
        return { bits: r.readNumber(), value: r.readCellOpt() };
    };

    const records = (content: Cell) => {
        const s = content.beginParse();
        assert.equal(s.loadUint(8), 0x00, 'on-chain content');
        return s.loadDict(Dictionary.Keys.BigUint(256), Dictionary.Values.Cell());
    };

    before(async () => {
        chain = await Blockchain.create();
        chain.now = UTIME;
        registrar = await chain.treasury('registrar');
        alice = await chain.treasury('alice');
        bob = await chain.treasury('bob');
        carol = await chain.treasury('carol');
        config = { owner: registrar.address, collectionContent: onchainContent({ name: '.ton DNS (devnet)', description: 'Domains of the devnet' }) };
        collection = dnsCollectionAddress(config);
        aliceItem = dnsItemAddress(collection, 'alice');
        registration = await send(registrar, collection, DNS_TON.registerAmount + DNS_TON.registerOverhead,
            registerDomainBody({ queryId: 1n, domain: 'alice', owner: alice.address }), dnsCollectionStateInit(config) as { code: Cell; data: Cell });
    });

    test('the registrar registers "alice": the collection deploys its item at dnsItemAddress', async () => {
        const register = txOf(registration, collection, DNS_OP.registerDomain);
        assert.ok(register.success, `exit ${register.exitCode}`);
        assert.deepEqual(register.out.map(o => [o.to, o.value]), [[aliceItem.toRawString(), DNS_TON.registerAmount]]);
        const init = txsOf(registration, aliceItem);
        assert.equal(init.length, 1);
        assert.ok(init[0].success, `exit ${init[0].exitCode}`);
        assert.deepEqual(init[0].out, []);
        const state = (await chain.getContract(aliceItem)).accountState;
        assert.equal(state?.type, 'active');
        assert.ok(state.type === 'active' && state.state.code!.equals(contractCode('dns-item')));
        assert.ok((await chain.getContract(aliceItem)).balance >= DNS_TON.registerAmount / 2n);
    });

    test('the item\'s storage has mainnet\'s layout (records in the content, empty auction slot)', async () => {
        const data = await itemData(aliceItem);
        assert.equal(data.index, dnsItemIndex('alice'));
        assert.ok(data.collection.equals(collection));
        assert.ok(data.owner.equals(alice.address));
        assert.ok(data.content.equals(dnsItemContent('alice')));
        assert.equal(cellText(data.domain), 'alice');
        assert.equal(data.auction, null);
        assert.equal(data.lastFillUpTime, UTIME);
    });

    test('get_nft_data, get_domain, get_last_fill_up_time, get_editor', async () => {
        const data = await nftData(aliceItem);
        assert.equal(data.init, true);
        assert.equal(data.index, dnsItemIndex('alice'));
        assert.ok(data.collection.equals(collection));
        assert.ok(data.owner?.equals(alice.address));
        assert.ok(data.content?.equals(dnsItemContent('alice')));
        const name = records(data.content!).get(sha256n('name'));
        assert.equal(name?.beginParse().skip(8).loadStringTail(), 'alice.ton');

        const domain = (await get(aliceItem, 'get_domain')).readCell();
        assert.equal(domain.bits.length, 5 * 8);
        assert.equal(cellText(domain), 'alice');
        assert.equal(await lastFillUp(aliceItem), UTIME);
        assert.ok((await get(aliceItem, 'get_editor')).readAddress().equals(alice.address));
    });

    test('get_collection_data, get_nft_address_by_index, get_nft_content', async () => {
        const r = await get(collection, 'get_collection_data');
        assert.equal(r.readBigNumber(), -1n);
        assert.ok(r.readCell().equals(config.collectionContent));
        assert.ok(r.readAddress().equals(registrar.address));

        const byIndex = (await get(collection, 'get_nft_address_by_index', [{ type: 'int', value: dnsItemIndex('alice') }])).readAddress();
        assert.ok(byIndex.equals(aliceItem));

        const content = dnsItemContent('alice');
        const full = (await get(collection, 'get_nft_content', [{ type: 'int', value: dnsItemIndex('alice') }, { type: 'cell', cell: content }])).readCell();
        assert.ok(full.equals(content));
    });

    test('dnsresolve at the collection points at the domain\'s item (dns_next_resolver)', async () => {
        for (const [subdomain, bits] of [['alice\0', 40], ['\0alice\0', 48], ['alice', 40], ['alice\0sub\0', 40]] as const) {
            const r = await resolve(collection, subdomain, DNS_CATEGORY.wallet);
            assert.equal(r.bits, bits, JSON.stringify(subdomain));
            assert.ok(r.value, JSON.stringify(subdomain));
            assert.equal(r.value.beginParse().preloadUint(16), 0xba93);
            assert.ok(loadDnsNextResolver(r.value)?.equals(aliceItem), JSON.stringify(subdomain));
        }
        const other = await resolve(collection, 'bob\0');
        assert.ok(loadDnsNextResolver(other.value!)?.equals(dnsItemAddress(collection, 'bob')));
        assert.deepEqual(await resolve(collection, '\0'), { bits: 8, value: null });
        assert.deepEqual(await resolve(collection, ''), { bits: 0, value: null });
        assert.equal(await getExitCode(collection, 'dnsresolve', [{ type: 'slice', cell: beginCell().storeUint(1, 3).endCell() }, { type: 'int', value: 0n }]), DNS_EXIT.badSubdomain);
    });

    test('dnsresolve at the item: "\\0" or empty is the domain itself; category 0 gives every record', async () => {
        const all = await resolve(aliceItem, '\0');
        assert.equal(all.bits, 8);
        assert.ok(all.value);
        const dict = Dictionary.loadDirect(Dictionary.Keys.BigUint(256), Dictionary.Values.Cell(), all.value);
        assert.deepEqual(dict.keys().sort(), [sha256n('description'), sha256n('name')].sort());
        assert.deepEqual(await resolve(aliceItem, '\0', DNS_CATEGORY.wallet), { bits: 8, value: null });
        assert.deepEqual(await resolve(aliceItem, '', DNS_CATEGORY.wallet), { bits: 0, value: null });
        assert.equal(await getExitCode(aliceItem, 'dnsresolve', [textSlice('x'), { type: 'int', value: 0n }]), DNS_EXIT.badSubdomain);
    });

    test('the owner renews (change_dns_record, key 0, no value): last_fill_up_time = now, nothing else changes', async () => {
        const before = await itemData(aliceItem);
        chain.now = UTIME + 3600;
        const txs = await send(alice, aliceItem, DNS_TON.changeRecord, renewDomainBody(2n));
        const renew = txOf(txs, aliceItem, OP.changeDnsRecord);
        assert.ok(renew.success, `exit ${renew.exitCode}`);
        assert.deepEqual(renew.out, [], 'no answer, as on mainnet');
        assert.equal(await lastFillUp(aliceItem), UTIME + 3600);
        const after = await itemData(aliceItem);
        assert.ok(after.content.equals(before.content));
        assert.ok(after.owner.equals(alice.address));
    });

    test('a stranger\'s renewal is refused and changes nothing', async () => {
        const before = await rawItemData(aliceItem);
        chain.now = UTIME + 7200;
        const txs = await send(bob, aliceItem, DNS_TON.changeRecord, renewDomainBody(3n));
        const renew = txOf(txs, aliceItem, OP.changeDnsRecord);
        assert.equal(renew.exitCode, DNS_EXIT.notDomainOwner);
        assert.deepEqual(renew.out.map(o => [o.to, o.op]), [[bob.address.toRawString(), OP.bounced]]);
        assert.equal(await lastFillUp(aliceItem), UTIME + 3600);
        assert.ok((await rawItemData(aliceItem)).equals(before));
    });

    test('change_dns_record sets a record dnsresolve returns, then deletes it', async () => {
        const walletRecord = dnsWalletRecord(alice.address);
        chain.now = UTIME + 10_000;
        const set = txOf(await send(alice, aliceItem, DNS_TON.changeRecord, changeDnsRecordBody(DNS_CATEGORY.wallet, walletRecord, 4n)), aliceItem, OP.changeDnsRecord);
        assert.ok(set.success, `exit ${set.exitCode}`);
        assert.equal(await lastFillUp(aliceItem), UTIME + 10_000);
        const r = await resolve(aliceItem, '\0', DNS_CATEGORY.wallet);
        assert.equal(r.bits, 8);
        assert.ok(r.value?.equals(walletRecord));
        const all = await resolve(aliceItem, '\0');
        assert.ok(Dictionary.loadDirect(Dictionary.Keys.BigUint(256), Dictionary.Values.Cell(), all.value!).get(DNS_CATEGORY.wallet)?.equals(walletRecord));
        // The records are in the item's individual content, as on mainnet.
        assert.ok(records((await nftData(aliceItem)).content!).get(DNS_CATEGORY.wallet)?.equals(walletRecord));

        // A deeper subdomain resolves to the item's dns_next_resolver record.
        const resolver = bob.address;
        await send(alice, aliceItem, DNS_TON.changeRecord, changeDnsRecordBody(DNS_CATEGORY.nextResolver, beginCell().storeUint(0xba93, 16).storeAddress(resolver).endCell()));
        const deeper = await resolve(aliceItem, '\0sub\0', DNS_CATEGORY.wallet);
        assert.equal(deeper.bits, 8);
        assert.ok(loadDnsNextResolver(deeper.value!)?.equals(resolver));

        chain.now = UTIME + 20_000;
        for (const key of [DNS_CATEGORY.wallet, DNS_CATEGORY.nextResolver]) {
            const del = txOf(await send(alice, aliceItem, DNS_TON.changeRecord, changeDnsRecordBody(key, null, 5n)), aliceItem, OP.changeDnsRecord);
            assert.ok(del.success, `exit ${del.exitCode}`);
        }
        assert.deepEqual(await resolve(aliceItem, '\0', DNS_CATEGORY.wallet), { bits: 8, value: null });
        assert.deepEqual(await resolve(aliceItem, '\0sub\0'), { bits: 8, value: null });
        assert.ok((await itemData(aliceItem)).content.equals(dnsItemContent('alice')));
        assert.equal(await lastFillUp(aliceItem), UTIME + 20_000);

        const stranger = txOf(await send(bob, aliceItem, DNS_TON.changeRecord, changeDnsRecordBody(DNS_CATEGORY.wallet, dnsWalletRecord(bob.address))), aliceItem, OP.changeDnsRecord);
        assert.equal(stranger.exitCode, DNS_EXIT.notDomainOwner);
        assert.deepEqual(await resolve(aliceItem, '\0', DNS_CATEGORY.wallet), { bits: 8, value: null });
    });

    test('get_static_data is answered with report_static_data (index:uint256)', async () => {
        const txs = await send(bob, aliceItem, GRAM / 20n, nftGetStaticDataBody(9n));
        const report = txOf(txs, bob.address, OP.reportStaticData).body!.beginParse();
        assert.equal(report.skip(32).loadUintBig(64), 9n);
        assert.equal(report.loadUintBig(256), dnsItemIndex('alice'));
        assert.ok(report.loadAddress().equals(collection));
    });

    test('alice transfers the domain to bob: ownership_assigned, excesses; bob can renew, alice no more', async () => {
        chain.now = UTIME + 30_000;
        const forward = 10_000_000n;
        const txs = await send(alice, aliceItem, DNS_TON.transfer + forward, nftTransferBody({
            queryId: 10n, newOwner: bob.address, responseDestination: alice.address, forwardAmount: forward, forwardPayload: commentPayload('alice.ton is yours'),
        }));
        const transfer = txOf(txs, aliceItem, OP.nftTransfer);
        assert.ok(transfer.success, `exit ${transfer.exitCode}`);
        assert.deepEqual(transfer.out.map(o => [o.to, o.op]), [[bob.address.toRawString(), OP.ownershipAssigned], [alice.address.toRawString(), OP.excesses]]);
        const assigned = txOf(txs, bob.address, OP.ownershipAssigned);
        assert.equal(assigned.value, forward);
        const s = assigned.body!.beginParse().skip(32);
        assert.equal(s.loadUintBig(64), 10n);
        assert.ok(s.loadAddress().equals(alice.address));
        assert.equal(s.loadBit(), true);
        assert.equal(s.loadRef().beginParse().skip(32).loadStringTail(), 'alice.ton is yours');
        assert.equal(txOf(txs, alice.address, OP.excesses).body!.beginParse().skip(32).loadUintBig(64), 10n);

        assert.ok((await nftData(aliceItem)).owner?.equals(bob.address));
        assert.equal(await lastFillUp(aliceItem), UTIME + 30_000, 'a transfer is a fill-up');
        const gasBound = Number(readFileSync(join(ROOT, 'contracts', 'common', 'dns.tolk'), 'utf8').match(/const GAS_DNS_TRANSFER = (\d+)/)![1]);
        assert.ok(transfer.gasUsed <= BigInt(gasBound), `dns transfer gas ${transfer.gasUsed}`);
        assert.ok((await chain.getContract(aliceItem)).balance >= 50_000_000n, 'the item keeps its storage reserve');

        chain.now = UTIME + 40_000;
        assert.ok(txOf(await send(bob, aliceItem, DNS_TON.changeRecord, renewDomainBody()), aliceItem, OP.changeDnsRecord).success);
        assert.equal(await lastFillUp(aliceItem), UTIME + 40_000);
        assert.equal(txOf(await send(alice, aliceItem, DNS_TON.changeRecord, renewDomainBody()), aliceItem, OP.changeDnsRecord).exitCode, DNS_EXIT.notDomainOwner);
        assert.equal(txOf(await send(alice, aliceItem, DNS_TON.transfer, nftTransferBody({ newOwner: alice.address })), aliceItem, OP.nftTransfer).exitCode, DNS_EXIT.notDomainOwner);
    });

    test('invalid domains are refused by the collection, and nothing is deployed', async () => {
        const bad: Array<[string, Cell]> = [
            ['Alice', beginCell().storeBuffer(Buffer.from('Alice')).endCell()],
            ['-a', beginCell().storeBuffer(Buffer.from('-a')).endCell()],
            ['a-', beginCell().storeBuffer(Buffer.from('a-')).endCell()],
            ['a.b', beginCell().storeBuffer(Buffer.from('a.b')).endCell()],
            ['empty', Cell.EMPTY],
            ['127 bytes', beginCell().storeBuffer(Buffer.alloc(127, 'a')).endCell()],
            ['not whole bytes', beginCell().storeBuffer(Buffer.from('ab')).storeUint(1, 1).endCell()],
            ['snake', beginCell().storeBuffer(Buffer.from('ab')).storeRef(beginCell().storeBuffer(Buffer.from('cd'))).endCell()],
        ];
        for (const [label, domain] of bad) {
            const txs = await send(registrar, collection, DNS_TON.registerAmount + DNS_TON.registerOverhead,
                registerDomainBody({ domain, owner: carol.address, content: onchainContent({ name: label }) }));
            const register = txOf(txs, collection, DNS_OP.registerDomain);
            assert.equal(register.exitCode, DNS_EXIT.invalidDomain, label);
            assert.deepEqual(register.out.map(o => o.op), [OP.bounced], label);
        }
        const state = (await chain.getContract(dnsItemAddress(collection, 'a-b'))).accountState;
        assert.notEqual(state?.type, 'active');
        // The longest valid one is accepted.
        const long = 'x'.repeat(126);
        const ok = txOf(await send(registrar, collection, DNS_TON.registerAmount + DNS_TON.registerOverhead, registerDomainBody({ domain: long, owner: carol.address })), collection, DNS_OP.registerDomain);
        assert.ok(ok.success, `exit ${ok.exitCode}`);
        assert.equal(cellText((await get(dnsItemAddress(collection, long), 'get_domain')).readCell()), long);
    });

    test('registrations by anyone but the registrar, or with off-chain content, are refused', async () => {
        const stranger = await send(bob, collection, DNS_TON.registerAmount + DNS_TON.registerOverhead, registerDomainBody({ domain: 'bob', owner: bob.address }));
        assert.equal(txOf(stranger, collection, DNS_OP.registerDomain).exitCode, DNS_EXIT.notRegistrar);
        const offchain = await send(registrar, collection, DNS_TON.registerAmount + DNS_TON.registerOverhead,
            registerDomainBody({ domain: 'bob', owner: bob.address, content: offchainContent('https://example.org/bob.json') }));
        assert.equal(txOf(offchain, collection, DNS_OP.registerDomain).exitCode, DNS_EXIT.contentNotOnchain);
        assert.notEqual((await chain.getContract(dnsItemAddress(collection, 'bob'))).accountState?.type, 'active');
    });

    test('registering a taken domain is refused by its item: the value bounces to the collection, the domain is unchanged', async () => {
        const before = await rawItemData(aliceItem);
        const txs = await send(registrar, collection, DNS_TON.registerAmount + DNS_TON.registerOverhead, registerDomainBody({ domain: 'alice', owner: carol.address }));
        assert.ok(txOf(txs, collection, DNS_OP.registerDomain).success);
        const refused = txsOf(txs, aliceItem);
        assert.equal(refused.length, 1);
        assert.equal(refused[0].exitCode, DNS_EXIT.domainTaken);
        assert.deepEqual(refused[0].out.map(o => [o.to, o.op]), [[collection.toRawString(), OP.bounced]]);
        assert.ok(txOf(txs, collection, OP.bounced).success);
        assert.ok((await rawItemData(aliceItem)).equals(before));
        assert.ok((await nftData(aliceItem)).owner?.equals(bob.address));
    });

    test('an item that is not initialized accepts its first message from the collection only', async () => {
        const index = dnsItemIndex('mallory');
        const item = dnsItemAddress(collection, 'mallory');
        const txs = await send(bob, item, GRAM / 20n,
            beginCell().storeAddress(bob.address).storeRef(dnsItemContent('mallory')).storeRef(beginCell().storeBuffer(Buffer.from('mallory')).endCell()).endCell(),
            { code: contractCode('dns-item'), data: beginCell().storeUint(index, 256).storeAddress(collection).endCell() });
        assert.equal(txsOf(txs, item)[0]?.exitCode, DNS_EXIT.notFromCollection);
    });

    test('the item takes top-ups from anyone and refuses unknown ops', async () => {
        const topUp = await send(carol, aliceItem, GRAM / 10n);
        assert.ok(txsOf(topUp, aliceItem)[0]?.success);
        const comment = await send(carol, aliceItem, GRAM / 10n, beginCell().storeUint(0, 32).storeStringTail('for the storage').endCell());
        assert.ok(txsOf(comment, aliceItem)[0]?.success);
        const unknown = await send(bob, aliceItem, GRAM / 10n, beginCell().storeUint(0x12345678, 32).storeUint(0, 64).endCell());
        assert.equal(txsOf(unknown, aliceItem)[0]?.exitCode, DNS_EXIT.unknownOp);
        const collectionTopUp = await send(carol, collection, GRAM / 10n);
        assert.ok(txsOf(collectionTopUp, collection)[0]?.success);
    });
});
