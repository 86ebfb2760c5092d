/**
 * A bounds-checked reader for the TL envelopes the liteserver parses itself (ADNL messages, the
 * liteServer.query wrapper and its prefixes). Every read past the end throws TlDecodeError.
 */
export class TlDecodeError extends Error {}

export class TlReader {
    private offset = 0;

    constructor(private readonly data: Buffer) {}

    get remaining(): number {
        return this.data.length - this.offset;
    }

    peekInt32(): number | undefined {
        return this.remaining >= 4 ? this.data.readInt32LE(this.offset) : undefined;
    }

    int32(): number {
        return this.data.readInt32LE(this.take(4));
    }

    int256(): Buffer {
        const start = this.take(32);
        return this.data.subarray(start, start + 32);
    }

    /** TL `bytes`/`string`: short or long length prefix, then the data padded to 4 bytes. */
    bytes(): Buffer {
        let headerLength = 1;
        let length = this.data[this.take(1)];
        if (length === 254) {
            length = this.data.readUIntLE(this.take(3), 3);
            headerLength = 4;
        } else if (length === 255) {
            throw new TlDecodeError('invalid bytes length prefix');
        }
        const start = this.take(length);
        this.take(paddingFor(headerLength + length));
        return this.data.subarray(start, start + length);
    }

    rest(): Buffer {
        const start = this.take(this.remaining);
        return this.data.subarray(start);
    }

    expectEnd(): void {
        if (this.remaining !== 0) throw new TlDecodeError(`${this.remaining} unexpected trailing bytes`);
    }

    private take(count: number): number {
        if (count > this.remaining) throw new TlDecodeError('not enough bytes');
        const start = this.offset;
        this.offset += count;
        return start;
    }
}

function paddingFor(length: number): number {
    return (4 - (length % 4)) % 4;
}

/** TL `bytes` serialization of `data`. */
export function tlBytes(data: Buffer): Buffer {
    const header = data.length <= 253 ? Buffer.from([data.length]) : longBytesHeader(data.length);
    const padding = Buffer.alloc(paddingFor(header.length + data.length));
    return Buffer.concat([header, data, padding]);
}

function longBytesHeader(length: number): Buffer {
    if (length >= 2 ** 24) throw new RangeError(`TL bytes too long: ${length}`);
    const header = Buffer.alloc(4);
    header[0] = 254;
    header.writeUIntLE(length, 1, 3);
    return header;
}

export function int32LE(value: number): Buffer {
    const out = Buffer.alloc(4);
    out.writeInt32LE(value | 0);
    return out;
}

/** A constructor id as TL writes it (little-endian int32), from its usual hex spelling. */
export function constructorId(hex: string): number {
    return Number.parseInt(hex, 16) | 0;
}
