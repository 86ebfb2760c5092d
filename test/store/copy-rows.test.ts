import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseBinaryCopy } from '../../src/store/postgres/copy-rows.ts';

const int16 = (n: number) => { const b = Buffer.alloc(2); b.writeInt16BE(n); return b; };
const int32 = (n: number) => { const b = Buffer.alloc(4); b.writeInt32BE(n); return b; };
const field = (bytes: Buffer | null) => (bytes ? Buffer.concat([int32(bytes.length), bytes]) : int32(-1));

/** A binary COPY stream as PostgreSQL writes it: signature, flags, a header extension, rows, the -1 trailer. */
function copyStream(rows: Array<Array<Buffer | null>>, extension = Buffer.alloc(0)): Buffer {
    return Buffer.concat([
        Buffer.from('PGCOPY\n\xff\r\n\0', 'latin1'), int32(0), int32(extension.length), extension,
        ...rows.map(row => Buffer.concat([int16(row.length), ...row.map(field)])),
        int16(-1),
    ]);
}

const ROWS = [
    [Buffer.from('[{"a":1}\u0000]'), null, Buffer.from([0xff, 0x00, 0xfe])],
    [Buffer.alloc(0)],
];

test('a binary COPY stream gives its rows, NULLs and empty values apart, however its messages split it', () => {
    const stream = copyStream(ROWS, Buffer.from('ext'));
    assert.deepEqual(parseBinaryCopy([stream]), ROWS);
    for (let cut = 0; cut <= stream.length; cut++) {
        assert.deepEqual(parseBinaryCopy([stream.subarray(0, cut), stream.subarray(cut)]), ROWS, `split at ${cut}`);
        const second = Math.min(stream.length, cut + 3);
        assert.deepEqual(parseBinaryCopy([stream.subarray(0, cut), stream.subarray(cut, second), stream.subarray(second)]), ROWS, `split at ${cut} and ${second}`);
    }
    assert.deepEqual(parseBinaryCopy([copyStream([])]), []);
});

test('a stream that is not binary COPY, or ends within a row, is an error', () => {
    assert.throws(() => parseBinaryCopy([Buffer.from('1\tabc\n2\tdef\n\\.\n')]), /not a binary COPY stream/);
    const stream = copyStream(ROWS);
    assert.throws(() => parseBinaryCopy([stream.subarray(0, stream.length - 6)]), /ends in the middle of a row/);
});
