import test from 'node:test';
import assert from 'node:assert/strict';
import { Address, Cell, Dictionary, beginCell, external, internal, toNano } from '@ton/core';
import { MultisigOrderBuilder, MultisigWallet } from '@ton/ton';
import { Blockchain } from '@ton/sandbox';
import { keyPairFromSeed, signerFor } from '../../../src/chain/devnet/keys.ts';
import { knownCode } from '../../../src/ton/interfaces/known-code.ts';
import { memberEntries, multisigLayoutOf, readMultisigMembers } from '../../../src/ton/interfaces/multisig-data.ts';

const owners = [1, 2, 3].map(i => keyPairFromSeed(Buffer.alloc(32, i)));
const ownerKeys = owners.map(k => k.publicKey.toString('hex'));

test('multisig v1 (@ton/ton MultisigWallet): owner keys from its initial data', () => {
    const { code, data } = new MultisigWallet(owners.map(k => k.publicKey), 0, 7, 2).init;
    assert.deepEqual(knownCode(code!)?.interfaces, ['multisig_v1']);
    assert.equal(multisigLayoutOf(knownCode(code!)!.interfaces), 'v1');
    assert.deepEqual(readMultisigMembers('v1', data!), { addresses: [], publicKeys: ownerKeys });
});

test('multisig v1 run on the TVM: owner keys still read once an order is pending (flood counter and queries changed)', async () => {
    const chain = await Blockchain.create();
    const multisig = new MultisigWallet(owners.map(k => k.publicKey), 0, 7, 2);
    const treasury = await chain.treasury('deployer');
    await treasury.send({ to: multisig.address, value: toNano('5'), init: multisig.init, body: Cell.EMPTY, bounce: false });

    const order = new MultisigOrderBuilder(7);
    order.addMessage(internal({ to: treasury.address, value: toNano('1'), bounce: false }), 3);
    const unsigned = order.build().toCell(1);
    const signature = signerFor(owners[1])(unsigned.hash());
    const result = await chain.sendMessage(external({ to: multisig.address, body: beginCell().storeBuffer(signature).storeSlice(unsigned.asSlice()).endCell() }));
    assert.equal(result.transactions.length, 1);

    const state = (await chain.getContract(multisig.address)).accountState;
    assert.equal(state?.type, 'active');
    const data = state.type === 'active' ? state.state.data! : Cell.EMPTY;
    assert.ok(!data.equals(multisig.init.data!), 'the order was stored: the data changed');
    assert.deepEqual(readMultisigMembers('v1', data), { addresses: [], publicKeys: ownerKeys });
});

/** A multisig v2 data cell built from the layout of ton-blockchain/multisig-contract-v2. */
function v2Data(signers: Address[], proposers: Address[], threshold = 2): Cell {
    const dict = (list: Address[]) => {
        const d = Dictionary.empty(Dictionary.Keys.Uint(8), Dictionary.Values.Address());
        list.forEach((address, i) => d.set(i, address));
        return d;
    };
    return beginCell()
        .storeUint(5n, 256) // next_order_seqno
        .storeUint(threshold, 8)
        .storeRef(beginCell().storeDictDirect(dict(signers)))
        .storeUint(signers.length, 8)
        .storeDict(proposers.length ? dict(proposers) : null)
        .storeBit(false) // allow_arbitrary_order_seqno
        .endCell();
}

const raw = (a: Address) => `${a.workChain}:${a.hash.toString('hex')}`;
const signerA = new Address(0, Buffer.alloc(32, 0xa1));
const signerB = new Address(-1, Buffer.alloc(32, 0xb2));
const proposerC = new Address(0, Buffer.alloc(32, 0xc3));

test('multisig v2 (constructed data): signers then proposers, raw addresses', () => {
    assert.deepEqual(readMultisigMembers('v2', v2Data([signerA, signerB], [proposerC])), {
        addresses: [raw(signerA), raw(signerB), raw(proposerC)], publicKeys: [],
    });
    assert.deepEqual(readMultisigMembers('v2', v2Data([signerA], [])), { addresses: [raw(signerA)], publicKeys: [] });
});

test('multisig v2 (constructed data): an address both signer and proposer is listed once', () => {
    const members = readMultisigMembers('v2', v2Data([signerA, proposerC], [proposerC]))!;
    assert.deepEqual(members.addresses, [raw(signerA), raw(proposerC)]);
    assert.deepEqual(memberEntries(members), [{ member: raw(signerA), kind: 'address' }, { member: raw(proposerC), kind: 'address' }]);
});

test('data without the layout’s shape → null; other interfaces have no multisig layout', () => {
    assert.equal(readMultisigMembers('v1', Cell.EMPTY), null);
    assert.equal(readMultisigMembers('v2', Cell.EMPTY), null);
    // v2 without the signers reference, and v2 cut before allow_arbitrary_order_seqno
    assert.equal(readMultisigMembers('v2', beginCell().storeUint(0, 256).storeUint(1, 8).storeUint(1, 8).endCell()), null);
    const cut = beginCell().storeUint(0, 256).storeUint(1, 8).storeRef(v2Data([signerA], []).refs[0]).storeUint(1, 8).storeBit(false).endCell();
    assert.equal(readMultisigMembers('v2', cut), null);
    assert.equal(multisigLayoutOf(['multisig_v2']), 'v2');
    assert.equal(multisigLayoutOf(['multisig_order_v2']), undefined);
    assert.equal(multisigLayoutOf(['wallet_v4r2']), undefined);
});
