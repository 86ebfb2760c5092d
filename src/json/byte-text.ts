/**
 * A text put together from byte ranges of stored texts, short strings and hex of byte strings, and
 * written into one buffer at the end. A block's list made a Buffer for every piece of every
 * transaction, then one for each transaction, then copied them all again into the answer; the
 * allocations (hundreds of thousands of bytes a list, held past the young generation by the
 * kept texts) were a large part of the list's time and of the GC pauses behind its tail.
 */
export class ByteText {
    private readonly sources: Array<Buffer | string> = [];
    /** For a Buffer: the range written, or HEX in `starts` for its hex; unused for a string. */
    private readonly starts: number[] = [];
    private readonly ends: number[] = [];
    private size = 0;

    /** `bytes[start, end)` as they are. */
    bytes(bytes: Buffer, start = 0, end = bytes.length): this {
        if (end > start) this.push(bytes, start, end, end - start);
        return this;
    }

    /** A string, as UTF-8. */
    string(text: string): this {
        if (text.length > 0) this.push(text, 0, 0, Buffer.byteLength(text, 'utf8'));
        return this;
    }

    /** The bytes' lowercase hex. */
    hex(bytes: Buffer): this {
        if (bytes.length > 0) this.push(bytes, HEX, 0, bytes.length * 2);
        return this;
    }

    get length(): number {
        return this.size;
    }

    /** The whole text in one new buffer. */
    toBuffer(): Buffer {
        const out = Buffer.allocUnsafe(this.size);
        let at = 0;
        for (let i = 0; i < this.sources.length; i++) {
            const source = this.sources[i];
            if (typeof source === 'string') at += out.write(source, at, 'utf8');
            else if (this.starts[i] === HEX) at = writeHex(out, at, source);
            else at = copyBytes(out, at, source, this.starts[i], this.ends[i]);
        }
        return out;
    }

    private push(source: Buffer | string, start: number, end: number, size: number): void {
        this.sources.push(source);
        this.starts.push(start);
        this.ends.push(end);
        this.size += size;
    }
}

const HEX = -1;

/** Pieces this short are copied here: a list has thousands (a hole's few bytes), and a native copy's call costs more than they do. */
const SHORT_COPY = 64;

function copyBytes(out: Buffer, at: number, source: Buffer, start: number, end: number): number {
    if (end - start > SHORT_COPY) return at + source.copy(out, at, start, end);
    for (let i = start; i < end; i++) out[at++] = source[i];
    return at;
}

function writeHex(out: Buffer, at: number, bytes: Buffer): number {
    // Node's own encoder, through a string, is twice as fast as a loop here for a transaction's BOC.
    return at + out.write(bytes.toString('hex'), at, 'latin1');
}
