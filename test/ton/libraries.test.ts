import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { Cell, Dictionary, beginCell, type SimpleLibrary } from '@ton/core';
import { contractCode } from '../../src/chain/devnet/contracts/artifacts.ts';
import {
    encodeLibraryField, librariesDictionary, libraryCell, libraryLookup, libraryRefsIn, publicLibrariesInField, resolveLibraryCode,
} from '../../src/ton/libraries.ts';
import { LibraryResolver } from '../../src/ton/library-resolver.ts';

const hex = (cell: Cell) => cell.hash().toString('hex');
const walletCode = contractCode('jetton-wallet');
const itemCode = contractCode('nft-item');
/** A "library" whose code itself refers to another library (as multisig v2 refers to its order code). */
const outer = beginCell().storeUint(0xabcd, 16).storeRef(beginCell().storeRef(libraryCell(itemCode))).endCell();

function field(entries: Array<[Cell, boolean]>) {
    const dict = Dictionary.empty<bigint, SimpleLibrary>(Dictionary.Keys.BigUint(256), {
        serialize: () => { throw new Error('unused'); }, parse: () => { throw new Error('unused'); },
    });
    for (const [root, isPublic] of entries) dict.set(BigInt(`0x${hex(root)}`), { public: isPublic, root });
    return dict;
}

describe('library cells', () => {
    test('libraryRefsIn finds library cells anywhere in a tree, once each', () => {
        const code = beginCell().storeRef(libraryCell(walletCode)).storeRef(beginCell().storeRef(libraryCell(walletCode)).storeRef(libraryCell(itemCode))).endCell();
        assert.deepEqual([...libraryRefsIn(code)].sort(), [hex(walletCode), hex(itemCode)].sort());
        assert.deepEqual([...libraryRefsIn(walletCode)], [], 'plain code uses no library');
        assert.deepEqual([...libraryRefsIn(libraryCell(walletCode))], [hex(walletCode)], 'the root itself may be the library cell');
    });

    test('a StateInit library field keeps its public entries through encoding; private ones are not the chain\'s', () => {
        const boc = encodeLibraryField(field([[walletCode, true], [itemCode, false]]));
        assert.ok(boc);
        const found = publicLibrariesInField(boc);
        assert.deepEqual([...found.keys()], [hex(walletCode)]);
        assert.ok(found.get(hex(walletCode))!.equals(walletCode));
        assert.equal(encodeLibraryField(undefined), undefined);
    });

    test('the libraries dictionary the TVM takes resolves library code', () => {
        const dict = librariesDictionary(new Map([[hex(walletCode), walletCode]]));
        const lookup = libraryLookup(dict);
        assert.ok(resolveLibraryCode(libraryCell(walletCode), lookup)!.equals(walletCode));
        assert.equal(resolveLibraryCode(libraryCell(itemCode), lookup), null, 'a library not in the dictionary');
        assert.equal(librariesDictionary(new Map()), null);
    });
});

describe('LibraryResolver', () => {
    const store = new Map([[hex(walletCode), walletCode.toBoc()], [hex(outer), outer.toBoc()], [hex(itemCode), itemCode.toBoc()]]);

    test('resolves the libraries code uses, and those they use in turn', async () => {
        const asked: string[][] = [];
        const resolver = new LibraryResolver(async hashes => {
            asked.push([...hashes].sort());
            return new Map(hashes.filter(h => store.has(h)).map(h => [h, store.get(h)!]));
        });
        const code = beginCell().storeRef(libraryCell(walletCode)).storeRef(libraryCell(outer)).endCell();
        const found = await resolver.librariesFor([code]);
        assert.deepEqual([...found.keys()].sort(), [hex(walletCode), hex(outer), hex(itemCode)].sort());
        assert.ok(found.get(hex(itemCode))!.equals(itemCode));
        assert.deepEqual(asked, [[hex(walletCode), hex(outer)].sort(), [hex(itemCode)]]);
        // Found libraries are kept: asking again fetches nothing.
        await resolver.librariesFor([code]);
        assert.equal(asked.length, 2);
    });

    test('leaves out what no source knows, asks for it again later, and ignores a root that does not hash to its name', async () => {
        const known = new Map<string, Buffer>();
        let calls = 0;
        const resolver = new LibraryResolver(async hashes => {
            calls++;
            return new Map(hashes.filter(h => known.has(h)).map(h => [h, known.get(h)!]));
        });
        const code = libraryCell(walletCode);
        assert.equal((await resolver.librariesFor([code])).size, 0);
        known.set(hex(walletCode), itemCode.toBoc()); // a source answering with the wrong cell
        assert.equal((await resolver.librariesFor([code])).size, 0);
        known.set(hex(walletCode), walletCode.toBoc()); // published meanwhile
        assert.equal((await resolver.librariesFor([code])).size, 1);
        assert.equal(calls, 3);
    });
});
