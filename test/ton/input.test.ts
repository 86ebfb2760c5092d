import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Address, beginCell, Cell } from '@ton/core';
import { InputFormatError, parseAccountId, parseBocInput, parseHash } from '../../src/ton/input.ts';
import { parseBlockId } from '../../src/ton/block-id.ts';
import { formatRawAddress } from '../../src/ton/address.ts';

// Chosen so that its friendly forms in standard base64 contain both '+' and '/'.
const HASH_HEX = 'ef2d127de37b942baad06145e54b0c619a1f22327b2ebbcfbec78f5564afe39d';
const ADDRESS = new Address(0, Buffer.from(HASH_HEX, 'hex'));
const RAW = `0:${HASH_HEX}`;

/** Asserts an InputFormatError whose message quotes the offending input. */
function rejects(fn: () => unknown, input: string, pattern?: RegExp): void {
    assert.throws(fn, (error: unknown) => {
        assert.ok(error instanceof InputFormatError, `expected an InputFormatError, got ${String(error)}`);
        assert.ok(error.message.includes(input), `the message should name '${input}': ${error.message}`);
        if (pattern) assert.match(error.message, pattern);
        return true;
    });
}

/** Flips one character of a friendly address inside its hash part (CRC no longer matches). */
function corrupt(friendly: string): string {
    const i = 20;
    const replacement = friendly[i] === 'A' ? 'B' : 'A';
    return friendly.slice(0, i) + replacement + friendly.slice(i + 1);
}

describe('parseAccountId', () => {
    it('accepts raw addresses in any case and returns the same address', () => {
        for (const input of [RAW, `0:${HASH_HEX.toUpperCase()}`, `0:${HASH_HEX.slice(0, 32)}${HASH_HEX.slice(32).toUpperCase()}`, `  ${RAW}  `]) {
            assert.equal(formatRawAddress(parseAccountId(input)), RAW, input);
        }
    });

    it('keeps the workchain of raw addresses, negative included', () => {
        const master = parseAccountId(`-1:${'3'.repeat(64)}`);
        assert.equal(master.workChain, -1);
        assert.equal(formatRawAddress(master), `-1:${'3'.repeat(64)}`);
    });

    it('left-pads short hex with zeros to 32 bytes', () => {
        assert.equal(formatRawAddress(parseAccountId('0:1')), `0:${'0'.repeat(63)}1`);
        assert.equal(formatRawAddress(parseAccountId('0:ABC')), `0:${'0'.repeat(61)}abc`);
        assert.equal(formatRawAddress(parseAccountId('-1:ff')), `-1:${'0'.repeat(62)}ff`);
    });

    it('accepts friendly addresses: bounceable, non-bounceable, test-only, base64 and base64url', () => {
        const seen = new Set<string>();
        for (const bounceable of [true, false]) {
            for (const testOnly of [true, false]) {
                for (const urlSafe of [true, false]) {
                    const friendly = ADDRESS.toString({ bounceable, testOnly, urlSafe });
                    assert.equal(friendly.length, 48);
                    seen.add(friendly);
                    if (!urlSafe) assert.match(friendly, /\+.*\/|\/.*\+/, 'standard base64 form should differ from base64url');
                    const parsed = parseAccountId(friendly);
                    assert.equal(formatRawAddress(parsed), RAW, friendly);
                }
            }
        }
        assert.equal(seen.size, 8, 'eight distinct spellings of one address');
    });

    it('reads the workchain from a friendly masterchain address', () => {
        const master = new Address(-1, Buffer.from(HASH_HEX, 'hex'));
        assert.equal(formatRawAddress(parseAccountId(master.toString())), `-1:${HASH_HEX}`);
    });

    it('rejects a friendly address whose CRC does not match, naming it', () => {
        const good = ADDRESS.toString({ bounceable: true, urlSafe: true });
        const bad = corrupt(good);
        assert.notEqual(bad, good);
        rejects(() => parseAccountId(bad), bad, /checksum/);
        // The CRC itself altered.
        const badCrc = good.slice(0, 47) + (good[47] === 'A' ? 'B' : 'A');
        rejects(() => parseAccountId(badCrc), badCrc);
    });

    it('rejects garbage with the value and the parameter name in the message', () => {
        for (const input of ['hello', '', '0:', '0:xyz', `0:${'a'.repeat(65)}`, `${ADDRESS.toString()}A`, 'foo.ton', `1:2:${HASH_HEX}`]) {
            rejects(() => parseAccountId(input), input);
        }
        rejects(() => parseAccountId('nope', 'address'), 'nope', /^address 'nope'/);
    });

    it('rejects a workchain outside int32', () => {
        rejects(() => parseAccountId(`2147483648:${HASH_HEX}`), '2147483648', /workchain/);
        assert.equal(parseAccountId(`2147483647:${HASH_HEX}`).workChain, 2147483647);
    });
});

describe('parseHash', () => {
    // Its base64 form contains both '+' and '/', so base64 and base64url spellings differ.
    const HASH_HEX = '83dfd552e63729b472fcbcc8c45ebcc6691702558b68ec7527e1ba403a0f31a8';
    const bytes = Buffer.from(HASH_HEX, 'hex');
    const base64 = bytes.toString('base64');
    const base64url = bytes.toString('base64url');

    it('fixture forms differ (the test would notice a parser that ignores one)', () => {
        assert.equal(base64.length, 44);
        assert.ok(base64.endsWith('='));
        assert.equal(base64url.length, 43);
        assert.match(base64, /\+/);
        assert.match(base64, /\//);
    });

    it('accepts hex with and without 0x, in any case, returning lowercase hex', () => {
        for (const input of [HASH_HEX, HASH_HEX.toUpperCase(), `0x${HASH_HEX}`, `0X${HASH_HEX.toUpperCase()}`, ` ${HASH_HEX} `]) {
            assert.equal(parseHash(input), HASH_HEX, input);
        }
    });

    it('accepts base64 and base64url, padded or not', () => {
        for (const input of [base64, base64.replace(/=$/, ''), base64url, `${base64url}=`]) {
            assert.equal(parseHash(input), HASH_HEX, input);
        }
    });

    it('rejects wrong lengths and garbage, naming the value', () => {
        for (const input of [
            HASH_HEX.slice(0, 62),
            `${HASH_HEX}00`,
            `0x${HASH_HEX.slice(2)}`,
            `${HASH_HEX.slice(0, 63)}g`,
            Buffer.alloc(31).toString('base64'),
            Buffer.alloc(33).toString('base64'),
            Buffer.alloc(33).toString('base64url'),
            'zzz',
            '',
            `${base64}==`,
        ]) {
            rejects(() => parseHash(input, 'trace id'), `'${input}'`, /^trace id /);
        }
    });
});

describe('parseBlockId', () => {
    it('parses (workchain,shard,seqno), lowercasing the shard', () => {
        assert.deepEqual(parseBlockId('(0,8000000000000000,42)'), { workchain: 0, shard: '8000000000000000', seqno: 42 });
        assert.deepEqual(parseBlockId('(-1,8000000000000000,17734191)'), { workchain: -1, shard: '8000000000000000', seqno: 17734191 });
        assert.deepEqual(parseBlockId('(0,E000000000000000,1)'), { workchain: 0, shard: 'e000000000000000', seqno: 1 });
        assert.deepEqual(parseBlockId(' (0,8000000000000000,4294967295) '), { workchain: 0, shard: '8000000000000000', seqno: 4294967295 });
    });

    it('rejects malformed ids and out-of-range seqnos, naming the value', () => {
        for (const input of [
            '0,8000000000000000,42',
            '(0,800000000000000,42)',
            '(0,80000000000000000,42)',
            '(0,8000000000000000)',
            '(0,800000000000000g,1)',
            '(0, 8000000000000000, 1)',
            '(0,8000000000000000,-1)',
            '(a,8000000000000000,1)',
            '(0,8000000000000000,4294967296)',
            '',
        ]) {
            rejects(() => parseBlockId(input), `'${input}'`);
        }
    });
});

describe('parseBocInput', () => {
    const cell = beginCell().storeUint(0xdeadbeef, 32).storeRef(beginCell().storeUint(7, 8)).endCell();
    const boc = cell.toBoc();

    it('accepts hex (any case) and base64, returning the root cell', () => {
        for (const input of [boc.toString('hex'), boc.toString('hex').toUpperCase(), boc.toString('base64'), ` ${boc.toString('base64')}\n`]) {
            assert.ok(parseBocInput(input).equals(cell), input);
        }
    });

    it('rejects a bag of cells with two roots', () => {
        const second = beginCell().storeUint(1, 1).endCell();
        const twoRoots = serializeTwoRoots(cell, second);
        assert.equal(Cell.fromBoc(twoRoots).length, 2, 'fixture has two roots');
        assert.throws(() => parseBocInput(twoRoots.toString('base64'), 'boc'), (error: unknown) => {
            assert.ok(error instanceof InputFormatError);
            assert.match(error.message, /^boc must have exactly one root cell, it has 2$/);
            return true;
        });
    });

    it('rejects empty input and bytes that are not a bag of cells', () => {
        assert.throws(() => parseBocInput('   '), /boc is empty/);
        for (const input of ['zzzz', 'deadbeef', Buffer.from('hello world').toString('base64'), boc.subarray(0, boc.length - 4).toString('hex')]) {
            assert.throws(() => parseBocInput(input, 'message'), (error: unknown) => {
                assert.ok(error instanceof InputFormatError, `${input}: ${String(error)}`);
                assert.match(error.message, /^message is not a valid bag of cells/);
                return true;
            });
        }
    });
});

/**
 * A BOC with two root cells (serialized by hand: @ton/core writes only one root). Layout:
 * magic, flags/size byte, offset size, cell count, root count, absent count, total size, root
 * indexes, then the cells (each without refs here).
 */
function serializeTwoRoots(a: Cell, b: Cell): Buffer {
    const flat = (c: Cell): Cell[] => [c, ...c.refs.flatMap(flat)];
    const cells = [...flat(a), ...flat(b)];
    const index = new Map(cells.map((c, i) => [c, i]));
    const serialized = cells.map(c => {
        const bits = c.bits.length;
        const d1 = c.refs.length;
        const d2 = Math.ceil(bits / 8) + Math.floor(bits / 8);
        const data = Buffer.alloc(Math.ceil(bits / 8));
        for (let i = 0; i < bits; i++) if (c.bits.at(i)) data[i >> 3] |= 0x80 >> (i & 7);
        if (bits % 8 !== 0) data[data.length - 1] |= 0x80 >> (bits % 8);
        return Buffer.concat([Buffer.from([d1, d2]), data, Buffer.from(c.refs.map(r => index.get(r)!))]);
    });
    const body = Buffer.concat(serialized);
    return Buffer.concat([
        Buffer.from('b5ee9c72', 'hex'),
        Buffer.from([0x01, 0x01, cells.length, 2, 0, body.length, 0, index.get(b)!]),
        body,
    ]);
}
