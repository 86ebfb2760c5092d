import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Address, beginCell, Cell, external, storeMessage } from '@ton/core';
import { InputFormatError, parseAccountId, parseBocInput, parseHash, parseMessageCell, readFailureReason } from '../../src/ton/input.ts';
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

    it('rejects a workchain outside int8, as addr_std has it, naming the field and the range', () => {
        for (const workchain of ['128', '-129', '255', '1000', '2147483647', '2147483648', '-2147483648', '9999999999']) {
            rejects(() => parseAccountId(`${workchain}:${HASH_HEX}`, 'params[].address'), `${workchain}:${HASH_HEX}`, /^params\[\]\.address '.*': workchain -?\d+ is out of range; .*-128\.\.127/);
        }
        for (const workchain of [127, -128, -1, 0, 5]) assert.equal(parseAccountId(`${workchain}:${HASH_HEX}`).workChain, workchain);
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

/** What JavaScript's own failures and @ton/core's low-level reader messages look like: never in an input error. */
const INTERNALS = /Cannot read|properties of|undefined|is not a function|is not iterable|Maximum call stack|RangeError|TypeError|SyntaxError|out of bounds|Index \d|\[object|NaN|safe integer/;

/** A BOC written by hand so it can be wrong: 1-byte refs and offsets, cells as [d1, d2, data…, refs…]. */
function handBoc(cells: number[][], header: { roots?: number[]; cellCount?: number; totalSize?: number } = {}): string {
    const data = Buffer.from(cells.flat());
    const roots = header.roots ?? [0];
    return Buffer.concat([Buffer.from([0xb5, 0xee, 0x9c, 0x72, 0x01, 0x01, header.cellCount ?? cells.length, roots.length, 0, header.totalSize ?? data.length, ...roots]), data]).toString('base64');
}

function inputError(fn: () => unknown): string {
    try {
        fn();
    } catch (error) {
        assert.ok(error instanceof InputFormatError, `an InputFormatError, got ${String(error)}`);
        return error.message;
    }
    assert.fail('expected an InputFormatError');
}

describe('input errors say what is wrong with the input', () => {
    const message = beginCell().store(storeMessage(external({
        to: new Address(0, Buffer.alloc(32, 1)),
        body: beginCell().storeUint(1, 32).storeRef(beginCell().storeUint(9, 8)).endCell(),
    }))).endCell();

    it('bags of cells: bad references, cycles, counts, sizes, checksums, text', () => {
        const withCrc = message.toBoc({ idx: true, crc32: true });
        const cases: Array<[string, string]> = [
            [handBoc([[0x01, 0x02, 0xab, 0x05]]), 'cell 0 refers to cell 5, but the bag holds only 1 cell (cell 0)'],
            [handBoc([[0x01, 0x02, 0xab, 0x00]]), 'cell 0 refers to itself'],
            [handBoc([[0x01, 0x00, 0x01], [0x01, 0x00, 0x00]]), 'cell 1 refers to cell 0, which comes before it'],
            [handBoc([[0x07, 0x00, 1, 1, 1, 1, 1, 1, 1], [0x00, 0x00]]), 'cell 0 declares 7 references; a cell has at most 4'],
            [handBoc([[0x00, 0x00]], { cellCount: 200 }), 'its header counts 200 cells, but its cell data ends after 1 cell'],
            [handBoc([[0x00, 0x00]], { roots: [9] }), 'root 0 is cell 9, but the bag holds only 1 cell'],
            [handBoc([[0x00, 0x00]], { totalSize: 250 }), 'its header announces 250 bytes of cell data, but only 2 follow the header'],
            [handBoc([[0x00, 0x01, 0x00]]), "cell 0's last data byte has no completion bit"],
            [handBoc([[0x08, 0x02, 0x09]]), 'cell 0 is exotic of unknown type 9'],
            [Buffer.from('b5ee9c7204' + '01' + 'ffffffff' + '00000001' + '00000000' + '02' + '00000000' + '0000', 'hex').toString('base64'), 'its header counts 4294967295 cells'],
            [Buffer.concat([withCrc.subarray(0, withCrc.length - 1), Buffer.from([withCrc[withCrc.length - 1] ^ 1])]).toString('base64'), 'its CRC32C does not match its content'],
            [withCrc.subarray(0, withCrc.length - 6).toString('hex'), 'the bag is cut short'],
            ['@@@@', 'it is neither base64 nor hex: it has "@" at position 0'],
            ['te6cc', 'it is 3 bytes long, shorter than the 4-byte magic b5ee9c72'],
            [Buffer.from('hello world').toString('base64'), 'it starts with 68656c6c, not with the bag-of-cells magic b5ee9c72'],
        ];
        for (const [input, expected] of cases) {
            const error = inputError(() => parseBocInput(input));
            assert.ok(error.startsWith('boc is not a valid bag of cells (base64 or hex): '), error);
            assert.ok(error.includes(expected), `'${error}' should say '${expected}'`);
        }
    });

    it('messages: the field that breaks and how', () => {
        const cell = (build: (b: ReturnType<typeof beginCell>) => unknown) => {
            const b = beginCell();
            build(b);
            return b.endCell();
        };
        const cases: Array<[Cell, string]> = [
            [Cell.EMPTY, 'its header tag runs past the end of the cell (0 bits were left)'],
            [cell(b => b.storeUint(0, 4).storeUint(2, 2).storeUint(0, 9)), 'its source address (int_msg_info src) runs past the end of the cell'],
            [cell(b => b.storeUint(0b10, 2).storeUint(0, 2).storeUint(0b11, 2).storeUint(0, 40)), 'its destination address (ext_in_msg_info dest) is not an address of the kind the field takes'],
            [cell(b => b.storeUint(0b10, 2).storeUint(0, 2).storeUint(0b100, 3).storeUint(0, 8).storeBuffer(Buffer.alloc(32)).storeUint(0, 4).storeUint(0b11, 2)), 'its StateInit reference needs a reference'],
            [cell(b => b.storeUint(0b10, 2).storeUint(0, 2).storeUint(0b100, 3).storeUint(0, 8).storeBuffer(Buffer.alloc(32)).storeUint(0, 4).storeUint(0b10, 2).storeUint(1, 1)), 'its StateInit runs past the end of the cell'],
        ];
        for (const [root, expected] of cases) {
            const error = inputError(() => parseMessageCell(root));
            assert.ok(error.startsWith(`boc is not a message (TL-B Message): ${expected}`), `'${error}' should say '${expected}'`);
        }
        const library = Cell.fromBoc(Buffer.from(handBoc([[0x08, 0x42, 0x02, ...new Array(32).fill(0x11)]]), 'base64'))[0];
        assert.equal(inputError(() => parseMessageCell(library)), 'boc is not a message: its root is a library cell, a message is an ordinary cell');
    });

    it('thousands of damaged messages: every refusal is an InputFormatError free of JavaScript internals', () => {
        const bases = [message.toBoc(), message.toBoc({ idx: true, crc32: true })];
        let seed = 99;
        const random = (n: number) => {
            seed = (seed * 1103515245 + 12345) % 2 ** 31;
            return seed % n;
        };
        let refused = 0;
        for (let i = 0; i < 5000; i++) {
            const damaged = Buffer.from(bases[i % 2]);
            for (let j = 1 + random(3); j > 0; j--) damaged[random(damaged.length)] = random(256);
            const input = (random(8) === 0 ? damaged.subarray(0, random(damaged.length)) : damaged).toString(i % 3 === 0 ? 'hex' : 'base64');
            let cell: Cell;
            try {
                cell = parseBocInput(input);
            } catch (error) {
                refused++;
                assert.ok(error instanceof InputFormatError, `${input}: ${String(error)}`);
                assert.doesNotMatch(error.message, INTERNALS, input);
                continue;
            }
            try {
                parseMessageCell(cell);
            } catch (error) {
                refused++;
                assert.ok(error instanceof InputFormatError, `${input}: ${String(error)}`);
                assert.doesNotMatch(error.message, INTERNALS, input);
            }
        }
        assert.ok(refused > 3000, `most damaged messages are refused (${refused})`);
    });

    it('readFailureReason: a reader\'s own message as it is, low-level and JavaScript failures as what they mean', () => {
        assert.equal(readFailureReason(new Error('wallet body too short')), 'wallet body too short');
        assert.equal(readFailureReason(new Error('Index 42 > 42 is out of bounds')), 'a field runs past the end of its cell');
        assert.equal(readFailureReason(new Error('No more references')), 'a field needs a reference its cell does not have');
        assert.equal(readFailureReason(new Error('Invalid address: 3')), 'an address is not of the kind its field takes');
        assert.equal(readFailureReason(new TypeError("Cannot read properties of undefined (reading 'result')")), 'a field is malformed');
        assert.equal(readFailureReason(new RangeError('Maximum call stack size exceeded')), 'a field is malformed');
        assert.equal(readFailureReason(7), 'a field is malformed');
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
